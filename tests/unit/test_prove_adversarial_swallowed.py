"""A side that catches the engine's ``Undecided`` (an ``ArithmeticError``) or the checker's ``NotInvariant`` in its
own ``try``/``except`` and returns something else must not close a box: an evaluation during which one was raised
fails, even where the side returned normally (:func:`theorems.errors.watching`), in the prover and in the checker.
Each side here is false on a thin set its comparison meets; the float64 points are not looked at, so only the
enclosures decide."""

import dataclasses
import json

import numpy as np
import pytest

import raw_logit_bounds as raw
from theorems import verify_proof
from theorems.checker.certificate import FORMAT
from theorems.engine.prove import prove

THIN = (0.3, 0.3 + 1e-12)


def _two_on_a_thin_slab(i, xp):
    """2 on ``x ∈ (0.3, 0.3 + 1e-12]``, else 0; a comparison undecided on a box is swallowed as "0"."""
    x = i["x"][0]
    try:
        return 2.0 if (x > THIN[0] and x <= THIN[1]) else 0.0
    except ArithmeticError:
        return 0.0


def _p0(i):
    z = np.exp(i["l"] - np.max(i["l"]))
    return (z / np.sum(z))[0]


def _not_invariant(i, xp):
    """``2p₀(1 − p₀)``, plus 1 where ``l₀ > 0.999``: not shift invariant, the checker's ``NotInvariant`` swallowed."""
    base = 2 * _p0(i) * (1 - _p0(i))
    try:
        return base + 1.0 if i["l"][0] > 0.999 else base
    except Exception:  # noqa: BLE001 - the attack: a "defensive" fallback
        return base


def _statements():
    """Built in a function: the pytest plugin would check a module-level statement."""
    swallow = dataclasses.replace(raw.JACOBIAN_TWO, id="swallow.thin-slab", lhs=_two_on_a_thin_slab,
                                  rhs=lambda i, xp: 1.0, relation="<=", prove={"x": [(0.0, 1.0)], "T": 1.0},
                                  expected="refuted")
    honest = dataclasses.replace(raw.JACOBIAN_TWO, id="swallow.not-invariant",
                                 lhs=lambda i, xp: 2 * _p0(i) * (1 - _p0(i)), rhs=lambda i, xp: 0.5,
                                 prove={"l": [(-1.0, 1.0)] * 2, "T": 1.0}, expected="holds")
    return swallow, honest, dataclasses.replace(honest, lhs=_not_invariant, expected="refuted")


@pytest.mark.parametrize("which", [0, 2], ids=["undecided", "not-invariant"])
def test_a_side_that_swallows_an_undecided_decision_is_never_proved(which, enclosures_only):
    proof = prove(_statements()[which], slack=1e-4, max_seconds=None, max_boxes=2000)
    assert proof.status != "proved", proof.describe()


def test_a_forged_one_box_certificate_for_a_swallowing_side_is_rejected(tmp_path):
    swallow, _, _ = _statements()
    data = {"format": FORMAT, "version": 1, "statement": swallow.id, "relation": "<=", "slack": 1e-4,
            "domain": {"x": {"intervals": [[0.0, 1.0]]}, "T": {"value": 1.0}},
            "boxes": [{"low": [0.0], "high": [1.0], "method": "mean-value", "faces": []}]}
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(data))
    check = verify_proof(path, statement=swallow, refine=0)
    assert check.status == "rejected", check.describe()


def test_an_honest_shift_certificate_does_not_prove_a_side_that_swallows_not_invariant(tmp_path):
    """The certificate of the true ``2p₀(1 − p₀) ≤ 1/2`` (through the shift) is accepted for it; for the side that
    adds 1 where ``l₀ > 0.999`` and swallows the checker's ``NotInvariant``, the same certificate is rejected."""
    _, honest, not_invariant = _statements()
    path = tmp_path / "honest.json"
    proof = prove(honest, slack=1e-4, max_seconds=None, max_boxes=2000, certificate=path)
    assert proof.status == "proved" and "shift invariance" in proof.method, proof.describe()
    assert verify_proof(path, statement=honest).status == "proved"
    check = verify_proof(path, statement=not_invariant)
    assert check.status == "rejected", check.describe()
