"""Corollary 2 (i) fails both ways at L ≥ 16 N; the Monte Carlo confirmation only refutes with a CI that excludes the bound."""

import dataclasses

import numpy as np
import pytest

from strategies.distance import seeded_embeddings
from theorems import STATEMENTS, refute
from theorems.statements.distance.corollary2 import confirm_expectation

pytestmark = pytest.mark.theory


def test_lower_reading_fails_exactly_for_one_selected_token_and_equal_embeddings():
    """N = 1, uniform weights, every x_i equal: every d̃ is 0 while Σ‖α_i x_i‖ = ‖x‖ (exact enumeration)."""
    found = refute(STATEMENTS["corollary2.i.lower"], seed=0)
    assert found is not None and found.lhs == 0 and found.size == 16 and found.method.startswith("arb ball arithmetic")


def _aligned(length, n):
    x = seeded_embeddings(np.random.default_rng(0), shape="equal", length=length, dim=2)
    return {"w": np.ones(length), "x": x, "n": n, "seed": 0}


def test_upper_reading_fails_with_aligned_embeddings_confirmed_by_two_intervals():
    """N = 4, L = 64, equal embeddings: E[d̃] = (L − N)(N − 1)/L·‖x‖ = 2.8125 > 2·‖x‖."""
    statement = STATEMENTS["corollary2.i.upper"]
    found = statement.confirm(_aligned(64, 4))
    assert found is not None and "99.9%" in found.method and "two independent runs" in found.method
    assert abs(found.lhs - 60 * 3 / 64) < 1e-9  # equal embeddings: every subset gives the same d̃


def test_confirmation_declines_when_the_interval_straddles_the_bound():
    """Same instance, bound moved onto E[d̃] itself: no interval can exclude it, so no refutation."""
    statement = STATEMENTS["corollary2.i.upper"]
    rng = np.random.default_rng(1)
    instance = {"w": np.exp(rng.uniform(-2, 2, 64)), "x": rng.standard_normal((64, 2)), "n": 4, "seed": 3}
    from theorems.statements.distance.theorem1 import expectation
    at_mean = dataclasses.replace(statement, rhs=lambda i, xp: expectation(i, xp, samples=100_000))
    assert confirm_expectation(at_mean)(instance) is None
