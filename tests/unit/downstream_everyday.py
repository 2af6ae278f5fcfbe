"""Everyday bounds as a researcher writes them, in a downstream project's test module.

`test_downstream_everyday.py` copies this file into a fresh project and runs its pytest plugin. Every `true_*`
statement is a true bound (it must pass); every `tight_*` is the same bound tightened by 3 % (it must fail, with a
certified or a candidate counterexample). The sides use Python's own ways: names imported from scipy before
`theorems` is, `Fraction`/`Decimal` constants, `.item()`, `np.vectorize`, `functools.reduce`, `itertools`,
`operator`, `heapq`, `np.polyval`, `np.polynomial`, `np.ma` with a causal mask, `np.einsum`, `np.apply_along_axis`,
`sympy.lambdify`, `scipy.optimize`, `scipy.stats`, `math.fsum`, a frozen dataclass, torch — never the suite's `xp`.
"""

from scipy.special import entr, log_softmax, logsumexp, softmax, xlogy  # bound by name before theorems is imported

import dataclasses
import functools
import heapq
import itertools
import math
import operator
from decimal import Decimal
from fractions import Fraction

import numpy as np
import scipy.optimize
import scipy.stats
import sympy
from hypothesis import strategies as st

from theorems import Statement

_FLOATS = st.floats(-4, 4)
LOGITS = st.fixed_dictionaries({"l": st.lists(_FLOATS, min_size=2, max_size=6).map(np.array),
                                "T": st.floats(0.1, 10)})
PAIRS = st.integers(2, 5).flatmap(lambda n: st.fixed_dictionaries({
    "l": st.lists(_FLOATS, min_size=n, max_size=n).map(np.array),
    "d": st.lists(st.floats(-2, 2), min_size=n, max_size=n).map(np.array), "T": st.floats(0.25, 4)}))
HEADS = st.integers(1, 3).flatmap(lambda h: st.integers(2, 5).flatmap(lambda n: st.fixed_dictionaries({
    "s": st.lists(st.lists(_FLOATS, min_size=n, max_size=n), min_size=h, max_size=h).map(np.array)})))
SCALAR = st.fixed_dictionaries({"x": st.floats(-4, 4)})
POSITIVE = st.fixed_dictionaries({"x": st.floats(0, 3)})
BETAS = st.fixed_dictionaries({"l": st.lists(_FLOATS, min_size=2, max_size=5).map(np.array),
                               "beta": st.floats(0.1, 10)})


def _statement(name, lhs, rhs, relation, instances, formula):
    return Statement(id=f"everyday.{name}", title=name, paper_ref="downstream", reading="as a researcher writes it",
                     formula=formula, lhs=lhs, rhs=rhs, relation=relation, instances=instances,
                     expected="holds", reason="a true bound", max_examples=300)


def _tightened(statement, **sides):
    return dataclasses.replace(statement, id=statement.id + ".tight", **sides)


def _p(i):
    return softmax(i["l"] / i["T"])


# Hoeffding's lemma: KL(p_l ‖ p_{l+d}) = log E_p e^{d/T} − E_p d/T ≤ ptp(d/T)²/8
def _kl(i):
    a, b = log_softmax(i["l"] / i["T"]), log_softmax((i["l"] + i["d"]) / i["T"])
    return np.sum(np.exp(a) * (a - b))


true_kl_hoeffding = _statement("kl-hoeffding", lambda i, xp: _kl(i),
                               lambda i, xp: Fraction(1, 8) * np.ptp(i["d"] / i["T"]) ** 2, "<=", PAIRS,
                               "KL(p_l ‖ p_{l+d}) ≤ ptp(d/T)²/8")
tight_kl_hoeffding = _tightened(true_kl_hoeffding,
                                rhs=lambda i, xp: Fraction(97, 800) * np.ptp(i["d"] / i["T"]) ** 2)


