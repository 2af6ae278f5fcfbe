"""The reduction to ``T = 1`` is used only when the checker proves it for the statement's sides: a homogeneous
bound on ``T ∈ [0.1, 10]`` is proved through it (and says so), the capped ``min{1/(4T), √2}`` — not homogeneous —
never is: on a ``T`` interval where it is false it is refuted, with ``T`` a coordinate of the box."""

import dataclasses

from theorems import STATEMENTS
from theorems.arithmetic.decimals import outward
from theorems.engine.prove import SUITE_BOXES, prove

SPECTRAL = STATEMENTS["corollary3.spectral.corrected"]


def _capped(i, xp):
    """``min{1/(4T), √2}``, the paper's bound: false for small ``T`` (where ``1/(4T)`` is not the cap)."""
    quarter, root2 = 1 / (4 * i["T"]), xp.sqrt(xp.number(2))
    return quarter if quarter < root2 else root2


def test_a_homogeneous_bound_is_proved_through_the_checked_reduction(tmp_path):
    proof = prove(SPECTRAL, {"gaps": [(0.0, 10.0)], "T": (0.1, 10.0)}, certificate=tmp_path / "proof.json",
                  max_seconds=None, max_boxes=SUITE_BOXES)
    assert proof.status == "proved" and proof.checker == "proved", proof.describe()
    assert proof.method.startswith("homogeneity in (gaps^1, T^1)") and proof.box["T"] == list(outward(0.1, 10.0))


def test_the_capped_bound_is_never_proved_through_the_reduction():
    capped = dataclasses.replace(SPECTRAL, id="corollary3.spectral.capped", rhs=_capped, expected="refuted")
    proof = prove(capped, {"gaps": [(0.0, 10.0)], "T": (0.05, 10.0)}, max_seconds=None, max_boxes=SUITE_BOXES)
    assert proof.status == "refuted", proof.describe()
    assert not proof.method.startswith("homogeneity")
    assert proof.counterexample is not None


def test_where_the_capped_bound_holds_it_is_not_proved_by_homogeneity_either():
    """``T ∈ [0.5, 2]``: ``1/(4T) ≤ √2`` there, the bound reads ``‖J‖₂ ≤ 1/(4T)``, false (the sup is ``1/(2T)``)."""
    capped = dataclasses.replace(SPECTRAL, id="corollary3.spectral.capped", rhs=_capped, expected="refuted")
    proof = prove(capped, {"gaps": [(0.0, 10.0)], "T": (0.5, 2.0)}, max_seconds=None, max_boxes=SUITE_BOXES)
    assert proof.status == "refuted" and not proof.method.startswith("homogeneity"), proof.describe()


def _floored(i, xp):
    """``max{1/(2T), √2}``: true (``‖J‖₂ ≤ 1/(2T)``) but not homogeneous (the floor has degree 0)."""
    half, root2 = 1 / (2 * i["T"]), xp.sqrt(xp.number(2))
    return root2 if half < root2 else half


def test_a_true_bound_that_is_not_homogeneous_keeps_t_in_the_box():
    floored = dataclasses.replace(SPECTRAL, id="corollary3.spectral.floored", rhs=_floored)
    proof = prove(floored, {"gaps": [(0.0, 10.0)], "T": (0.1, 10.0)}, max_seconds=None, max_boxes=500)
    assert proof.status != "refuted" and "T a coordinate of the box" in proof.method, proof.describe()
