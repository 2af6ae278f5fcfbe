"""Two computations disagree only when two rigorous enclosures are disjoint: float64 (or a point value) far from a
ball only triggers the interval enclosure; it never decides. The four false engine inconsistencies of true bounds
below (a right ball against float64 or mpmath's 110-digit point value, which had lost the value) are gone, and a
ball that misses the exact value is still one (the injected wrong forms: ``test_fault_injection*.py``,
``test_engine_inconsistency*.py``)."""

import flint
import mpmath
import numpy as np
import pytest
from hypothesis import strategies as st

from literature_battery import BOUNDS, statement
from theorems import EngineInconsistency, Statement, certify
from theorems.arithmetic.interval import Interval, interval_bits
from theorems.arithmetic.precision import Ball
from theorems.engine.derivation import Derivation, Link, Term, gate
from theorems.engine.prove import prove
from theorems.engine.search.crosscheck import FloatSides, cross_check, disagreement


def _statement(id, lhs, rhs, instance, relation="<="):
    return Statement(id=id, title="-", paper_ref="-", reading="-", formula="-", lhs=lhs, rhs=rhs, relation=relation,
                     instances=st.just(instance), expected="holds", reason="-", max_examples=5)


def test_a_subnormal_scale_ball_is_right_where_float64_and_mpmath_say_zero():
    # the README's own command failed here: entmax.tail.p at seed 3 (the ball 3.88e-208, float64 and mpmath 0.0)
    bound = statement({b.name: b for b in BOUNDS}["entmax.tail.p"], mutant=False)
    instance = {"l": np.array([2.0, 3.939146054671071e-104, -1.0])}
    assert FloatSides(bound, instance).values["rhs"][1] == 0.0
    assert certify(bound, instance).status in ("satisfied", "inconclusive")


def _lse(v, xp):
    top = xp.max(v)
    return top + xp.log(np.sum(xp.exp(v - top)))


def test_exp_of_a_tiny_logit_is_not_one():
    # T·log e^{max l/T} = max l ≤ T·LSE(l/T): mpmath at 110 digits rounds exp(1.7e-243) to 1, the ball does not
    instance = {"l": np.array([1.7416704437078e-243, -5.95e-10]), "T": 1.0}
    chain = Derivation(id="mine.lse-max", title="-", expected="holds", instances=st.just(instance),
                       start=Term("T·log e^{max l/T}", lambda i, xp: i["T"] * xp.log(xp.exp(xp.max(i["l"]) / i["T"]))),
                       links=(Link("=", Term("max l", lambda i, xp: xp.max(i["l"])), "log exp"),
                              Link("<=", Term("T·LSE(l/T)", lambda i, xp: i["T"] * _lse(i["l"] / i["T"], xp)),
                                   "max ≤ LSE")))
    assert gate(chain, max_examples=5, seed=0).first_failure is None


def _second_eigenvalue(i, xp):
    s = i["l"] / i["T"]
    p = np.exp(s - np.max(s)) / np.sum(np.exp(s - np.max(s)))
    return np.linalg.eigvalsh(np.diag(p) - np.outer(p, p))[1]


def _smallest_weight(i, xp):
    s = i["l"] / i["T"]
    return np.min(np.exp(s - np.max(s)) / np.sum(np.exp(s - np.max(s))))


def test_lapack_far_from_a_right_eigenvalue_ball_is_no_inconsistency():
    # λ₂(diag p − ppᵀ) ≥ min p at a double eigenvalue: the exact λ₂ is 2.92e-27, LAPACK gives -1.5e-17
    instance = {"l": np.array([-3.0, -3, -3, 3, 3, 3]), "T": 0.1}
    bound = _statement("mine.lambda2", _smallest_weight, _second_eigenvalue, instance, relation=">=")
    with mpmath.workdps(80):
        s = [mpmath.mpf(v) / mpmath.mpf(instance["T"]) for v in instance["l"]]
        weights = [mpmath.exp(v - max(s)) for v in s]
        p = [w / mpmath.fsum(weights) for w in weights]
        exact = sorted(mpmath.eigsy(mpmath.diag(p) - mpmath.matrix(p) * mpmath.matrix(p).T, eigvals_only=True))[1]
        balls = {"lhs": np.array([Ball(mpmath.nstr(min(p), 60))]), "rhs": np.array([Ball(mpmath.nstr(exact, 60))])}
    floats = FloatSides(bound, instance)
    assert abs(floats.values["rhs"][0]) > 1e-18 > 1e-26 > float(exact)  # float64 is 1e-17 off
    cross_check(bound, instance, balls, floats)  # a right ball: no inconsistency
    wrong = {**balls, "rhs": np.array([Ball(2 * float(exact))])}  # off by its own size: disjoint from the intervals
    with pytest.raises(EngineInconsistency, match="interval arithmetic"):
        cross_check(bound, instance, wrong, floats)


def test_the_prover_proves_a_cancelling_side_float64_gets_wrong():
    # (1e16 + x) − 1e16 = x: the box's enclosure is right, float64 at the centre says 0.0
    bound = Statement(id="mine.cancel-prove", title="-", paper_ref="-", reading="-", formula="(1e16 + x) − 1e16 ≤ x + 1",
                      lhs=lambda i, xp: (1e16 + i["x"]) - 1e16, rhs=lambda i, xp: i["x"] + 1, relation="<=",
                      instances=st.fixed_dictionaries({"x": st.floats(0.5, 1)}), expected="holds", reason="-")
    assert (1e16 + 0.75) - 1e16 == 0.0
    assert prove(bound, {"x": (0.5, 1.0)}, max_seconds=60, seed=0).status == "proved"


def test_without_a_second_enclosure_float64_decides_nothing():
    # np.linalg.pinv has no interval form: a ball far from float64 is then not called wrong
    bound = _statement("mine.pinv", lambda i, xp: np.linalg.pinv(np.array([[i["x"]]]))[0, 0], lambda i, xp: 10.0,
                       {"x": 0.5})
    floats = FloatSides(bound, {"x": 0.5})
    cross_check(bound, {"x": 0.5}, {"lhs": np.array([Ball(7.0)]), "rhs": np.array([Ball(10.0)])}, floats)


def test_an_enclosure_too_wide_to_decide_agrees():
    with interval_bits(128):
        wide = np.array([Interval.of(-1).hull(Interval.of(1))], dtype=object)
        tight = np.array([Interval.of(0.5)], dtype=object)
    assert disagreement([flint.arb(0.9)], np.array([0.0]), np.array([1.0]), lambda: wide) is None
    found = disagreement([flint.arb(0.9)], np.array([0.0]), np.array([1.0]), lambda: tight)
    assert found is not None and found.element == (0,) and "interval arithmetic" in found.reference()
    # no trigger: float64 within the tolerance of the ball, the second enclosure is not even computed
    assert disagreement([flint.arb(0.9)], np.array([0.9]), np.array([1.0]), lambda: 1 / 0) is None
