"""The nan-guard idiom ``if p != p:`` on a jet whose value is finite on the box: one function equals itself at every
point, so the guard is decided (False) and a true bound written with it is proved, its certificate accepted; the
guard's branch (``10``, false) is never taken. Before, ``p − p`` was an enclosure around 0, the test undecided and
the guard's path (false) left the box open."""

import dataclasses

import raw_logit_bounds as raw
from theorems import verify_proof
from theorems.engine.prove import prove


def _guarded(i, xp):
    p = raw.softmax(i)[0]
    if p != p:  # nan guard
        return 10.0
    return 2 * p * (1 - p) / i["T"]


def test_a_true_bound_with_a_nan_guard_is_proved_and_its_certificate_accepted(tmp_path):
    statement = dataclasses.replace(raw.JACOBIAN_TWO, id="nanguard.jacobian", lhs=_guarded,
                                    prove={"l": [(-1.0, 1.0)] * 2, "T": 1.0})
    path = tmp_path / "proof.json"
    proof = prove(statement, slack=1e-4, max_seconds=None, max_boxes=500, certificate=path)
    assert proof.status == "proved", proof.describe()
    assert verify_proof(path, statement=statement).status == "proved"
