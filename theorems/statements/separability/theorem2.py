"""Theorem 2 (geometric separability) and its Assumptions 1–2, as statistical statements.

``I_N`` and ``α`` are fixed, the embeddings ``x`` random: i.i.d. uniform on ``S^{d−1}(M)``
(Assumption 1), conditioned on ``‖x_j − x_k‖ ≥ δ`` (Assumption 2). The conclusion [R] is
``1 − (1/(rN))·Σ ξ_i ≤ E[N_s]/N ≤ (1/N)·Σ exp(−(ξ_i − r)²/(c·M²))`` with ``c = 2`` (the paper)
or ``c = 16`` (a summary's reading), and ``N_s`` either gated (the spec's definition: 0 when a
non-selected token is inside the ball) or ungated (the count the proof bounds).

``E[N_s]/N`` is estimated by seeded Monte Carlo: during the search from ``SEARCH_SAMPLES``
configurations drawn from the instance's own ``seed`` (so the float side is a deterministic
function of the instance and shrinking is reproducible); a candidate is confirmed only when,
for two further independent seeds with ``CONFIRM_SAMPLES`` configurations each, the Hoeffding
interval at level ``1 − 1e-6`` excludes the bound. A holding statement is then wrongly refuted
with probability below ``1e-12`` per candidate, whatever the search seed; refutations are found
with margins many interval widths wide (see ``docs/separability.md``), so verdicts do not flip.

>>> from theorems import STATEMENTS, check
>>> check(STATEMENTS["theorem2.upper.2m2.ungated"], seed=0).found
'refuted'
"""

from __future__ import annotations

import dataclasses

import numpy as np

from strategies import separability_instances
from theorems.arithmetic.precision import F64, to_float
from theorems.engine.search import Counterexample
from theorems.engine.statement import Hypothesis, Statement
from theorems.maths.batches import top_n_order
from theorems.maths.separability import (EXPONENTS, hoeffding_halfwidth, separability_lower_bound, separability_upper_bound,
                                         separable_count, xi_squared)
from theorems.maths.separability_sampling import sample_configurations

SEARCH_SAMPLES = 400
"""Configurations per Monte Carlo estimate during the search (fast; noise is settled by confirmation)."""
CONFIRM_SAMPLES = 5_000
"""Configurations per confirming estimate; the Hoeffding half-width at ``LEVEL`` is 0.038 on ``[0, 1]``."""
LEVEL = 1 - 1e-6
"""Level of each confirming interval; two independent seeds must both exclude the bound."""
PRESCREEN_SAMPLES = 1_000
"""Configurations of the screen run before a confirmation (it can only drop a candidate, never refute)."""
CONFIRM_SEEDS = (1_000_003, 2_000_006)
"""Offsets added to the instance's seed for the two confirming runs (never the search's own draws)."""


# ----------------------------------------------------------------------------------------------
# Monte Carlo estimators: (instance, samples, seed) -> (mean [...], Hoeffding half-width [...])


def _embeddings(i, samples, seed):
    delta = i["delta"] if i["conditioned"] else 0.0
    x, _ = sample_configurations(samples=samples, length=len(i["alpha"]), dim=i["dim"], radius=i["M"],
                                 min_distance=delta, seed=seed, law=i["law"])
    return x                                                              # [S, L, d]


def fraction_estimator(*, gated: bool):
    """``E[N_s]/N``: the mean over configurations of ``N_s/N ∈ [0, 1]``."""
    def estimate(i, samples, seed):
        x = _embeddings(i, samples, seed)
        fraction = separable_count(i["alpha"], x, i["n"], i["r"], gated=gated) / i["n"]  # [S]
        return fraction.mean(), hoeffding_halfwidth(samples, level=LEVEL)
    return estimate


def inner_product_estimator(i, samples, seed):
    """``E[x_jᵀx_k]/M²`` (``j ≠ k``; exchangeable, so averaged over pairs): each sample's mean is in ``[−1, 1]``."""
    x = _embeddings(i, samples, seed) / i["M"]                            # [S, L, d]
    gram = x @ np.swapaxes(x, -1, -2)                                     # [S, L, L]
    length = x.shape[-2]
    pairs = (gram.sum(axis=(-2, -1)) - np.trace(gram, axis1=-2, axis2=-1)) / (length * (length - 1))  # [S]
    return pairs.mean(), hoeffding_halfwidth(samples, level=LEVEL, value_range=2.0)


