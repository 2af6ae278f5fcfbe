"""``np.max``/``np.min`` keywords on the jets of a box: ``initial=`` is numpy's one more element (kept, not dropped),
``where=`` and ``out=`` have no sound form there (``NoBallForm``: never a verdict from them). Dropping ``initial``
would prove ``max(l, c) − max l ≤ 10⁻³`` (it reads ``0``), false where ``max l < c − 10⁻³``; in the prover and in the
checker."""

import dataclasses
import json

import flint
import numpy as np
import pytest

import raw_logit_bounds as raw
from theorems import verify_proof
from theorems.arithmetic.box_jet import ARRAYS, on_box
from theorems.checker.certificate import FORMAT
from theorems.engine.prove import prove
from theorems.errors import NoBallForm

C = -0.998


def _statement():
    """Built in a function: the pytest plugin would check a module-level statement."""
    return dataclasses.replace(raw.JACOBIAN_TWO, id="reduction.max-initial",
                               lhs=lambda i, xp: np.max(i["l"], initial=C) - np.max(i["l"]), rhs=lambda i, xp: 1e-3,
                               prove={"l": [(-1.0, 1.0)] * 2, "T": 1.0}, expected="refuted")


def test_the_prover_keeps_initial(enclosures_only):
    proof = prove(_statement(), slack=1e-4, max_seconds=None, max_boxes=500)
    assert proof.status != "proved", proof.describe()


@pytest.mark.parametrize("order", [1, 2])
def test_a_max_with_initial_encloses_the_initial(order):
    box = [(flint.arb(-0.9995), flint.arb(0.0005))] * 2  # l ∈ [−1, −0.999]²: max(l, C) = C
    with on_box(box, order=order) as (a, b):
        line = np.array([a, b], dtype=object).view(ARRAYS[order])
        assert np.max(line, initial=C).value.lower() > -0.9985  # max(l, C) = C on this box (max l alone reaches −1)
        assert np.min(line, initial=-5.0).value.upper() < -4.99
        with pytest.raises(NoBallForm):
            np.max(line, where=np.array([True, False]), initial=-2.0)


@pytest.mark.parametrize("refine", [0, 4])
def test_a_forged_certificate_dropping_initial_is_rejected(refine, tmp_path):
    statement = _statement()
    data = {"format": FORMAT, "version": 1, "statement": statement.id, "relation": "<=", "slack": 1e-4,
            "domain": {"l": {"intervals": [[-1.0, 1.0]] * 2}, "T": {"value": 1.0}},
            "boxes": [{"low": [-1.0, -1.0], "high": [1.0, 1.0], "method": "mean-value", "faces": []}]}
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(data))
    check = verify_proof(path, statement=statement, refine=refine)
    assert check.status == "rejected", check.describe()


def test_the_checker_refuses_a_masked_max(tmp_path):
    statement = dataclasses.replace(_statement(), lhs=lambda i, xp: np.max(i["l"], where=np.array([True, False]),
                                                                              initial=-2.0) - i["l"][0])
    data = {"format": FORMAT, "version": 1, "statement": statement.id, "relation": "<=", "slack": 1e-4,
            "domain": {"l": {"intervals": [[-1.0, 1.0]] * 2}, "T": {"value": 1.0}},
            "boxes": [{"low": [-1.0, -1.0], "high": [1.0, 1.0], "method": "mean-value", "faces": []}]}
    path = tmp_path / "masked.json"
    path.write_text(json.dumps(data))
    check = verify_proof(path, statement=statement, refine=0)
    assert check.status == "rejected" and "NoBallForm" in check.reason, check.describe()
