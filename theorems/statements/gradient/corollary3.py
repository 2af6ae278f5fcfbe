"""Corollary 3: softmax gradient sensitivity, ``‖∇_l α‖ ≤ min{1/(4T), √2}`` [P], in every reading.

Readings of the left side (``J = (diag α − ααᵀ)/T``, ``α = softmax(l/T)``): ``spectral`` ``‖J‖₂``,
``frobenius`` ``‖J‖_F``, ``row`` ``max_i ‖J_i·‖₂``, ``entry`` ``max_ik |J_ik|``, and
``finite-difference`` ``g(T, ε) = ‖softmax((l + εv)/T) − softmax(l/T)‖₂/ε`` for a unit ``v``.
``motivating`` is the paper's example: two logit vectors at distance ``√5·ε`` whose top two swap.

Every reading of the paper's bound is refuted; the ``.corrected`` statements are the exact suprema
over all logits (proofs in ``docs/gradient.md``): ``1/(2T)`` (spectral, Frobenius), ``√2/(4T)``
(row), ``1/(4T)`` (entry, only the ``√2`` cap was wrong), ``(√2/ε)·tanh(ε/(2√2·T))``
(finite difference), ``√2·tanh(3ε/(4T))`` (motivating example).

>>> from theorems import STATEMENTS, refute
>>> refute(STATEMENTS["corollary3.spectral"], seed=0).size
2
"""

from __future__ import annotations

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from strategies import log_uniform, logits, temperatures
from theorems.engine.prove.domain import below_zero
from theorems.engine.statement import Hypothesis, Statement
from theorems.maths.corollary3_bounds import (finite_difference_bound, half_over_t, paper_bound, quarter_over_t,
                                              root2_over_4t)

MAX_EXAMPLES = 150
"""Examples per statement in ``check``: each takes well under a second."""


@st.composite
def instances(draw, *, finite_difference: bool = False):
    """``{logits [L], T}`` with ``T`` log-uniform on ``[1e-3, 1e3]``; with ``finite_difference``
    also ``eps`` log-uniform on ``[1e-3, 10]`` and a direction ``v [L]`` (normalised in the sides),
    free or ``e_i − e_j`` (the unit vectors of largest range ``√2``, where the supremum is reached)."""
    l = draw(logits(bound=5.0, max_length=12))
    instance = {"logits": l, "T": draw(temperatures(min_value=1e-3, max_value=1e3))}
    if finite_difference:
        if draw(st.booleans()):  # free direction
            v = np.array(draw(st.lists(st.floats(-1, 1), min_size=len(l), max_size=len(l))))
            assume(np.linalg.norm(v) > 1e-3)
        else:  # e_i − e_j: the direction of largest range, where g is largest
            i, j = draw(st.lists(st.integers(0, len(l) - 1), min_size=2, max_size=2, unique=True))
            v = np.zeros(len(l))
            v[i], v[j] = 1.0, -1.0
        instance |= {"eps": draw(log_uniform(min_value=1e-3, max_value=10.0)), "v": v}
    return instance


@st.composite
def motivating_instances(draw):
    """``{logits [L], T, eps}`` whose top logit leads the runner-up by ``gap < eps``, so that raising
    the runner-up by ``eps`` swaps them while raising the top by ``2·eps`` does not."""
    l = draw(logits(bound=5.0, max_length=12))
    eps = draw(log_uniform(min_value=1e-3, max_value=10.0))
    gap = eps * draw(st.floats(0.0, 0.99))
    top, runner = np.argsort(-l, kind="stable")[:2]
    l = l.copy()
    l[runner] = l[top] - gap
    assume(np.argsort(-l, kind="stable")[0] == top)  # rounding must not reorder them
    return {"logits": l, "T": draw(temperatures(min_value=1e-3, max_value=1e3)), "eps": eps}


