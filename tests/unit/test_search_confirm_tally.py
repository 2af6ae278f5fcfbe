"""What balls cannot decide is tallied: a candidate when its violation is far above rounding (the first
``CANDIDATES_KEPT`` kept, all counted), inconclusive when its proved bound is rounding-level."""

from hypothesis import strategies as st

from theorems import Statement
from theorems.engine.search import CANDIDATES_KEPT, Certificate
from theorems.engine.search.confirm import tally
from theorems.engine.search.state import Search

_ABOVE = Statement(id="my.tally", title="t", paper_ref="p", reading="r", formula="x ≤ 1", lhs=lambda i, xp: i["x"],
                   rhs=lambda i, xp: 1.0, relation="<=", instances=st.fixed_dictionaries({"x": st.floats(0, 3)}),
                   expected="holds", reason="r")


def test_a_rounding_level_bound_is_inconclusive_without_looking_at_float64():
    search = Search(_ABOVE)
    tally(search, {"x": 2.0}, Certificate("inconclusive", detail="why", bound=1e-12))
    assert (search.inconclusive, search.candidate_count, search.candidates) == (1, 0, [])


def test_a_violation_far_above_rounding_is_a_candidate_and_only_the_first_are_kept():
    search = Search(_ABOVE)
    for k in range(CANDIDATES_KEPT + 2):
        tally(search, {"x": 2.0 + k}, Certificate("inconclusive", detail="no ball form"))
    assert search.candidate_count == CANDIDATES_KEPT + 2 and search.inconclusive == 0
    assert [c.instance["x"] for c in search.candidates] == [2.0 + k for k in range(CANDIDATES_KEPT)]
    assert search.candidates[0].reason == "no ball form" and search.candidates[0].margin == 1.0


def test_an_unbounded_instance_whose_float64_holds_is_inconclusive():
    search = Search(_ABOVE)
    tally(search, {"x": 0.5}, Certificate("inconclusive", detail="why"))
    assert (search.inconclusive, search.candidate_count) == (1, 0)
