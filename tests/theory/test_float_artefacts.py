"""A violation that exists only in float64 rounding is never reported as a counterexample."""

import numpy as np
from hypothesis import strategies as st

from theorems import Statement, investigate
from theorems.maths.normalisers import softmax

ROUNDS_ABOVE_ONE = np.array([-0.73, -0.54, -0.32])  # float64 softmax sums to 1.0000000000000002


def _statement(lhs, rhs, relation, instances):
    return Statement(id="artefact.probe", title="probe", paper_ref="-", reading="-", formula="-", lhs=lhs, rhs=rhs,
                     relation=relation, instances=instances, expected="holds", reason="exact identity")


def test_softmax_mass_rounding_above_one_is_an_artefact():
    assert softmax()(ROUNDS_ABOVE_ONE).sum() > 1  # the premise: float64 says the bound fails
    probe = _statement(lambda i, xp: np.sum(softmax()(i["l"], xp=xp)), lambda i, xp: 1, "<=",
                       st.just({"l": ROUNDS_ABOVE_ONE}))
    report = investigate(probe, max_examples=5, seed=0)
    assert report.counterexample is None and report.float_artefacts >= 1


def test_cancellation_is_an_artefact():
    """(1 + x) − 1 is 0 in float64 for x = 1e-17, and exactly x in high precision."""
    probe = _statement(lambda i, xp: (1 + i["x"]) - 1, lambda i, xp: i["x"], ">=", st.just({"x": 1e-17}))
    report = investigate(probe, max_examples=5, seed=0)
    assert report.counterexample is None and report.float_artefacts >= 1


def test_a_real_violation_of_the_same_size_is_reported():
    """The guard above is not a blanket filter: 1 + 2⁻⁵² ≤ 1 is false in exact arithmetic too."""
    probe = _statement(lambda i, xp: 1 + i["x"], lambda i, xp: 1, "<=", st.just({"x": 2.0 ** -52}))
    assert investigate(probe, max_examples=5, seed=0).counterexample is not None
