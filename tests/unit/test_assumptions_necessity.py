"""Which hypotheses of Theorem 2's lower bound are needed: Assumption 2 is, Assumption 1 is not.

The lower bound only uses ``‖Σ α_j x_j‖² ≤ ξ_i²``, which holds pointwise on Assumption 2 whatever the
law of the points. Without conditioning (δ kept in ξ), the regular simplex breaks it; the generic
search lands there only occasionally (seed 3 with 1,000 examples: L = N = 7, d = 6, r = 0.316·M), so
the instance is checked directly with the statement's interval confirmation.
"""

import numpy as np
import pytest

from theorems import STATEMENTS, necessity
from theorems.maths.separability_sampling import max_min_distance

LOWER = STATEMENTS["theorem2.lower.ungated"]


def test_the_simplex_instance_breaks_the_lower_bound_without_conditioning():
    """L = N = 7 points of S⁵ at the simplex distance in ξ, drawn without conditioning, r = 1.5/7."""
    instance = {"alpha": np.full(7, 1 / 7), "n": 7, "r": 1.5 / 7, "M": 1.0, "dim": 6,
                "delta": max_min_distance(length=7, dim=6, radius=1.0), "seed": 0, "law": "uniform",
                "conditioned": False}
    found = LOWER.confirm(instance)
    assert found is not None and found.rhs - found.lhs > 0.2


@pytest.mark.parametrize("hypothesis", ["assumption1-independent", "assumption1-uniform"])
def test_assumption_1_is_not_needed_for_the_lower_bound(hypothesis):
    assert not necessity(LOWER, hypothesis, seed=0).needed
