"""A side that is not homogeneous but branches, on an equality, into a homogeneous expression must not pass the
reduction to ``T = 1``: the issue's ``prove`` on a ``T`` interval said "proved, checker: proved, sup ratio ∈ [1,
1.000001]" for a bound whose ratio is 1.07 at ``T = 2``, because the checker's graded evaluation took the branch
``(T − T) == 0`` never takes. The checker now decides that branch as float64 does (the difference is exactly 0), and
its graded evaluation refuses the non-homogeneous side taken there."""

import dataclasses

from theorems import verify_proof
from theorems.engine.prove import SUITE_BOXES, prove
from user_bounds import spectral

DOMAIN = {"gaps": [(0.0, 10.0)], "T": (0.5, 2.0)}


def _branchy_rhs(i, xp):
    """``1/(2T) − 0.035·(T − 1)²/T`` (not homogeneous: ratio 1.07 at ``T = 2``) behind a branch that is always taken;
    ``1/(2T)``, homogeneous and true, behind the one never taken."""
    t = i["T"]
    if (t - t) == 0:
        return 1 / (2 * t) - 0.035 * (t - 1) ** 2 / t
    return 1 / (2 * t)


def _branchy():
    """Built in a function: the pytest plugin would check a module-level statement."""
    return dataclasses.replace(spectral(), id="user.spectral-branchy", rhs=_branchy_rhs)


def test_prove_refutes_it():
    proof = prove(_branchy(), DOMAIN, max_seconds=None, max_boxes=SUITE_BOXES)
    assert proof.status == "refuted", proof.describe()
    assert not proof.method.startswith("homogeneity")


def test_the_true_bounds_certificate_renamed_to_it_is_rejected(tmp_path):
    """The honest ``‖J‖₂ ≤ 1/(2T)``'s certificate (proved through the reduction) checked as if it proved the
    branchy side: the same boxes, the same reduction, the other statement."""
    path = tmp_path / "proof.json"
    honest = prove(spectral(), DOMAIN, slack=1e-4, max_seconds=None, max_boxes=SUITE_BOXES, certificate=path)
    assert honest.status == "proved" and honest.checker == "proved" and honest.method.startswith("homogeneity")
    check = verify_proof(path, statement=dataclasses.replace(_branchy(), id=spectral().id))
    assert check.status == "rejected" and "homogeneity is not proved" in check.reason, check.describe()
