"""Float64's error is no inconsistency: a side that cancels (``KL(softmax(l/T) ‖ u)`` near 0, through scipy) or whose
value is subnormal is far from the exact value in float64 while its ball is right, and the interval enclosure says
so; a wrong form gives a ball disjoint from it, and still is one. Both true bounds below were reported
``engine-inconsistency`` (by the literature battery, under theorems-ci) before float64 stopped deciding."""

import numpy as np
import pytest
import scipy.special
from hypothesis import strategies as st

from theorems import EngineInconsistency, Statement, check
from theorems.arithmetic.precision import ARB, balls
from theorems.engine.search.crosscheck import SUBNORMAL, FloatSides, cross_check


def _kl_to_uniform(i, xp):
    log_p = scipy.special.log_softmax(i["l"] / i["T"])  # scipy's Python function: reached by its interval form
    return np.sum(np.exp(log_p) * log_p) + np.log(len(i["l"]))


def _attention_lse(i, xp):  # T·lse(K q/T) at one key: q·k, subnormal for entries of 2.5e-158
    return i["T"] * scipy.special.logsumexp(i["keys"] @ i["q"] / i["T"])


def _cauchy_schwarz(i, xp):  # T log L + ‖q‖ max‖k‖, met with equality at one key parallel to q
    return i["T"] * np.log(len(i["keys"])) + np.linalg.norm(i["q"]) * np.max(np.linalg.norm(i["keys"], axis=1))


def _statement(name, lhs, rhs, instance):
    return Statement(id=f"mine.float-error.{name}", title="-", paper_ref="-", reading="-", formula="-", lhs=lhs, rhs=rhs,
                     relation="<=", instances=st.just(instance), expected="holds", reason="-", max_examples=5)


KL = _statement("cancelling", _kl_to_uniform, lambda i, xp: (np.ptp(i["l"]) / i["T"]) ** 2 / 8,
                {"T": 10.0, "l": np.array([-0.9609918229018203, -0.9592938883189462])})
SUBNORMAL_PRODUCT = _statement("subnormal", _attention_lse, _cauchy_schwarz,
                               {"q": np.array([2.5219768133704564e-158]),
                                "keys": np.array([[2.5219768133704564e-158]]), "T": 6.512794566107674})


@pytest.mark.parametrize("statement", [KL, SUBNORMAL_PRODUCT], ids=["cancelling", "subnormal"])
def test_float64_error_is_no_inconsistency(statement):
    assert check(statement, seed=0).found == "holds"


def test_a_ball_of_the_wrong_sign_in_the_cancelling_side_is_still_an_inconsistency():
    instance = KL.instances.example()
    right = KL.lhs(balls(instance), ARB)  # [3.60373e-9 +/- 4e-15]
    values = {"lhs": np.array([-right]), "rhs": np.atleast_1d(KL.rhs(balls(instance), ARB))}
    with pytest.raises(EngineInconsistency, match="lhs"):
        cross_check(KL, instance, values, FloatSides(KL, instance))
    cross_check(KL, instance, {**values, "lhs": np.array([right])}, FloatSides(KL, instance))


def test_the_subnormal_floor_is_the_smallest_normal_float():
    assert SUBNORMAL == np.finfo(float).tiny == 2.0 ** -1022
