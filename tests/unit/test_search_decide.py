"""Reading the balls of both sides: the worst certified element is the counterexample, ``inf − inf`` is
ill-defined, and a violation ball around 0 is undecided, rounding-level only when no enclosure was used."""

import numpy as np
import pytest
from hypothesis import strategies as st

from theorems import Statement
from theorems.arithmetic.precision import ARB, Ball
from theorems.engine.search import IllDefined
from theorems.engine.search.decide import decide

_STATEMENT = Statement(id="my.decide", title="t", paper_ref="p", reading="r", formula="f", lhs=lambda i, xp: 1.0,
                       rhs=lambda i, xp: 1.0, relation="<=", instances=st.fixed_dictionaries({"x": st.floats(0, 1)}),
                       expected="holds", reason="r")


def _decide(lhs, rhs, notes=()):
    with ARB.precision(128):
        values = {"lhs": np.array([Ball(v) if not callable(v) else v() for v in lhs], dtype=object),
                  "rhs": np.array([Ball(v) if not callable(v) else v() for v in rhs], dtype=object)}
        return decide(_STATEMENT, {"x": 0.0}, values, 128, True, list(notes))


def test_the_worst_certified_element_is_the_counterexample():
    certificate = _decide([2.0, 5.0, 0.5], [1.0, 1.0, 1.0])
    assert certificate.status == "violated"
    cx = certificate.counterexample
    assert (cx.lhs, cx.rhs, cx.margin, cx.relative_margin) == (5.0, 1.0, 4.0, 0.8)
    assert cx.method.startswith("arb ball arithmetic, 128 bits: lhs − rhs ∈ [4, 4] > 0")


def test_a_satisfied_relation_is_satisfied():
    assert _decide([0.5, 0.25], [1.0, 1.0]).status == "satisfied"


def test_inf_minus_inf_is_ill_defined_and_an_exact_infinite_violation_is_proved():
    with pytest.raises(IllDefined, match="inf − inf is undefined"):
        _decide([float("inf")], [float("inf")])
    infinite = _decide([float("inf")], [1.0])
    assert infinite.status == "violated" and infinite.counterexample.method.endswith("so the violation is +inf")


def test_a_ball_around_zero_is_undecided_and_rounding_level_without_enclosures():
    third = lambda: Ball(1) / Ball(3)  # noqa: E731 - two independent roundings of 1/3: their difference straddles 0
    plain = _decide([third], [third])
    assert plain.status == "undecided" and "contains 0" in plain.detail and plain.bound == 0.0
    enclosed = _decide([third], [third], notes=["an enclosure"])
    assert enclosed.status == "undecided" and 0 < enclosed.bound < 1e-30
