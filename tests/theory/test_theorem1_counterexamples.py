"""The smallest counterexamples to the refuted Theorem 1 readings, checked directly in mpmath.

The search's shrinker stops at L = 4 for the norm reading; the smallest possible instance is
L = 2, N = 2 (nothing is left out: the left side is ‖s‖, the bound is 0), written out here.
"""

import numpy as np
import pytest

from theorems import STATEMENTS, refute
from theorems.engine.search import confirm_in_high_precision

pytestmark = pytest.mark.theory


@pytest.mark.parametrize("center", ["normalised", "max-norm"])
def test_norm_reading_fails_when_every_token_is_selected(center):
    statement = STATEMENTS[f"theorem1.fixed.norm.{center}"]
    found = confirm_in_high_precision(statement, {"w": np.ones(2), "x": np.ones((2, 1)), "n": 2, "seed": 0})
    assert found is not None and found.size == 2 and found.rhs == 0 and found.lhs == 1


def test_norm_reading_fails_with_nothing_at_the_edge():
    """N < L too: L = 3, N = 1, uniform weights, equal embeddings: ‖(1/3)x‖ > 0 = the bound."""
    statement = STATEMENTS["theorem1.fixed.norm.normalised"]
    found = confirm_in_high_precision(statement, {"w": np.ones(3), "x": np.ones((3, 1)), "n": 1, "seed": 0})
    assert found is not None and np.isclose(found.lhs, 1 / 3) and found.rhs == 0


@pytest.mark.parametrize("statement_id, size", [("theorem1.random.main-sum-exact", 3),
                                                ("theorem1.random.residual-small", 3)])
def test_random_refutations_shrink_to_three_tokens(statement_id, size):
    """L = 2 has a single subset per excluded token, so the Jensen gap is 0: three tokens are needed."""
    found = refute(STATEMENTS[statement_id], seed=0)
    assert found is not None and found.size == size and found.instance["n"] == 1
