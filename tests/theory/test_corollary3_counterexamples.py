"""The refuted Corollary 3 readings fail already at the smallest case, L = 2 with equal logits,
confirmed in mpmath; the entry reading fails only through the √2 cap (T < 1/(4√2))."""

import numpy as np
import pytest

from theorems import STATEMENTS, refute

pytestmark = pytest.mark.theory

REFUTED = [k for k, s in STATEMENTS.items() if k.startswith("corollary3") and s.expected == "refuted"]


@pytest.mark.parametrize("statement_id", REFUTED)
def test_counterexample_is_minimal_and_confirmed(statement_id):
    found = refute(STATEMENTS[statement_id], seed=0)
    assert found is not None and found.size == 2 and found.method.startswith("arb ball arithmetic")
    l = found.instance["logits"]
    assert l[0] == l[1]  # equal logits: the weights (1/2, 1/2) that maximise every norm


def test_entry_reading_fails_only_below_one_over_four_root_two():
    found = refute(STATEMENTS["corollary3.entry"], seed=0)
    assert found.instance["T"] < 1 / (4 * np.sqrt(2))
    assert found.lhs == pytest.approx(1 / (4 * found.instance["T"]))
