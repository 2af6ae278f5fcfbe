"""A true bound whose left side is a constant, tight where ``big < 0`` (``−1 ≤ −1 + x`` on ``x ∈ [0, 1]``): its face
(``x = 0``) is evaluated in the box's form inside the face's own box context, so the second-order form's jets of a
constant have their box (before: ``IndexError`` from an empty Hessian, the bound left undecided)."""

import dataclasses

import pytest

import raw_logit_bounds as raw
from theorems.engine.prove import prove


@pytest.mark.parametrize("constant", [-1.0, -2.5])
def test_a_constant_side_tight_at_a_face_where_big_is_negative_is_proved(constant, tmp_path):
    statement = dataclasses.replace(raw.JACOBIAN_TWO, id="constant.left-side", lhs=lambda i, xp: constant,
                                    rhs=lambda i, xp: constant + i["x"][0], relation="<=",
                                    prove={"x": [(0.0, 1.0)], "T": 1.0}, expected="holds")
    proof = prove(statement, slack=1e-4, max_seconds=None, max_boxes=200, certificate=tmp_path / "proof.json")
    assert proof.status == "proved", proof.describe()
    assert proof.checker == "proved"
