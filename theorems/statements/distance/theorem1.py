"""Theorem 1: how far the non-selected rescaled embeddings lie from the selected context ``s``.

Quantities (vectorised, for batches and torch) live in :mod:`theorems.maths.distance`; this module holds
the statements, whose sides are written once against ``xp`` for one instance
``{w [L], x [L, d], n, seed}`` with ``α = w/Σw`` (so ``Σα = 1`` exactly in mpmath too).

Part 1, fixed top-``N`` set [R]: ``d̃ ≤ (1 − ᾱ_N)·d_1 + [(L − N)·ᾱ_N − (1 − ᾱ_N)]·c``, for both
readings of ``d̃`` (``sum``: ``Σ_{i∉I_N}‖α_i x_i − s‖``; ``norm``: ``‖Σ_{i∉I_N} α_i x_i − s‖``) and both
centres ``c`` (``normalised``: ``‖s‖/ᾱ_N``; ``max-norm``: ``max_{j∈I_N}‖x_j‖``). The ``sum`` reading
holds (triangle inequality; ``α_i ≤ ᾱ_N`` off the top-``N`` set); the ``norm`` reading fails (at
``N = L`` the left side is ``‖s‖`` and the right side ``0``); ``.corrected`` replaces the coefficient
by ``|1 − 2ᾱ_N|``.

Part 2, ``I_N`` uniform over the ``C(L, N)`` subsets [R]: ``E[d̃] = main + ε`` with
``main = ((L − N)/L)·Σ_i‖(1 + p)α_i x_i − p·Σ_j α_j x_j‖``, ``p = N/(L − 1)``. ``E[d̃]`` is computed by
exact enumeration (``L ≤ 9`` here); ``ε ≥ 0`` (Jensen) and the variance bound on ``ε`` hold; the
claim that ``ε`` is small when the weights are not concentrated is false as a relative statement
(``ε ≥ 0.1·E[d̃]`` with effective number ``1/Σα² ≥ L/2``), and holds only in the absolute form
``ε ≤ R·(L − N)·√(N(m − N)/(m(m − 1)))·‖α‖₂`` (``m = L − 1``, ``R = max‖x_j‖``), which decreases
as the effective number ``1/‖α‖₂²`` grows.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from strategies.distance import distance_instances
from theorems.engine.statement import Hypothesis, Statement
from theorems.maths.batches import top_n_mask
from theorems.maths.distance import EXACT_LIMIT, expected_distance, subsets

# --------------------------------------------------------------------------- sides (one instance, any xp)


def weights(i, xp):
    """``α = mass·w/Σw`` (``mass`` is 1 unless an instance breaks normalisation on purpose)."""
    w = i["w"]
    return w / np.sum(w) * (xp.number(i["mass"]) if "mass" in i else 1)


def selected(i) -> np.ndarray:
    """Boolean ``[L]``: the instance's ``chosen`` subset if it has one, else top-``n`` of ``w``."""
    if "chosen" in i:
        return np.asarray(i["chosen"], dtype=bool)
    w = np.asarray(i["w"], dtype=float)
    return top_n_mask(w, np.ones(w.shape, dtype=bool), int(i["n"]))


def _rescaled(i, xp):
    return weights(i, xp)[:, None] * i["x"]  # [L, d]  a_i = α_i x_i


def true_distance(reading: str):
    def side(i, xp):
        a, chosen = _rescaled(i, xp), selected(i)
        s = np.sum(a[chosen], axis=0)  # [d]
        if reading == "norm":
            return xp.norm(np.sum(a[~chosen], axis=0) - s)
        return np.sum(xp.norm(a[~chosen] - s)) + 0 * xp.number(0)
    return side


def fixed_parts(i, xp):
    alpha, chosen, x = weights(i, xp), selected(i), i["x"]
    mass = np.sum(alpha[chosen])
    # 1 − ᾱ_N, written as (1 − Σα) + Σ_{i∉I_N} α_i: exactly 0 at N = L, where 1 − Σα would leave a rounding residue
    outside = (1 - (xp.number(i["mass"]) if "mass" in i else 1)) + np.sum(alpha[~chosen])
    pairs = x[~chosen][:, None, :] - x[chosen][None, :, :]  # [L - N, N, d]
    d1 = np.max(xp.norm(pairs)) if pairs.size else 0 * mass
    centre = xp.norm(np.sum(alpha[chosen][:, None] * x[chosen], axis=0)) / mass
    return mass, outside, d1, centre, np.max(xp.norm(x[chosen]))


