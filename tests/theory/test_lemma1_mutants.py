"""Deliberately wrong variants of Lemma 1 must be refuted: the gate catches an edited bound."""

import dataclasses

import pytest

from theorems import STATEMENTS, refute
from theorems.statements.vanishing.lemma1 import constants

UPPER, LOWER = STATEMENTS["lemma1.upper"], STATEMENTS["lemma1.lower"]


def _rhs(which, transform):
    def side(i, xp):
        return transform(constants(i["normaliser"], i["a"], i["L0"], xp=xp)[which], len(i["logits"]))
    return side


MUTANTS = {
    "lemma1.upper": (
        dataclasses.replace(UPPER, id="lemma1.upper.tightened", rhs=_rhs(1, lambda c, L: 0.9 * c / L)),
        dataclasses.replace(UPPER, id="lemma1.upper.sqrt-constant", rhs=_rhs(1, lambda c, L: c ** 0.5 / L)),
        dataclasses.replace(UPPER, id="lemma1.upper.faster-decay", rhs=_rhs(1, lambda c, L: c / L ** 1.1)),
    ),
    "lemma1.lower": (
        dataclasses.replace(LOWER, id="lemma1.lower.loosened-constant", rhs=_rhs(0, lambda c, L: 1.1 * c / L)),
        dataclasses.replace(LOWER, id="lemma1.lower.sqrt-constant", rhs=_rhs(0, lambda c, L: c ** 0.5 / L)),
        dataclasses.replace(LOWER, id="lemma1.lower.slower-decay", rhs=_rhs(0, lambda c, L: c / L ** 0.9)),
    ),
}


@pytest.mark.parametrize("mutant", [m for ms in MUTANTS.values() for m in ms], ids=lambda m: m.id)
def test_mutant_is_refuted(mutant):
    assert refute(mutant, seed=0) is not None
