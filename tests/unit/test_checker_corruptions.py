"""A certificate the checker accepts, corrupted one way at a time, is rejected with a message saying what failed:
a box removed, shifted or moved out of the domain, a bound lowered, the slack lowered, a claimed derivative sign
flipped, the statement id swapped, the relation changed."""

import copy
import dataclasses

import pytest

from checker_certificates import certificate, tiling, write
from theorems import STATEMENTS
from theorems import verify_proof

FROBENIUS = STATEMENTS["corollary3.frobenius.corrected"]
DOMAIN = {"gaps": [(0.0, 4.0)], "T": (0.8, 1.25)}  # T on an interval, genuinely (no reduction)
SLACK = 1e-4


@pytest.fixture(scope="module")
def valid():
    data = certificate(FROBENIUS.id, DOMAIN, slack=SLACK)
    data["boxes"] = tiling(FROBENIUS, data)
    return data


def _check(tmp_path, data, **kwargs):
    return verify_proof(write(tmp_path / "proof.json", data), **kwargs)


def _tight_box(data) -> int:
    """The index of a box at the tight edge ``gaps = 0`` (ratio 1 for every ``T``)."""
    return next(i for i, box in enumerate(data["boxes"]) if box["low"][0] == 0.0)


def test_the_valid_certificate_is_proved_with_its_claimed_sup(tmp_path, valid):
    check = _check(tmp_path, valid, refine=0)
    assert check.proved, check.describe()
    assert check.boxes == len(valid["boxes"]) and 1 <= check.sup <= 1 + SLACK
    assert "T ∈ [0.8000000000000001, 1.25]" in check.domain  # the float 0.8 is above 4/5: printed as it is


def test_a_removed_box_leaves_a_hole(tmp_path, valid):
    data = copy.deepcopy(valid)
    removed = data["boxes"].pop(_tight_box(data))
    check = _check(tmp_path, data)
    assert check.status == "rejected" and check.reason.startswith("coverage: the boxes leave")
    assert f"[{removed['low'][0]:g}, {removed['high'][0]:g}]" in check.reason


def test_a_shifted_box_leaves_a_hole(tmp_path, valid):
    data = copy.deepcopy(valid)
    box = data["boxes"][_tight_box(data)]
    shift = (box["high"][0] - box["low"][0]) / 2
    box["low"][0] += shift
    box["high"][0] += shift
    check = _check(tmp_path, data)
    assert check.status == "rejected" and "uncovered" in check.reason


def test_a_box_moved_out_of_the_domain_is_named(tmp_path, valid):
    data = copy.deepcopy(valid)
    i = _tight_box(data)
    data["boxes"][i]["low"][0] = -1.0
    check = _check(tmp_path, data)
    assert check.status == "rejected" and check.failed_box == i
    assert f"box {i} is not inside the domain: coordinate 0 spans [-1" in check.reason


def test_a_lowered_bound_is_refuted_at_a_point_of_its_box(tmp_path, valid):
    data = copy.deepcopy(valid)
    i = _tight_box(data)
    data["boxes"][i]["bound"] = 0.99  # the ratio is 1 at gaps = 0, inside the box
    check = _check(tmp_path, data)
    assert check.status == "rejected" and check.failed_box == i
    assert "g = " in check.reason and "the bound it claims is false there" in check.reason


def test_a_bound_lowered_below_what_the_box_proves_is_not_verified(tmp_path, valid):
    data = copy.deepcopy(valid)
    i = _tight_box(data)
    data["boxes"][i]["bound"] = 1.0 - 1e-9  # below the box's sup (1, at gaps = 0), above the ratio at its centre
    check = _check(tmp_path, data, refine=4)
    assert check.status == "rejected" and check.failed_box == i
    assert "the checker's enclosure of g reaches" in check.reason


def test_a_bound_above_one_plus_slack_proves_nothing(tmp_path, valid):
    data = copy.deepcopy(valid)
    data["boxes"][0]["bound"] = 1.5
    check = _check(tmp_path, data)
    assert check.status == "rejected" and "above 1 + slack" in check.reason


def test_a_lowered_slack_is_rejected(tmp_path, valid):
    data = copy.deepcopy(valid)
    data["slack"] = 1e-7
    check = _check(tmp_path, data, refine=2)
    assert check.status == "rejected"
    assert "above 1 + slack" in check.reason or "enclosure of g reaches" in check.reason


def test_slack_zero_is_not_provable_for_a_tight_bound(tmp_path, valid):
    data = copy.deepcopy(valid)
    data["slack"] = 0
    for box in data["boxes"]:
        box.pop("bound")
    assert _check(tmp_path, data, refine=6).status == "rejected"


def test_a_raised_slack_is_a_weaker_theorem_still_proved(tmp_path, valid):
    data = copy.deepcopy(valid)
    data["slack"] = 1e-2
    check = _check(tmp_path, data, refine=0)
    assert check.proved and check.slack == 1e-2


