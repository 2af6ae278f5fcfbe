"""The catalogue's declared domains that matter: every Corollary 3 bound, Corollary 1's and Lemma 1's with ``T`` on an
interval containing ``[0.1, 10]``, each proved with a certificate the independent checker accepts; the entry bound at
``L = 4`` too."""

import pytest

from theorems import STATEMENTS
from theorems.arithmetic.decimals import outward
from theorems.engine.prove import SUITE_BOXES, prove

DECLARED = [sid for sid, statement in STATEMENTS.items() if statement.prove is not None]
LONG = {"corollary3.finite-difference.corrected", "corollary3.motivating.corrected"}  # about 28,000 boxes each
ON_T = [pytest.param(sid, marks=pytest.mark.slow) if sid in LONG else sid for sid in DECLARED]


def test_every_corollary3_corollary1_and_lemma1_bound_that_holds_declares_a_domain():
    assert len(DECLARED) == 12 and LONG <= set(DECLARED)


@pytest.mark.parametrize("sid", ON_T)
def test_the_declared_domain_covers_t_from_a_tenth_to_ten_and_is_checked(sid, tmp_path):
    statement = STATEMENTS[sid]
    low, high = statement.prove["T"]
    assert low <= 0.1 and high >= 10
    proof = prove(statement, max_seconds=None, max_boxes=SUITE_BOXES, certificate=tmp_path / "proof.json")
    assert proof.status == "proved" and proof.checker == "proved", proof.describe()
    assert proof.box["T"] == list(outward(low, high))
    assert proof.method.startswith(("homogeneity", "shift invariance")), proof.method  # a reduction, proved


@pytest.mark.slow
def test_the_entry_bound_at_four_logits_on_t_intervals_is_checked(tmp_path):
    proof = prove(STATEMENTS["corollary3.entry.corrected"], {"gaps": [(0.0, 10.0)] * 3, "T": (0.1, 10.0)},
                  max_seconds=None, max_boxes=SUITE_BOXES, certificate=tmp_path / "proof.json")
    assert proof.status == "proved" and proof.checker == "proved" and proof.tokens == 4, proof.describe()
