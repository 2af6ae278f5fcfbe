"""Every statement of the catalogue gets the verdict it is expected to get (the CI gate, as a test: CI runs no
separate `python -m theorems check`, see .ci/run), and every refutation re-confirms from its instance alone."""

import pytest

from theorems import STATEMENTS, check
from theorems.engine.derivation import describe_verdict
from theorems.engine.search import confirmation

SEED = 0
"""The seed of `python -m theorems check` (its default), so that this test is the check CI would otherwise run."""


@pytest.mark.parametrize("statement", STATEMENTS.values(), ids=list(STATEMENTS))
def test_verdict_matches_expected(statement):
    verdict = check(statement, seed=SEED)
    cx = verdict.report.counterexample
    assert verdict.matches, describe_verdict(statement, verdict) + (f"\n{cx.to_json()}" if cx else "")
    if cx is not None:
        again = confirmation(statement)(cx.instance)
        assert again is not None and again.margin > 0, f"{statement.id}: the counterexample does not re-confirm"
