"""The paper's proofs as derivations, checked step by step (``python -m theorems.statements.proofs``).

Each proof of ``../shared/spec/STATEMENTS.md`` is a :class:`~theorems.engine.derivation.Derivation` over
the instances of the statement it proves, its sides built from the quantity functions the
statement families already have. A step known to be wrong carries ``expected="refuted"``: the gate
then names it as the first failing step of that proof, with a certified counterexample.

``PROOFS`` maps a catalogue statement id to the derivation of (one reading of) its proof;
:func:`ledger_section` renders, for each, the first failing step or the loosest step. The ledger
(``python -m theorems ledger``) appends it to ``docs/verdicts.md``.

>>> PROOFS["corollary1.own-key.upper"].links[-1].justification
'Cauchy–Schwarz with the own key: |l_j| ≤ ‖q‖‖k_i‖ for every j (wrong: j ≠ i uses ‖k_j‖)'
"""

from __future__ import annotations

import dataclasses

import mpmath
import numpy as np

from strategies import separability_instances
from theorems.arithmetic.precision import Ball, to_float
from theorems.engine.derivation import Derivation, DerivationReport, Link, Term, describe_tightness, gate
from theorems.engine.search import tightness_class
from theorems.maths.distance import subsets
from theorems.statements.distance import theorem1
from theorems.statements.distance.corollary2 import confirm_expectation
from theorems.statements.gradient import corollary3
from theorems.statements.separability import theorem2
from theorems.statements.vanishing import corollary1

# ----------------------------------------------------------------------------------------------
# Lemma 1 -> Corollary 1 (elementwise over i; instances {q [d], keys [L, d], T})


def _logits(i):
    return i["keys"] @ i["q"]  # [L]


def _weights(i, xp):
    return corollary1.weights(i, xp)  # T through xp, as the statement's own side


def _own_gap(sign: int):
    """``e^{(l_i − min l)/T}/L`` (upper) or ``e^{(l_i − max l)/T}/L`` (lower)."""
    def value(i, xp):
        l = _logits(i)
        edge = np.min(l) if sign > 0 else np.max(l)
        return xp.exp((l - edge) / xp.number(i["T"])) / len(l)
    return value


def _logit_range(sign: int):
    """``e^{±2 max_j |l_j| / T}/L``: Lemma 1's constant with ``a = max_j |l_j|``."""
    def value(i, xp):
        l = _logits(i)
        return xp.exp(sign * 2 * np.max(xp.abs(l)) / xp.number(i["T"])) / len(l) + 0 * l
    return value


def _corollary1(reading: str, bound: str) -> Derivation:
    sign, rel = (1, "<=") if bound == "upper" else (-1, ">=")
    own = reading == "own-key"
    delta = "‖q‖‖k_i‖" if own else "‖q‖ max_j ‖k_j‖"
    last = Link(rel, Term(f"(1/L)·e^{{{'+' if sign > 0 else '−'}2{delta}/T}}", corollary1._envelope(reading, sign)),
                "Cauchy–Schwarz with the own key: |l_j| ≤ ‖q‖‖k_i‖ for every j (wrong: j ≠ i uses ‖k_j‖)" if own
                else "Cauchy–Schwarz: |l_j| = |qᵀk_j| ≤ ‖q‖ max_j ‖k_j‖",
                expected="refuted" if own else "holds")
    edge = "min" if sign > 0 else "max"
    return Derivation(
        id=f"proof.corollary1.{reading}.{bound}", title=f"Lemma 1 → Corollary 1 ({reading}, {bound})",
        paper_ref="Lemma 1 and Corollary 1 (Sec. 3)", source="P", instances=corollary1.instances(),
        hypotheses=corollary1.HYPOTHESES, expected="refuted" if own else "holds", max_examples=150,
        start=Term("α_i", _weights),
        links=(Link(rel, Term(f"e^{{(l_i − {edge}_j l_j)/T}}/L", _own_gap(sign)),
                    f"Σ_j e^{{l_j/T}} {'≥' if sign > 0 else '≤'} L·e^{{{edge}_j l_j/T}} (Lemma 1's denominator bound)"),
               Link(rel, Term(f"e^{{{'+' if sign > 0 else '−'}2 max_j|l_j|/T}}/L", _logit_range(sign)),
                    "|l_i − l_j| ≤ 2 max_j |l_j| (Lemma 1 with a = max_j |l_j|, C_2 = e^{2a/T})"),
               last))


