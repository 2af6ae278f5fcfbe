"""Each of the paper's proofs, encoded as a derivation, fails exactly at the step marked wrong, and only there.

Not in tests/theory: gating every step of eleven proofs (two searches per `=` step, each with the engine's
optimiser) takes about 45 s serial on the shared machine, which `pytest -m theory` cannot afford."""

import pytest

from theorems.engine.derivation import describe_report, gate
from theorems.statements.proofs import PROOFS
from theorems import STATEMENTS

BUDGET = 40
"""Examples per link: every marked step is refuted well within it."""


@pytest.mark.slow
@pytest.mark.parametrize("statement_id", list(PROOFS))
def test_proof_fails_where_marked(statement_id):
    derivation = PROOFS[statement_id]
    report = gate(derivation, max_examples=BUDGET, seed=0)
    assert report.matches, describe_report(report)
    marked = next((link.index for link in report.links if link.link.expected == "refuted"), None)
    assert (report.first_failure.index if report.first_failure else None) == marked, describe_report(report)
    if report.first_failure is not None:
        assert report.first_failure.counterexample.method


@pytest.mark.parametrize("statement_id", list(PROOFS))
def test_proof_concludes_what_the_catalogue_expects(statement_id):
    derivation = PROOFS[statement_id]
    assert derivation.expected == STATEMENTS[statement_id].expected
