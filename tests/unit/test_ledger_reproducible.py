"""The ledger is a tracked document: the same seed writes the same bytes, whatever the machine's speed
(running the main job must leave the checkout clean)."""
import dataclasses

import pytest

from theorems import STATEMENTS
from theorems.app import ledger
from theorems.statements.proofs import ledger_section


def _render(slowdown: float) -> str:
    entries = ledger.collect([STATEMENTS["corollary1.own-key.upper"], STATEMENTS["corollary3.entry.corrected"]],
                             max_examples=30, seed=0)
    for entry in entries:  # the same searches, as a slower machine would have timed them
        report = dataclasses.replace(entry.verdict.report, seconds=entry.verdict.report.seconds * slowdown)
        object.__setattr__(entry.verdict, "report", report)
    proof_section = ledger_section([e.statement.id for e in entries], seed=0, max_examples=30, detail=False)
    return ledger.render(entries, seed=0, max_examples=30, proof_section=proof_section)


@pytest.mark.slow  # two ledgers
def test_same_seed_same_ledger_on_a_slower_machine():
    assert _render(1.0) == _render(7.0)