def weights(l, T, xp):
    """``softmax(l/T)`` in the backend ``xp``.  ``[L]``"""
    e = xp.exp((l - np.max(l)) / T)
    return e / np.sum(e)


def jacobian(i, xp):
    """``(diag α − ααᵀ)/T``.  ``[L, L]``"""
    alpha = weights(i["logits"], i["T"], xp)
    return (np.diag(alpha) - np.outer(alpha, alpha)) / i["T"]


def _spectral(i, xp):
    return xp.spectral_norm(jacobian(i, xp))


def _frobenius(i, xp):
    J = jacobian(i, xp)
    return xp.sqrt(np.sum(J * J))


def _row(i, xp):
    return xp.max(xp.norm(jacobian(i, xp), axis=-1))


def _entry(i, xp):
    """``max_ik |J_ik|`` with the diagonal ``α_i(1 − α_i)`` written ``1/4 − (α_i − 1/2)²`` (the same number;
    the form of the docstring's proof): its ball enclosure is ``≤ 1/4`` on any box, where ``α_i − α_i²``
    overshoots ``1/4`` along the whole curve ``α_i = 1/2`` and a proof must shrink boxes there to ``√slack``."""
    alpha = weights(i["logits"], i["T"], xp)
    diagonal = xp.number(0.25) - (alpha - xp.number(0.5)) ** 2
    entries = np.where(np.eye(len(alpha), dtype=bool), np.diag(diagonal), -np.outer(alpha, alpha)) / i["T"]
    return xp.max(xp.abs(entries))


def finite_difference_side(i, xp):
    v = i["v"] / xp.norm(i["v"])
    change = weights(i["logits"] + i["eps"] * v, i["T"], xp) - weights(i["logits"], i["T"], xp)
    return xp.norm(change) / i["eps"]


def _pair(i):
    """The indices of the top two logits (a tie goes to the first, as a stable sort): ``i["top_two"]`` where the
    instance states them (:func:`_sorted_gaps`, whose logits are sorted on every box, where a sort of balls that
    touch at the box's edge is undecided), else a stable sort of the logits at a point."""
    if "top_two" in i:
        return i["top_two"]
    top, runner = np.argsort(-np.asarray([float(x) for x in i["logits"]]), kind="stable")[:2]
    return int(top), int(runner)


def _motivating_change(i, xp):
    """``‖α(A) − α(B)‖₂`` with each entry of ``Δ = α(A) − α(B)`` in a factored form without cancellation (the same
    numbers): with ``p = α(A)``, ``q = α(B)``, ``E_k = 1 − e^{−kε/T}`` and ``a = e^{(l_runner − l_top)/T}``,
    ``Δ_top = p_top·(q_runner·E_3 + q_rest·E_2)``, ``Δ_runner = −q_runner·(p_top·E_3 + p_rest·E_1)`` and
    ``Δ_j = −p_top·q_j·E_1·(1 + (1 − a)·e^{−ε/T})`` for every other ``j`` (``rest``: the others, summed).
    Each factor is a weight or in ``[0, 1)`` (``E_k ≈ kε/T``), so a ball enclosure of ``Δ`` is tight relative to
    ``ε`` where ``α(A) − α(B)`` would cancel two weights' enclosures (width ``O(box)``) into a difference of size
    ``O(ε)``: what a proof near ``ε → 0`` needs. Derivation: ``docs/gradient.md`` (motivating example)."""
    top, runner = _pair(i)
    l, T, eps = i["logits"], i["T"], i["eps"]
    A, B = l.copy(), l.copy()
    A[top] = A[top] + 2 * eps
    B[runner] = B[runner] + eps
    p, q = weights(A, T, xp), weights(B, T, xp)
    E1, E2, E3 = (-xp.expm1(-k * eps / T) for k in (1, 2, 3))
    rest = [j for j in range(len(l)) if j not in (top, runner)]
    p_rest, q_rest = sum(p[j] for j in rest), sum(q[j] for j in rest)
    behind = -xp.expm1((l[runner] - l[top]) / T)  # 1 − a
    change = [-p[top] * q[j] * E1 * (1 + behind * (1 - E1)) for j in rest]
    change += [p[top] * (q[runner] * E3 + q_rest * E2), -q[runner] * (p[top] * E3 + p_rest * E1)]
    return xp.norm(np.array(change, dtype=object))  # the entries in another order: the same norm


