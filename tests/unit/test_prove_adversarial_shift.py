"""Sides that are not shift invariant must never be proved through the reduction to ``max l = 0``: each of these is
false on its domain and true on every piece of the reduction (where the largest logit is 0), so a reduction used
without its proof would prove a false statement. The sampling of the domain before any reduction is turned off
here (it would refute them first and hide the reduction): the checker's tagged evaluation alone must keep them out.
Each is refuted on its own box; the honest bound's certificate renamed to a non-invariant twin is rejected."""

import dataclasses
import re

import numpy as np
import pytest

import raw_logit_bounds as raw
from theorems import verify_proof
from theorems.engine.prove import SUITE_BOXES, prove, reduction, run

DOMAIN = {"l": [(-1.0, 1.0)] * 2, "T": 1.0}


def _p0(i):
    return raw.softmax(i)[0]


def _branch_on_a_moving_logit(i, xp):
    """``p₀`` where ``l₀ < 0.5`` (every piece: ``l₀ ≤ 0``), ``p₀ + 1`` elsewhere: a decision on ``l₀``, which moves."""
    return _p0(i) if i["l"][0] < 0.5 else _p0(i) + 1


NOT_INVARIANT = {  # id → (lhs, rhs): each false at l = (1, ·), true wherever max l = 0
    "reads l[0] alone": (lambda i, xp: i["l"][0], lambda i, xp: 0.5),
    "max l without a matching term": (lambda i, xp: np.max(i["l"]), lambda i, xp: 0.5),
    "a decision on a logit": (_branch_on_a_moving_logit, lambda i, xp: 1.0),
    "max(l[0], 0)": (lambda i, xp: _p0(i) + np.maximum(i["l"][0], 0.0), lambda i, xp: 1.0),
}


def _statement(name, lhs, rhs, domain=DOMAIN):
    """Built in a function: the pytest plugin would check a module-level statement."""
    return dataclasses.replace(raw.JACOBIAN_TWO, id="shift." + re.sub(r"[^a-z0-9]+", "-", name).strip("-"), lhs=lhs, rhs=rhs,
                               relation="<=", prove=domain, expected="refuted")


@pytest.fixture
def no_sampling_first(monkeypatch):
    """The domain is not sampled before the reductions are tried (the search on the domain's own box still is)."""
    monkeypatch.setattr(run, "_refuted_on_sight", lambda *args: False)


@pytest.mark.parametrize("name", list(NOT_INVARIANT))
def test_the_screen_refuses_the_shift(name):
    statement = _statement(name, *NOT_INVARIANT[name])
    for sides in ("each", "difference"):
        assert not reduction.plausible(statement, DOMAIN, None, 1e-4, shift="l", sides=sides), sides


@pytest.mark.parametrize("name", list(NOT_INVARIANT))
def test_a_false_side_that_is_not_invariant_is_refuted_not_proved(name, no_sampling_first, monkeypatch):
    monkeypatch.setattr(reduction, "plausible", lambda *args, **kwargs: True)  # past the screen: the checker decides
    proof = prove(_statement(name, *NOT_INVARIANT[name]), slack=1e-4, max_seconds=None, max_boxes=SUITE_BOXES)
    assert proof.status == "refuted", proof.describe()
    assert "shift" not in proof.method


def test_a_side_using_t_non_homogeneously_is_not_scaled_to_t_1(no_sampling_first):
    """``2p₀(1 − p₀) ≤ 1/(2T)`` without the ``1/T`` on the left: true at ``T ≤ 1``, false at ``T = 2``; shift
    invariant, but of degrees 0 and −1: only the shift may be used, and ``T`` stays in the box."""
    statement = _statement("jacobian-without-1/T", lambda i, xp: 2 * _p0(i) * (1 - _p0(i)),
                           lambda i, xp: 1 / (2 * i["T"]), {"l": [(-1.0, 1.0)] * 2, "T": (0.5, 2.0)})
    proof = prove(statement, slack=1e-4, max_seconds=None, max_boxes=SUITE_BOXES)
    assert proof.status == "refuted", proof.describe()
    assert "homogeneity" not in proof.method


def test_the_honest_certificate_renamed_to_a_non_invariant_twin_is_rejected(tmp_path):
    """``2p₀(1 − p₀)/T + max(l)/64 ≤ 1/(2T)`` equals the honest bound wherever ``max l = 0`` (every piece) and is
    false at ``l = (5, 5)``: the honest certificate's boxes prove it on the pieces, not on the domain."""
    path = tmp_path / "proof.json"
    honest = prove(raw.JACOBIAN_TWO, slack=1e-4, max_seconds=None, max_boxes=SUITE_BOXES, certificate=path)
    assert honest.status == "proved" and honest.checker == "proved" and "shift" in honest.method, honest.describe()
    twin = dataclasses.replace(raw.JACOBIAN_TWO, lhs=lambda i, xp: raw.JACOBIAN_TWO.lhs(i, xp) + np.max(i["l"]) / 64)
    check = verify_proof(path, statement=twin)
    assert check.status == "rejected" and "shift invariance is not proved" in check.reason, check.describe()
