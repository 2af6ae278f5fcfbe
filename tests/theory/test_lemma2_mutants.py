"""Mutants of Lemma 2's bound [R]: each must be refuted.

Lemma 2's bound is loose by a factor 2 at uniform logits (``‖J‖ = 1/(LT)`` against ``2/(LT)``),
so the tightened constant is 0.45, not 0.95.
"""

import dataclasses

import numpy as np
import pytest

from theorems import STATEMENTS, refute
from theorems.statements.gradient.lemma2 import lemma2_parts

pytestmark = pytest.mark.theory

LEMMA2 = STATEMENTS["lemma2"]


def _drop_max_term(i, xp):
    F, dF, alpha = lemma2_parts(i, xp)
    return xp.norm(alpha) * xp.norm(dF) / (len(F) * np.min(F))


MUTANTS = {
    "lemma2": (
        dataclasses.replace(LEMMA2, id="lemma2.mutant-045", rhs=lambda i, xp: LEMMA2.rhs(i, xp) * xp.number("0.45")),
        dataclasses.replace(LEMMA2, id="lemma2.mutant-drop-max", rhs=_drop_max_term),
        dataclasses.replace(LEMMA2, id="lemma2.mutant-l-squared",
                            rhs=lambda i, xp: LEMMA2.rhs(i, xp) / len(i["logits"])),
    ),
}


@pytest.mark.parametrize("mutant", MUTANTS["lemma2"], ids=lambda m: m.id)
def test_mutant_is_refuted(mutant):
    found = refute(mutant, max_examples=300, seed=0)  # the drop-max mutant fails only off the uniform equality case
    assert found is not None, f"{mutant.id} survived"
    assert found.method.startswith("arb ball arithmetic")