# interlacing of diag p − ppᵀ (a rank-one downdate of diag p): λ₂ ≥ min p
def _lambda_two(i):
    p = _p(i)
    return np.linalg.eigvalsh(np.diag(p) - np.outer(p, p))[1].item()


true_lambda_two = _statement("lambda-two", lambda i, xp: _lambda_two(i), lambda i, xp: np.min(_p(i)), ">=", LOGITS,
                             "λ₂(diag p − ppᵀ) ≥ min p")
tight_lambda_two = _tightened(true_lambda_two, rhs=lambda i, xp: 1.03 * np.min(_p(i)))

# the smooth maximum: max l ≤ T·LSE(l/T) ≤ max l + T log L
true_lse_lower = _statement("lse-lower", lambda i, xp: np.max(i["l"]), lambda i, xp: i["T"] * logsumexp(i["l"] / i["T"]),
                            "<=", LOGITS, "max l ≤ T·LSE(l/T)")
tight_lse_lower = _tightened(true_lse_lower,
                             lhs=lambda i, xp: np.max(i["l"]) + 0.03 * i["T"] * math.log(len(i["l"])))


# the same upper bound, through the online softmax state (running max, running sum) of flash attention
def _online_lse(l):
    def step(state, x):
        m, s = state
        top = max(m, x)
        return top, s * np.exp(m - top) + np.exp(x - top)

    m, s = functools.reduce(step, l[1:], (l[0], 1.0))
    return m + np.log(s)


true_online_lse = _statement("online-lse", lambda i, xp: i["T"] * _online_lse(i["l"] / i["T"]),
                             lambda i, xp: np.max(i["l"]) + i["T"] * math.log(len(i["l"])), "<=", LOGITS,
                             "T·LSE(l/T) ≤ max l + T log L (online softmax)")
tight_online_lse = _tightened(true_online_lse,
                              rhs=lambda i, xp: np.max(i["l"]) + 0.97 * i["T"] * math.log(len(i["l"])))

# x e^{−x} ≤ 1/e, elementwise through np.vectorize
_xexp = np.vectorize(lambda z: z * np.exp(-z), otypes=[object])
true_vectorize = _statement("vectorize", lambda i, xp: np.max(_xexp(i["s"][0] ** 2)), lambda i, xp: 1 / math.e,
                            "<=", HEADS, "max z e^{−z} ≤ 1/e (np.vectorize)")
tight_vectorize = _tightened(true_vectorize, rhs=lambda i, xp: 0.97 / math.e)

# e^x ≥ 1 + x + x²/2 + x³/6 for x ≥ 0 (np.polyval)
true_polyval = _statement("polyval", lambda i, xp: np.exp(i["x"]),
                          lambda i, xp: np.polyval([Fraction(1, 6), Fraction(1, 2), 1, 1], i["x"]), ">=", POSITIVE,
                          "e^x ≥ 1 + x + x²/2 + x³/6 (x ≥ 0)")
tight_polyval = _tightened(true_polyval,
                           rhs=lambda i, xp: 1.03 * np.polyval([Fraction(1, 6), Fraction(1, 2), 1, 1], i["x"]))

# 1 − x²/2 ≤ cos x (np.polynomial.Polynomial)
true_polynomial = _statement("polynomial", lambda i, xp: np.polynomial.Polynomial([1, 0, -0.5])(i["x"]),
                             lambda i, xp: np.cos(i["x"]), "<=", SCALAR, "1 − x²/2 ≤ cos x")
tight_polynomial = _tightened(true_polynomial,
                              lhs=lambda i, xp: np.polynomial.Polynomial([1, 0, -0.485])(i["x"]))


# causal attention with a masked array: row t has t + 1 keys, so its largest weight is at least 1/(t + 1)
def _causal_max_weight(i):
    scores = np.outer(i["l"], i["l"])
    future = np.triu(np.ones(scores.shape, dtype=bool), k=1)
    masked = np.ma.masked_array(scores, mask=future)
    weights = np.ma.exp(masked - masked.max(axis=1)[:, None])
    weights = weights / weights.sum(axis=1)[:, None]
    return weights.max(axis=1).filled(0) * np.arange(1, len(i["l"]) + 1)