RANGES = {inner_product_estimator: 2.0}
"""Width of the range of one sample's value, per estimator (1 when absent)."""


def selected_indices(i):
    alpha = to_float(i["alpha"])                                         # I_N, ties to the lower index
    return top_n_order(alpha, np.ones(alpha.shape, dtype=bool), int(i["n"]))


def second_moment_estimator(i, samples, seed):
    """``E‖s − α_i x_i‖²/M²`` for each ``i ∈ I_N`` (top-n order); each value lies in ``[0, 1]``."""
    x = _embeddings(i, samples, seed) / i["M"]                            # [S, L, d]
    chosen = selected_indices(i)
    scaled = i["alpha"][chosen, None] * x[:, chosen]                      # [S, n, d]
    rest = scaled.sum(axis=1, keepdims=True) - scaled                     # s − α_i x_i  [S, n, d]
    squared = np.sum(rest * rest, axis=-1)                                # [S, n]
    # Bonferroni over the n elements keeps the family-wise level
    half = hoeffding_halfwidth(samples, level=1 - (1 - LEVEL) / i["n"])
    return squared.mean(axis=0), np.full(i["n"], half)


def _estimated(i, xp):
    """The placeholder left side of a statistical statement; :func:`statistical` replaces it with the estimator."""
    raise NotImplementedError("the left side is set by statistical()")


def statistical(statement: Statement, estimator) -> Statement:
    """``statement`` whose ``lhs`` is ``estimator``'s search estimate and whose ``confirm`` is the interval test.

    Use it for mutants too (``statistical(dataclasses.replace(s, rhs=...), s.confirm.estimator)``),
    so that the confirmation compares with the mutant's own ``rhs``.
    """
    def lhs(i, xp):
        return estimator(i, SEARCH_SAMPLES, i["seed"])[0]

    def confirm(instance):
        bound = np.asarray(statement.rhs(instance, F64), dtype=float)
        # a cheap screen first: most float-side violations are noise of the small search estimate
        mean, _ = estimator(instance, PRESCREEN_SAMPLES, instance["seed"] + CONFIRM_SEEDS[0] - 1)
        half = hoeffding_halfwidth(PRESCREEN_SAMPLES, level=0.99, value_range=RANGES.get(estimator, 1.0))
        if not np.any((mean - half - bound if statement.relation == "<=" else bound - mean - half) > 0):
            return None
        margins, means = [], []
        for offset in CONFIRM_SEEDS:
            mean, half = (np.asarray(v, dtype=float) for v in estimator(instance, CONFIRM_SAMPLES, instance["seed"] + offset))
            # the margin by which the whole interval lies on the wrong side of the bound
            margins.append(mean - half - bound if statement.relation == "<=" else bound - mean - half)
            means.append(mean)
            if not np.any(margins[-1] > 0):
                return None  # one run already clears the bound: no need for the second
        margin = np.minimum(*np.broadcast_arrays(*margins))
        at = np.unravel_index(int(np.argmax(margin)), margin.shape)
        if not margin[at] > 0:
            return None
        lhs_value, rhs_value = float(np.broadcast_to(means[0], margin.shape)[at]), float(np.broadcast_to(bound, margin.shape)[at])
        return Counterexample(
            statement_id=statement.id, instance=instance, lhs=lhs_value, rhs=rhs_value, margin=float(margin[at]),
            relative_margin=float(margin[at] / max(abs(lhs_value), abs(rhs_value), 1e-300)),
            size=statement.size(instance),
            method=f"Monte Carlo, Hoeffding interval at level {LEVEL:g} excluding the bound for 2 independent seeds "
                   f"x {CONFIRM_SAMPLES} configurations")

    confirm.estimator = estimator
    return dataclasses.replace(statement, lhs=lhs, confirm=confirm)


