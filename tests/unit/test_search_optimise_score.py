"""The optimiser's objective: an exact tie (an equality case) scores nothing, a float64 violation that balls
show to be rounding scores as the worst (never as a violation to climb), and a violation far above rounding that
balls cannot decide (a candidate) keeps its float64 ratio: it is real evidence."""

import math

import numpy as np
from hypothesis import strategies as st

from theorems import Statement
from theorems.engine.search.optimise import optimiser_score
from theorems.engine.search.state import Search
from theorems.engine.search.target import float_outcome

_X = st.fixed_dictionaries({"x": st.floats(0.1, 3)})
_ROUNDED = 0.1174087043521761  # (x / 7) * 7 > x in float64, equal in exact arithmetic


def _statement(lhs, rhs):
    return Statement(id="my.score", title="t", paper_ref="p", reading="r", formula="f", lhs=lhs, rhs=rhs,
                     relation="<=", instances=_X, expected="holds", reason="r")


def test_an_exact_tie_has_no_score_and_the_optimiser_scores_it_as_the_worst():
    tie = _statement(lambda i, xp: np.array([i["x"], 0.5]), lambda i, xp: np.array([i["x"], 1.0]))
    outcome = float_outcome(tie, {"x": 2.0})
    assert outcome.ratio == 1.0 and outcome.score == 0.5  # the tied element is passed over, the other scores
    assert math.isnan(float_outcome(_statement(lambda i, xp: i["x"], lambda i, xp: i["x"]), {"x": 2.0}).score)
    assert optimiser_score(Search(_statement(lambda i, xp: i["x"], lambda i, xp: i["x"])), {"x": 2.0}, []) == -math.inf


def test_a_tie_computed_a_rounding_apart_is_a_tie():
    near = float_outcome(_statement(lambda i, xp: i["x"], lambda i, xp: (i["x"] / 7) * 7), {"x": _ROUNDED})
    assert 0 < 1 - near.ratio < 1e-15 and math.isnan(near.score)
    apart = float_outcome(_statement(lambda i, xp: i["x"], lambda i, xp: i["x"] * (1 + 1e-12)), {"x": _ROUNDED})
    assert apart.score == apart.ratio < 1  # a billionth apart is information, not rounding


def test_a_float_artefact_scores_as_the_worst_not_as_a_violation():
    rounded = _statement(lambda i, xp: (i["x"] / 7) * 7, lambda i, xp: i["x"])
    assert float_outcome(rounded, {"x": _ROUNDED}).suspicious  # float64 says violated
    search, found = Search(rounded), []
    assert optimiser_score(search, {"x": _ROUNDED}, found) == -math.inf
    assert found == [] and search.artefacts == 1 and search.candidate_count == 0


def test_a_candidate_keeps_its_float64_ratio():
    def undecidable(i, xp):
        if xp.name != "float64":
            raise TypeError("no ball form")  # balls cannot evaluate it: the violation stays undecided
        return 2 * i["x"]

    search, found = Search(_statement(undecidable, lambda i, xp: i["x"])), []
    assert optimiser_score(search, {"x": 1.5}, found) == 2.0 and search.candidate_count == 1 and found == []
