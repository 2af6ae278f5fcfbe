"""Torch tensors in give float64 torch tensors out, with the numbers of an independent implementation in torch.

The library's torch path runs its arithmetic in numpy; comparing it with numpy alone would compare numpy with
itself. Here every quantity is recomputed with torch operations (``reference``), from the definitions in
``theorems.maths.separability``'s docstring, and both the torch and the numpy calls must agree with it."""

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
N, R, M, DELTA = 3, 0.7, 1.5, 0.4

CALLS = {
    "top_n_indices": lambda a, x, m: top_n_indices(a, N, mask=m),
    "xi": lambda a, x, m: xi(a, N, M=M, delta=DELTA, mask=m),
    "separable_count": lambda a, x, m: separable_count(a, x, N, R, mask=m),
    "default_radius": lambda a, x, m: default_radius(a, x, N, mask=m),
    "lower": lambda a, x, m: separability_lower_bound(a, N, R, M=M, delta=DELTA, mask=m),
    "upper": lambda a, x, m: separability_upper_bound(a, N, R, M=M, delta=DELTA, exponent="16M^2", mask=m),
}


def _top_n(a, valid):
    """Top-N valid weights, descending, ties to the lower index (a stable sort)."""
    ranked = torch.sort(torch.where(valid, a, -torch.inf), dim=-1, descending=True, stable=True).indices[..., :N]
    selected = torch.zeros_like(valid).scatter(-1, ranked, True)
    return ranked, selected, a.gather(-1, ranked)


def _xi(chosen):
    others = chosen.sum(-1, keepdim=True) - chosen
    others_sq = (chosen ** 2).sum(-1, keepdim=True) - chosen ** 2
    return torch.sqrt(torch.clamp(M ** 2 * others_sq + (M ** 2 - DELTA ** 2 / 2) * (others ** 2 - others_sq), min=0))


def _distances(a, x, selected):
    scaled = a[..., None] * x                                              # α_i x_i
    s = (scaled * selected[..., None]).sum(-2)
    return torch.linalg.vector_norm(s[..., None, :] - scaled, dim=-1)      # ‖s − α_i x_i‖


def reference(name, a, x, valid):
    ranked, selected, chosen = _top_n(a, valid)
    others = valid & ~selected
    distance = _distances(a, x, selected)
    inside = (selected & (distance <= R)).sum(-1)
    return {
        "top_n_indices": ranked,
        "xi": _xi(chosen),
        "separable_count": torch.where((~others | (distance >= R)).all(-1), inside, 0),
        "default_radius": torch.where(others, distance, torch.inf).amin(-1),
        "lower": 1 - _xi(chosen).sum(-1) / (R * N),
        "upper": torch.exp(-(_xi(chosen) - R) ** 2 / (16 * M ** 2)).mean(-1),
    }[name]


@pytest.mark.parametrize("name", CALLS)
def test_torch_path_matches_a_torch_implementation(name):
    a, x, valid = torch.tensor(ALPHA), torch.tensor(X), torch.tensor(MASK).expand(ALPHA.shape)
    expected = reference(name, a, x, valid)
    got = CALLS[name](a, x, torch.tensor(MASK))
    assert isinstance(got, torch.Tensor) and got.dtype in (torch.float64, torch.int64)
    torch.testing.assert_close(got, expected.to(got.dtype), rtol=1e-12, atol=0)
    np.testing.assert_allclose(CALLS[name](ALPHA, X, MASK), expected.numpy(), rtol=1e-12)