# ----------------------------------------------------------------------------------------------
# Theorem 1, part 1 (instances {w, x, n, seed}; top-N set fixed)


def _centre(i, xp):
    """``(x̄ [d], ᾱ_N, 1 − ᾱ_N, d_1, ‖x̄‖, chosen [L], α [L])``."""
    alpha, chosen = theorem1.weights(i, xp), theorem1.selected(i)
    mass, outside, d1, norm, _ = theorem1.fixed_parts(i, xp)
    xbar = np.sum(alpha[chosen][:, None] * i["x"][chosen], axis=0) / mass
    return xbar, mass, outside, d1, norm, chosen, alpha


def _decomposed(i, xp):
    """``Σ_{i∉I_N} ‖α_i(x_i − x̄) − (ᾱ_N − α_i)x̄‖``."""
    xbar, mass, _, _, _, chosen, alpha = _centre(i, xp)
    rest, x = alpha[~chosen], i["x"][~chosen]
    return np.sum(xp.norm(rest[:, None] * (x - xbar) - (mass - rest)[:, None] * xbar)) + 0 * mass


def _triangle(i, xp):
    """``Σ_{i∉I_N} [α_i‖x_i − x̄‖ + (ᾱ_N − α_i)‖x̄‖]``."""
    xbar, mass, _, _, norm, chosen, alpha = _centre(i, xp)
    rest = alpha[~chosen]
    return np.sum(rest * xp.norm(i["x"][~chosen] - xbar) + (mass - rest) * norm) + 0 * mass


def _diameter(i, xp):
    """``Σ_{i∉I_N} [α_i d_1 + (ᾱ_N − α_i)‖x̄‖]``."""
    _, mass, _, d1, norm, chosen, alpha = _centre(i, xp)
    rest = alpha[~chosen]
    return np.sum(rest * d1 + (mass - rest) * norm) + 0 * mass


def _decomposed_norm(i, xp):
    """``‖Σ_{i∉I_N} α_i(x_i − x̄) + (1 − 2ᾱ_N)x̄‖`` (``1 − 2ᾱ_N`` written as ``(1 − ᾱ_N) − ᾱ_N``)."""
    xbar, mass, outside, _, _, chosen, alpha = _centre(i, xp)
    rest = alpha[~chosen]
    return xp.norm(np.sum(rest[:, None] * (i["x"][~chosen] - xbar), axis=0) + (outside - mass) * xbar)


_PAPER_RHS = "(1 − ᾱ_N)·d_1 + [(L − N)·ᾱ_N − (1 − ᾱ_N)]·‖x̄‖"
_PART1 = dict(paper_ref="Theorem 1, part 1 (Sec. 4)", instances=theorem1.FIXED_INSTANCES,
              hypotheses=theorem1.FIXED_HYPOTHESES, max_examples=80)

THEOREM1_SUM = Derivation(
    id="proof.theorem1.fixed.sum", title="Theorem 1 part 1, sum reading", expected="holds", **_PART1,
    start=Term("Σ_{i∉I_N} ‖α_i x_i − s‖", theorem1.true_distance("sum")),
    links=(Link("=", Term("Σ_{i∉I_N} ‖α_i(x_i − x̄) − (ᾱ_N − α_i)x̄‖", _decomposed),
                "decomposition α_i x_i − s = α_i(x_i − x̄) − (ᾱ_N − α_i)x̄, s = ᾱ_N x̄"),
           Link("<=", Term("Σ_{i∉I_N} [α_i‖x_i − x̄‖ + (ᾱ_N − α_i)‖x̄‖]", _triangle),
                "triangle inequality, with α_i ≤ ᾱ_N off the top-N set"),
           Link("<=", Term("Σ_{i∉I_N} [α_i d_1 + (ᾱ_N − α_i)‖x̄‖]", _diameter),
                "‖x_i − x̄‖ ≤ d_1: x̄ is a convex combination of the selected x_j"),
           Link("=", Term(_PAPER_RHS, theorem1.fixed_rhs("normalised")),
                "the sum: Σ_{i∉I_N} α_i = 1 − ᾱ_N over L − N terms")))

