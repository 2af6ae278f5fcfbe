"""Lemma 2 and Corollary 3: the softmax Jacobian and gradient sensitivity."""
