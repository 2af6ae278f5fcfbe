"""Every statement of the catalogue gets the verdict it is expected to get (the CI gate, as a test),
and every refutation re-confirms from its instance alone."""

import pytest

from theorems import STATEMENTS, check
from theorems.engine.search import confirmation


@pytest.mark.parametrize("statement", STATEMENTS.values(), ids=list(STATEMENTS))
def test_verdict_matches_expected(statement):
    verdict = check(statement, seed=0)
    cx = verdict.report.counterexample
    assert verdict.found == statement.expected, (
        f"{statement.id}: expected {statement.expected}, found {verdict.found}"
        + (f" with {cx.to_json()}" if cx else ""))
    if cx is not None:
        again = confirmation(statement)(cx.instance)
        assert again is not None and again.margin > 0, f"{statement.id}: the counterexample does not re-confirm"
