"""``l[0] is not l[0]`` is True in float64 (indexing makes a new scalar); on the object arrays of the prover's jets,
the checker's jets and the certifier's balls, one element indexed is a new object too, so a side testing identity
reads as it does in float64 (``2`` everywhere here: false, as ``2 > 1``) and is never proved by reading ``0``."""

import dataclasses
import json

import numpy as np

import raw_logit_bounds as raw
from theorems import verify_proof
from theorems.arithmetic.ballarray import BallArray
from theorems.arithmetic.precision import Ball
from theorems.checker.certificate import FORMAT
from theorems.engine.prove import prove


def _identity_side(i, xp):
    l = i["l"]
    return 2.0 if l[0] is not l[0] else 0.0


def _statement():
    """Built in a function: the pytest plugin would check a module-level statement."""
    return dataclasses.replace(raw.JACOBIAN_TWO, id="identity.index", lhs=_identity_side, rhs=lambda i, xp: 1.0,
                               prove={"l": [(-1.0, 1.0)] * 2, "T": 1.0}, expected="refuted")


def test_the_prover_does_not_prove_an_identity_test_of_an_indexed_element(enclosures_only):
    proof = prove(_statement(), slack=1e-4, max_seconds=None, max_boxes=100)
    assert proof.status != "proved", proof.describe()


def test_a_forged_certificate_for_it_is_rejected(tmp_path):
    statement = _statement()
    data = {"format": FORMAT, "version": 1, "statement": statement.id, "relation": "<=", "slack": 1e-4,
            "domain": {"l": {"intervals": [[-1.0, 1.0]] * 2}, "T": {"value": 1.0}},
            "boxes": [{"low": [-1.0, -1.0], "high": [1.0, 1.0], "method": "mean-value", "faces": []}]}
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(data))
    check = verify_proof(path, statement=statement, refine=0)
    assert check.status == "rejected", check.describe()


def test_a_ball_array_element_is_a_new_object_each_time():
    balls = np.array([Ball(-1.0), Ball(2.0)], dtype=object).view(BallArray)
    assert balls[0] is not balls[0]
    assert float(balls[1]) == 2.0