true_causal = _statement("causal-mask", lambda i, xp: _causal_max_weight(i), lambda i, xp: 1.0, ">=", LOGITS,
                         "(t + 1)·max_s α_{ts} ≥ 1 under a causal mask (np.ma)")
tight_causal = _tightened(true_causal, rhs=lambda i, xp: 1.03)

# Σ_{i<j} p_i p_j = (1 − Σp²)/2 ≤ (1 − 1/L)/2 (itertools)
true_pairs = _statement("itertools-pairs", lambda i, xp: sum(a * b for a, b in itertools.combinations(_p(i), 2)),
                        lambda i, xp: (1 - 1 / len(i["l"])) / 2, "<=", LOGITS, "Σ_{i<j} p_i p_j ≤ (1 − 1/L)/2")
tight_pairs = _tightened(true_pairs, rhs=lambda i, xp: 0.97 * (1 - 1 / len(i["l"])) / 2)

# AM-GM: Π p_i ≤ L^{−L} (functools.reduce over operator.mul)
true_product = _statement("operator-product", lambda i, xp: functools.reduce(operator.mul, _p(i)),
                          lambda i, xp: len(i["l"]) ** -len(i["l"]), "<=", LOGITS, "Π p_i ≤ L^{−L}")
tight_product = _tightened(true_product, rhs=lambda i, xp: 0.97 * len(i["l"]) ** -len(i["l"]))

# the top two weights hold at least 2/L of the mass (heapq)
true_top_two = _statement("heapq-top-two", lambda i, xp: sum(heapq.nlargest(2, _p(i))), lambda i, xp: 2 / len(i["l"]),
                          ">=", LOGITS, "p_(1) + p_(2) ≥ 2/L")
tight_top_two = _tightened(true_top_two, rhs=lambda i, xp: 2.06 / len(i["l"]))

# the head-averaged attention row is a distribution: its largest entry is ≥ 1/L (np.einsum)
true_einsum = _statement("einsum-heads",
                         lambda i, xp: np.max(np.einsum("hl->l", softmax(i["s"], axis=-1)) / len(i["s"])),
                         lambda i, xp: 1 / i["s"].shape[-1], ">=", HEADS, "max_l mean_h α_hl ≥ 1/L")
tight_einsum = _tightened(true_einsum, rhs=lambda i, xp: 1.03 / i["s"].shape[-1])

# entropy ≤ log L: scipy.special.entr and xlogy on softmax's output, scipy.stats.entropy
true_entr = _statement("entr", lambda i, xp: np.sum(entr(_p(i))), lambda i, xp: np.log(len(i["l"])), "<=", LOGITS,
                       "H(p) ≤ log L (entr)")
tight_entr = _tightened(true_entr, rhs=lambda i, xp: 0.97 * np.log(len(i["l"])))
true_xlogy = _statement("xlogy", lambda i, xp: np.sum(xlogy(_p(i), _p(i))), lambda i, xp: -np.log(len(i["l"])), ">=",
                        LOGITS, "Σ p log p ≥ −log L (xlogy)")
tight_xlogy = _tightened(true_xlogy, rhs=lambda i, xp: -0.97 * np.log(len(i["l"])))
true_stats_entropy = _statement("stats-entropy", lambda i, xp: scipy.stats.entropy(_p(i)),
                                lambda i, xp: np.log(len(i["l"])), "<=", LOGITS, "H(p) ≤ log L (scipy.stats)")
tight_stats_entropy = _tightened(true_stats_entropy, rhs=lambda i, xp: 0.97 * np.log(len(i["l"])))

# each row's LSE is at most its max + log L (np.apply_along_axis)
true_rows = _statement("apply-along-axis", lambda i, xp: np.apply_along_axis(logsumexp, -1, i["s"]),
                       lambda i, xp: np.max(i["s"], axis=-1) + np.log(i["s"].shape[-1]), "<=", HEADS,
                       "LSE(row) ≤ max(row) + log L")