def mutant(statement: Statement, **changes) -> Statement:
    """A changed copy of a statement; a statistical one keeps its estimator and re-binds its confirmation."""
    changed = dataclasses.replace(statement, **changes)
    estimator = getattr(statement.confirm, "estimator", None)
    return statistical(changed, estimator) if estimator is not None else changed


# ----------------------------------------------------------------------------------------------
# sides


def _lower(i, xp):
    return separability_lower_bound(i["alpha"], i["n"], i["r"], M=i["M"], delta=i["delta"])


def _upper(exponent):
    def side(i, xp):
        return separability_upper_bound(i["alpha"], i["n"], i["r"], M=i["M"], delta=i["delta"], exponent=exponent)
    return side


def _upper_any_precision(exponent):
    """The upper bound written against ``xp`` (float64 or mpmath), for the deterministic floor statements."""
    def side(i, xp):
        M, r = i["M"], i["r"]
        squared = xi_squared(i["alpha"][selected_indices(i)], M=M, delta=i["delta"])
        spread = xp.sqrt(np.maximum(squared, 0 * squared))                 # ξ_i  [n]
        gap = spread - r
        return np.sum(xp.exp(-gap * gap / (xp.number(EXPONENTS[exponent]) * M * M))) / i["n"]
    return side


def _floor(exponent):
    def side(i, xp):
        return xp.exp(xp.number(-1) / xp.number(EXPONENTS[exponent]))
    return side


def corrected_upper(i, xp):
    """``(1/N)·Σ_i [1 if r ≥ m_i else exp(−(m_i − r)²/(2M²·Σ_{j≠i} α_j²))]``, ``m_i = M·Σα_j²/Σα_j`` (j ∈ I_N∖{i}).

    McDiarmid's inequality for ``X_i = ‖Σ_{j≠i} α_j x_j‖``, a function of independent ``x_j`` that
    moves by at most ``2Mα_j`` when ``x_j`` does; ``m_i ≤ E X_i`` because ``X_i ≤ M·Σα_j`` gives
    ``E X_i ≥ E X_i²/(M·Σα_j) = M·Σα_j²/Σα_j`` (``E X_i² = M²Σα_j²`` under Assumption 1).
    """
    alpha = np.asarray(i["alpha"], dtype=float)[selected_indices(i)]              # [n]
    M, r = i["M"], i["r"]
    others = alpha.sum() - alpha                                           # Σ_{j≠i} α_j  [n]
    others_sq = np.maximum(np.sum(alpha * alpha) - alpha * alpha, 0.0)     # Σ_{j≠i} α_j²  [n]
    with np.errstate(divide="ignore", invalid="ignore"):
        mean_floor = np.where(others > 0, M * others_sq / np.where(others > 0, others, 1), 0.0)
        tail = np.exp(-(mean_floor - r) ** 2 / (2 * M * M * others_sq))
    return np.where(r >= mean_floor, 1.0, tail).mean()


# ----------------------------------------------------------------------------------------------
# hypotheses and statements

A2_PROBE = Hypothesis("assumption2", "x is conditioned on ||x_j - x_k|| >= delta for all j != k (rejection)",
                      separability_instances(conditioned=False))
A1_INDEPENDENT = Hypothesis("assumption1-independent", "the x_i are independent (probe: x_{2k+1} = -x_{2k})",
                            separability_instances(law="antithetic"))
A1_UNIFORM = Hypothesis("assumption1-uniform", "each x_i is uniform on the sphere (probe: i.i.d. in a cap)",
                        separability_instances(law="clustered"))
HYPOTHESES = (A1_INDEPENDENT, A1_UNIFORM, A2_PROBE)
A1_ONLY = (Hypothesis(A1_INDEPENDENT.name, A1_INDEPENDENT.text, separability_instances(law="antithetic", assumption2=False)),
           Hypothesis(A1_UNIFORM.name, A1_UNIFORM.text, separability_instances(law="clustered", assumption2=False)))

