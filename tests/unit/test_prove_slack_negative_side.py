"""Slack is measured by ``|big|``: ``proved`` is ``small ≤ big + slack·|big|``. A bound tight where its sides are
negative is provable (read as ``small ≤ (1 + slack)·big`` it was false there: ``−slack·big > 0``), its 2 % mutant
is refuted, and a side that overshoots by more than the slack, or that a face of a box would prove only in another
form of the claim, is never proved — by the prover or by the checker."""

import dataclasses
import json

import pytest

import raw_logit_bounds as raw
from theorems import verify_proof
from theorems.checker.certificate import FORMAT
from theorems.engine.prove import prove

SLACK = 1e-4
DOMAIN = {"x": [(-1.0, 1.0)], "T": 1.0}


def _x(i):
    return i["x"][0]


def _statement(name, lhs, rhs, domain=DOMAIN):
    """Built in a function: the pytest plugin would check a module-level statement."""
    return dataclasses.replace(raw.JACOBIAN_TWO, id=f"slack.{name}", lhs=lhs, rhs=rhs, relation="<=", prove=domain,
                               expected="holds")


def _tight_negative():
    """``−1 − x² ≤ −1``: equality at ``x = 0``, where both sides are ``−1``."""
    return _statement("tight-negative", lambda i, xp: -1 - _x(i) ** 2, lambda i, xp: -1.0)


def test_a_bound_tight_where_its_sides_are_negative_is_proved_and_checked(tmp_path):
    proof = prove(_tight_negative(), slack=SLACK, max_seconds=None, max_boxes=200, certificate=tmp_path / "proof.json")
    assert proof.status == "proved" and proof.checker == "proved", proof.describe()


def test_the_stable_log_sum_exp_tight_at_negative_logits_is_proved_on_its_own_box(tmp_path):
    """``T·LSE(l/T) ≤ max l + T log 2`` at ``l ∈ [−1, −0.9]²``, ``T = 0.5``: the right side is below ``−0.55`` on the
    whole box, and the two sides are equal on the diagonal; no reduction (the box as written)."""
    statement = dataclasses.replace(raw.LSE_UPPER, id="slack.lse-negative", prove={"l": [(-1.0, -0.9)] * 2, "T": 0.5},
                                    rhs=lambda i, xp: raw.np.max(i["l"]) + i["T"] * raw.np.log(2))
    proof = prove(statement, slack=SLACK, max_seconds=None, max_boxes=3000, homogeneity=False, shift=False,
                  certificate=tmp_path / "proof.json")
    assert proof.status == "proved" and proof.checker == "proved", proof.describe()
    assert "shift" not in proof.method and "homogeneity" not in proof.method


def test_its_two_percent_mutant_is_refuted():
    mutant = _statement("tight-negative-mutant", _tight_negative().lhs, lambda i, xp: -1.02)
    proof = prove(mutant, slack=SLACK, max_seconds=None, max_boxes=200)
    assert proof.status == "refuted" and proof.counterexample is not None, proof.describe()


@pytest.mark.parametrize("big", [-1.0, 1.0])
def test_an_overshoot_beyond_the_slack_is_never_proved(big, enclosures_only):
    """``big − x² + 2·slack·|big| ≤ big``: false near ``x = 0`` by more than the slack allows, either sign of
    ``big``."""
    statement = _statement("overshoot-" + ("negative" if big < 0 else "positive"),
                           lambda i, xp: big - _x(i) ** 2 + 2 * SLACK * abs(big), lambda i, xp: big)
    proof = prove(statement, slack=SLACK, max_seconds=None, max_boxes=2000)
    assert proof.status == "undecided", proof.describe()


FACE_SLACK = 1e-2


def _across_zero():
    """``big = −x`` crosses 0; ``small − (1 + slack)·big = slack·(x + 3)/4`` increases, so its largest value on
    ``[−1, 1]`` is at ``x = 1``, where ``big = −1`` and the claim holds exactly (``small = −1``); the claim is false at
    ``x = −1`` (``small = 1 + 1.5·slack > big + slack·|big|``). The face ``x = 1`` closes the box only if it is
    judged in another form
    (``small − (1 − slack)·big = −slack``) than the one whose monotonicity put it there."""
    return _statement("face-across-zero", lambda i, xp: -(1 + FACE_SLACK) * _x(i) + FACE_SLACK * (_x(i) + 3) / 4,
                      lambda i, xp: -_x(i))


def test_a_face_keeps_the_form_of_its_box(enclosures_only):
    proof = prove(_across_zero(), slack=FACE_SLACK, max_seconds=None, max_boxes=2000)
    assert proof.status != "proved", proof.describe()


def test_the_checker_keeps_the_form_of_a_box_on_its_face(tmp_path):
    data = {"format": FORMAT, "version": 1, "statement": _across_zero().id, "relation": "<=", "slack": FACE_SLACK,
            "domain": {"x": {"intervals": [[-1.0, 1.0]]}, "T": {"value": 1.0}},
            "boxes": [{"low": [-1.0], "high": [1.0], "method": "mean-value", "faces": [[0, "high"]]}]}
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(data))
    check = verify_proof(path, statement=_across_zero(), refine=0)
    assert check.status == "rejected", check.describe()
