"""Tallies: a violation is counted once, located by window, layer, head and token; rounding is not one."""

import numpy as np
import pytest

from empirical.checks import Check, merge, tally

pytestmark = pytest.mark.empirical


def _values():
    lhs = np.zeros((1, 2, 3, 4))
    rhs = np.ones((1, 2, 3, 4))
    lhs[0, 1, 2, 3] = 1.5  # a violation at layer 1, head 2, row 3
    lhs[0, 0, 1, 0] = 1.0 + 1e-12  # rounding: a near miss, not a violation
    return {"lhs": lhs, "rhs": rhs}


def test_a_planted_violation_is_counted_and_located():
    result = tally(Check("theorem1.fixed.sum.normalised", "lhs", "rhs"), _values(), np.array([10, 11, 12, 13]))
    assert result["violations"] == 1 and result["evaluated"] == 24 and result["expected"] == "holds"
    example = result["examples"][0]
    assert (example["layer"], example["head"], example["token"]) == (1, 2, 13)
    assert result["near_misses"] == 1 and result["worst_near_miss"]["head"] == 1


def test_nan_entries_are_not_evaluated_and_greater_equal_flips_the_margin():
    values = _values()
    values["lhs"][0, 0] = np.nan
    result = tally(Check("x.y", "rhs", "lhs", relation=">="), values, np.arange(4))
    assert result["evaluated"] == 12 and result["violations"] == 1 and result["expected"] is None


def test_confirm_is_asked_for_the_reported_violations():
    seen = []
    tally(Check("s", "lhs", "rhs"), _values(), np.arange(4), confirm=lambda sid, ex: seen.append(ex["token"]) or True)
    assert seen == [3, 0]  # the violation, then the worst near miss


def test_merge_adds_counts_and_keeps_the_worst_examples_first():
    one = tally(Check("s", "lhs", "rhs"), _values(), np.arange(4), context={"length": 4})
    values = _values()
    values["lhs"][0, 0, 0, 0] = 9.0
    two = tally(Check("s", "lhs", "rhs"), values, np.arange(4), context={"length": 8})
    merged = merge([one, two])["s"]
    assert merged["violations"] == 3 and merged["evaluated"] == 48
    assert merged["examples"][0]["length"] == 8 and merged["examples"][0]["lhs"] == 9.0