_GATE = {"gated": "N_s = 0 unless every non-selected alpha_j x_j is outside the open ball (the spec's N_s [R])",
         "ungated": "N_s counts the selected alpha_i x_i in the closed ball whatever the others do (the proof's count)"}
_XI = "ξ_i² = M²Σ_{j≠i}α_j² + (M² − δ²/2)Σ_{j≠k≠i}α_jα_k"
_COMMON = dict(paper_ref="Theorem 2 (Sec. 4), Assumptions 1-2", source="R", hypotheses=HYPOTHESES, max_examples=40)


def _lower_statement(gate: str) -> Statement:
    holds = gate == "ungated"
    return statistical(Statement(
        id=f"theorem2.lower.{gate}", title=f"Separable fraction at least 1 - sum xi/(rN) ({gate} N_s)",
        reading=_GATE[gate], formula=f"E[N_s]/N ≥ 1 − (1/(rN))·Σ_{{i∈I_N}} ξ_i,  {_XI}",
        lhs=_estimated, rhs=_lower, relation=">=", instances=separability_instances(),
        expected="holds" if holds else "refuted",
        reason=("P(X_i <= r) >= 1 - E X_i/r >= 1 - sqrt(E X_i^2)/r (Markov, Cauchy-Schwarz), and ||sum_{j!=i} a_j x_j||^2 "
                "<= xi_i^2 pointwise under Assumption 2 (x_j.x_k = M^2 - ||x_j - x_k||^2/2 <= M^2 - delta^2/2)")
        if holds else
        "N = 1 gives xi = 0 and a bound of 1, but the gate fails whenever a non-selected alpha_j x_j falls in the ball",
        **_COMMON | {"max_examples": 40 if holds else 150}), fraction_estimator(gated=gate == "gated"))


def _upper_statement(exponent: str, gate: str) -> Statement:
    tag = exponent.replace("^", "").lower()
    return statistical(Statement(
        id=f"theorem2.upper.{tag}.{gate}", title=f"Separable fraction at most mean exp(-(xi - r)^2/({exponent})) ({gate} N_s)",
        reading=f"exponent −(ξ_i − r)²/({exponent}); {_GATE[gate]}",
        formula=f"E[N_s]/N ≤ (1/N)·Σ_{{i∈I_N}} exp(−(ξ_i − r)²/({exponent})),  {_XI}",
        lhs=_estimated, rhs=_upper(exponent), relation="<=", instances=separability_instances(max_radius=4.0), expected="refuted",
        reason="the bound decreases once r > xi_i although P(X_i <= r) increases to 1: with N = 1, X_i = 0 and "
               "E[N_s]/N = 1 > exp(-r^2/(c M^2)) for every r > 0 (a one-variable Hoeffding bound only holds below the mean)",
        **_COMMON | {"max_examples": 150}), fraction_estimator(gated=gate == "gated"))


CORRECTED_UPPER = statistical(Statement(
    id="theorem2.upper.ungated.corrected", title="Separable fraction at most a McDiarmid tail (Assumption 1)",
    paper_ref="Theorem 2 (Sec. 4), corrected", source="R", reading=_GATE["ungated"] + "; Assumption 1 only (delta = 0)",
    formula="E[N_s]/N ≤ (1/N)·Σ_i [r ≥ m_i ? 1 : exp(−(m_i − r)²/(2M²Σ_{j≠i}α_j²))],  m_i = M·Σ_{j≠i}α_j²/Σ_{j≠i}α_j",
    lhs=_estimated, rhs=corrected_upper, relation="<=", instances=separability_instances(assumption2=False),
    expected="holds", hypotheses=A1_ONLY, max_examples=40,
    reason="McDiarmid for X_i = ||sum_{j!=i} alpha_j x_j|| (bounded differences 2 M alpha_j, independent x_j) below "
           "m_i <= E X_i; above m_i the bound is 1"), fraction_estimator(gated=False))


