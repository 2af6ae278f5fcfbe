"""A derivation is gated link by link: the first failing link is named, with a certified counterexample."""

import pytest
from hypothesis import strategies as st

from theorems.engine.derivation import Derivation, Link, Term, describe_report, gate

X = st.fixed_dictionaries({"x": st.floats(-3, 3, allow_nan=False)})
SQUARE = Term("x²", lambda i, xp: i["x"] ** 2)


def _chain(*links, expected="holds"):
    return Derivation(id="test.chain", title="a chain", instances=X, start=SQUARE, links=links, expected=expected)


def test_first_failing_link_is_named_with_its_counterexample():
    chain = _chain(Link("<=", Term("2x²", lambda i, xp: 2 * i["x"] ** 2), "doubling"),
                   Link("<=", Term("x² + 1", lambda i, xp: i["x"] ** 2 + 1), "broken"),
                   Link("<=", Term("1", lambda i, xp: 1 + 0 * i["x"]), "also broken"))
    report = gate(chain, max_examples=60, seed=0)
    assert [r.found for r in report.links] == ["holds", "refuted", "refuted"]
    failure = report.first_failure
    assert failure.index == 2 and failure.counterexample.lhs > failure.counterexample.rhs
    assert report.first_mismatch is failure and not report.matches
    assert "first failing link: step 2 (broken)" in describe_report(report)
    assert report.found == "refuted"  # the conclusion x² ≤ 1 is searched directly once a link fails


def test_true_conclusion_of_a_broken_proof_is_found_to_hold():
    chain = _chain(Link("<=", Term("x² + 1", lambda i, xp: i["x"] ** 2 + 1), "true"),
                   Link("<=", Term("1", lambda i, xp: 1 + 0 * i["x"]), "broken"),
                   Link("<=", Term("x² + 1", lambda i, xp: i["x"] ** 2 + 1), "broken back"))
    report = gate(chain, max_examples=60, seed=0)
    assert report.first_failure.index == 2 and report.found == "holds" and not report.matches


def test_equality_link_is_checked_both_ways():
    wrong = _chain(Link("=", Term("|x|", lambda i, xp: xp.abs(i["x"])), "x² = |x| (false)"))
    right = _chain(Link("=", Term("|x|·|x|", lambda i, xp: xp.abs(i["x"]) * xp.abs(i["x"])), "x² = |x|²"))
    assert len(wrong.link_statements(1)) == 2
    assert gate(wrong, max_examples=60, seed=0).first_failure.index == 1
    assert gate(right, max_examples=60, seed=0).first_failure is None


def test_conclusion_direction_follows_the_chain():
    chain = _chain(Link(">=", Term("0", lambda i, xp: 0 * i["x"]), "squares are non-negative"),
                   Link("=", Term("0·x", lambda i, xp: 0 * i["x"]), "zero"))
    assert chain.conclusion().relation == ">=" and chain.conclusion().formula == "x² ≥ 0·x"


@pytest.mark.parametrize("bad, message", [
    (dict(links=()), "non-empty tuple"),
    (dict(links=(Link("<=", SQUARE, "a"), Link(">=", SQUARE, "b"))), "mixes <= and >="),
    (dict(links=("x",)), "must be a Link"),
    (dict(expected="maybe"), "expected='maybe'"),
])
def test_bad_derivation_is_rejected_eagerly(bad, message):
    fields = dict(id="test.bad", title="bad", instances=X, start=SQUARE, links=(Link("<=", SQUARE, "same"),)) | bad
    with pytest.raises((ValueError, TypeError), match=message):
        Derivation(**fields)


@pytest.mark.parametrize("bad, message", [
    (dict(relation="<"), "relation='<'"), (dict(justification=""), "justification"),
    (dict(term=lambda i, xp: 0), "must be a Term"), (dict(expected="no"), "expected='no'"),
])
def test_bad_link_is_rejected_eagerly(bad, message):
    with pytest.raises((ValueError, TypeError), match=message):
        Link(**(dict(relation="<=", term=SQUARE, justification="why") | bad))
