"""The prover's own certificate, forged one way at a time — a box removed, a bound lowered, the statement swapped
for the paper's false reading, an end of the domain or of a box moved to its representable neighbour — is rejected
by the independent checker, which reads every end exactly and checks the cover against the domain as written."""

import copy
import json
import math

import pytest

from checker_certificates import write
from theorems import STATEMENTS
from theorems import verify_proof
from theorems.engine.prove import prove

FROBENIUS = STATEMENTS["corollary3.frobenius.corrected"]
DOMAIN = {"gaps": [(0.0, 4.0)], "T": (0.8, 1.25)}  # T a coordinate of the box (no reduction)


@pytest.fixture(scope="module")
def proved(tmp_path_factory):
    path = tmp_path_factory.mktemp("proof") / "proof.json"
    proof = prove(FROBENIUS, DOMAIN, slack=1e-4, homogeneity=False, max_seconds=None, max_boxes=5000, certificate=path)
    assert proof.status == "proved" and proof.checker == "proved", proof.describe()
    return json.loads(path.read_text(encoding="utf-8"))


def _check(tmp_path, data, **kwargs):
    return verify_proof(write(tmp_path / "forged.json", data), **kwargs)


def _at_gaps_zero(data) -> int:
    """A box at the tight edge ``gaps = 0`` (ratio 1 for every ``T``)."""
    return next(i for i, box in enumerate(data["boxes"]) if box["low"][0] == 0.0)


def test_the_certificate_as_written_is_accepted_and_states_the_domain_written(tmp_path, proved):
    check = _check(tmp_path, proved)
    assert check.proved, check.describe()
    assert check.domain == "gaps ∈ [0, 4]^1, T ∈ [0.8, 1.25]"
    assert proved["domain"]["T"]["interval"][0] < 0.8  # widened to hold 4/5: the float 0.8 is above it


def test_a_removed_box_is_rejected(tmp_path, proved):
    data = copy.deepcopy(proved)
    data["boxes"].pop(_at_gaps_zero(data))
    assert _check(tmp_path, data).status == "rejected"


def test_a_lowered_bound_is_rejected(tmp_path, proved):
    data = copy.deepcopy(proved)
    data["boxes"][_at_gaps_zero(data)]["bound"] = 0.9
    assert _check(tmp_path, data).status == "rejected"


def test_the_statement_swapped_for_the_papers_false_reading_is_rejected(tmp_path, proved):
    data = copy.deepcopy(proved)
    data["statement"] = "corollary3.frobenius"  # ≤ min{1/(4T), √2}: false at equal logits
    check = _check(tmp_path, data)
    assert check.status == "rejected" and check.statement_id == "corollary3.frobenius", check.describe()


@pytest.mark.parametrize("key, side, direction", [("T", 0, -math.inf), ("T", 1, math.inf), ("gaps", 1, math.inf)])
def test_a_domain_end_moved_out_to_its_neighbour_leaves_a_hole(tmp_path, proved, key, side, direction):
    data = copy.deepcopy(proved)
    entry = data["domain"][key]
    ends = entry["interval"] if "interval" in entry else entry["intervals"][0]
    ends[side] = math.nextafter(ends[side], direction)
    check = _check(tmp_path, data)
    assert check.status == "rejected" and "uncovered" in check.reason, check.describe()


def test_a_domain_end_written_as_the_decimal_the_boxes_miss_is_rejected(tmp_path, proved):
    """The certificate may state an end exactly (``"p/q"``): the float 0.8 (above 4/5) as the first box's end
    leaves ``[4/5, fl(0.8))`` uncovered."""
    data = copy.deepcopy(proved)
    data["domain"]["T"]["interval"][0] = "4/5"
    for box in data["boxes"]:
        if box["low"][1] < 0.8:
            box["low"][1] = 0.8
    check = _check(tmp_path, data)
    assert check.status == "rejected" and "uncovered" in check.reason, check.describe()


def test_a_box_end_moved_in_to_its_neighbour_leaves_a_hole(tmp_path, proved):
    data = copy.deepcopy(proved)
    box = data["boxes"][_at_gaps_zero(data)]
    box["low"][0] = math.nextafter(box["low"][0], math.inf)
    check = _check(tmp_path, data)
    assert check.status == "rejected" and "uncovered" in check.reason, check.describe()
