"""Attention weights must lie on the simplex: logits or unnormalised vectors get a clear error, never a fake violation."""

import numpy as np
import pytest
import torch

from theorems.maths import distance as D
from theorems.maths.separability import separability_lower_bound, xi
from theorems.maths.gradient_sensitivity import largest_eigenvalue

X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])


@pytest.mark.parametrize("function", [D.distance, D.fixed_bound, D.random_main_sum, D.jensen_gap_bound])
def test_logits_passed_as_weights_are_refused(function):
    # distance 3.817 > fixed_bound 3.586 for these logits would look like a refuted bound that in fact holds
    with pytest.raises(ValueError, match=r"alpha must be attention weights \(entries >= 0.*entry \[1\] is -1.0; "
                                         "pass the softmax weights, not the logits"):
        function(np.array([2.0, -1.0, 0.5]), X, 1)


@pytest.mark.parametrize("alpha, total", [([5.0, 3.0, 2.0], "10.0"), ([0.0, 0.0, 0.0], "0.0")])
def test_weights_that_do_not_sum_to_one_are_refused(alpha, total):
    with pytest.raises(ValueError, match=rf"summing to 1 \(within 1e-06\).*sums to {total}; pass allow_unnormalised=True"):
        D.fixed_bound(np.array(alpha), X, 1)


def test_the_opt_out_gives_the_value_for_another_mass():
    alpha = np.array([0.5, 0.3, 0.2])
    # every quantity is linear in alpha at a fixed selection: twice the mass, twice the distance
    assert D.distance(2 * alpha, X, 1, allow_unnormalised=True) == pytest.approx(2 * D.distance(alpha, X, 1))
    with pytest.raises(ValueError, match="entries >= 0"):  # the opt-out waives the sum, not the sign
        D.distance(np.array([2.0, -1.0, 0.5]), X, 1, allow_unnormalised=True)


def test_the_row_sum_counts_only_valid_keys():
    alpha = np.array([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5]])
    mask = np.array([[True, True, False], [True, True, True]])
    assert D.distance(alpha, X, 1, mask=mask).shape == (2,)
    with pytest.raises(ValueError, match=r"row \[0\] sums to 0.5"):
        D.distance(np.array([[0.5, 0.0, 0.5], [0.2, 0.3, 0.5]]), X, 1, mask=mask)


def test_float32_weights_get_a_tolerance_of_their_precision():
    logits = 5 * torch.randn(64, 4096, generator=torch.Generator().manual_seed(1))
    weights = torch.softmax(logits, -1)  # float32: rows sum to 1 only within ~L·eps(float32)
    error = float(weights.double().sum(-1).sub(1).abs().max())
    assert 1e-6 < error < 4096 * float(torch.finfo(torch.float32).eps)
    x = torch.randn(64, 4096, 2, dtype=torch.float64, generator=torch.Generator().manual_seed(2))
    assert D.distance(weights, x, 3).shape == (64,)
    with pytest.raises(ValueError, match=r"within 1e-06"):  # the same numbers claimed as float64 are not on the simplex
        D.distance(weights.double().numpy(), x.numpy(), 3)


def test_separability_refuses_weights_of_mass_ten_and_an_infinite_radius_M():
    with pytest.raises(ValueError, match="sums to 10.0"):
        xi(np.array([5.0, 3.0, 2.0]), 2, M=1.0, delta=0.0)
    with pytest.raises(ValueError, match="M=inf must be finite and > 0"):
        separability_lower_bound(np.array([0.5, 0.3, 0.2]), 2, 0.5, M=float("inf"), delta=0.0)


def test_largest_eigenvalue_refuses_unnormalised_weights():
    with pytest.raises(ValueError, match=r"sums to 2.0; normalise the weights \(this formula uses Σα = 1\)"):
        largest_eigenvalue(np.array([1.0, 1.0]))  # would answer 1.0; diag(α) − ααᵀ has eigenvalues 0 and −1 here
    assert float(largest_eigenvalue(np.array([0.5, 0.5]))) == 0.5