THEOREM1_NORM = Derivation(
    id="proof.theorem1.fixed.norm", title="Theorem 1 part 1, norm reading", expected="refuted", **_PART1,
    start=Term("‖Σ_{i∉I_N} α_i x_i − s‖", theorem1.true_distance("norm")),
    links=(Link("=", Term("‖Σ_{i∉I_N} α_i(x_i − x̄) + (1 − 2ᾱ_N)x̄‖", _decomposed_norm),
                "decomposition with Σ_{i∉I_N} α_i = 1 − ᾱ_N"),
           Link("<=", Term("(1 − ᾱ_N)·d_1 + |1 − 2ᾱ_N|·‖x̄‖", theorem1.fixed_rhs("corrected")),
                "triangle inequality and ‖x_i − x̄‖ ≤ d_1"),
           Link("<=", Term(_PAPER_RHS, theorem1.fixed_rhs("normalised")),
                "the sum reading's coefficient (L − N)·ᾱ_N − (1 − ᾱ_N) in place of |1 − 2ᾱ_N|", expected="refuted")))


# ----------------------------------------------------------------------------------------------
# Theorem 1, part 2 (I_N uniform over the C(L, N) subsets; exact enumeration, L ≤ 9)


def _given_outside(i, xp, value):
    """``((L − N)/L)·Σ_i E[value | i ∉ I_N]`` by enumerating the subsets that leave ``i`` out.

    ``value(a [L, d], Y [C, 1, d], EY [L, d], xp) -> [C, L]`` with ``Y`` the selected sum of each
    subset and ``EY_i = E[Y | i ∉ I_N]``, itself a conditional mean over the enumeration.
    """
    a, length, n = theorem1._rescaled(i, xp), len(i["w"]), int(i["n"])
    every = subsets(length, n)  # [C, L]
    outside = ~every
    counts = outside.sum(axis=0)  # [L]  C(L − 1, N) each, 0 when N = L
    zero = 0 * a[0, 0]
    Y = np.sum(np.where(every[:, :, None], a[None], zero), axis=1)  # [C, d]
    EY = np.sum(np.where(outside[:, :, None], Y[:, None, :], zero), axis=0) / np.maximum(counts, 1)[:, None]  # [L, d]
    values = value(a, Y[:, None, :], EY, xp)  # [C, L]
    conditional = np.sum(np.where(outside, values, zero), axis=0) / np.maximum(counts, 1)  # [L]
    return xp.number(length - n) / xp.number(length) * np.sum(conditional) + zero


def _conditional_norm(i, xp):
    return _given_outside(i, xp, lambda a, Y, EY, xp: xp.norm(a[None] - Y))


def _norm_of_mean(i, xp):
    return _given_outside(i, xp, lambda a, Y, EY, xp: xp.norm(a - EY)[None] + 0 * xp.norm(Y))


def _mean_plus_spread(i, xp):
    return _given_outside(i, xp, lambda a, Y, EY, xp: xp.norm(a - EY)[None] + xp.norm(Y - EY[None]))


def _main_plus_variance(i, xp):
    return theorem1.main_sum(i, xp) + theorem1.jensen_bound(i, xp)


def _expectation_confirm(statement):
    """Links whose left side is ``E[d̃]`` confirm as the random-selection statements do."""
    return dataclasses.replace(statement, confirm=confirm_expectation(statement))


_PART2 = dict(paper_ref="Theorem 1, part 2 (Sec. 4)", instances=theorem1.RANDOM_INSTANCES,
              hypotheses=theorem1.RANDOM_HYPOTHESES, max_examples=40)
