"""Theorem 2 and Assumptions 1-2: geometric separability of the top-N tokens."""