def _paper(i, xp):
    return paper_bound(i["T"], xp=xp)


def _paper_motivating(i, xp):
    return xp.sqrt(xp.number(5)) * i["eps"] / (4 * i["T"])


def sup_finite_difference(i, xp):
    """``(√2/ε)·tanh(ε/(2√2·T))``: the exact supremum of ``g(T, ε)`` over logits and unit ``v``."""
    return finite_difference_bound(i["T"], i["eps"], xp=xp)


def _sup_motivating(i, xp):
    return xp.sqrt(xp.number(2)) * xp.tanh(3 * i["eps"] / (4 * i["T"]))


SOFTMAX = Hypothesis("softmax", "alpha = softmax(l/T) with T > 0 and finite logits")
_WHY_HALF = "L = 2, equal logits: alpha = (1/2, 1/2) and J = [[1, -1], [-1, 1]]/(4T) has ||J|| = 1/(2T) > 1/(4T)"

_READINGS = {
    # reading: (lhs, exact supremum, its formula, why the paper's bound fails, proof of the supremum)
    "spectral": (_spectral, lambda i, xp: half_over_t(i["T"], xp=xp), "1/(2T)", _WHY_HALF,
                 "||J v|| <= (sqrt2/4)·range(v)/T and range(v) <= sqrt2 for unit v; equality at alpha = (1/2, 1/2)"),
    "frobenius": (_frobenius, lambda i, xp: half_over_t(i["T"], xp=xp), "1/(2T)", _WHY_HALF,
                  "T^2 ||J||_F^2 = s2 - 2 s3 + s2^2 <= s2 (1 - s2) <= 1/4 since s3 >= s2^2 (Cauchy-Schwarz)"),
    "row": (_row, lambda i, xp: root2_over_4t(i["T"], xp=xp), "√2/(4T)",
            "L = 2, equal logits: each row (1/4, -1/4)/T has norm sqrt2/(4T) > 1/(4T)",
            "row i = J e_i and ||J w|| <= (sqrt2/4)·range(w)/T with range(e_i) = 1"),
    "entry": (_entry, lambda i, xp: quarter_over_t(i["T"], xp=xp), "1/(4T)",
              "the entry bound 1/(4T) is right but the sqrt2 cap is not: equal logits with T < 1/(4 sqrt2)",
              "alpha_i (1 - alpha_i) <= 1/4 and alpha_i alpha_k <= 1/4 (alpha_i + alpha_k <= 1)"),
}


def _gaps(p, xp):
    """Logits ``(0, −gaps)``: every Jacobian norm is invariant under shifts and permutations of the logits, so
    these cover every logit vector whose range is at most ``max(gaps)``."""
    return {"logits": below_zero(p["gaps"]), "T": p["T"]}


PROVE = {"gaps": [(0.0, 10.0)], "T": (0.05, 20.0)}
"""The default proof domain: ``L = 2``, logit range up to 10, every ``T ∈ [0.05, 20]``. ``prove`` reduces ``T`` to
``T = 1`` (gaps up to 200 there) by homogeneity in ``(l, T)`` only because the independent checker proves that
reduction for these sides on every box (``theorems/engine/prove/reduction.py``)."""
_PROVE_AT = {"entry": {"gaps": [(0.0, 10.0)] * 2, "T": (0.05, 20.0)},
             "spectral": {"gaps": [(0.0, 10.0)], "T": (0.1, 10.0)}}