def test_a_statement_swapped_for_a_false_one_is_refuted(tmp_path, valid):
    tighter = dataclasses.replace(FROBENIUS, id="corollary3.frobenius.tighter",
                                  rhs=lambda i, xp: FROBENIUS.rhs(i, xp) * xp.number("0.98"))
    data = copy.deepcopy(valid)
    data["statement"] = tighter.id
    check = _check(tmp_path, data, statement=tighter)
    assert check.status == "rejected" and check.statement_id == tighter.id and check.failed_box is not None
    assert "g = " in check.reason or "enclosure of g reaches" in check.reason


@pytest.mark.parametrize("other", ["corollary3.frobenius", "lemma1.upper"])
def test_a_statement_swapped_for_another_domain_cannot_be_evaluated(tmp_path, valid, other):
    """The paper's reading has no ``gaps`` parametrisation, Lemma 1 other keys: their sides cannot run here."""
    data = copy.deepcopy(valid)
    data["statement"] = other
    check = _check(tmp_path, data)
    assert check.status == "rejected" and "cannot be evaluated" in check.reason and "KeyError" in check.reason


def test_a_statement_swapped_for_one_the_boxes_also_prove_is_accepted(tmp_path, valid):
    """At ``L = 2`` the entry bound's ratio ``4T·max|J_ik|`` is the Frobenius one ``2T·‖J‖_F`` (both ``4α₁α₂``): the
    certificate proves that statement too, and the checker says so (it checks the statement named, nothing else)."""
    data = copy.deepcopy(valid)
    data["statement"] = "corollary3.entry.corrected"
    check = _check(tmp_path, data)  # its max of entries has no second derivative: the checker bisects a few boxes
    assert check.proved and check.evaluations > check.boxes, check.describe()


def test_a_changed_relation_is_rejected(tmp_path, valid):
    data = copy.deepcopy(valid)
    data["relation"] = ">="
    check = _check(tmp_path, data)
    assert check.status == "rejected" and "relation '>='" in check.reason


@pytest.fixture(scope="module")
def with_faces():
    """The entry bound at ``L = 2``, ``T = 1``: tiled on ``gaps ∈ [0, 1]``, and ``[1, 10]`` closed at its face
    ``gaps = 1`` (the ratio decreases in ``gaps``)."""
    statement = STATEMENTS["corollary3.entry.corrected"]
    near = certificate(statement.id, {"gaps": [(0.0, 1.0)], "T": 1.0})
    data = certificate(statement.id, {"gaps": [(0.0, 10.0)], "T": 1.0})
    data["boxes"] = tiling(statement, near) + [{"low": [1.0], "high": [10.0], "faces": [[0, "low"]]}]
    return data


def test_a_face_reduction_is_re_proved(tmp_path, with_faces):
    check = _check(tmp_path, with_faces)
    assert check.proved and check.faces >= 1, check.describe()


def test_a_flipped_derivative_sign_is_rejected(tmp_path, with_faces):
    data = copy.deepcopy(with_faces)
    data["boxes"][-1]["faces"] = [[0, "high"]]  # claims ∂g/∂gaps ≥ 0: the ratio decreases
    check = _check(tmp_path, data)
    assert check.status == "rejected" and check.failed_box == len(data["boxes"]) - 1
    assert "claiming ∂g/∂x_0 ≥ 0 on the box" in check.reason and "the claimed sign is false" in check.reason


def test_a_face_claim_by_element_applies_to_that_element(tmp_path, with_faces):
    data = copy.deepcopy(with_faces)
    data["boxes"][-1]["faces"] = {"0": [[0, "low"]]}
    assert _check(tmp_path, data).proved


def test_a_face_the_checker_cannot_confirm_is_dropped_where_the_box_closes_without_it(tmp_path, with_faces):
    # on [0, 1] the ratio 4α₁α₂ does decrease in gaps, but its slope is 0 at gaps = 0: the checker's enclosure of
    # ∂g reaches above 0 there (it cannot confirm the claim), and proves g ≤ 0 on the box by its own bisections
    data = copy.deepcopy(with_faces)
    data["boxes"] = [{"low": [0.0], "high": [1.0], "faces": [[0, "low"]]}, data["boxes"][-1]]
    check = _check(tmp_path, data)
    assert check.proved, check.describe()


def test_a_dropped_face_still_rejects_a_box_that_does_not_close(tmp_path, with_faces):
    data = copy.deepcopy(with_faces)
    data["boxes"] = [{"low": [0.0], "high": [1.0], "faces": [[0, "low"]], "bound": 0.999}, data["boxes"][-1]]
    check = _check(tmp_path, data)
    assert check.status == "rejected" and check.failed_box == 0 and "false" in check.reason, check.describe()
