"""A proof whose certificate the independent checker rejects is not "proved": prover and checker disagree, so one of
them is wrong, and ``prove`` says undecided with the checker's reason (its certificate file removed)."""

import dataclasses

from theorems import STATEMENTS
from theorems.checker.verify import verify_proof
from theorems.engine.prove import certificate as proof_certificate
from theorems.engine.prove import prove

ROW = STATEMENTS["corollary3.row.corrected"]
DOMAIN = {"gaps": [(0.0, 10.0)], "T": 1.0}


def _refusing(path, **kwargs):
    """The checker's verdict turned into a rejection (a disagreement, forced)."""
    return dataclasses.replace(verify_proof(path, **kwargs), status="rejected", reason="forced for this test")


def test_a_rejected_certificate_makes_the_proof_undecided(tmp_path, monkeypatch):
    import theorems.checker.verify as verify

    monkeypatch.setattr(verify, "verify_proof", _refusing)
    path = tmp_path / "proof.json"
    proof = prove(ROW, DOMAIN, max_seconds=None, max_boxes=1000, certificate=path)
    assert proof.status == "undecided" and proof.checker == "rejected" and proof.sup is None, proof.describe()
    assert "the independent checker rejected its certificate" in proof.detail
    assert not path.exists()


def test_an_accepted_certificate_keeps_the_proof(tmp_path):
    path = tmp_path / "proof.json"
    proof = prove(ROW, DOMAIN, max_seconds=None, max_boxes=1000, certificate=path)
    assert proof.status == "proved" and proof.checker == "proved" and path.exists(), proof.describe()


def test_the_small_proof_check_of_the_gate_says_undecided_too(monkeypatch):
    import theorems.checker.verify as verify

    monkeypatch.setattr(verify, "verify_proof", _refusing)
    proof = proof_certificate.checked_if_small(prove(ROW, DOMAIN, max_seconds=None, max_boxes=1000), ROW)
    assert proof.status == "undecided" and proof.checker == "rejected", proof.describe()
