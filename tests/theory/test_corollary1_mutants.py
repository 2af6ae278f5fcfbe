"""Deliberately wrong variants of Corollary 1 must be refuted."""

import dataclasses

import pytest

from theorems import STATEMENTS, refute


def _scaled(statement, factor, suffix):
    return dataclasses.replace(statement, id=f"{statement.id}.{suffix}",
                               rhs=lambda i, xp, s=statement: s.rhs(i, xp) * factor)


def _exponent(statement, power, suffix):
    """Replaces e^{±2Δ/T} by (e^{±2Δ/T})^power: an exponent changed."""
    return dataclasses.replace(statement, id=f"{statement.id}.{suffix}",
                               rhs=lambda i, xp, s=statement: (s.rhs(i, xp) * len(i["keys"])) ** power / len(i["keys"]))


def _mutants(statement_id):
    statement = STATEMENTS[statement_id]
    factor = 0.95 if statement.relation == "<=" else 1.05
    return (_scaled(statement, factor, "tightened"), _exponent(statement, 0.5, "half-exponent"),
            dataclasses.replace(statement, id=f"{statement_id}.no-exponential", rhs=lambda i, xp: 1 / len(i["keys"])))


MUTANTS = {statement_id: _mutants(statement_id) for statement_id in STATEMENTS
           if statement_id.startswith("corollary1.") and STATEMENTS[statement_id].expected == "holds"}


@pytest.mark.parametrize("mutant", [m for ms in MUTANTS.values() for m in ms], ids=lambda m: m.id)
def test_mutant_is_refuted(mutant):
    assert refute(mutant, seed=0) is not None
