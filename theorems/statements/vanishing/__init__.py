"""Lemma 1 and Corollary 1: attention weights vanish like 1/L."""
