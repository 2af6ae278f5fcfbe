"""The checker reads each path of a box in a form valid on that path: ``small/big − bound`` only where ``big > 0`` is
certain on it. A side whose ``big`` is ``1`` on one path (``x > 1/2``) and ``−1`` on the other would be proved if the
first path's ratio form were kept on the second, where ``small/big − bound ≤ 0`` reads ``small ≥ bound·big``, the
claim turned round. ``0 ≤ rhs`` is false on ``x ∈ [0, 1/2]``."""

import dataclasses
import json

import pytest

import raw_logit_bounds as raw
from theorems import verify_proof
from theorems.checker.certificate import FORMAT
from theorems.engine.prove import prove


def _sign_step(i, xp):
    return 1.0 if i["x"][0] > 0.5 else -1.0


def _statement():
    """Built in a function: the pytest plugin would check a module-level statement."""
    return dataclasses.replace(raw.JACOBIAN_TWO, id="form.sign-step", lhs=lambda i, xp: 0.0, rhs=_sign_step,
                               relation="<=", prove={"x": [(0.0, 1.0)], "T": 1.0}, expected="refuted")


@pytest.mark.parametrize("refine", [0, 4])
@pytest.mark.parametrize("method", ["mean-value+branches", "taylor2+branches"])
def test_a_forged_certificate_across_a_sign_change_of_big_is_rejected(method, refine, tmp_path):
    statement = _statement()
    data = {"format": FORMAT, "version": 1, "statement": statement.id, "relation": "<=", "slack": 1e-4,
            "domain": {"x": {"intervals": [[0.0, 1.0]]}, "T": {"value": 1.0}},
            "boxes": [{"low": [0.0], "high": [1.0], "method": method, "faces": []}]}
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(data))
    check = verify_proof(path, statement=statement, refine=refine)
    assert check.status == "rejected", check.describe()


def test_the_prover_does_not_prove_it():
    proof = prove(_statement(), slack=1e-4, max_seconds=None, max_boxes=500)
    assert proof.status != "proved", proof.describe()
