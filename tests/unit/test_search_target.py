"""The target phase's float64 outcome: the tightness ratio is ``rhs/lhs`` for ``>=``, a side that raises or is
not finite always calls for certification, and a satisfied instance does not."""

import numpy as np
from hypothesis import strategies as st

from theorems import Statement
from theorems.engine.search.target import float_outcome


def _statement(lhs, rhs, relation):
    return Statement(id="my.target", title="t", paper_ref="p", reading="r", formula="f", lhs=lhs, rhs=rhs,
                     relation=relation, instances=st.fixed_dictionaries({"x": st.floats(0, 1)}), expected="holds",
                     reason="r")


def test_the_ratio_is_the_bounded_side_over_the_bound_for_both_relations():
    below = float_outcome(_statement(lambda i, xp: np.array([1.0, 3.0]), lambda i, xp: 4.0, "<="), {"x": 0.0})
    above = float_outcome(_statement(lambda i, xp: np.array([1.0, 3.0]), lambda i, xp: 0.5, ">="), {"x": 0.0})
    assert (below.ratio, below.lhs, below.rhs, below.suspicious) == (0.75, 3.0, 4.0, False)
    assert (above.ratio, above.lhs, above.rhs, above.suspicious) == (0.5, 1.0, 0.5, False)
    assert below.relative == -0.25 and above.relative == -0.5


def test_a_violation_is_suspicious_with_its_relative_margin():
    outcome = float_outcome(_statement(lambda i, xp: 2.0, lambda i, xp: 1.0, "<="), {"x": 0.0})
    assert outcome.suspicious and outcome.relative == 0.5 and outcome.ratio == outcome.score == 2.0


def test_a_side_that_raises_or_is_not_finite_calls_for_certification():
    def raises(i, xp):
        raise ZeroDivisionError("no value")

    raised = float_outcome(_statement(raises, lambda i, xp: 1.0, "<="), {"x": 0.0})
    assert raised.suspicious and raised.relative == -1.0 and np.isnan(raised.ratio) and np.isnan(raised.score)
    nan = float_outcome(_statement(lambda i, xp: np.array([np.nan, 0.5]), lambda i, xp: 1.0, "<="), {"x": 0.0})
    assert nan.suspicious and nan.ratio == 0.5
