"""Theorem 1 and Corollary 2: the representation distance of a top-N selection."""
