"""A float64 violation far above rounding that balls cannot certify is a candidate: found "candidate" (never
"holds", never matching expected), counted in the report and in --json, with its reason; a bound that holds
never reports a tightness ratio above 1."""

import dataclasses

import numpy as np
import scipy.special
from hypothesis import strategies as st

from theorems import Statement
from theorems.engine.search import check

_ERF = Statement(id="my.erf", title="t", paper_ref="p", reading="r", formula="erf(x) ≤ 0.9",
                lhs=lambda i, xp: scipy.special.erf(i["x"]), rhs=lambda i, xp: 0.9, relation="<=",
                instances=st.fixed_dictionaries({"x": st.floats(0, 3)}), expected="holds", reason="r",
                max_examples=100)


def test_an_uncertifiable_violation_is_a_candidate_that_fails_the_gate():
    verdict = check(_ERF, seed=0)
    assert verdict.found == "candidate" and not verdict.matches
    report = verdict.report
    assert report.counterexample is None and report.candidate_count >= 1 and report.candidates
    first = report.candidates[0]
    assert first.margin > 0 and first.relative_margin > 1e-8 and "scipy.special.erf" in first.reason
    assert np.isclose(scipy.special.erf(first.instance["x"]) - 0.9, first.margin)
    summary = verdict.to_json()
    assert summary["candidates"] == report.candidate_count and summary["certified"] == 0
    assert summary["candidate"]["reason"] == first.reason and "inconclusive" in summary


def test_a_side_calling_float_on_a_computed_ball_is_a_candidate_with_that_reason():
    floated = dataclasses.replace(_ERF, id="my.floated", lhs=lambda i, xp: float(i["x"] * 3) / 3)
    tight = dataclasses.replace(floated, rhs=lambda i, xp: 0.98 * 3.0 + 0.0 * i["x"])
    verdict = check(dataclasses.replace(tight, instances=st.fixed_dictionaries({"x": st.just(3.0)})), seed=0)
    assert verdict.found in ("candidate", "refuted")
    if verdict.found == "candidate":
        assert "float()" in verdict.report.candidates[0].reason


def test_holds_never_comes_with_a_ratio_above_one():
    exact = dataclasses.replace(_ERF, id="my.identity", lhs=lambda i, xp: 0.1 * i["x"] + 0.2 * i["x"],
                                rhs=lambda i, xp: 0.3 * i["x"])
    verdict = check(exact, seed=0)
    assert verdict.found == "holds" and verdict.report.tightness.ratio <= 1
