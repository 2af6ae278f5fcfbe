"""A proof's certificate, written by ``prove(..., certificate=PATH)``, is accepted by the independent checker, and
the proof says so (``Proof.checker``), with its domain as data (``Proof.box``) and its method."""

import json

from theorems import STATEMENTS
from theorems import verify_proof
from theorems.checker.certificate import FORMAT
from theorems.engine.prove import prove
from theorems.engine.prove.certificate import METHODS

ENTRY = STATEMENTS["corollary3.entry.corrected"]


def test_a_proofs_certificate_is_accepted_by_verify_proof(tmp_path):
    path = tmp_path / "entry.json"
    proof = prove(ENTRY, certificate=path)
    data = json.loads(path.read_text())
    assert proof.status == "proved" and proof.checker == "proved", proof.checker_detail
    assert data["format"] == FORMAT and data["statement"] == ENTRY.id
    assert len(data["boxes"]) <= proof.boxes and {box["method"] for box in data["boxes"]} <= set(METHODS)
    check = verify_proof(path)
    assert check.proved and check.boxes == len(data["boxes"]), check.describe()


def test_the_proof_gives_its_domain_as_data_and_its_method(tmp_path):
    proof = prove(ENTRY, {"gaps": [(0.0, 10.0)] * 2, "T": 1.0}, certificate=tmp_path / "entry.json")
    assert proof.box == {"gaps": [[0.0, 10.0], [0.0, 10.0]], "T": 1.0}
    assert "mean-value" in proof.method and "coordinate" not in proof.method
    shown = proof.to_json()
    assert shown["box"] == proof.box and shown["checker"] == "proved" and "independent checker: proved" in proof.describe()


def test_without_a_certificate_nothing_is_checked():
    proof = prove(STATEMENTS["corollary3.row.corrected"], {"gaps": [(0.0, 10.0)], "T": 1.0})  # T fixed: no reduction
    assert proof.status == "proved" and proof.checker is None and proof.box == {"gaps": [[0.0, 10.0]], "T": 1.0}