tight_rows = _tightened(true_rows, rhs=lambda i, xp: np.max(i["s"], axis=-1) + 0.97 * np.log(i["s"].shape[-1]))

# softplus(x) ≥ max(0, x) (sympy.lambdify)
_z = sympy.Symbol("z")
_softplus = sympy.lambdify(_z, sympy.log(1 + sympy.exp(_z)), "numpy")
true_lambdify = _statement("lambdify", lambda i, xp: _softplus(i["x"]), lambda i, xp: max(0.0, i["x"]), ">=", SCALAR,
                           "log(1 + e^x) ≥ max(0, x)")
tight_lambdify = _tightened(true_lambdify, rhs=lambda i, xp: 1.03 * max(0.0, i["x"]) + 0.03)


# the Gibbs variational principle: p·l + H(p) ≤ LSE(l) for every p, here the optimiser's best p
def _gibbs(l):
    def negative(z):
        q = softmax(z)
        return -(q @ l + np.sum(entr(q)))

    return -scipy.optimize.minimize(negative, np.zeros(len(l)), method="BFGS").fun


true_gibbs = _statement("optimize-gibbs", lambda i, xp: _gibbs(np.asarray(i["l"], dtype=float)),
                        lambda i, xp: logsumexp(i["l"]), "<=", LOGITS, "max_p p·l + H(p) ≤ LSE(l)")
tight_gibbs = _tightened(true_gibbs, rhs=lambda i, xp: logsumexp(i["l"]) - 0.03 * (1 + abs(logsumexp(i["l"]))))

# the weights sum to one, added exactly (math.fsum)
true_fsum = _statement("fsum", lambda i, xp: math.fsum(_p(i)), lambda i, xp: 1.0, "<=", LOGITS, "fsum(p) ≤ 1")
tight_fsum = _tightened(true_fsum, rhs=lambda i, xp: 0.97)


# a frozen dataclass with T = 1/β: ‖J‖₂ ≤ β/2 for softmax(βl)
@dataclasses.dataclass(frozen=True)
class Inverse:
    beta: float

    @property
    def T(self):
        return 1 / self.beta


def _jacobian_norm(i):
    temperature = Inverse(i["beta"]).T
    p = softmax(i["l"] / temperature)
    return np.linalg.norm((np.diag(p) - np.outer(p, p)) / temperature, 2)


true_dataclass = _statement("dataclass-beta", lambda i, xp: _jacobian_norm(i), lambda i, xp: i["beta"] / 2, "<=",
                            BETAS, "‖J‖₂ ≤ β/2")
tight_dataclass = _tightened(true_dataclass, rhs=lambda i, xp: 0.97 * i["beta"] / 2)

# the trace of softmax's Jacobian: 1 − Σp² ≤ 1 − 1/L, with a Decimal constant made exact by Fraction
true_trace = _statement("trace-decimal", lambda i, xp: np.trace(np.diag(_p(i)) - np.outer(_p(i), _p(i))),
                        lambda i, xp: Fraction(Decimal("1.00")) - Fraction(1, len(i["l"])), "<=", LOGITS,
                        "tr(diag p − ppᵀ) ≤ 1 − 1/L")
tight_trace = _tightened(true_trace, rhs=lambda i, xp: Fraction(Decimal("0.97")) * (1 - Fraction(1, len(i["l"]))))

# torch, searched in float64: max softmax ≥ 1/L
try:
    import torch
except ImportError:  # the light core: no torch
    torch = None
if torch is not None:
    true_torch = _statement("torch-max", lambda i, xp: torch.softmax(torch.as_tensor(i["l"] / i["T"]), 0).max(),
                            lambda i, xp: 1 / len(i["l"]), ">=", LOGITS, "max softmax ≥ 1/L (torch)")
    tight_torch = _tightened(true_torch, rhs=lambda i, xp: 1.03 / len(i["l"]))
