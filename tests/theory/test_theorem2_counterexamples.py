"""Theorem 2's refutations shrink to the smallest instance that can show them, with wide margins.

The minimal sizes were derived by hand (docs/separability.md): L = 2 is the least length, and
``N = 1`` makes ``ξ = 0``, ``‖s − α_1 x_1‖ = 0``, so ``E[N_s]/N = 1`` (ungated) against an upper bound
``exp(−r²/(cM²)) < 1``; for the uncorrelated claim ``d = 1``, ``δ = 2M`` forces ``x_2 = −x_1``.
"""

import numpy as np
import pytest

from theorems import STATEMENTS, refute
from theorems.statements.separability.theorem2 import CONFIRM_SAMPLES, LEVEL
from theorems.maths.separability import hoeffding_halfwidth

HALF_WIDTH = hoeffding_halfwidth(CONFIRM_SAMPLES, level=LEVEL)


@pytest.mark.parametrize("statement_id, n, dim", [
    ("theorem2.upper.2m2.ungated", 1, 1),
    ("theorem2.lower.gated", 1, 1),
    ("theorem2.assumptions.uncorrelated", None, 1),
])
def test_refutation_is_minimal_and_far_outside_the_interval(statement_id, n, dim):
    found = refute(STATEMENTS[statement_id], seed=0)
    assert found is not None and found.size == 2 and found.instance["dim"] == dim
    assert n is None or found.instance["n"] == n
    # the margin is measured beyond the interval; it is several interval widths wide
    assert found.margin > 3 * HALF_WIDTH, found.to_json()


def test_confirmation_is_a_deterministic_function_of_the_instance():
    statement = STATEMENTS["theorem2.upper.16m2.ungated"]
    instance = {"alpha": np.array([0.5, 0.5]), "n": 1, "r": 1.5, "M": 1.0, "dim": 2, "delta": 0.0, "seed": 7,
                "law": "uniform", "conditioned": True}
    first = statement.confirm(instance)
    assert first is not None and first == statement.confirm(instance)