_E = Term("E[d̃]", theorem1.expectation)
_CONDITIONED = Link("=", Term("((L − N)/L)·Σ_i E[‖a_i − Y_i‖ | i ∉ I_N]", _conditional_norm),
                    "conditioning on i ∉ I_N, which has probability (L − N)/L", statistical=_expectation_confirm)
_SELECTION = Link("=", Term("((L − N)/L)·Σ_i ‖(1 + N/(L−1))·a_i − (N/(L−1))·Σ_j a_j‖", theorem1.main_sum),
                  "each other index is selected with probability N/(L − 1): E[Y_i | i ∉ I_N] = (N/(L−1))·Σ_{j≠i} a_j")
_NORM_OF_MEAN = Term("((L − N)/L)·Σ_i ‖a_i − E[Y_i | i ∉ I_N]‖", _norm_of_mean)

THEOREM1_RANDOM = Derivation(
    id="proof.theorem1.random.main-sum", title="Theorem 1 part 2: E[d̃] equals its main sum", expected="refuted",
    **_PART2, start=_E,
    links=(_CONDITIONED,
           Link("=", _NORM_OF_MEAN, "replacing the expectation of a norm by the norm of the expectation "
                                    "(Jensen gives only ≥: this is the residual ε)", expected="refuted"),
           _SELECTION))

THEOREM1_RESIDUAL = Derivation(
    id="proof.theorem1.random.residual-bound", title="Theorem 1 part 2: the residual bound", expected="holds",
    **_PART2, start=_E,
    links=(_CONDITIONED,
           Link("<=", Term("((L − N)/L)·Σ_i (‖a_i − E Y_i‖ + E‖Y_i − E Y_i‖)", _mean_plus_spread),
                "triangle inequality around the conditional mean E Y_i"),
           Link("<=", Term("main + ((L − N)/L)·Σ_i √Var_i", _main_plus_variance),
                "E‖Y_i − E Y_i‖ ≤ √Var_i (Cauchy–Schwarz), Var_i of a sample without replacement")))


# ----------------------------------------------------------------------------------------------
# Theorem 2 (I_N and α fixed, x random; statistical links confirmed by Hoeffding intervals)


def _fraction(gated: bool):
    """A link whose left side is ``E[N_s]/N``: the statistical statements' own estimator and interval test."""
    return lambda statement: theorem2.statistical(statement, theorem2.fraction_estimator(gated=gated))


def _gate_cost(i, samples, seed):
    """Per configuration ``N_s^gated/N − N_s^ungated/N ∈ [−1, 0]``: what dropping the gate changes."""
    gated, _ = theorem2.fraction_estimator(gated=True)(i, samples, seed)
    ungated, half = theorem2.fraction_estimator(gated=False)(i, samples, seed)  # same seed: same configurations
    return gated - ungated, half


def _dropping_the_gate(statement):
    return theorem2.statistical(dataclasses.replace(statement, rhs=lambda i, xp: 0.0), _gate_cost)


def _mcdiarmid(i, xp):
    """The McDiarmid bound of ``theorem2.corrected_upper``, which is float64 arithmetic: evaluated on the float
    view of the instance in either backend (its margins against the paper's bound are of order 0.1, far
    above float rounding)."""
    floats = {k: to_float(v) if isinstance(v, (mpmath.mpf, Ball)) or (isinstance(v, np.ndarray) and v.dtype == object)
              else v for k, v in i.items()}
    return xp.number(float(theorem2.corrected_upper(floats, xp)))  # exact as a ball: the certifier compares balls


_XI = "ξ_i² = M²Σ_{j≠i}α_j² + (M² − δ²/2)Σ_{j≠k≠i}α_jα_k"
_UNUSED = Term("E[N_s]/N", lambda i, xp: 0.0)  # replaced by the estimator of each statistical link

