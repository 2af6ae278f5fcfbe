"""A certificate the prover wrote, corrupted one way at a time, is rejected by the checker: a box removed leaves
a hole, a bound lowered below what the box attains is false there."""

import copy
import json

import pytest

from theorems import STATEMENTS
from theorems import verify_proof
from theorems.engine.prove import prove

ROW = STATEMENTS["corollary3.row.corrected"]


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    path = tmp_path_factory.mktemp("proof") / "row.json"
    proof = prove(ROW, certificate=path)
    assert proof.checker == "proved", proof.checker_detail
    return json.loads(path.read_text())


def _check(tmp_path, data):
    path = tmp_path / "corrupted.json"
    path.write_text(json.dumps(data))
    return verify_proof(path)


def test_a_removed_box_is_rejected(tmp_path, written):
    data = copy.deepcopy(written)
    data["boxes"].pop(0)
    check = _check(tmp_path, data)
    assert check.status == "rejected" and check.reason.startswith("coverage"), check.describe()


def test_a_lowered_bound_is_rejected(tmp_path, written):
    data = copy.deepcopy(written)
    at = next(i for i, box in enumerate(data["boxes"]) if box["low"][0] == 0.0 and "bound" in box)
    data["boxes"][at]["bound"] = 0.9  # the ratio is 1 at gaps = 0
    check = _check(tmp_path, data)
    assert check.status == "rejected" and check.failed_box == at, check.describe()