def fixed_rhs(center: str):
    def side(i, xp):
        mass, outside, d1, normalised, largest = fixed_parts(i, xp)
        c = normalised if center == "normalised" else largest
        if center == "corrected":
            return outside * d1 + xp.abs(outside - mass) * normalised
        return outside * d1 + ((len(i["w"]) - int(np.sum(selected(i)))) * mass - outside) * c
    return side


def exact_expectation(i, xp, reading: str = "sum"):
    """``E[d̃]`` by enumerating all ``C(L, N)`` subsets (or ``d̃`` of the instance's fixed ``chosen``)."""
    a = _rescaled(i, xp)  # [L, d]
    every = np.asarray(i["chosen"], dtype=bool)[None] if "chosen" in i else subsets(len(a), int(i["n"]))  # [C, L]
    s = np.sum(np.where(every[:, :, None], a[None], 0 * a[None]), axis=1)  # [C, d]
    if reading == "norm":
        t = np.sum(np.where(every[:, :, None], 0 * a[None], a[None]), axis=1)
        return np.sum(xp.norm(t - s)) / len(every)
    norms = xp.norm(a[None] - s[:, None])  # [C, L]
    return np.sum(np.where(every, 0 * norms, norms)) / len(every)


def expectation(i, xp, reading: str = "sum", samples: int = 2000):
    """``E[d̃]``: exact when ``C(L, N) ≤ EXACT_LIMIT``, else a Monte Carlo mean seeded by ``i["seed"]`` (F64 only)."""
    if "chosen" in i or math.comb(len(i["w"]), int(i["n"])) <= EXACT_LIMIT:
        return exact_expectation(i, xp, reading)
    alpha = np.asarray(weights(i, xp), dtype=float)
    return float(expected_distance(alpha, i["x"], int(i["n"]), reading=reading, method="monte-carlo",
                                   samples=samples, seed=int(i["seed"]), allow_unnormalised="mass" in i).mean)


def main_sum(i, xp):
    """``((L − N)/L)·Σ_i ‖(1 + p)·a_i − p·Σ_j a_j‖``, ``p = N/(L − 1)``."""
    a, length, n = _rescaled(i, xp), len(i["w"]), int(i["n"])
    p = xp.number(n) / xp.number(length - 1)
    total = np.sum(a, axis=0)
    return xp.number(length - n) / xp.number(length) * np.sum(xp.norm((1 + p) * a - p * total))


def residual(i, xp):
    """``ε = E[d̃] − main``."""
    return expectation(i, xp) - main_sum(i, xp)


def _variance_factor(length: int, n: int, xp):
    m = length - 1
    return xp.number(n * (m - n)) / xp.number(m * (m - 1)) if m > 1 and m > n else 0 * xp.number(0)


def jensen_bound(i, xp):
    """``((L − N)/L)·Σ_i √Var_i`` with the without-replacement variance of the selected sum."""
    a, length, n = _rescaled(i, xp), len(i["w"]), int(i["n"])
    m = length - 1
    own = np.sum(a * a, axis=-1)  # [L]
    total = np.sum(a, axis=0)
    rest = total[None] - a  # [L, d]  Σ_{j≠i} a_j
    var = _variance_factor(length, n, xp) * ((np.sum(own) - own) - np.sum(rest * rest, axis=-1) / xp.number(m))
    var = np.where(var > 0, var, 0 * var)
    return xp.number(length - n) / xp.number(length) * np.sum(xp.sqrt(var))


def effective_number_bound(i, xp):
    """``R·(L − N)·√(N(m − N)/(m(m − 1)))·‖α‖₂``, ``m = L − 1``, ``R = max_j ‖x_j‖``."""
    alpha, length, n = weights(i, xp), len(i["w"]), int(i["n"])
    radius = np.max(xp.norm(i["x"]))
    return radius * (length - n) * xp.sqrt(_variance_factor(length, n, xp)) * xp.sqrt(np.sum(alpha * alpha))


# --------------------------------------------------------------------------- hypotheses


@st.composite
def _unnormalised(draw, base):
    """Weights whose total mass is not 1 (``mass`` in ``[0.05, 0.95] ∪ [1.05, 3]``)."""
    instance = dict(draw(base))
    instance["mass"] = draw(st.one_of(st.floats(0.05, 0.95), st.floats(1.05, 3.0)))
    return instance


