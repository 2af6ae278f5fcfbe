"""A side that is shift invariant but not homogeneous in ``(l, T)`` (``2p₀(1 − p₀) + T/100 ≤ 1/2 + T/100``: degrees
0 and 1 mixed) is proved through the shift alone, ``T`` kept in the box, never through the reduction to ``T = 1``;
its certificate is accepted. Without the shift the same budget leaves it undecided."""

import dataclasses

import raw_logit_bounds as raw
from theorems import verify_proof
from theorems.engine.prove import prove

BUDGET = 4000


def _mixed_degrees():
    def p0(i):
        return raw.softmax(i)[0]
    return dataclasses.replace(raw.JACOBIAN_TWO, id="shift.mixed-degrees",
                               lhs=lambda i, xp: 2 * p0(i) * (1 - p0(i)) + i["T"] / 100,
                               rhs=lambda i, xp: 0.5 + i["T"] / 100, prove={"l": [(-1.0, 1.0)] * 2, "T": (0.5, 2.0)})


def test_it_is_proved_through_the_shift_with_t_in_the_box(tmp_path):
    path = tmp_path / "proof.json"
    proof = prove(_mixed_degrees(), slack=1e-4, max_seconds=None, max_boxes=BUDGET, certificate=path)
    assert proof.status == "proved" and proof.checker == "proved", proof.describe()
    assert "shift invariance" in proof.method and "homogeneity" not in proof.method, proof.method
    assert proof.method.endswith("T a coordinate of the box"), proof.method
    assert verify_proof(path, statement=_mixed_degrees()).status == "proved"


def test_without_the_shift_the_same_budget_does_not_prove_it():
    proof = prove(_mixed_degrees(), slack=1e-4, max_seconds=None, max_boxes=BUDGET, shift=False)
    assert proof.status == "undecided", proof.describe()
