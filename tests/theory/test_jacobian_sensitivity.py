"""Algorithm 5's ``g(T, ε)``: vectorised like the statement's scalar form, below its exact supremum,
masked rows like truncated rows, and the output shapes the model code relies on."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from theorems.arithmetic.precision import F64
from theorems.maths.gradient_sensitivity import (
    algorithm5, causal_mask, finite_difference_sensitivity, random_directions, sup_finite_difference,
    synthetic_logits,
)
from theorems.statements.gradient.corollary3 import finite_difference_side

pytestmark = pytest.mark.theory

T_GRID = np.logspace(-3, 3, 7)
EPSILONS = np.array([1e-3, 1e-1, 10.0])


@settings(max_examples=25)
@given(st.integers(2, 9), st.integers(0, 2**31), st.floats(0.1, 5.0))
def test_vectorised_g_matches_the_statement_and_stays_below_the_supremum(length, seed, scale):
    l = synthetic_logits(heads=1, queries=3, length=length, scale=scale, seed=seed)[0]  # [Q, L]
    g = finite_difference_sensitivity(l, T_GRID, EPSILONS, seed=seed)  # [Q, n_T, n_ε]
    v = random_directions(l.shape, seed=seed)
    for q in range(3):
        for a, t in enumerate(T_GRID):
            for b, eps in enumerate(EPSILONS):
                scalar = finite_difference_side({"logits": l[q], "T": t, "eps": eps, "v": v[q]}, F64)
                # at ε/T = 1e-6 the difference of two softmaxes keeps only ~10 digits: rel 1e-6
                assert g[q, a, b] == pytest.approx(scalar, rel=1e-6, abs=1e-300)
    assert np.all(g <= sup_finite_difference(T_GRID[:, None], EPSILONS[None, :]) * (1 + 1e-9))


def test_supremum_is_attained_by_the_symmetric_pair():
    for t in (1e-2, 1.0, 1e2):
        for eps in (1e-3, 1.0, 10.0):
            u = eps / t
            l = np.array([-u / (2 * np.sqrt(2)), u / (2 * np.sqrt(2))]) * t  # logit gap −u/√2 in units of T
            v = np.array([1.0, -1.0]) / np.sqrt(2)
            g = finite_difference_side({"logits": l, "T": t, "eps": eps, "v": v}, F64)
            assert g == pytest.approx(sup_finite_difference(t, eps), rel=1e-9)


def test_masked_rows_equal_truncated_rows():
    l = synthetic_logits(heads=1, queries=5, length=5, seed=3)[0]  # [Q, L]
    g = finite_difference_sensitivity(l, T_GRID, EPSILONS, seed=7, mask=causal_mask(5, 5))
    v = random_directions(l.shape, seed=7, mask=causal_mask(5, 5))
    for q in range(5):
        keep = q + 1
        for a, t in enumerate(T_GRID):
            for b, eps in enumerate(EPSILONS):
                alone = finite_difference_side({"logits": l[q, :keep], "T": t, "eps": eps, "v": v[q, :keep]}, F64)
                assert g[q, a, b] == pytest.approx(alone, rel=1e-6, abs=1e-300)


def test_algorithm5_shapes_and_head_maximum():
    logits = synthetic_logits(heads=3, queries=4, length=6, seed=0)
    result = algorithm5(logits, temperatures=T_GRID, epsilons=EPSILONS, mask=causal_mask(4, 6))
    assert result.g.shape == (3, 7, 3) and result.spectral.shape == (3, 7)
    g, spectral = result.curves()
    # bitwise: curves() is this same maximum over heads (a maximum rounds nothing)
    assert np.array_equal(g, result.g.max(axis=0)) and np.array_equal(spectral, result.spectral.max(axis=0))
    assert np.all(spectral <= 1 / (2 * T_GRID) * (1 + 1e-12))


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="epsilons"):
        finite_difference_sensitivity(np.zeros(3), [1.0], [0.0])
    with pytest.raises(ValueError, match="logits"):
        algorithm5(np.zeros(3), temperatures=[1.0])
    with pytest.raises(ValueError, match="heads"):
        synthetic_logits(heads=0, queries=1, length=2)
