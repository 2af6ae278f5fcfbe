"""The catalogue's declared domains that matter: the Corollary 3 bounds, Corollary 1's and Lemma 1's with ``T`` on an
interval containing ``[0.1, 10]``, each proved with a certificate the independent checker accepts; the entry bound at
``L = 4`` too."""

import pytest

from theorems import STATEMENTS
from theorems.arithmetic.decimals import outward
from theorems.engine.prove import SUITE_BOXES, prove

ON_T = ["corollary3.spectral.corrected", "corollary3.frobenius.corrected", "corollary3.row.corrected",
        "corollary3.entry.corrected", "corollary1.max-key.upper", "corollary1.max-key.lower",
        "corollary1.own-key.upper.corrected", "corollary1.own-key.lower.corrected", "lemma1.upper", "lemma1.lower"]


@pytest.mark.parametrize("sid", ON_T)
def test_the_declared_domain_covers_t_from_a_tenth_to_ten_and_is_checked(sid, tmp_path):
    statement = STATEMENTS[sid]
    low, high = statement.prove["T"]
    assert low <= 0.1 and high >= 10
    proof = prove(statement, max_seconds=None, max_boxes=SUITE_BOXES, certificate=tmp_path / "proof.json")
    assert proof.status == "proved" and proof.checker == "proved", proof.describe()
    assert proof.box["T"] == list(outward(low, high)) and proof.method.startswith("homogeneity")


@pytest.mark.slow
def test_the_entry_bound_at_four_logits_on_t_intervals_is_checked(tmp_path):
    proof = prove(STATEMENTS["corollary3.entry.corrected"], {"gaps": [(0.0, 10.0)] * 3, "T": (0.1, 10.0)},
                  max_seconds=None, max_boxes=SUITE_BOXES, certificate=tmp_path / "proof.json")
    assert proof.status == "proved" and proof.checker == "proved" and proof.tokens == 4, proof.describe()