@st.composite
def _not_top_n(draw, base):
    """A fixed subset of size ``n`` that is not a top-``n`` set of the weights."""
    instance = dict(draw(base))
    length, n = len(instance["w"]), int(instance["n"])
    picks = draw(st.permutations(range(length)))[:n]
    chosen = np.zeros(length, dtype=bool)
    chosen[list(picks)] = True
    alpha = instance["w"]
    assume(np.min(alpha[chosen]) < np.max(alpha[~chosen], initial=-np.inf))
    instance["chosen"] = chosen
    return instance


@st.composite
def _point_mass(draw, base):
    """Selection law concentrated on one subset (not uniform): ``E[d̃]`` is ``d̃`` of that subset."""
    instance = dict(draw(base))
    length, n = len(instance["w"]), int(instance["n"])
    assume(0 < n < length)
    picks = draw(st.permutations(range(length)))[:n]
    chosen = np.zeros(length, dtype=bool)
    chosen[list(picks)] = True
    instance["chosen"] = chosen
    return instance


FIXED_INSTANCES = distance_instances(max_length=12)
RANDOM_INSTANCES = distance_instances(max_length=9)
FIXED_HYPOTHESES = (
    Hypothesis("top-n", "I_N holds the N largest weights (alpha_i <= alpha_j for i outside, j inside)",
               _not_top_n(FIXED_INSTANCES)),
    Hypothesis("normalised", "the weights are a probability vector: alpha >= 0, sum alpha = 1",
               _unnormalised(FIXED_INSTANCES)),
)
RANDOM_HYPOTHESES = (
    Hypothesis("uniform-selection", "I_N is uniform over the C(L, N) subsets of size N",
               _point_mass(RANDOM_INSTANCES)),
    Hypothesis("normalised", "the weights are a probability vector: alpha >= 0, sum alpha = 1",
               _unnormalised(RANDOM_INSTANCES)),
)

# --------------------------------------------------------------------------- statements

_D = {"sum": "Σ_{i∉I_N} ‖α_i x_i − s‖", "norm": "‖Σ_{i∉I_N} α_i x_i − s‖"}
_C = {"normalised": "‖x̄‖ = ‖s‖/ᾱ_N", "max-norm": "max_{j∈I_N} ‖x_j‖"}


def _fixed(reading: str, center: str, expected: str, reason: str, max_examples: int = 80) -> Statement:
    corrected = center == "corrected"
    coefficient = "|1 − 2ᾱ_N|·‖x̄‖" if corrected else f"[(L − N)·ᾱ_N − (1 − ᾱ_N)]·{_C[center].split(' =')[0]}"
    return Statement(
        id=f"theorem1.fixed.{reading}.{center}", title=f"Fixed top-N distance bound ({reading} reading, "
        f"{'corrected coefficient' if corrected else center + ' centre'})",
        paper_ref="Theorem 1, part 1 (Sec. 4)",
        reading=f"d̃ = {_D[reading]}; " + ("coefficient |1 − 2ᾱ_N| on ‖x̄‖" if corrected else f"centre {_C[center]}"),
        formula=f"{_D[reading]} ≤ (1 − ᾱ_N)·d_1 + {coefficient}",
        lhs=true_distance(reading), rhs=fixed_rhs(center), relation="<=", instances=FIXED_INSTANCES,
        expected=expected, reason=reason, hypotheses=FIXED_HYPOTHESES, source="R", max_examples=max_examples,
    )


_WHY_SUM = ("‖α_i x_i − s‖ ≤ α_i‖x_i − x̄‖ + (ᾱ_N − α_i)‖x̄‖ and ‖x_i − x̄‖ ≤ d_1 (x̄ is a convex combination "
            "of the selected x_j); summing over i ∉ I_N gives the bound; ‖x̄‖ ≤ max_j ‖x_j‖ for the max-norm centre")
_WHY_NORM = ("Σ_{i∉I_N} α_i x_i − s = Σ α_i(x_i − x̄) + (1 − 2ᾱ_N)x̄ needs the coefficient |1 − 2ᾱ_N|, which exceeds "
             "(L − N + 1)ᾱ_N − 1 when N = L (left side ‖s‖, right side 0) or when ᾱ_N < 2/(L − N + 3)")

FIXED = (
    _fixed("sum", "normalised", "holds", _WHY_SUM),
    _fixed("sum", "max-norm", "holds", _WHY_SUM),
    _fixed("norm", "normalised", "refuted", _WHY_NORM),
    _fixed("norm", "max-norm", "refuted", _WHY_NORM),
    _fixed("norm", "corrected", "holds", "triangle inequality on Σ α_i(x_i − x̄) + (1 − 2ᾱ_N)x̄; holds for any subset"),
)


