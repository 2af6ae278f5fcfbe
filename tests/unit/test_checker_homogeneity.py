"""A certificate may cover an interval of ``T`` by homogeneity: the boxes tile a base domain at one ``T``, and the
checker re-proves the reduction by a graded evaluation of both sides on every box (each operation homogeneous,
both sides of one degree) and checks that the domain scales into the base. A bound that is not homogeneous —
the paper's capped ``min{1/(4T), √2}`` — is never proved through it, and is refuted where it is false."""

import dataclasses

import pytest

from checker_certificates import certificate, tiling, write
from theorems import STATEMENTS
from theorems import verify_proof

FROBENIUS = STATEMENTS["corollary3.frobenius.corrected"]
DOMAIN = {"gaps": [(0.0, 2.0)], "T": (0.5, 2.0)}
BASE = {"gaps": [(0.0, 4.0)], "T": 1.0}  # gaps/T ∈ [0, 4] at T = 1
REDUCTION = {"degrees": {"gaps": 1, "T": 1}, "scale": "T", "base_domain": BASE}


def _capped(i, xp):
    """``min{1/(2T), √2}``: the Frobenius supremum ``1/(2T)`` capped as the paper caps ``1/(4T)``; true only for
    ``T ≥ 1/(2√2) ≈ 0.354``."""
    half, root2 = 1 / (2 * i["T"]), xp.sqrt(xp.number(2))
    return half if half < root2 else root2


def capped():
    """A statement of a user's (built in a function: the pytest plugin would check a module-level one)."""
    return dataclasses.replace(FROBENIUS, id="corollary3.frobenius.capped", rhs=_capped, expected="refuted")


@pytest.fixture(scope="module")
def base_boxes():
    return tiling(FROBENIUS, certificate(FROBENIUS.id, BASE))


def _verify(tmp_path, data, **kwargs):
    return verify_proof(write(tmp_path / "proof.json", data), **kwargs)


def test_homogeneity_covers_an_interval_of_t_from_one_t(tmp_path, base_boxes):
    check = _verify(tmp_path, certificate(FROBENIUS.id, DOMAIN, base_boxes, reduction=REDUCTION), refine=0)
    assert check.proved, check.describe()
    assert "T ∈ [0.5, 2]" in check.domain and "proved by graded evaluation" in check.reduction


def test_a_base_too_small_for_the_scaled_domain_is_rejected(tmp_path, base_boxes):
    wide = certificate(FROBENIUS.id, {"gaps": [(0.0, 2.0)], "T": (0.25, 2.0)}, base_boxes, reduction=REDUCTION)
    check = _verify(tmp_path, wide)
    assert check.status == "rejected"
    assert "gaps[0] ∈ [0, 2] scales to [0, 8], outside the base's [0, 4]" in check.reason


def test_wrong_degrees_are_not_a_proof(tmp_path, base_boxes):
    """Only ``T`` scaled: the logits over ``T`` then have degree −1, and ``exp`` of them is not homogeneous."""
    reduction = {**REDUCTION, "degrees": {"T": 1}, "base_domain": {"gaps": [(0.0, 2.0)], "T": 1.0}}
    data = certificate(FROBENIUS.id, DOMAIN, [b for b in base_boxes if b["high"][0] <= 2.0], reduction=reduction)
    check = _verify(tmp_path, data)
    assert check.status == "rejected" and "the claimed homogeneity is not proved: exp of a quantity of degree -1" \
        in check.reason


@pytest.mark.parametrize("which", ["paper", "capped"])
def test_the_capped_bound_is_never_proved_by_homogeneity(tmp_path, which):
    """The base (``T = 1``) holds for both; ``T ∈ [0.1, 1]`` would include points where the cap is false."""
    statement = STATEMENTS["corollary3.frobenius"] if which == "paper" else capped()
    domain = {"gaps": [(0.0, 1.0)], "T": (0.1, 1.0)}
    base = {"gaps": [(0.0, 10.0)], "T": 1.0}
    reduction = {"degrees": {"gaps": 1, "T": 1}, "scale": "T", "base_domain": base}
    if which == "capped":
        boxes = tiling(statement, certificate(statement.id, base))  # true at T = 1: 1/(2T) = 1/2 < √2
    else:
        boxes = [{"low": [0.0], "high": [10.0]}]
    data = certificate(statement.id, domain, boxes, reduction=reduction)
    if which == "paper":
        data["domain"] = {"logits": {"intervals": [[0.0, 0.0], [-1.0, 0.0]]}, "T": {"interval": [0.1, 1.0]}}
        data["reduction"] = {"kind": "homogeneity", "degrees": {"logits": 1, "T": 1}, "scale": "T",
                             "base": {"logits": {"intervals": [[0.0, 0.0], [-10.0, 0.0]]}, "T": {"value": 1.0}}}
        data["boxes"] = [{"low": [0.0, -10.0], "high": [0.0, 0.0]}]
    check = _verify(tmp_path, data, statement=statement if which == "capped" else None)
    assert check.status == "rejected"
    assert "the claimed homogeneity is not proved" in check.reason and "degrees -1 and 0" in check.reason


def test_the_capped_bound_on_a_genuine_t_interval_is_refuted_where_it_is_false(tmp_path):
    statement = capped()
    data = certificate(statement.id, {"gaps": [(0.0, 1.0)], "T": (0.1, 1.0)})
    check = _verify(tmp_path, data, statement=statement, refine=12)
    assert check.status == "rejected" and "the statement is false there" in check.reason


def test_a_maximum_decided_on_the_base_box_still_needs_one_degree():
    """``np.max([1/(4T), √2])`` is decided at ``T = 1`` (√2 is larger) but not at every scaled ``T``: the graded
    evaluation refuses it whether or not the comparison is decided on the box."""
    from fractions import Fraction

    import numpy as np

    from theorems import NotHomogeneous
    from theorems.checker.jet import Box, constant, on_box
    from theorems.checker.space import JET, as_jet_array

    with on_box(Box([Fraction(0)], [Fraction(1)], graded=True), [1]) as (gaps,):
        T = constant(JET.number(1).v, 1)
        capped = as_jet_array(np.array([1 / (4 * T), JET.sqrt(JET.number(2))], dtype=object))
        with pytest.raises(NotHomogeneous, match="degrees -1 and 0"):
            np.max(capped)
        with pytest.raises(NotHomogeneous):
            JET.max(capped)
        assert JET.max(as_jet_array(np.array([gaps, 2 * gaps, 0 * T], dtype=object))).deg == 1
