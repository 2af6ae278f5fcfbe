"""The Search object: it keeps the largest finite tightness ratio met, and a report with nothing found caps a
ratio above 1 at 1 unless a candidate was met (then the ratio above 1 is real evidence, kept as measured)."""

import numpy as np
from hypothesis import strategies as st

from theorems import Statement
from theorems.engine.search import Candidate
from theorems.engine.search.state import Search
from theorems.engine.search.target import Outcome

_STATEMENT = Statement(id="my.state", title="t", paper_ref="p", reading="r", formula="f", lhs=lambda i, xp: 1.0,
                       rhs=lambda i, xp: 1.0, relation="<=", instances=st.fixed_dictionaries({"x": st.floats(0, 1)}),
                       expected="holds", reason="r")


def _outcome(ratio: float) -> Outcome:
    return Outcome(relative=0.0, suspicious=False, ratio=ratio, lhs=ratio, rhs=1.0, score=ratio)


def test_meet_keeps_the_largest_finite_ratio():
    search = Search(_STATEMENT)
    for x, ratio in ((1, 0.5), (2, np.nan), (3, 0.9), (4, 0.7), (5, np.inf)):
        search.meet({"x": x}, _outcome(ratio))
    assert search.best.ratio == 0.9 and search.best.instance == {"x": 3}


def test_a_ratio_above_one_is_capped_unless_a_candidate_was_met():
    search = Search(_STATEMENT)
    search.meet({"x": 1}, _outcome(1.0000001))
    report = search.report(None, "off")
    assert report.tightness.ratio == 1.0 and report.counterexample is None and report.optimiser == "off"
    search.candidates.append(Candidate("my.state", {"x": 1}, 1.0000001, 1.0, 1e-7, 1e-7, None, "why"))
    assert search.report(None, "off").tightness.ratio == 1.0000001


def test_a_report_with_a_counterexample_has_no_tightness_and_counts_what_was_met():
    from theorems.engine.search import Counterexample

    search = Search(_STATEMENT)
    search.meet({"x": 1}, _outcome(0.5))
    search.examples, search.artefacts, search.first = 7, 2, 0.25
    cx = Counterexample("my.state", {"x": 1}, 2.0, 1.0, 1.0, 0.5, 1, "test")
    report = search.report(cx, "off")
    assert report.counterexample is cx and report.tightness is None
    assert (report.examples, report.float_artefacts, report.seconds_to_counterexample) == (7, 2, 0.25)
