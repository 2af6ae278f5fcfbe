"""Torch tensors in give torch tensors out, with the numbers numpy gives."""

import numpy as np
import pytest
import torch

from theorems.maths.separability import (default_radius, separability_lower_bound, separability_upper_bound,
                                   separable_count, top_n_indices, xi)

RNG = np.random.default_rng(0)
ALPHA = RNG.dirichlet(np.ones(7), size=(2, 3))           # [heads, queries, L]
X = RNG.standard_normal((2, 3, 7, 4))                     # [heads, queries, L, d]
MASK = np.tril(np.ones((3, 7), dtype=bool), k=4)          # causal-like rows with 5, 6, 7 valid keys
ALPHA = np.where(MASK, ALPHA / np.sum(np.where(MASK, ALPHA, 0), -1, keepdims=True), ALPHA)  # sum 1 over valid keys

CALLS = {
    "top_n_indices": lambda a, x, m: top_n_indices(a, 3, mask=m),
    "xi": lambda a, x, m: xi(a, 3, M=1.5, delta=0.4, mask=m),
    "separable_count": lambda a, x, m: separable_count(a, x, 3, 0.7, mask=m),
    "default_radius": lambda a, x, m: default_radius(a, x, 3, mask=m),
    "lower": lambda a, x, m: separability_lower_bound(a, 3, 0.7, M=1.5, delta=0.4, mask=m),
    "upper": lambda a, x, m: separability_upper_bound(a, 3, 0.7, M=1.5, delta=0.4, exponent="16M^2", mask=m),
}


@pytest.mark.parametrize("name", CALLS)
def test_torch_matches_numpy(name):
    call = CALLS[name]
    expected = call(ALPHA, X, MASK)
    got = call(torch.tensor(ALPHA), torch.tensor(X), torch.tensor(MASK))
    assert isinstance(got, torch.Tensor) and not isinstance(expected, torch.Tensor)
    np.testing.assert_allclose(got.numpy(), expected)