THEOREM2_LOWER = Derivation(
    id="proof.theorem2.lower", title="Theorem 2 lower bound (gated N_s)", expected="refuted",
    paper_ref="Theorem 2 (Sec. 4)", instances=separability_instances(), hypotheses=theorem2.HYPOTHESES,
    max_examples=40, statistical=_fraction(gated=True),
    start=Term("E[N_s]/N (gated)", _UNUSED.value),
    links=(Link(">=", Term("E[N_s]/N (ungated)", _UNUSED.value),
                "dropping the gate (N_s counts only when no non-selected α_j x_j is in the ball)",
                expected="refuted", statistical=_dropping_the_gate),
           Link(">=", Term(f"1 − (1/(rN))·Σ_{{i∈I_N}} ξ_i,  {_XI}", theorem2._lower),
                "Markov P(X_i ≤ r) ≥ 1 − E X_i/r, Cauchy–Schwarz E X_i ≤ √(E X_i²), and E X_i² ≤ ξ_i² "
                "(checked alone as theorem2.assumptions.second-moment)", statistical=_fraction(gated=False))))

THEOREM2_UPPER = Derivation(
    id="proof.theorem2.upper", title="Theorem 2 upper bound (2M², ungated N_s, Assumption 1)", expected="refuted",
    paper_ref="Theorem 2 (Sec. 4)", instances=separability_instances(assumption2=False, max_radius=4.0),
    hypotheses=theorem2.A1_ONLY, max_examples=40, statistical=_fraction(gated=False),
    start=Term("E[N_s]/N (ungated)", _UNUSED.value),
    links=(Link("<=", Term("(1/N)·Σ_i [r ≥ m_i ? 1 : exp(−(m_i − r)²/(2M²Σ_{j≠i}α_j²))]", _mcdiarmid),
                "Hoeffding/McDiarmid for X_i = ‖Σ_{j≠i} α_j x_j‖ (range 2Mα_j per token) below a lower estimate "
                "m_i ≤ E X_i, and 1 above it", statistical=_fraction(gated=False)),
           Link("<=", Term(f"(1/N)·Σ_i exp(−(ξ_i − r)²/(2M²)),  {_XI}", theorem2._upper_any_precision("2M^2")),
                "Hoeffding with range [0, 2M] and ξ_i used where a lower estimate of E X_i is needed "
                "(ξ_i ≥ E X_i), on both sides of the mean", expected="refuted")))


# ----------------------------------------------------------------------------------------------
# Lemma 2 specialised to softmax, against Corollary 3


def _lemma2_softmax(i, xp):
    """``(max_j |F'_j| + ‖α‖₂‖F'‖₂)/(L·min_j F_j)`` with ``F = e^{(l − max l)/T}`` and ``F' = F/T``."""
    l, T = i["logits"], i["T"]
    F = xp.exp((l - np.max(l)) / T)  # the bound is invariant under F -> cF: no overflow at small T
    dF = F / T
    alpha = F / np.sum(F)
    return (np.max(dF) + xp.norm(alpha) * xp.norm(dF)) / (len(l) * np.min(F))


COROLLARY3 = Derivation(
    id="proof.corollary3.spectral", title="Lemma 2 specialised to softmax, against Corollary 3", expected="refuted",
    paper_ref="Lemma 2 and Corollary 3 (Sec. 4)", source="P", instances=corollary3.instances(),
    hypotheses=(corollary3.SOFTMAX,), max_examples=150,
    start=Term("‖J‖₂", corollary3._spectral),
    links=(Link("<=", Term("(max_j F'_j + ‖α‖₂‖F'‖₂)/(L·min_j F_j),  F' = F/T", _lemma2_softmax),
                "Lemma 2 with F = e^{l/T}, F' = F/T"),
           Link("<=", Term("min{1/(4T), √2}", corollary3._paper),
                "Lemma 2's bound read as 'the classic 1/(4T)' (at L = 2, equal logits it is 1/T)", expected="refuted")))


PROOFS: dict[str, Derivation] = {
    "corollary1.max-key.upper": _corollary1("max-key", "upper"),
    "corollary1.max-key.lower": _corollary1("max-key", "lower"),
    "corollary1.own-key.upper": _corollary1("own-key", "upper"),
    "corollary1.own-key.lower": _corollary1("own-key", "lower"),
    "theorem1.fixed.sum.normalised": THEOREM1_SUM,
    "theorem1.fixed.norm.normalised": THEOREM1_NORM,
    "theorem1.random.main-sum-exact": THEOREM1_RANDOM,
    "theorem1.random.residual-bound": THEOREM1_RESIDUAL,
    "theorem2.lower.gated": THEOREM2_LOWER,
    "theorem2.upper.2m2.ungated": THEOREM2_UPPER,
    "corollary3.spectral": COROLLARY3,
}
"""The catalogue statement whose proof each derivation encodes."""


