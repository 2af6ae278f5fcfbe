"""An undecided ``max``/``abs``/comparison splits the box into paths, each bounded only where its outcome is the
side's. Each side here is false on its box, and would be proved if a path's condition were taken the wrong way
round, dropped, or a face claimed across a jump: the float64 points are not looked at (sampling, box centres and
vertices off), so the enclosures alone must keep each one from being proved. A forged certificate for each is
rejected by the checker, which splits by its own means; a true side with a kink on its tight set is proved, path by
path, where the mean-value form's hull does not close it."""

import dataclasses
import json

import numpy as np
import pytest

import raw_logit_bounds as raw
from theorems import verify_proof
from theorems.checker.certificate import FORMAT
from theorems.engine.prove import evaluate, prove

DOMAIN = {"x": [(0.0, 1.0)], "T": 1.0}


def _x(i):
    return i["x"][0]


FALSE = {  # name → (lhs, rhs): lhs ≤ rhs fails somewhere in x ∈ [0, 1]
    "max(x, 1/2) ≤ 0.8": (lambda i, xp: np.maximum(_x(i), 0.5), lambda i, xp: 0.8),
    "where(x > 1/2, x, 1/2) ≤ 0.8": (lambda i, xp: np.where(i["x"] > 0.5, i["x"], 0.5)[0], lambda i, xp: 0.8),
    "|x − 1/2| ≤ 0.4": (lambda i, xp: abs(_x(i) - 0.5), lambda i, xp: 0.4),
    "1 at the tie x = 1/2": (lambda i, xp: 1.0 if _x(i) == 0.5 else 0.0, lambda i, xp: 0.5),
    "where(x > 1/4, |x − 1/2|, 0) ≤ 0.4": (lambda i, xp: np.where(i["x"] > 0.25, abs(i["x"] - 0.5), 0.0)[0],
                                          lambda i, xp: 0.4),
    "a branch worth 2 where x > 0.3": (lambda i, xp: 2.0 if _x(i) > 0.3 else 0.5, lambda i, xp: 1.0),
}


def _statement(name, lhs, rhs):
    """Built in a function: the pytest plugin would check a module-level statement."""
    slug = "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-")
    return dataclasses.replace(raw.JACOBIAN_TWO, id="branch." + "-".join(filter(None, slug.split("-"))), lhs=lhs,
                               rhs=rhs, relation="<=", prove=DOMAIN, expected="refuted")


@pytest.mark.parametrize("name", list(FALSE))
def test_a_false_side_with_a_kink_or_a_jump_is_never_proved(name, enclosures_only):
    proof = prove(_statement(name, *FALSE[name]), slack=1e-4, max_seconds=None, max_boxes=3000)
    assert proof.status == "undecided", proof.describe()


@pytest.mark.parametrize("name", list(FALSE))
def test_a_forged_certificate_for_it_is_rejected(name, tmp_path):
    """One box, the whole domain, closed "path by path", with and without a face claimed."""
    for faces in ([], [[0, "high"]], [[0, "low"]]):
        data = {"format": FORMAT, "version": 1, "statement": "forged", "relation": "<=", "slack": 1e-4,
                "domain": {"x": {"intervals": [[0.0, 1.0]]}, "T": {"value": 1.0}},
                "boxes": [{"low": [0.0], "high": [1.0], "method": "taylor2+branches", "faces": faces}]}
        path = tmp_path / "forged.json"
        path.write_text(json.dumps({**data, "statement": _statement(name, *FALSE[name]).id}))
        check = verify_proof(path, statement=_statement(name, *FALSE[name]))
        assert check.status == "rejected", (faces, check.describe())


def test_no_face_is_claimed_across_a_jump(tmp_path):
    """``x − 10`` where ``x > 1/2``, ``x`` elsewhere: increasing on each path, so a face at ``x = 1`` would read
    ``−9 ≤ 0.4`` for the box; the side is ``0.5 > 0.4`` just below ``x = 1/2``."""
    statement = _statement("jump", lambda i, xp: np.where(i["x"] > 0.5, i["x"] - 10, i["x"])[0], lambda i, xp: 0.4)
    data = {"format": FORMAT, "version": 1, "statement": statement.id, "relation": "<=", "slack": 1e-4,
            "domain": {"x": {"intervals": [[0.0, 1.0]]}, "T": {"value": 1.0}},
            "boxes": [{"low": [0.0], "high": [1.0], "method": "taylor2+branches+faces", "faces": [[0, "high"]]}]}
    path = tmp_path / "jump.json"
    path.write_text(json.dumps(data))
    check = verify_proof(path, statement=statement, refine=0)
    assert check.status == "rejected", check.describe()


def test_the_stable_softmax_across_its_kink_closes_path_by_path(monkeypatch):
    """``2p₀(1 − p₀)/T ≤ 1/(2T)`` with ``l₀ ∈ [−1, 1]``, ``l₁ = 0``, ``T ∈ [0.5, 2]``: the max shift's kink is the
    tight set ``l₀ = 0``; on each path (``max l = l₀`` or ``l₁``) the shift cancels and the second-order form
    applies. Without the paths (the second-order form declining at the kink, as before) the same budget is not
    enough."""
    statement = dataclasses.replace(raw.JACOBIAN_TWO, prove={"l": [(-1.0, 1.0), (0.0, 0.0)], "T": (0.5, 2.0)})
    proof = prove(statement, slack=1e-4, max_seconds=None, max_boxes=4000, shift=False, homogeneity=False)
    assert proof.status == "proved", proof.describe()
    assert "path by path at undecided decisions on" in proof.method
    monkeypatch.setattr(evaluate, "closed_by_paths", lambda *args: ({}, np.inf))
    before = prove(statement, slack=1e-4, max_seconds=None, max_boxes=4000, shift=False, homogeneity=False)
    assert before.status == "undecided", before.describe()
