"""Every corrected Corollary 3 bound is tight: the search's ``target()`` gets within 1% of it."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, target
from hypothesis import seed as hypothesis_seed

from theorems import STATEMENTS
from theorems.arithmetic.precision import F64
from theorems.engine.search import worst

pytestmark = pytest.mark.theory

CORRECTED = [key for key in STATEMENTS if key.startswith("corollary3.") and key.endswith(".corrected")]


def best_relative_margin(statement, *, max_examples: int, seed: int = 0) -> float:
    """The largest relative margin ``(lhs − rhs)/max(|lhs|, |rhs|)`` the steered search reaches."""
    best = [-np.inf]

    @hypothesis_seed(seed)
    @settings(max_examples=max_examples, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(statement.instances)
    def probe(instance):
        with np.errstate(all="ignore"):
            relative = float(worst(statement, instance, F64)[3])
        if np.isfinite(relative):
            target(relative, label="relative margin")
            best[0] = max(best[0], relative)

    probe()
    return best[0]


def test_every_refuted_reading_has_a_corrected_statement():
    refuted = [k for k, s in STATEMENTS.items() if k.startswith("corollary3.") and s.expected == "refuted"]
    assert sorted(k + ".corrected" for k in refuted) == sorted(CORRECTED)


@pytest.mark.parametrize("statement_id", CORRECTED)
def test_search_gets_within_one_percent_of_the_corrected_bound(statement_id):
    assert best_relative_margin(STATEMENTS[statement_id], max_examples=100) >= -0.01
