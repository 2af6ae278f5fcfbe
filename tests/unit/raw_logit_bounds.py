"""Everyday softmax bounds written the way users write them: raw logits ``l``, the numerically stable softmax
``exp((l − max l)/T) / Σ exp((l − max l)/T)`` in plain numpy (no ``xp``, no ``parameters=``), ``T`` on an interval.

A data module (issue 37's targets; no tests here): each true bound declares the box it should be proved on
(``prove=``) and is tight at equal logits; its mutant (id suffix ``.tight``) is the same bound tightened by 2 %,
false at equal logits for every ``T``. ``test_raw_logit_bounds_search.py`` checks that every true one holds and
every mutant is refuted; ``benchmarks/solver_comparison.py`` gives the same bounds to general solvers.

``JACOBIAN_TWO`` and ``LSE_UPPER`` are the issue's two bounds; ``EVERYDAY`` are the others, at ``L = 3``.
"""

import dataclasses

import numpy as np
from hypothesis import strategies as st

from theorems import Statement

LOGITS_TWO = {"l": [(-5.0, 5.0)] * 2, "T": (0.1, 10.0)}
LOGITS_LSE = {"l": [(-1.0, 1.0)] * 3, "T": (0.5, 2.0)}
LOGITS_THREE = {"l": [(-2.0, 2.0)] * 3, "T": (0.2, 5.0)}


def _draws(domain):
    """Instances drawn from the box ``domain``: every proof domain here is the box the search draws from."""
    (low, high), n, (t_low, t_high) = domain["l"][0], len(domain["l"]), domain["T"]
    logits = st.lists(st.floats(low, high), min_size=n, max_size=n).map(np.array)
    return st.fixed_dictionaries({"l": logits, "T": st.floats(t_low, t_high)})


def softmax(i):
    """The numerically stable softmax at temperature ``T``, as every framework writes it."""
    z = np.exp((i["l"] - np.max(i["l"])) / i["T"])
    return z / np.sum(z)


def log_sum_exp(i):
    """``T·LSE(l/T)``, stabilised the same way: ``max l + T·log Σ exp((l − max l)/T)``."""
    top = np.max(i["l"])
    return top + i["T"] * np.log(np.sum(np.exp((i["l"] - top) / i["T"])))


def entropy(i):
    p = softmax(i)
    return -np.sum(p * np.log(p))


def _bound(name, formula, lhs, relation, rhs, domain):
    return Statement(id=f"raw.{name}", title=name, paper_ref="-", reading="raw logits, stable softmax",
                     formula=formula, lhs=lhs, rhs=rhs, relation=relation, instances=_draws(domain),
                     expected="holds", reason="tight at equal logits", max_examples=200, prove=domain)


def tightened(statement, rhs, formula):
    """The 2 % mutant: ``rhs`` replaced by the tightened right side; false at equal logits."""
    return dataclasses.replace(statement, id=statement.id + ".tight", rhs=rhs, formula=formula, expected="refuted",
                               reason="tightened by 2 %: false at equal logits")


# ‖J‖₂ of softmax at L = 2 is 2·p₁p₂/T; p₁p₂ ≤ 1/4, equality at l₁ = l₂
JACOBIAN_TWO = _bound("jacobian-two", "2·p₁(1 − p₁)/T ≤ 1/(2T)",
                      lambda i, xp: 2 * softmax(i)[0] * (1 - softmax(i)[0]) / i["T"], "<=",
                      lambda i, xp: 1 / (2 * i["T"]), LOGITS_TWO)
JACOBIAN_TWO_TIGHT = tightened(JACOBIAN_TWO, lambda i, xp: 0.98 / (2 * i["T"]), "2·p₁(1 − p₁)/T ≤ 0.98/(2T)")

# log Σ e^{x_i} ≤ max x + log L, equality at equal logits
LSE_UPPER = _bound("lse-upper", "T·LSE(l/T) ≤ max l + T·log 3", lambda i, xp: log_sum_exp(i), "<=",
                   lambda i, xp: np.max(i["l"]) + i["T"] * np.log(3), LOGITS_LSE)
LSE_UPPER_TIGHT = tightened(LSE_UPPER, lambda i, xp: np.max(i["l"]) + 0.98 * i["T"] * np.log(3),
                            "T·LSE(l/T) ≤ max l + 0.98·T·log 3")

MAX_PROBABILITY = _bound("max-probability", "max p ≥ 1/3", lambda i, xp: np.max(softmax(i)), ">=",
                         lambda i, xp: 1 / 3, LOGITS_THREE)
MIN_PROBABILITY = _bound("min-probability", "min p ≤ 1/3", lambda i, xp: np.min(softmax(i)), "<=",
                         lambda i, xp: 1 / 3, LOGITS_THREE)
# Cauchy–Schwarz: 1 = (Σp)² ≤ L·Σp²
COLLISION = _bound("collision", "Σp² ≥ 1/3", lambda i, xp: np.sum(softmax(i) ** 2), ">=",
                   lambda i, xp: 1 / 3, LOGITS_THREE)
ENTROPY = _bound("entropy", "H(p) ≤ log 3", lambda i, xp: entropy(i), "<=", lambda i, xp: np.log(3), LOGITS_THREE)
# tr J = tr(diag p − ppᵀ)/T = (1 − Σp²)/T, the Jacobian's trace (its nuclear norm: J ⪰ 0)
JACOBIAN_TRACE = _bound("jacobian-trace", "tr(diag p − ppᵀ)/T ≤ (1 − 1/3)/T",
                        lambda i, xp: np.trace(np.diag(softmax(i)) - np.outer(softmax(i), softmax(i))) / i["T"],
                        "<=", lambda i, xp: (1 - 1 / 3) / i["T"], LOGITS_THREE)
# the log-sum-exp's excess over the max, as a user who moves max l to the left writes it (positive right side)
LSE_EXCESS = _bound("lse-excess", "T·LSE(l/T) − max l ≤ T·log 3", lambda i, xp: log_sum_exp(i) - np.max(i["l"]),
                    "<=", lambda i, xp: i["T"] * np.log(3), LOGITS_THREE)

EVERYDAY = (MAX_PROBABILITY, MIN_PROBABILITY, COLLISION, ENTROPY, JACOBIAN_TRACE, LSE_EXCESS)
EVERYDAY_TIGHT = (
    tightened(MAX_PROBABILITY, lambda i, xp: 1.02 / 3, "max p ≥ 1.02/3"),
    tightened(MIN_PROBABILITY, lambda i, xp: 0.98 / 3, "min p ≤ 0.98/3"),
    tightened(COLLISION, lambda i, xp: 1.02 / 3, "Σp² ≥ 1.02/3"),
    tightened(ENTROPY, lambda i, xp: 0.98 * np.log(3), "H(p) ≤ 0.98·log 3"),
    tightened(JACOBIAN_TRACE, lambda i, xp: 0.98 * (1 - 1 / 3) / i["T"],
              "tr(diag p − ppᵀ)/T ≤ 0.98·(1 − 1/3)/T"),
    tightened(LSE_EXCESS, lambda i, xp: 0.98 * i["T"] * np.log(3), "T·LSE(l/T) − max l ≤ 0.98·T·log 3"),
)

TRUE = (JACOBIAN_TWO, LSE_UPPER) + EVERYDAY
"""Every true bound, each with its ``prove=`` domain."""
TIGHT = (JACOBIAN_TWO_TIGHT, LSE_UPPER_TIGHT) + EVERYDAY_TIGHT
"""Their 2 % mutants, in the same order."""
BY_ID = {statement.id: statement for statement in TRUE + TIGHT}
