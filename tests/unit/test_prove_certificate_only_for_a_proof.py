"""A certificate file is written only for a proof: an undecided or refuted ``prove`` leaves none behind, nor does a
reduction the checker rejects (its certificate is checked in a temporary file); and the checker's re-check stops at
``prove``'s deadline like the search does."""

import dataclasses

import pytest

from theorems import STATEMENTS
from theorems.engine.prove import certificate as proof_certificate
from theorems.engine.prove import reduction as proof_reduction
from theorems.engine.prove import prove
from user_bounds import spectral

ROW = STATEMENTS["corollary3.row.corrected"]


def _floored(i, xp):
    """``max{1/(2T), √2}``: true, but not homogeneous (the checker's graded evaluation refuses it)."""
    half, root2 = 1 / (2 * i["T"]), xp.sqrt(xp.number(2))
    return root2 if half < root2 else half


def test_an_undecided_proof_writes_no_certificate(tmp_path):
    path = tmp_path / "proof.json"
    proof = prove(ROW, {"gaps": [(0.0, 10.0)], "T": (0.1, 10.0)}, homogeneity=False, max_seconds=None, max_boxes=3,
                  certificate=path)
    assert proof.status == "undecided" and not path.exists()


def test_a_refuted_proof_writes_no_certificate(tmp_path):
    path = tmp_path / "proof.json"
    proof = prove(spectral(0.98), {"gaps": [(0.0, 10.0)], "T": (0.1, 10.0)}, max_seconds=None, max_boxes=100,
                  certificate=path)
    assert proof.status == "refuted" and not path.exists()


def test_a_rejected_reduction_leaves_no_file(tmp_path, monkeypatch):
    """The screen let through (as a whole-box screen may), the base proof closes at ``T = 1`` (``√2 ≥ ‖J‖₂``), the
    checker rejects the reduction: the proof goes on with ``T`` in the box, and its budget ends undecided."""
    monkeypatch.setattr(proof_reduction, "plausible", lambda *args: True)
    floored = dataclasses.replace(STATEMENTS["corollary3.spectral.corrected"], id="test.floored", rhs=_floored)
    path = tmp_path / "proof.json"
    proof = prove(floored, {"gaps": [(0.0, 10.0)], "T": (0.1, 10.0)}, max_seconds=None, max_boxes=20, certificate=path)
    assert proof.status == "undecided" and not proof.method.startswith("homogeneity"), proof.describe()
    assert not path.exists()


def test_the_checkers_re_check_stops_at_the_deadline(tmp_path):
    path = tmp_path / "proof.json"
    proof = prove(ROW, {"gaps": [(0.0, 10.0)], "T": 1.0}, max_seconds=None, max_boxes=1000, certificate=path)
    assert proof.status == "proved" and proof.boxes > 1 and path.exists(), proof.describe()
    status, text = proof_certificate.check(path, ROW, deadline=0.0)  # long past
    assert status == "not checked" and "time limit was reached while the checker re-checked box 1 of" in text