def _random(name: str, title: str, formula: str, lhs, rhs, relation: str, expected: str, reason: str,
            instances=RANDOM_INSTANCES, max_examples: int = 60) -> Statement:
    return Statement(
        id=f"theorem1.random.{name}", title=title, paper_ref="Theorem 1, part 2 (Sec. 4)",
        reading="I_N ~ U(I, N), α fixed; E[d̃] (sum reading) by exact enumeration of the C(L, N) subsets",
        formula=formula, lhs=lhs, rhs=rhs, relation=relation, instances=instances, expected=expected,
        reason=reason, hypotheses=RANDOM_HYPOTHESES, source="R", max_examples=max_examples,
    )


def rescaled_mass(i, xp):
    """``A = Σ_i ‖α_i x_i‖``, the natural scale of every random-selection quantity."""
    return np.sum(weights(i, xp) * xp.norm(i["x"]))


def plus_terms(*terms):
    """The sum of the sides ``terms``, offset by ``A = Σ‖α_i x_i‖``.

    Both sides of a random-selection statement carry the same offset ``A``: the relation is
    unchanged, but the engine's relative margin is then measured against the natural scale ``A``,
    so the 1e-51 rounding residue of an exact equality ``0 = 0`` (e.g. ``E[d̃] = main = 0``)
    cannot pass for a violation at 50 digits.
    """
    def side(i, xp):
        return sum(term(i, xp) for term in terms) + rescaled_mass(i, xp)
    return side


def _nine_tenths_of_expectation(i, xp):
    return expectation(i, xp) * 9 / 10


RANDOM = (
    _random("residual-sign", "The residual is non-negative: E[d̃] ≥ main sum",
            "E[d̃] ≥ ((L − N)/L)·Σ_i ‖(1 + N/(L−1))·α_i x_i − x̄‖,  x̄ = (N/(L−1))·Σ_j α_j x_j",
            plus_terms(expectation), plus_terms(main_sum), ">=", "holds",
            "Jensen: E‖a_i − Y_i‖ ≥ ‖a_i − E Y_i‖ for the selected sum Y_i given i ∉ I_N"),
    _random("main-sum-exact", "The expectation equals its main sum (ε = 0)",
            "E[d̃] ≤ ((L − N)/L)·Σ_i ‖(1 + N/(L−1))·α_i x_i − x̄‖",
            plus_terms(expectation), plus_terms(main_sum), "<=", "refuted",
            "the Jensen gap is positive as soon as the selected sum Y_i is random (L ≥ 3, 1 ≤ N ≤ L − 2)"),
    _random("residual-bound", "The residual is at most the variance bound",
            "E[d̃] ≤ main + ((L − N)/L)·Σ_i √Var_i",
            plus_terms(expectation), plus_terms(main_sum, jensen_bound), "<=", "holds",
            "E‖a_i − Y_i‖ − ‖a_i − E Y_i‖ ≤ E‖Y_i − E Y_i‖ ≤ √Var_i (triangle inequality, Cauchy–Schwarz)"),
    _random("residual-small", "The residual is small (≤ 10% of E[d̃]) when the weights are not concentrated",
            "ε = E[d̃] − main ≤ 0.1·E[d̃], i.e. 0.9·E[d̃] ≤ main, whenever 1/Σα_i² ≥ L/2",
            plus_terms(_nine_tenths_of_expectation), plus_terms(main_sum), "<=", "refuted",
            "with spread weights the selected sum Y_i still fluctuates by ~ its mean; N = 1, L = 3 already gives ε/E[d̃] > 0.1",
            instances=distance_instances(max_length=6, bound=0.3, min_effective_fraction=0.5), max_examples=50),
    _random("residual-effective-number", "The residual shrinks with the effective number of tokens (absolute bound)",
            "E[d̃] ≤ main + max_j‖x_j‖·(L − N)·√(N(m − N)/(m(m − 1)))·‖α‖₂,  m = L − 1",
            plus_terms(expectation), plus_terms(main_sum, effective_number_bound), "<=", "holds",
            "Σ_{j≠i}‖a_j‖² ≤ R²‖α‖₂² in the variance bound; ‖α‖₂ = 1/√(effective number)"),
)

STATEMENTS = FIXED + RANDOM