"""Readings proved on another default domain: the entry bound at ``L = 3`` (its diagonal in the form
``1/4 − (α_i − 1/2)²`` closes along the tight curve ``α_i = 1/2`` at once); the spectral norm on ``T ∈ [0.1, 10]``
(gaps up to 100 at ``T = 1``: at 200 its enclosure still leaves 72,000 boxes open after 60 s)."""


def _reading_statements(reading: str) -> tuple[Statement, Statement]:
    lhs, sup, sup_text, why, proof = _READINGS[reading]
    common = dict(paper_ref="Corollary 3 (Sec. 4)", lhs=lhs, relation="<=", instances=instances(),
                  hypotheses=(SOFTMAX,), max_examples=MAX_EXAMPLES)
    name = {"spectral": "‖J‖₂", "frobenius": "‖J‖_F", "row": "max_i ‖J_i·‖₂", "entry": "max_ik |J_ik|"}[reading]
    paper = Statement(
        id=f"corollary3.{reading}", title=f"Softmax Jacobian bounded by min{{1/(4T), √2}} ({reading})",
        reading=f"{name} with J = (diag α − ααᵀ)/T", formula=f"{name} ≤ min{{1/(4T), √2}}", rhs=_paper,
        expected="refuted", reason=why, source="P", **common,
    )
    corrected = Statement(
        id=f"corollary3.{reading}.corrected", title=f"Softmax Jacobian bounded by {sup_text} ({reading}, tight)",
        reading=f"{name}; the exact supremum over logits, attained at L = 2 with equal logits",
        formula=f"{name} ≤ {sup_text}", rhs=sup, expected="holds", reason=proof, source="R", **common,
        parameters=_gaps, prove=_PROVE_AT.get(reading, PROVE),
    )
    return paper, corrected


_FD_PROVE = {"logits": [(-5.0, 5.0), (0.0, 0.0)], "T": (0.1, 10.0), "eps": 1.0, "v": np.array([1.0, -1.0])}
"""The default proof domain of the finite difference: ``L = 2``, ``v = e_1 − e_2`` (where the supremum is
reached), ``ε = 1``, ``T ∈ [0.1, 10]`` (``ε/T`` from 0.1 to 10), ``l_1 − l_2 ∈ [−5, 5]``. ``prove`` finds the shift
invariance of the sides itself and keeps ``T`` in the box, where the tight set ``l_1 − l_2 = −ε/√2`` is a line
along ``T`` (at ``T = 1`` it would be a diagonal in ``(l, ε)``): 27,438 boxes."""
_FD_COMMON = dict(paper_ref="Corollary 3 and Algorithm 5 (Sec. 4, Fig. 4)", lhs=finite_difference_side, relation="<=",
                  instances=instances(finite_difference=True), hypotheses=(SOFTMAX,), max_examples=100)
FINITE_DIFFERENCE = Statement(
    id="corollary3.finite-difference", title="Finite-difference sensitivity g(T, ε) below min{1/(4T), √2}",
    reading="g(T, ε) = ‖softmax((l + εv)/T) − softmax(l/T)‖₂ / ε, unit v", rhs=_paper,
    formula="g(T, ε) ≤ min{1/(4T), √2}", expected="refuted", source="P",
    reason="L = 2, equal logits, v = (1, -1)/sqrt2, eps << T: g -> 1/(2T)", **_FD_COMMON,
)
FINITE_DIFFERENCE_CORRECTED = Statement(
    id="corollary3.finite-difference.corrected", title="g(T, ε) ≤ (√2/ε)·tanh(ε/(2√2T)) (tight)",
    reading="g(T, ε) as in Algorithm 5; the exact supremum over logits and unit directions",
    formula="g(T, ε) ≤ (√2/ε)·tanh(ε/(2√2·T)) ≤ min{1/(2T), √2/ε}", rhs=sup_finite_difference,
    expected="holds", source="R", prove=_FD_PROVE,
    reason="||p - q||_2 <= sqrt2·TV(p, q) for p - q summing to 0, and an exponential tilt whose log-ratio has "
           "range r moves at most tanh(r/4) in TV; range(eps v/T) <= sqrt2 eps/T",
    **_FD_COMMON,
)


