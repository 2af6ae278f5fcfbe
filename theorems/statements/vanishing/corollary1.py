"""Corollary 1: softmax weights lie within ``e^{±2Δ/T}/L``, ``Δ = ‖q‖‖k‖``.

Readings of ``Δ``: ``own-key`` uses ``‖q‖·‖k_i‖`` for the weight ``α_i`` in question; ``max-key``
uses ``‖q‖·max_j ‖k_j‖`` (Lemma 1 with ``a = Δ``, by Cauchy–Schwarz). ``.corrected`` is the
tight own-key form, ``e^{±(‖q‖‖k_i‖ + ‖q‖ max_j ‖k_j‖)/T}/L``.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from strategies import lengths, temperatures
from theorems.arithmetic.precision import F64
from theorems.arithmetic.validation import check_logits
from theorems.engine.statement import Hypothesis, Statement


SHAPES = ("free", "collinear", "zero-key")


@st.composite
def instances(draw, *, max_entry: float = 2.0):
    """``{q [d], keys [L, d], T}`` with entries in ``[−max_entry, max_entry]``, ``L ≤ 12``, ``d ≤ 3``.

    Small sizes suffice: every bound here is tight or refuted at small L, and small instances
    shrink fast. Two adversarial shapes besides ``free``: ``collinear`` puts every key at
    ``±max_entry`` on q's line (the max-key bound is attained there: one key with q, the rest
    against it, as L grows); ``zero-key`` zeroes one key (its own-key Δ is 0, its weight is not 1/L).
    """
    shape = draw(st.sampled_from(SHAPES))  # drawn first, so that shrinking the sizes does not misalign it
    length, dim = draw(lengths(max_length=12)), draw(st.integers(1, 3))
    entry = st.floats(-max_entry, max_entry, allow_nan=False)
    q = np.array(draw(st.lists(entry, min_size=dim, max_size=dim)))
    if shape == "collinear":
        aligned = draw(st.integers(1, length))  # how many keys point with q; the rest point against it
        signs = np.where(np.arange(length) < aligned, 1.0, -1.0)
        direction = q / np.linalg.norm(q) if np.linalg.norm(q) > 0 else np.eye(dim)[0]
        keys = max_entry * signs[:, None] * direction[None, :]
    else:
        keys = np.array(draw(st.lists(st.lists(entry, min_size=dim, max_size=dim), min_size=length, max_size=length)))
        if shape == "zero-key":
            keys[draw(st.integers(0, length - 1))] = 0.0
    return {"q": q, "keys": keys, "T": draw(temperatures(min_value=0.1, max_value=100.0))}


def weights(i, xp):
    """``softmax(qᵀk/T)`` with ``T`` in the backend ``xp`` (a box's coordinate in a proof), computed by the same
    float64 operations as ``softmax(temperature=T)``: ``exp((1/T)·(l − max l))``, normalised.  ``[L]``

    >>> weights({"q": np.array([1.0]), "keys": np.array([[0.0], [0.0]]), "T": 2.0}, F64).tolist()
    [0.5, 0.5]
    """
    logits = check_logits(i["keys"] @ i["q"])
    shifted = logits - np.max(logits, axis=-1, keepdims=True)
    e = xp.exp(1 / xp.number(i["T"]) * shifted)
    return e / np.sum(e, axis=-1, keepdims=True)


def _delta(reading: str):
    def delta(i, xp):
        q_norm, key_norms = xp.norm(i["q"]), xp.norm(i["keys"], axis=-1)
        largest = q_norm * np.max(key_norms)
        return {"own-key": q_norm * key_norms, "max-key": largest + 0 * key_norms,
                "corrected": (q_norm * key_norms + largest) / 2}[reading]
    return delta


def _envelope(reading: str, sign: int):
    delta = _delta(reading)

    def side(i, xp):
        return xp.exp(sign * 2 * delta(i, xp) / xp.number(i["T"])) / len(i["keys"])
    return side


PROVE = {"q": np.array([1.0]), "keys": [[(-2.0, 2.0)]] * 2, "T": (0.1, 10.0)}
"""The default proof domain: ``L = 2``, ``d = 1``, ``q = 1``, keys in ``[−2, 2]``, every ``T ∈ [0.1, 10]`` (the bounds
are tight at keys ``→ 0``, where every weight is ``1/L``). ``prove`` reduces ``T`` to ``T = 1`` (keys in ``[−20, 20]``
there) by homogeneity in ``(keys, T)`` only because the independent checker proves that reduction for these sides on
every box. In ``d = 1`` the sides depend on ``q·k_j`` and ``|q|·|k_j|`` only, so ``q = 1`` covers every ``q ≠ 0`` with
``|q|·max_j |k_j| ≤ 2``."""
_PROVE_AT = {"corrected.lower": {**PROVE, "keys": [[(-1.0, 1.0)]] * 2}}
"""Readings proved on a smaller default domain: the own-key lower bound with keys in ``[−1, 1]`` (on ``[−2, 2]`` it
takes 9,839 boxes and 14 s with the check; 3,195 boxes and 5 s here)."""

HYPOTHESES = (Hypothesis("softmax", "alpha = softmax(q^T k / T) with T > 0"),)
_WHY_OWN = "a key of small norm next to keys of large norm: alpha_i is far from 1/L while ||q|| ||k_i|| ~ 0"


def _statement(reading: str, bound: str, expected: str, reason: str) -> Statement:
    sign, relation = (1, "<=") if bound == "upper" else (-1, ">=")
    corrected = reading == "corrected"
    delta = {"own-key": "‖q‖‖k_i‖", "max-key": "‖q‖ max_j ‖k_j‖",
             "corrected": "(‖q‖‖k_i‖ + ‖q‖ max_j ‖k_j‖)/2"}[reading]
    op = "≤" if bound == "upper" else "≥"
    return Statement(
        id=f"corollary1.{'own-key.' + bound + '.corrected' if corrected else reading + '.' + bound}",
        title=f"Softmax weights within e^(±2Δ/T)/L ({bound}, Δ = {delta})", paper_ref="Corollary 1 (Sec. 3)",
        reading=f"Δ = {delta}", formula=f"α_i {op} (1/L)·e^{{{'+' if sign > 0 else '−'}2Δ/T}},  Δ = {delta}",
        lhs=weights, rhs=_envelope(reading, sign), relation=relation, instances=instances(),
        hypotheses=HYPOTHESES, expected=expected, reason=reason, source="P" if not corrected else "R",
        max_examples=300, prove=_PROVE_AT.get(f"{reading}.{bound}", PROVE) if expected == "holds" else None, size=lambda i: i["keys"].size,  # minimal: fewest keys, then fewest dimensions  # the tight collinear case is rare enough that 100 examples miss it at some seeds
    )


STATEMENTS = (
    _statement("max-key", "upper", "holds", "Lemma 1 with F = exp(l/T) and a = ||q|| max_j ||k_j|| (Cauchy-Schwarz)"),
    _statement("max-key", "lower", "holds", "Lemma 1 with F = exp(l/T) and a = ||q|| max_j ||k_j|| (Cauchy-Schwarz)"),
    _statement("own-key", "upper", "refuted", _WHY_OWN),
    _statement("own-key", "lower", "refuted", _WHY_OWN),
    _statement("corrected", "upper", "holds", "l_i - min_j l_j <= ||q|| ||k_i|| + ||q|| max_j ||k_j||"),
    _statement("corrected", "lower", "holds", "max_j l_j - l_i <= ||q|| ||k_i|| + ||q|| max_j ||k_j||"),
)
