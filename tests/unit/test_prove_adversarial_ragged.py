"""A side whose number of elements depends on a comparison (``[p_k for k if l_k ≥ c]``) has no element that is one
function on a box its comparison splits: path by path, an element count differing from the first path's declines
the box (prover) or rejects it (checker), never reading the first path's elements as the side's. The side here is
false where ``l₀ ≥ 0.999 > l₁`` (``p₀ > 1/2`` is kept); the float64 points are not looked at."""

import dataclasses
import json

import numpy as np
import pytest

import raw_logit_bounds as raw
from theorems import verify_proof
from theorems.checker.certificate import FORMAT
from theorems.engine.prove import prove

CUT = 0.999


def _kept_probabilities(i, xp):
    """0, then the softmax probabilities of the logits ``≥ CUT``: one element more on each path that keeps one."""
    l = i["l"]
    z = np.exp(l - np.max(l))
    p = z / np.sum(z)
    return np.array([0.0] + [p[k] for k in range(len(l)) if not l[k] < CUT])


def _ragged():
    """Built in a function: the pytest plugin would check a module-level statement."""
    return dataclasses.replace(raw.JACOBIAN_TWO, id="ragged.kept-probabilities", lhs=_kept_probabilities,
                               rhs=lambda i, xp: 0.5, prove={"l": [(-1.0, 1.0)] * 2, "T": 1.0}, expected="refuted")


def test_a_side_with_a_path_dependent_element_count_is_never_proved(enclosures_only):
    proof = prove(_ragged(), slack=1e-4, max_seconds=None, max_boxes=300, shift=False, homogeneity=False)
    assert proof.status != "proved", proof.describe()


@pytest.mark.parametrize("method", ["mean-value+branches", "taylor2+branches"])
def test_a_forged_certificate_for_it_is_rejected(method, tmp_path):
    statement = _ragged()
    data = {"format": FORMAT, "version": 1, "statement": statement.id, "relation": "<=", "slack": 1e-4,
            "domain": {"l": {"intervals": [[-1.0, 1.0]] * 2}, "T": {"value": 1.0}},
            "boxes": [{"low": [-1.0, -1.0], "high": [1.0, 1.0], "method": method, "faces": []}]}
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(data))
    check = verify_proof(path, statement=statement, refine=0)
    assert check.status == "rejected", check.describe()
    assert "elements" in check.reason
