"""``softmax_jacobian_norms`` (secular equation, closed forms) equals the norms of the explicit
matrix, respects masks like truncated rows, never exceeds the proven suprema, and keeps torch."""

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import logits, temperatures
from theorems.arithmetic.precision import MP, lift
from theorems.maths.gradient_sensitivity import largest_eigenvalue, softmax_jacobian_norms
from theorems.maths.normalisers import softmax

pytestmark = pytest.mark.theory


def explicit(l, t):
    """The norms of the explicit matrix in 50 digits: in float64, α_i(1 − α_i) cancels when α_i ≈ 1."""
    with MP.precision():
        alpha = softmax(temperature=t)(lift(l), xp=MP)  # [L]
        J = (np.diag(alpha) - np.outer(alpha, alpha)) / lift(t)  # [L, L]
        return {"spectral": float(MP.spectral_norm(J)), "frobenius": float(MP.norm(J.ravel())),
                "row": float(np.max(MP.norm(J, axis=-1))), "entry": float(np.max(np.abs(J)))}


@settings(max_examples=60)
@given(logits(bound=5.0, max_length=10), temperatures(min_value=0.1, max_value=1e3))
def test_norms_match_the_explicit_matrix(l, t):
    norms = softmax_jacobian_norms(l, [t])
    for key, value in explicit(l, t).items():
        assert norms[key][0] == pytest.approx(value, rel=1e-9, abs=1e-15), key


@settings(max_examples=60)
@given(logits(bound=5.0, max_length=10), temperatures())
def test_norms_never_exceed_the_proven_suprema(l, t):
    norms = softmax_jacobian_norms(l, [t])
    limit = {"spectral": 1 / (2 * t), "frobenius": 1 / (2 * t), "row": np.sqrt(2) / (4 * t), "entry": 1 / (4 * t)}
    for key, bound in limit.items():
        assert norms[key][0] <= bound * (1 + 1e-12), key


def test_equal_pair_attains_every_supremum():
    norms = softmax_jacobian_norms(np.zeros(2), [0.01, 1.0, 100.0])
    t = np.array([0.01, 1.0, 100.0])
    assert np.allclose(norms["spectral"] * t, 0.5) and np.allclose(norms["frobenius"] * t, 0.5)
    assert np.allclose(norms["row"] * t, np.sqrt(2) / 4) and np.allclose(norms["entry"] * t, 0.25)


@settings(max_examples=30)
@given(st.integers(2, 8), st.integers(0, 2**31), st.floats(0.01, 10.0))
def test_masked_rows_equal_truncated_rows(length, seed, t):
    l = np.random.default_rng(seed).normal(size=(length, length)) * 3  # [Q, L]: query q sees keys 0..q
    mask = np.tril(np.ones((length, length), dtype=bool))
    masked = softmax_jacobian_norms(l, [t], mask=mask)
    for q in range(length):
        alone = softmax_jacobian_norms(l[q, : q + 1], [t])
        for key in masked:
            assert masked[key][q, 0] == pytest.approx(alone[key][0], rel=1e-12, abs=1e-300)


def test_largest_eigenvalue_has_relative_accuracy_for_near_one_hot_rows():
    alpha = np.array([1 - 2e-200, 1e-200, 1e-200])
    assert largest_eigenvalue(alpha) == pytest.approx(3e-200, rel=1e-12)  # eigenvalues of the 2x2 tail: e, 3e


def test_torch_in_torch_out_and_bad_arguments():
    norms = softmax_jacobian_norms(torch.zeros(4, 3, dtype=torch.float64), [1.0, 2.0])
    assert isinstance(norms["row"], torch.Tensor) and norms["row"].shape == (4, 2)
    with pytest.raises(ValueError, match="temperatures"):
        softmax_jacobian_norms(np.zeros(3), [1.0, -1.0])
    with pytest.raises(ValueError, match="mask"):
        softmax_jacobian_norms(np.zeros(3), [1.0], mask=np.zeros(3, dtype=bool))
