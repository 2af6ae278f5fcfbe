"""Lemma 2: the Jacobian of a general normaliser and its bound [R].

The Jacobian ``∂α_i/∂l_k = δ_ik F'_i/S − F_i F'_k/S²`` is checked three ways in the tests
(:mod:`theorems.maths.gradient`). The bound [R] (reconstructed: the paper describes its shape, growing
like ``1/min_j F_j``) is ``‖∇_l α‖₂ ≤ (max_j |F'_j| + ‖α‖₂·‖F'‖₂) / (L·min_j F_j)``. It holds: the
triangle inequality gives ``‖J‖₂ ≤ (max|F'| + ‖α‖‖F'‖)/S`` and ``S ≥ L·min F``.

Hypothesis probes: ``positive`` (some ``F_j = 0``: ``min F = 0`` and the bound becomes ``+∞``,
vacuous but not false) and ``near-zero`` (``F_j → 0``: the bound stays true but loses every
relation to ``‖J‖``, see ``docs/gradient.md``).

>>> from theorems import STATEMENTS, check
>>> check(STATEMENTS["lemma2"], seed=0).found
'holds'
"""

from __future__ import annotations

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from strategies import logits, normalisers
from theorems.engine.statement import Hypothesis, Statement
from theorems.maths.gradient import normaliser_jacobian
from theorems.maths.normalisers import general


def square(*, floor: float = 0.0):
    """``F(l) = l² + floor``: zero at ``l = 0`` when ``floor = 0`` (a general form without positivity)."""
    return general(name=f"l^2+{floor:g}", F=lambda l, L, xp: l * l + xp.number(floor), dF=lambda l, L, xp: 2 * l,
                   F_range=lambda a, L, xp: (xp.number(floor), a * a + xp.number(floor)))


_GENERAL_FORM = st.one_of(normalisers(family="length-independent"), normalisers(family="length-dependent"))


@st.composite
def instances(draw, *, zeros: bool = False):
    """``{normaliser, logits [L]}``: softmax (``T ∈ [0.1, 10]``), ``exp(c·sin l)`` or Scalable-Softmax
    (Lemma 2 does not need ``F`` independent of ``L``, only positive and differentiable); with ``zeros``,
    ``F = l²`` with some logit exactly 0 (``F_j = 0``) and one nonzero (``S > 0``)."""
    if zeros:
        l = draw(logits(bound=3.0, max_length=12))
        l[draw(st.integers(0, len(l) - 1))] = 0.0
        assume(np.max(np.abs(l)) > 1e-3)  # S > 0 without underflow
        return {"normaliser": square(), "logits": l}
    return {"normaliser": draw(_GENERAL_FORM), "logits": draw(logits(bound=5.0, max_length=12))}


def _lhs(i, xp):
    return xp.spectral_norm(normaliser_jacobian(i["normaliser"], i["logits"], xp=xp))


def lemma2_parts(i, xp):
    normaliser, l = i["normaliser"], i["logits"]
    F, dF = normaliser.F(l, len(l), xp), normaliser.dF(l, len(l), xp)  # [L], [L]
    return F, dF, F / np.sum(F)


def _rhs(i, xp):
    F, dF, alpha = lemma2_parts(i, xp)
    smallest = np.min(F)
    if smallest == 0:  # F_j = 0: the bound is +inf (and 1/0 would raise in mpmath)
        return xp.number("inf")
    return (np.max(xp.abs(dF)) + xp.norm(alpha) * xp.norm(dF)) / (len(F) * smallest)


LEMMA2 = Statement(
    id="lemma2", title="Jacobian of a general normaliser bounded through 1/(L·min F)",
    paper_ref="Lemma 2 (Sec. 4)", reading="spectral norm of the Jacobian δ_ik F'_i/S − F_i F'_k/S²",
    formula="‖∇_l α‖₂ ≤ (max_j |F'_j| + ‖α‖₂·‖F'‖₂) / (L·min_j F_j)", lhs=_lhs, rhs=_rhs, relation="<=",
    instances=instances(), expected="holds", source="R", max_examples=80,
    reason="J = diag(F')/S - alpha F'^T/S: triangle inequality, ||alpha F'^T|| = ||alpha|| ||F'||, S >= L min F",
    hypotheses=(
        Hypothesis("positive", "F(l, theta) > 0 at every logit (some F_j = 0 makes the bound +inf)",
                   instances(zeros=True)),
        Hypothesis("differentiable", "F is differentiable, so that the Jacobian exists"),
    ),
)

STATEMENTS = (LEMMA2,)
