"""The interval test never refutes an exact equality, and is tied to the statement's own bound."""

import numpy as np

from theorems import STATEMENTS
from theorems.statements.separability.theorem2 import mutant

# L = 2, N = 2, d = 1, α = (½, ½): ‖s − α_i x_i‖ = M/2 for every draw, so E[N_s]/N = 1 exactly when r ≥ M/2
EXACT = {"alpha": np.array([0.5, 0.5]), "n": 2, "r": 1.0, "M": 1.0, "dim": 1, "delta": 0.0, "seed": 0,
         "law": "uniform", "conditioned": True}


def test_an_equality_is_not_a_violation():
    upper = STATEMENTS["theorem2.upper.2m2.ungated"]
    at_equality = mutant(upper, id="theorem2.upper.probe", rhs=lambda i, xp: 1.0)
    assert at_equality.lhs(EXACT, None) == 1.0 and at_equality.confirm(EXACT) is None


def test_a_zero_mean_is_not_refuted_against_zero():
    """Without Assumption 2 (δ = 0), E[x_1ᵀx_2] = 0 exactly: noise alone must not refute ``≥ 0``."""
    uncorrelated = STATEMENTS["theorem2.assumptions.uncorrelated"]
    for seed in range(3):
        assert uncorrelated.confirm({**EXACT, "dim": 3, "seed": seed}) is None


def test_the_mutant_confirms_against_its_own_bound():
    upper = STATEMENTS["theorem2.upper.2m2.ungated"]
    below = mutant(upper, id="theorem2.upper.probe", rhs=lambda i, xp: 0.5)
    found = below.confirm(EXACT)
    assert found is not None and found.statement_id == "theorem2.upper.probe" and found.rhs == 0.5
