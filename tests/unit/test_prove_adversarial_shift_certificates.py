"""A shift reduction's certificate forged one way at a time — a piece dropped with its boxes, one piece's boxes
dropped, a piece's top entry relabelled, a piece shrunk, the reduction removed — is rejected by the checker, which
derives from the domain itself which instances each top entry must cover. A side that is shift invariant but
branches on a tie (``l₀ == l₁``, false only there) is never proved through the reduction, and the honest proof's
certificate is rejected for it."""

import copy
import dataclasses
import json

import pytest

import raw_logit_bounds as raw
from checker_certificates import write
from theorems import verify_proof
from theorems.engine.prove import prove, run

DOMAIN = {"l": [(-1.0, 1.0)] * 2, "T": 1.0}


def _jacobian():
    """``2p₀(1 − p₀)/T ≤ 1/(2T)`` on ``l ∈ [−1, 1]²``, ``T = 1``: proved through the shift in two pieces."""
    return dataclasses.replace(raw.JACOBIAN_TWO, prove=DOMAIN)


@pytest.fixture(scope="module")
def honest(tmp_path_factory):
    path = tmp_path_factory.mktemp("proof") / "proof.json"
    proof = prove(_jacobian(), slack=1e-4, max_seconds=None, max_boxes=5000, certificate=path)
    assert proof.status == "proved" and proof.checker == "proved" and "shift" in proof.method, proof.describe()
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [piece["top"] for piece in data["shift"]["pieces"]] == [0, 1]
    return data


def _check(tmp_path, data, statement=None):
    return verify_proof(write(tmp_path / "forged.json", data), statement=statement or _jacobian())


def test_the_honest_certificate_is_accepted(tmp_path, honest):
    assert _check(tmp_path, honest).proved


def test_a_piece_dropped_with_its_boxes_is_rejected(tmp_path, honest):
    data = copy.deepcopy(honest)
    data["shift"]["pieces"].pop(1)
    data["boxes"] = [box for box in data["boxes"] if box["piece"] == 0]
    check = _check(tmp_path, data)
    assert check.status == "rejected" and "no piece with top entry 1" in check.reason, check.describe()


def test_one_pieces_boxes_dropped_leave_it_uncovered(tmp_path, honest):
    data = copy.deepcopy(honest)
    data["boxes"] = [box for box in data["boxes"] if box["piece"] == 0]
    check = _check(tmp_path, data)
    assert check.status == "rejected" and "uncovered" in check.reason and "piece 1" in check.reason, check.describe()


def test_a_relabelled_top_entry_is_rejected(tmp_path, honest):
    """Both pieces claim entry 0 as the largest: the instances where entry 1 is are in none."""
    data = copy.deepcopy(honest)
    data["shift"]["pieces"][1]["top"] = 0
    check = _check(tmp_path, data)
    assert check.status == "rejected" and "no piece with top entry 1" in check.reason, check.describe()


def test_a_shrunk_piece_is_rejected(tmp_path, honest):
    """Piece 0 claims only ``l₁ ∈ [−1, 0]`` (the shifted ``l₁`` reaches ``−2``), its boxes clipped to it."""
    data = copy.deepcopy(honest)
    data["shift"]["pieces"][0]["domain"]["l"]["intervals"][1] = [-1.0, 0.0]
    kept = []
    for box in data["boxes"]:
        if box["piece"] == 0:
            if box["high"][1] <= -1.0:
                continue
            box["low"][1] = max(box["low"][1], -1.0)
        kept.append(box)
    data["boxes"] = kept
    check = _check(tmp_path, data)
    assert check.status == "rejected" and "no piece with top entry 0" in check.reason, check.describe()


def test_the_reduction_removed_leaves_the_domain_uncovered(tmp_path, honest):
    data = copy.deepcopy(honest)
    data["shift"] = None
    for box in data["boxes"]:
        box.pop("piece")
    check = _check(tmp_path, data)
    assert check.status == "rejected", check.describe()


def _tie_worth_two():
    """``2`` where ``l₀ == l₁``, ``p₀`` elsewhere, ``≤ 1``: shift invariant (the decision reads ``l₀ − l₁``, which
    does not move), false on the diagonal alone, which every piece meets at its corner."""
    def lhs(i, xp):
        return 2.0 if i["l"][0] == i["l"][1] else raw.softmax(i)[0]
    return dataclasses.replace(raw.JACOBIAN_TWO, id="shift.tie-worth-two", lhs=lhs, rhs=lambda i, xp: 1.0,
                               prove=DOMAIN, expected="refuted")


def test_a_shift_invariant_side_false_at_a_tie_is_never_proved(monkeypatch, enclosures_only):
    monkeypatch.setattr(run, "_refuted_on_sight", lambda *args: False)
    proof = prove(_tie_worth_two(), slack=1e-4, max_seconds=None, max_boxes=3000)
    assert proof.status == "undecided", proof.describe()


def test_the_honest_certificate_does_not_prove_the_tie(tmp_path, honest):
    data = copy.deepcopy(honest)
    data["statement"] = _tie_worth_two().id
    check = _check(tmp_path, data, _tie_worth_two())
    assert check.status == "rejected" and "undecided" in check.reason, check.describe()  # the tie, never decided
