"""The cross-check's tolerance: float64 rounding and cancellation are not inconsistencies, a ball disjoint from the
side's interval enclosure is; float64 only triggers the comparison."""

import numpy as np
import pytest
from hypothesis import strategies as st

from theorems import EngineInconsistency, Statement
from theorems.arithmetic.precision import Ball
from theorems.engine.search.crosscheck import TOLERANCE, FloatSides, cross_check


def _statement(lhs):
    return Statement(id="mine.cancel", title="-", paper_ref="-", reading="-", formula="-", lhs=lhs,
                     rhs=lambda i, xp: 1.0, relation="<=", instances=st.fixed_dictionaries({"x": st.floats(0, 1)}),
                     expected="holds", reason="-")


def test_a_ball_within_rounding_of_the_float_value_passes():
    statement = _statement(lambda i, xp: i["x"] * 0.5)
    floats = FloatSides(statement, {"x": 0.5})
    near = Ball(0.25 * (1 + TOLERANCE / 10))
    cross_check(statement, {"x": 0.5}, {"lhs": np.array([near]), "rhs": np.array([Ball(1)])}, floats)


def test_a_ball_far_from_the_float_value_is_an_inconsistency():
    statement = _statement(lambda i, xp: i["x"] * 0.5)
    floats = FloatSides(statement, {"x": 0.5})
    with pytest.raises(EngineInconsistency, match="interval arithmetic"):  # the second enclosure decides
        cross_check(statement, {"x": 0.5}, {"lhs": np.array([Ball(0.26)]), "rhs": np.array([Ball(1)])}, floats)


def test_float64_cancellation_is_settled_by_intervals_not_reported():
    # (1 + x) − 1 in float64 loses x's low bits; the exact ball differs from float64 by far more than 1e-8·|side|
    statement = _statement(lambda i, xp: (1e9 + i["x"]) - 1e9)
    instance = {"x": 1e-7 / 3}
    floats = FloatSides(statement, instance)
    exact = Ball(1e-7) / 3
    cross_check(statement, instance, {"lhs": np.array([exact]), "rhs": np.array([Ball(1)])}, floats)
