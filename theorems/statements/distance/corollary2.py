"""Corollary 2: the random-selection distance in its extreme regimes [R].

(i) ``N`` fixed, ``L → ∞``: the paper concludes ``E[d̃] ≈ Σ_i ‖α_i x_i‖`` because ``(L − N)/L → 1`` and
``N/(L − 1) → 0``. The second limit does not make ``(N/(L − 1))·Σ_{j≠i} α_j x_j`` negligible: that sum
has ``L − 1`` terms, so it stays of the size of ``N·α_i x_i``. Read "≈" as "within a factor 2"
at ``L ≥ 16·N`` under bounded logits (Lemma 1's regime): both directions are refuted
(``.upper``, by Monte Carlo with a confidence interval; ``.lower``, exactly: ``N = 1`` and equal
embeddings give ``E[d̃] = 0``). ``.corrected`` is what does hold for every ``L``:
``E[d̃] ≤ (1 + N)·Σ_i ‖α_i x_i‖`` (and ``E[d̃] ≥ 0`` is attained), i.e. the approximation is good only
up to the factor ``1 + N``, not asymptotically.

(ii) ``L`` fixed, ``N → L``: ``E[d̃] → 0``; checked in the quantitative form
``E[d̃] ≤ (1 − N/L)·(1 + N)·Σ_i ‖α_i x_i‖`` (``E[d̃] = 0`` at ``N = L``), which holds.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from strategies.distance import distance_instances, long_context_instances
from theorems.arithmetic.precision import F64
from theorems.engine.search import Counterexample, confirm_in_high_precision
from theorems.engine.statement import Hypothesis, Statement
from theorems.maths.distance import EXACT_LIMIT, expected_distance
from theorems.statements.distance.theorem1 import RANDOM_HYPOTHESES, expectation, rescaled_mass, weights

CONFIRM_RUNS = ((2_000, 1), (8_000, 2))
"""Monte Carlo confirmation: (samples, seed offset) of two independent runs; both must exclude the bound."""
CONFIRM_LEVEL = 0.999


def _scaled_mass(factor):
    def side(i, xp):
        return factor(i, xp) * rescaled_mass(i, xp)
    return side


def confirm_expectation(statement: Statement):
    """A ``confirm`` for a statement ``E[d̃] <relation> rhs``: when ``C(L, N) ≤ EXACT_LIMIT``, every subset
    enumerated in ball arithmetic (the sides' own exact enumeration, certified like any other counterexample);
    otherwise two independent Monte Carlo runs whose ``CONFIRM_LEVEL`` normal intervals must both lie entirely on
    the violating side of the bound (a statistical confirmation: not certified, and its method says so)."""
    def confirm(instance):
        length, n = len(instance["w"]), int(instance["n"])
        if math.comb(length, n) <= EXACT_LIMIT:
            return confirm_in_high_precision(statement, instance)
        alpha = np.asarray(weights(instance, F64), dtype=float)
        rhs = float(statement.rhs(instance, F64))
        estimate = None
        for samples, offset in CONFIRM_RUNS:
            estimate = expected_distance(alpha, instance["x"], n, method="monte-carlo", samples=samples,
                                         seed=int(instance["seed"]) + offset, level=CONFIRM_LEVEL,
                                         allow_unnormalised="mass" in instance)
            edges = (float(estimate.low), float(estimate.high))
            if not all(statement.violation(edge, rhs) > 0 for edge in edges):
                return None
        mean = float(estimate.mean)
        margin = statement.violation(mean, rhs)
        return Counterexample(
            statement_id=statement.id, instance=instance, lhs=mean, rhs=rhs, margin=margin,
            relative_margin=margin / max(abs(mean), abs(rhs)), size=statement.size(instance),
            method=(f"Monte Carlo over I_N ~ U(I, N) (not certified: C(L, N) = {math.comb(length, n)} subsets are too "
                    f"many to enumerate in balls): two independent runs ({CONFIRM_RUNS[0][0]} and "
                    f"{CONFIRM_RUNS[1][0]} subsets); each {CONFIRM_LEVEL:.1%} normal confidence interval for "
                    f"E[d̃] excludes the bound (last: [{edges[0]:.6g}, {edges[1]:.6g}] vs {rhs:.6g})"),
        )
    return confirm


def _with_confirm(statement: Statement) -> Statement:
    return dataclasses.replace(statement, confirm=confirm_expectation(statement))


LONG = long_context_instances()
_LIMIT_REASON = ("(N/(L − 1))·Σ_{j≠i} α_j x_j has L − 1 terms: it is of the size of N·α_i x_i and does not vanish; "
                 "aligned embeddings give E[d̃] ≈ (N − 1)·Σ‖α_i x_i‖, and N = 1 with equal embeddings gives E[d̃] = 0")
_COMMON = dict(paper_ref="Corollary 2 (Sec. 4)", source="R", lhs=expectation)
_HYPOTHESES_I = (Hypothesis("long-context", "N ≪ L, read as L ≥ 16·N, bounded logits in [-2, 2]"),)

STATEMENTS = (
    _with_confirm(Statement(
        id="corollary2.i.upper", title="N fixed, L → ∞: E[d̃] ≈ Σ‖α_i x_i‖ (at most twice)",
        reading="'≈' read as: within a factor 2, once L ≥ 16·N (bounded logits)",
        formula="E[d̃] ≤ 2·Σ_i ‖α_i x_i‖   (L ≥ 16 N)", rhs=_scaled_mass(lambda i, xp: 2), relation="<=",
        instances=LONG, expected="refuted", reason=_LIMIT_REASON, hypotheses=_HYPOTHESES_I, max_examples=30,
        **_COMMON)),
    _with_confirm(Statement(
        id="corollary2.i.lower", title="N fixed, L → ∞: E[d̃] ≈ Σ‖α_i x_i‖ (at least half)",
        reading="'≈' read as: within a factor 2, once L ≥ 16·N (bounded logits)",
        formula="E[d̃] ≥ ½·Σ_i ‖α_i x_i‖   (L ≥ 16 N)", rhs=_scaled_mass(lambda i, xp: xp.number(1) / 2),
        relation=">=", instances=LONG, expected="refuted", reason=_LIMIT_REASON, hypotheses=_HYPOTHESES_I,
        max_examples=60, **_COMMON)),
    Statement(
        id="corollary2.i.corrected", title="E[d̃] is at most (1 + N)·Σ‖α_i x_i‖ for every L",
        reading="the bound that does hold uniformly in L; the factor 1 + N does not tend to 1",
        formula="E[d̃] ≤ (1 + N)·Σ_i ‖α_i x_i‖", rhs=_scaled_mass(lambda i, xp: 1 + int(i["n"])), relation="<=",
        instances=distance_instances(max_length=9), expected="holds",
        reason="E‖a_i − Y_i‖ ≤ ‖a_i‖ + (N/(L−1))·Σ_{j≠i}‖a_j‖; summed with weight (L − N)/L",
        hypotheses=RANDOM_HYPOTHESES, max_examples=60, **_COMMON),
    Statement(
        id="corollary2.ii", title="L fixed, N → L: E[d̃] → 0, linearly in L − N",
        reading="quantitative form of the limit; E[d̃] = 0 at N = L",
        formula="E[d̃] ≤ (1 − N/L)·(1 + N)·Σ_i ‖α_i x_i‖",
        rhs=_scaled_mass(lambda i, xp: xp.number(len(i["w"]) - int(i["n"])) / len(i["w"]) * (1 + int(i["n"]))),
        relation="<=", instances=distance_instances(max_length=9), expected="holds",
        reason="P(i ∉ I_N) = (L − N)/L and E‖a_i − Y_i‖ ≤ ‖a_i‖ + (N/(L−1))·Σ_{j≠i}‖a_j‖",
        hypotheses=RANDOM_HYPOTHESES, max_examples=60, **_COMMON),
)
