"""Lemma 1: the weights of a length-independent normaliser of bounded logits vanish like ``1/L``.

Conclusion [P]: ``C_1/L ≤ α_i ≤ C_2/L``, with the proof's constants ``C_2 = max F / min F`` and
``C_1 = 1/C_2`` over ``[−a, a]``. The constants are computed at a length ``L_0`` and the bound is
checked at a length ``L ≥ L_0``: that is what "independent of L" means, and it is what a
length-dependent ``F`` (Scalable-Softmax) breaks. A normaliser without the ``F`` form (sparsemax,
entmax) gets the best constants it attains at ``L_0`` (one logit at ``±a``, the rest at ``∓a``).
"""

from __future__ import annotations

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from strategies import bounds, logits, normalisers
from theorems.arithmetic.precision import F64
from theorems.engine.statement import Hypothesis, Statement
from theorems.maths.normalisers import Normaliser, softmax_on_box


def constants(normaliser: Normaliser, a, length: int, *, xp=F64):
    """``(C_1, C_2)`` of Lemma 1 for logits in ``[−a, a]``, computed at ``L = length``."""
    if normaliser.general_form:
        low, high = normaliser.F_range(a, length, xp)
        return low / high, high / low
    dtype = float if xp is F64 else object
    lowest = normaliser(np.array([-a] + [a] * (length - 1), dtype=dtype), xp=xp)[0]
    highest = normaliser(np.array([a] + [-a] * (length - 1), dtype=dtype), xp=xp)[0]
    return length * lowest, length * highest


@st.composite
def instances(draw, *, family: str = "length-independent", overshoot: bool = False):
    """``{normaliser, a, L0, logits}`` with ``logits ∈ [−a, a]^L`` and ``2 ≤ L0 ≤ L``.

    ``overshoot=True`` breaks boundedness: the logits reach up to 20·a, past ``[−a, a]``.
    """
    normaliser = draw(normalisers(family=family))
    a = draw(bounds(max_value=10.0))
    reach = a * draw(st.floats(1.5, 20.0)) if overshoot else a
    l = draw(logits(bound=reach, max_length=48))
    if overshoot:
        assume(np.abs(l).max() > a)
    return {"normaliser": normaliser, "a": a, "L0": draw(st.integers(2, len(l))), "logits": l}


def _weights(i, xp):
    return i["normaliser"](i["logits"], xp=xp)


def _bound(which: int):
    def side(i, xp):
        return constants(i["normaliser"], i["a"], i["L0"], xp=xp)[which] / len(i["logits"])
    return side


HYPOTHESES = (
    Hypothesis("positive", "F is continuous and strictly positive on [-a, a] (no exact zeros)",
               instances(family="exact-zeros")),
    Hypothesis("length-independent", "F does not depend on L (constants at L0 must hold at L >= L0)",
               instances(family="length-dependent")),
    Hypothesis("bounded", "every logit lies in [-a, a]", instances(overshoot=True)),
)

def _scaled(p, xp):
    """Logits ``a·u`` with ``u ∈ [−1, 1]^L``: a box of ``(a, u)`` covers every bounded instance for those ``a``; with
    a parameter ``T`` (in place of ``normaliser``), the normaliser is ``softmax(l/T)`` with ``T`` on the box."""
    normaliser = softmax_on_box(temperature=p["T"]) if "T" in p else p["normaliser"]
    return {"normaliser": normaliser, "a": p["a"], "L0": p["L0"], "logits": p["a"] * p["u"]}


PROVE = {"T": (0.1, 10.0), "a": (0.001, 2.0), "L0": 2, "u": [(-1.0, 1.0)] * 2}
"""The default proof domain: softmax at every ``T ∈ [0.1, 10]``, ``L = 2``, constants at ``L0 = 2``, every
``a ∈ [0.001, 2]`` (the bound is tight as ``a → 0``, where every weight is ``1/L``). ``prove`` reduces ``T`` to
``T = 1`` (``a ∈ [0.0001, 20]`` there) by homogeneity in ``(a, T)`` only because the independent checker proves that
reduction for these sides on every box."""

_COMMON = dict(
    paper_ref="Lemma 1 (Sec. 3)", hypotheses=HYPOTHESES, instances=instances(), source="P", lhs=_weights,
    expected="holds", reason="alpha_i = F_i / sum_j F_j lies between min F / (L max F) and max F / (L min F)",
    parameters=_scaled, prove=PROVE,
)

UPPER = Statement(
    id="lemma1.upper", title="Weights vanish like 1/L (upper bound)", relation="<=", rhs=_bound(1),
    reading="alpha_i <= C2/L for every i, C2 = max F / min F on [-a, a], computed at L0 <= L",
    formula="α_i ≤ C_2/L,  C_2 = max_{[-a,a]} F / min_{[-a,a]} F", **_COMMON,
)
LOWER = Statement(
    id="lemma1.lower", title="Weights vanish like 1/L (lower bound)", relation=">=", rhs=_bound(0),
    reading="alpha_i >= C1/L for every i, C1 = 1/C2, computed at L0 <= L",
    formula="α_i ≥ C_1/L,  C_1 = min_{[-a,a]} F / max_{[-a,a]} F", **_COMMON,
)

STATEMENTS = (UPPER, LOWER)
