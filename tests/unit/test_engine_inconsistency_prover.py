"""The prover's box evaluation is cross-checked too: with a wrong dual form, the float64 sides at a box's centre
fall outside the box's enclosure, and ``prove`` raises an engine inconsistency instead of proving anything."""

import pytest

from theorems import STATEMENTS, EngineInconsistency
from theorems.arithmetic import ball_forms
from theorems.engine.prove import SUITE_BOXES, prove

EXP = ball_forms.find("DUAL.exp").ball_form


def test_a_wrong_dual_exp_is_caught_by_the_prover():
    # exp(x) + 1, not a flipped sign: softmax divides a flip away (−e/Σ−e = e/Σe), a stray term it does not
    statement = STATEMENTS["lemma1.upper"]
    with ball_forms.replaced("DUAL.exp", lambda x: EXP(x) + 1), pytest.raises(EngineInconsistency) as caught:
        prove(statement, max_seconds=None, max_boxes=SUITE_BOXES, seed=0)
    assert caught.value.statement_id == "lemma1.upper" and "box's centre" in caught.value.reference


def test_with_the_real_forms_the_same_proof_is_not_inconsistent():
    assert prove(STATEMENTS["lemma1.upper"], max_seconds=None, max_boxes=SUITE_BOXES, seed=0).status in ("proved", "undecided")