def _sorted_gaps(p, xp):
    """Logits ``(0, −g_1, −g_1 − g_2, …)`` (sorted, top logit 0), ``g ≥ 0``, with ``T`` and ``eps``: the
    motivating change is invariant under a shift of the logits and under a permutation (the top two follow it;
    at a tie either order gives the same change), so these cover every logit vector whose range is at most
    ``Σ g``. Sorted, their top two are the first two (``top_two``, what a stable sort picks at every point)."""
    return {"logits": below_zero(np.cumsum(p["gaps"])), "T": p["T"], "eps": p["eps"], "top_two": (0, 1)}


_MOTIVATING_PROVE = {"gaps": [(0.0, 10.0)] * 2, "T": (0.1, 10.0), "eps": (0.5, 2.0)}
"""The default proof domain of the motivating example: ``L = 3``, gaps up to 10, ``T ∈ [0.1, 10]``, ``ε ∈ [0.5, 2]``
(``ε/T`` from 0.05 to 20). Its supremum over the gaps tends to 1 as ``ε/T → 0`` and as ``ε/T → ∞`` (both sides
saturate at ``√2``): ``1 − 1.6·10⁻⁴`` at ``ε/T = 0.05``, ``1 − 2·10⁻⁹`` at 20, but ``1 − 1.6·10⁻⁶`` at 0.005, where the
default slack ``10⁻⁶`` leaves almost no room: why ``ε`` does not go lower here. ``prove`` reduces the domain to
``T = 1`` by homogeneity (28,747 boxes). It closes since ``Δ`` is factored (:func:`_motivating_change`): the
difference ``α(A) − α(B)`` left 85,055 boxes open at ``T = 1``."""

_MOTIVATING_COMMON = dict(
    paper_ref="Corollary 3, motivating example (Sec. 4)", lhs=_motivating_change, relation="<=",
    instances=motivating_instances(), hypotheses=(SOFTMAX,), max_examples=MAX_EXAMPLES,
    reading="A = l + 2ε e_top, B = l + ε e_runner-up (‖A − B‖ = √5ε, top two swap in B); Δ = ‖α(A) − α(B)‖₂",
)
MOTIVATING = Statement(
    id="corollary3.motivating", title="Swapping the top two logits moves the weights by at most √5ε/(4T)",
    formula="‖softmax(A/T) − softmax(B/T)‖₂ ≤ (1/(4T))·‖A − B‖₂ = √5ε/(4T)", rhs=_paper_motivating,
    expected="refuted", source="R",
    reason="L = 2, equal top logits, eps << T: the change is 3 sqrt2 eps/(4T) ~ 1.06 eps/T > 0.56 eps/T",
    **_MOTIVATING_COMMON,
)
MOTIVATING_CORRECTED = Statement(
    id="corollary3.motivating.corrected", title="Swapping the top two logits moves the weights by ≤ √2·tanh(3ε/(4T))",
    formula="‖softmax(A/T) − softmax(B/T)‖₂ ≤ √2·tanh(3ε/(4T)) ≤ min{3√2ε/(4T), √2}", rhs=_sup_motivating,
    expected="holds", source="R", parameters=_sorted_gaps, prove=_MOTIVATING_PROVE,
    reason="A - B = 2 eps e_top - eps e_runner has range 3 eps; the tilt bound gives sqrt2 tanh(range/(4T)); "
           "O(eps/T) while eps << T, saturating at sqrt2 once eps >> T",
    **_MOTIVATING_COMMON,
)

STATEMENTS = (
    *(s for reading in _READINGS for s in _reading_statements(reading)),
    FINITE_DIFFERENCE, FINITE_DIFFERENCE_CORRECTED, MOTIVATING, MOTIVATING_CORRECTED,
)
