"""The second-order Taylor form closes boxes the mean-value form cannot, where a tight bound is attained along a
ridge (the finite difference's ratio is exactly 1 at ``l₁ − l₂ = −ε/√2`` for every ``T``), and the certificates it
writes are accepted by the independent checker; a side with a kink inside the box declines it (the mean-value form
with its hulls stays sound there)."""

import json

import flint
import numpy as np
import pytest

from theorems import STATEMENTS
from theorems.arithmetic.precision import working_bits
from theorems.arithmetic.box_jet import TAYLOR, NotSmooth, on_box
from theorems.engine import prove as proof
from theorems.engine.prove import evaluate
from theorems.engine.prove.state import BranchAndBound
from theorems.engine.prove.domain import Domain

FINITE_DIFFERENCE = STATEMENTS["corollary3.finite-difference.corrected"]
ON_T = {"logits": [(-1.5, 0.0), (0.0, 0.0)], "T": (0.8, 1.25), "eps": 1.0, "v": np.array([1.0, -1.0])}
RIDGE = (np.array([-0.7081, 0.0, 0.5]), np.array([-0.7061, 0.0, 0.502]))
"""A box across the ridge ``l₁ − l₂ = −1/√2`` (``ε = 1``) at ``T ≈ 0.5``: the ratio reaches 1 inside it."""


def _upper(form):
    search = BranchAndBound(statement=FINITE_DIFFERENCE, domain=Domain.parse({**ON_T, "T": (0.1, 10.0)}), slack=1e-6)
    with working_bits(128):
        g, _, _ = evaluate.evaluate(search, *RIDGE, form)
    return float(g[0].value.upper())


def test_on_a_box_across_the_ridge_only_the_second_order_form_proves_the_bound():
    assert _upper(evaluate.MEAN_VALUE) > 1e-6  # ∇g(box)·r: the gradient's enclosure is as wide as the box
    assert _upper(evaluate.TAYLOR2) <= 0  # ∇g(c) ≈ 0 and ∇²g ≼ 0 across the ridge: g ≤ −slack + O(r³)


def test_the_finite_difference_on_a_temperature_interval_is_proved_with_taylor_boxes(tmp_path):
    path = tmp_path / "fd.json"
    result = proof.prove(FINITE_DIFFERENCE, ON_T, homogeneity=False, certificate=path, max_seconds=None,
                          max_boxes=proof.SUITE_BOXES)
    assert result.status == "proved" and result.checker == "proved", result.describe()
    assert "second-order Taylor form on" in result.method
    methods = {box["method"] for box in json.loads(path.read_text())["boxes"]}
    assert "taylor2" in methods or "taylor2+faces" in methods


def test_without_the_second_order_form_the_same_proof_needs_many_more_boxes():
    with_taylor = proof.prove(FINITE_DIFFERENCE, ON_T, homogeneity=False, max_seconds=None,
                              max_boxes=proof.SUITE_BOXES)
    budget = 3 * with_taylor.boxes
    alone = proof.prove(FINITE_DIFFERENCE, ON_T, homogeneity=False, max_seconds=None, max_boxes=budget,
                        second_order=False)
    assert with_taylor.status == "proved" and alone.status == "undecided", alone.describe()


def test_a_kink_inside_the_box_declines_the_second_order_form():
    with on_box([(flint.arb(0), flint.arb("0.5")), (flint.arb(0), flint.arb(1))], order=2) as (x, y):
        with pytest.raises(NotSmooth):
            TAYLOR.max(np.array([x, y], dtype=object))  # x − y changes sign on the box
        with pytest.raises(NotSmooth):
            abs(x)
        with pytest.raises(NotSmooth):
            TAYLOR.norm(np.array([x, x], dtype=object))
        assert TAYLOR.max(np.array([x + 3, y], dtype=object)).value.lower() > 2.49  # decided: smooth
