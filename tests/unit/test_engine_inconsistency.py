"""A side whose balls are disjoint from its interval enclosure (float64 far from them triggers the comparison) is an
engine inconsistency: no certificate, no "holds", and an error that names the statement, the instance, both values
and the ball forms the side went through."""

import numpy as np
import pytest
from hypothesis import strategies as st

from theorems import EngineInconsistency, Statement, certify, check, refute
from theorems.arithmetic import ball_forms

EXP = ball_forms.find("np.exp").ball_form


def _negated_exp(x):
    return -EXP(x)  # a flipped sign: the kind of slip a hand-written form can hide


_TRUE_BOUND = Statement(  # private: not collected as a theory test
    id="mine.exp-positive", title="exp > 0", paper_ref="-", reading="-", formula="0 ≤ exp(x)",
    lhs=lambda i, xp: 0.0 * i["x"], rhs=lambda i, xp: np.exp(i["x"]), relation="<=",
    instances=st.fixed_dictionaries({"x": st.floats(-2, 2)}), expected="holds", reason="exp > 0")


def test_a_flipped_form_is_named_with_both_values_and_the_forms_hit():
    with ball_forms.replaced("np.exp", _negated_exp), pytest.raises(EngineInconsistency) as caught:
        certify(_TRUE_BOUND, {"x": 0.5})
    error = caught.value
    assert error.statement_id == "mine.exp-positive" and error.side == "rhs" and error.instance == {"x": 0.5}
    assert error.value == pytest.approx(np.exp(0.5)) and error.ball.startswith("[-1.6487")
    assert "np.exp" in error.forms and "bug in the suite" in str(error)
    assert error.to_json()["reference"].startswith("interval arithmetic")  # a second enclosure, not a float


def test_the_verdict_is_engine_inconsistency_and_fails_the_gate():
    # lhs = 0 is above rhs = −exp(x) in balls: without the cross-check this true bound would be "refuted"
    bound = Statement(id="mine.exp-above", title="-", paper_ref="-", reading="-", formula="0 ≤ exp(x) + 1e-300",
                      lhs=lambda i, xp: 1e-3 + 0.0 * i["x"], rhs=lambda i, xp: np.exp(i["x"]), relation="<=",
                      instances=st.fixed_dictionaries({"x": st.floats(-30, -10)}), expected="refuted",
                      reason="exp(-30) < 1e-3")
    with ball_forms.replaced("np.exp", _negated_exp):
        verdict = check(bound, max_examples=50, seed=0)
        assert verdict.found == "engine-inconsistency" and not verdict.matches
        assert verdict.report.counterexample is None
        assert verdict.to_json()["engine_inconsistency"]["side"] == "rhs"
        with pytest.raises(EngineInconsistency):
            refute(bound, max_examples=50, seed=0)


def test_without_a_fault_the_same_statements_are_unchanged():
    assert certify(_TRUE_BOUND, {"x": 0.5}).status == "satisfied"
    assert check(_TRUE_BOUND, max_examples=50, seed=0).found == "holds"


def test_necessity_raises_rather_than_calling_a_hypothesis_unneeded():
    from theorems import Hypothesis, necessity

    bound = Statement(id="mine.exp-floor", title="-", paper_ref="-", reading="-", formula="1e-3 ≤ exp(x)",
                      lhs=lambda i, xp: 1e-3 + 0.0 * i["x"], rhs=lambda i, xp: np.exp(i["x"]), relation="<=",
                      instances=st.fixed_dictionaries({"x": st.floats(-5, 0)}), expected="holds", reason="-",
                      hypotheses=(Hypothesis("x ≥ -5", "x is at least -5",
                                             st.fixed_dictionaries({"x": st.floats(-30, -10)})),))
    assert necessity(bound, "x ≥ -5", max_examples=50, seed=0).needed
    with ball_forms.replaced("np.exp", _negated_exp), pytest.raises(EngineInconsistency):
        necessity(bound, "x ≥ -5", max_examples=50, seed=0)
