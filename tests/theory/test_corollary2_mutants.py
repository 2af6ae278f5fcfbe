"""Deliberately wrong variants of the Corollary 2 statements that hold must be refuted."""

import dataclasses

import pytest

from theorems import STATEMENTS, refute
from theorems.statements.distance.corollary2 import rescaled_mass

pytestmark = pytest.mark.slow  # each probe shrinks through mpmath enumerations: seconds, not milliseconds


def _mass_times(factor):
    return lambda i, xp: factor(i, xp) * rescaled_mass(i, xp)


def _outside(i, xp):
    return xp.number(len(i["w"]) - int(i["n"])) / len(i["w"])


def _mutant(statement_id, suffix, factor):
    return dataclasses.replace(STATEMENTS[statement_id], id=f"{statement_id}.{suffix}", rhs=_mass_times(factor))


MUTANTS = {
    "corollary2.i.corrected": (
        _mutant("corollary2.i.corrected", "factor-n", lambda i, xp: int(i["n"])),
        _mutant("corollary2.i.corrected", "half-factor", lambda i, xp: xp.number(1 + int(i["n"])) / 2),
    ),
    "corollary2.ii": (
        _mutant("corollary2.ii", "squared-outside", lambda i, xp: _outside(i, xp) ** 2 * (1 + int(i["n"]))),
        _mutant("corollary2.ii", "no-one-plus-n", lambda i, xp: _outside(i, xp)),
    ),
}


@pytest.mark.parametrize("mutant", [m for ms in MUTANTS.values() for m in ms], ids=lambda m: m.id)
def test_mutant_is_refuted(mutant):
    assert refute(mutant, max_examples=40, seed=0) is not None