# ----------------------------------------------------------------------------------------------
# the ledger's account: the first failing step of each refuted result, the loosest of each that holds


def _account(statement_id: str, report: DerivationReport, *, detail: bool = True) -> str:
    """One proof, step by step. ``detail=False``: only what does not move with the search path (verdicts, the
    tight/loose class of each step, the first failing step), for the tracked ledger; ``True`` adds the ratios and
    the counterexample (the untracked detailed ledger)."""
    d = report.derivation
    lines = [f"### `{statement_id}` — {d.title}", "", f"- Chain: {d.formula}"]
    for r in report.links:
        mark = "" if r.matches else " ⚠ (expected " + r.link.expected + ")"
        shown = describe_tightness if detail else tightness_class
        tight = f" — {shown(r.tightness)}" if r.found == "holds" and r.link.relation != "=" and r.tightness else ""
        lines.append(f"  {r.index}. {r.link.justification}: **{r.found}**{mark}{tight}")
    failure = report.first_failure
    if failure is not None:
        lines.append(f"- **First failing step: {failure.index}** ({failure.link.justification})"
                     + (". " + _capitalised(failure.describe_failure().replace("\n", "; ")) if detail else ""))
    else:
        loosest = report.loosest
        if loosest is None:
            lines.append("- Every step holds (the engine reports no tightness, so no step is named loosest)")
        elif loosest.tightness.ratio >= getattr(loosest.tightness, "TIGHT", 0.99):
            lines.append("- Every step holds and every inequality step is tight"
                         + (f" (smallest ratio {loosest.tightness.ratio:.4g}, step {loosest.index})" if detail else ""))
        elif detail:
            lines.append(f"- Every step holds; loosest: step {loosest.index} ({loosest.link.justification}), "
                         f"{describe_tightness(loosest.tightness)}")
        else:
            loose = [str(r.index) for r in report.links if r.link.relation != "=" and r.tightness is not None
                     and r.tightness.ratio < getattr(r.tightness, "TIGHT", 0.99)]
            lines.append(f"- Every step holds; loose steps: {', '.join(loose)}")
    conclusion = "holds by the chain" if report.conclusion is None else f"**{report.found}** when searched directly"
    lines.append(f"- Conclusion: {conclusion} (expected {d.expected})")
    return "\n".join(lines)


def _capitalised(text: str) -> str:
    return text[0].upper() + text[1:]


def gate_all(ids=None, *, max_examples: int | None = None, seed: int = 0) -> dict[str, DerivationReport]:
    """The gate's report of the proof of each statement in ``ids`` that has one (default: every proof)."""
    chosen = PROOFS if ids is None else [sid for sid in ids if sid in PROOFS]
    return {sid: gate(PROOFS[sid], max_examples=max_examples, seed=seed) for sid in chosen}


def ledger_section(ids=None, *, seed: int, max_examples: int | None = None, detail: bool = True,
                   reports: dict[str, DerivationReport] | None = None) -> str:
    """Markdown for ``docs/verdicts.md``: the proofs of the statements ``ids`` (default: all), step by step
    (``reports``: already gated, as :func:`gate_all` returns them; ``detail``: see :func:`_account`)."""
    reports = gate_all(ids, max_examples=max_examples, seed=seed) if reports is None else reports
    lines = ["## Proofs step by step", "",
             "Each proof as a derivation (`theorems/statements/proofs.py`, see `docs/derivations.md`): every step searched as a "
             "statement of its own; for a refuted result the first failing step, for one that holds the loosest.", ""]
    return "\n".join(lines + [_account(sid, r, detail=detail) + "\n" for sid, r in reports.items()])