def _floor_statement(exponent: str) -> Statement:
    tag = exponent.replace("^", "").lower()
    c = EXPONENTS[exponent]
    return Statement(
        id=f"theorem2.upper.{tag}.floor", title=f"The upper bound ({exponent}) is at least exp(-1/{c:g}) for r <= M",
        paper_ref="Theorem 2 (Sec. 4): how informative the upper bound can be", source="R",
        reading=f"r in (0, M] (the experiments' radius r = min_j ||s - alpha_j x_j|| is always <= M), exponent {exponent}",
        formula=f"(1/N)·Σ exp(−(ξ_i − r)²/({exponent})) ≥ e^(−1/{c:g}) ≈ {np.exp(-1 / c):.4f}",
        lhs=_upper_any_precision(exponent), rhs=_floor(exponent), relation=">=",
        instances=separability_instances(max_radius=1.0), expected="holds", max_examples=100,
        hypotheses=(Hypothesis("radius-at-most-M", "0 < r <= M", separability_instances(max_radius=2.0)),),
        reason="0 <= xi_i <= M (xi_i^2 <= M^2 (sum_{j!=i} alpha_j)^2 <= M^2) and 0 < r <= M give |xi_i - r| <= M")


UNCORRELATED = statistical(Statement(
    id="theorem2.assumptions.uncorrelated", title="Assumption 2 leaves E[x_j.x_k] = 0 as under Assumption 1",
    paper_ref="Assumptions 1-2 (Sec. 4)", source="R",
    reading="E[x_j.x_k | Assumption 2] >= 0 (it is exactly 0 under Assumption 1 alone)",
    formula="E[x_jᵀx_k | ‖x_a − x_b‖ ≥ δ ∀a≠b] / M² ≥ 0", lhs=_estimated, rhs=lambda i, xp: 0.0, relation=">=",
    instances=separability_instances(), expected="refuted", hypotheses=(A2_PROBE,), max_examples=150,
    reason="conditioning on a minimum distance pushes the points apart: for L = 2 it keeps x_1.x_2 <= M^2 - delta^2/2, "
           "so the conditional mean is negative"), inner_product_estimator)

CROSS_TERM = statistical(Statement(
    id="theorem2.assumptions.cross-term", title="Under Assumption 2, E[x_j.x_k] <= M^2 - delta^2/2 (the cross term of xi)",
    paper_ref="Assumptions 1-2 (Sec. 4)", source="R", reading="the bound the proof uses for each cross term",
    formula="E[x_jᵀx_k | Assumption 2] ≤ M² − δ²/2", lhs=_estimated,
    rhs=lambda i, xp: 1.0 - (i["delta"] / i["M"]) ** 2 / 2, relation="<=",
    instances=separability_instances(), expected="holds", hypotheses=(A2_PROBE,), max_examples=40,
    reason="x_j.x_k = M^2 - ||x_j - x_k||^2/2 <= M^2 - delta^2/2 pointwise on Assumption 2"), inner_product_estimator)


def _xi_squared_scaled(i, xp):
    return xi_squared(np.asarray(i["alpha"], dtype=float)[selected_indices(i)], M=1.0, delta=i["delta"] / i["M"])


SECOND_MOMENT = statistical(Statement(
    id="theorem2.assumptions.second-moment", title="E||s - alpha_i x_i||^2 <= xi_i^2 under Assumptions 1-2",
    paper_ref="Theorem 2 (Sec. 4), proof", source="R", reading="the Cauchy-Schwarz step: xi_i^2 bounds the second moment",
    formula=f"E‖Σ_{{j∈I_N∖{{i}}}} α_j x_j‖² ≤ ξ_i²,  {_XI}", lhs=_estimated, rhs=_xi_squared_scaled, relation="<=",
    instances=separability_instances(), expected="holds", hypotheses=(A2_PROBE,), max_examples=40,
    reason="expand the square: M^2 on the diagonal, x_j.x_k <= M^2 - delta^2/2 off it (alpha >= 0)"), second_moment_estimator)


STATEMENTS = (
    _lower_statement("ungated"), _lower_statement("gated"),
    *(_upper_statement(e, g) for e in EXPONENTS for g in ("ungated", "gated")),
    CORRECTED_UPPER, *(_floor_statement(e) for e in EXPONENTS),
    UNCORRELATED, CROSS_TERM, SECOND_MOMENT,
)
