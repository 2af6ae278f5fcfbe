"""Sides that branch on a tie, an equality, a membership or an identity are never proved when false: not by
``prove``, and no certificate of them — one box or a tiling, as a forger would write it — is accepted by the
independent checker, which decides every comparison of a box quantity on the whole box or not at all."""

import itertools

import pytest

from adversarial_sides import BRANCHES, domain, statement
from checker_certificates import certificate, write
from theorems import verify_proof
from theorems.engine.prove import prove


def _grid(space: dict, pieces: int) -> list[dict]:
    """``pieces`` per coordinate: boxes that tile the domain exactly (float ends, as ``prove`` writes them)."""
    (key, value), = space.items()
    intervals = value if isinstance(value, list) else [value]
    cuts = [[lo + (hi - lo) * k / pieces for k in range(pieces + 1)] for lo, hi in intervals]
    boxes = []
    for corner in itertools.product(range(pieces), repeat=len(intervals)):
        boxes.append({"low": [cuts[j][k] for j, k in enumerate(corner)],
                      "high": [cuts[j][k + 1] for j, k in enumerate(corner)]})
    return boxes


@pytest.mark.parametrize("name", BRANCHES)
def test_prove_never_proves_a_side_that_branches_on_a_comparison(name):
    proof = prove(statement(name), domain(name), max_seconds=None, max_boxes=200)
    assert proof.status in ("refuted", "undecided"), proof.describe()


@pytest.mark.parametrize("pieces", [1, 4])
@pytest.mark.parametrize("name", BRANCHES)
def test_no_forged_certificate_of_it_is_accepted(name, pieces, tmp_path):
    data = certificate(f"{statement(name).id}", domain(name), _grid(domain(name), pieces))
    check = verify_proof(write(tmp_path / "forged.json", data), statement=statement(name), refine=4)
    assert check.status == "rejected", check.describe()
