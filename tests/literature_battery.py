"""A battery of bounds from the softmax/attention literature, each written the way a researcher writes it
(numpy, ``scipy.special``), each over two strategies: generic ``hypothesis.extra.numpy`` arrays and the
project's own (:mod:`strategies`). Every bound is true at its constant ``1``; its *mutant* moves one constant
by 2 % (``0.98`` on the right side of a ``≤``, ``1.02`` on a ``≥``) and is false.

The bounds are chosen for what defeats a search (issue 28, item 5):

- **equality cases that carry no information**: a zero query or zero keys (``cs.*``), a one-hot entmax output
  (``entmax.*``), equal logits. Where the 2 % sits on a term that vanishes there (an exponent, an additive
  term, a power of 1), the mutant is still met with equality at that instance: ratio exactly 1, and a search
  that ranks instances by ratio starts its optimiser there, on a plateau it cannot leave;
- **suprema reached only in a limit** at the edge of the strategy's domain: smallest ``T`` with entries at the
  strategy's bound (``logsoftmax.*``, ``lse.lower``), largest ``T`` and ``L`` (``lemma1.*``, ``lse.upper``,
  ``kl.*``, ``hoeffding``).

``BOUNDS`` lists them; :func:`statement` makes the true bound (``mutant=False``) or its mutant. Used by
``tests/theory/test_literature_battery.py`` (a subset at a few seeds) and
``tests/sweeps/test_literature_battery_seeds.py`` (all of them at seeds 0–9, marked slow).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np
import scipy.special
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from strategies import logits, temperatures
from theorems import Statement
from theorems.maths.normalisers import entmax15, sparsemax

SEEDS = tuple(range(10))


@dataclasses.dataclass(frozen=True)
class Bound:
    """A true bound ``lhs relation rhs(1)`` whose mutant ``rhs(mutant)`` is false; ``limit`` says where its
    supremum is reached (an equality case, or a limit at the strategy's edge)."""

    name: str
    formula: str
    lhs: Callable
    rhs: Callable[[float], Callable]
    relation: str
    instances: st.SearchStrategy
    limit: str
    mutant: float = 0.98


def statement(bound: Bound, *, mutant: bool) -> Statement:
    constant = bound.mutant if mutant else 1.0
    return Statement(id=f"battery.{bound.name}" + (".mutant" if mutant else ""), title=bound.name,
                     paper_ref="literature", reading="numpy as written", formula=bound.formula, lhs=bound.lhs,
                     rhs=bound.rhs(constant), relation=bound.relation, instances=bound.instances,
                     expected="refuted" if mutant else "holds", reason=bound.limit)


# --- strategies: generic arrays (``.g``) and the project's own (``.p``) ------------------------------------------

def _g_vector(n, bound=2.0):
    return hnp.arrays(np.float64, n, elements=st.floats(-bound, bound))


def _p_vector(n, bound=2.0):
    return logits(bound=bound, min_length=n, max_length=n)


def _attention(vector):
    """A query ``q`` [d], keys [L, d] and ``T``; the arrays are often all zero (Hypothesis's fill, ties)."""
    return st.tuples(st.integers(1, 4), st.integers(1, 3)).flatmap(lambda s: st.fixed_dictionaries({
        "q": vector(s[1]), "keys": vector(s[0] * s[1]).map(lambda k, s=s: k.reshape(s)),
        "T": st.floats(0.1, 10)}))


def _g_logits(bound, max_length=6, min_length=2):
    return st.integers(min_length, max_length).flatmap(lambda n: _g_vector(n, bound))


def _p_logits(bound, max_length=6, min_length=2):
    return logits(bound=bound, min_length=min_length, max_length=max_length)


def _pairs(vector, bound, t_low, t_high, temperature):
    return st.integers(2, 6).flatmap(lambda n: st.fixed_dictionaries({
        "x": vector(n, bound), "y": vector(n, bound), "T": temperature(t_low, t_high)}))


def _g_temperature(low, high):
    return st.floats(low, high)


def _p_temperature(low, high):
    return temperatures(min_value=low, max_value=high)


def _with_t(logit_strategy, temperature, low, high):
    return st.fixed_dictionaries({"l": logit_strategy, "T": temperature(low, high)})


# --- sides, written with numpy and scipy.special ----------------------------------------------------------------

def _scores(i):
    return i["keys"] @ i["q"]


def _weights(i):
    return scipy.special.softmax(_scores(i) / i["T"])


def _key_norms(i):
    # not np.linalg.norm(keys, axis=1): on balls it returns a plain object array, whose np.max compares equal
    # norms and is undecided (a true bound became a candidate where float64 underflowed; reported in issue 28)
    return np.sqrt(np.sum(i["keys"] ** 2, axis=1))


def _cauchy_schwarz(i):
    return np.linalg.norm(i["q"]) * np.max(_key_norms(i))


def _log_softmax_gap(i):
    return np.max(np.abs(scipy.special.log_softmax(i["x"] / i["T"]) - scipy.special.log_softmax(i["y"] / i["T"])))


def _softmax_gap_l1(i):
    return np.sum(np.abs(scipy.special.softmax(i["x"] / i["T"]) - scipy.special.softmax(i["y"] / i["T"])))


def _kl_to_uniform(i):
    s = i["l"] / i["T"]
    log_p = s - np.max(s) - np.log(np.sum(np.exp(s - np.max(s))))
    return np.sum(np.exp(log_p) * log_p) + np.log(len(s))


def _ptp_over_t(i):
    return (np.max(i["l"]) - np.min(i["l"])) / i["T"]


def _entmax(i, xp):
    return entmax15()(i["l"], xp=xp)


def _tail_bound(c):
    # p_(1) ≤ 1; p_(k) ≤ (1 − p_(1))/(k − 1) for k ≥ 2 ((k − 1)·p_(k) ≤ p_(2) + … + p_(k) ≤ 1 − p_(1)).
    # A one-hot output meets every entry with equality, with or without c
    def rhs(i, xp):
        p = np.sort(_entmax(i, xp))[::-1]
        k = np.arange(1, len(p) + 1)
        return np.concatenate([np.ones(1), c * (1 - p[0]) / np.maximum(k[1:] - 1, 1)])
    return rhs


def _sorted_desc(i, xp):
    return np.sort(_entmax(i, xp))[::-1]


def _top_gap(i):
    z = np.sort(i["l"])
    return z[-1] - z[-2]


def _family(name, formula, lhs, rhs, relation, strategies, limit, mutant=None):
    """The bound over each strategy in ``strategies`` (``{"g": generic, "p": project}``)."""
    extra = {} if mutant is None else {"mutant": mutant}
    return [Bound(f"{name}.{kind}", formula, lhs, rhs, relation, instances, limit, **extra)
            for kind, instances in strategies.items()]


BOUNDS: tuple[Bound, ...] = tuple(
    # Cauchy–Schwarz for attention scores: |q·k_i| ≤ ‖q‖·max‖k‖. A zero query or zero keys make both sides 0
    # (or, where a side adds T·log L or exponentiates, both sides equal): an equality case with no information.
    _family("cs.score", "|Σ α_i q·k_i| ≤ ‖q‖ max‖k_i‖",
            lambda i, xp: np.abs(np.sum(_weights(i) * _scores(i))),
            lambda c: lambda i, xp: c * _cauchy_schwarz(i), "<=",
            {"g": _attention(_g_vector), "p": _attention(_p_vector)}, "equal keys parallel to q")
    + _family("cs.weight-ratio", "max α / min α ≤ exp(2‖q‖ max‖k‖/T)",
              lambda i, xp: np.max(_weights(i)) / np.min(_weights(i)),
              lambda c: lambda i, xp: np.exp(c * 2 * _cauchy_schwarz(i) / i["T"]), "<=",
              {"g": _attention(_g_vector), "p": _attention(_p_vector)},
              "two antipodal keys of the largest norm, parallel to q; the mutant's 2 % is in the exponent, "
              "so q = 0 or keys = 0 still meet it with equality")
    + _family("cs.attention-lse", "T·lse(K q/T) ≤ T log L + ‖q‖ max‖k‖",
              lambda i, xp: i["T"] * scipy.special.logsumexp(_scores(i) / i["T"]),
              lambda c: lambda i, xp: i["T"] * np.log(len(i["keys"])) + c * _cauchy_schwarz(i), "<=",
              {"g": _attention(_g_vector), "p": _attention(_p_vector)},
              "equal keys of the largest norm parallel to q, small T; the mutant's 2 % is on the ‖q‖ max‖k‖ "
              "term, so q = 0 still meets it with equality")
    + _family("cs.weighted-key", "‖Σ α_i k_i‖ ≤ max‖k_i‖",
              lambda i, xp: np.linalg.norm(_weights(i) @ i["keys"]),
              lambda c: lambda i, xp: c * np.max(_key_norms(i)), "<=",
              {"g": _attention(_g_vector), "p": _attention(_p_vector)}, "equal keys")
    # entmax-1.5 and sparsemax outputs, often one-hot
    + _family("entmax.max", "max entmax15(l) ≤ 1", lambda i, xp: np.max(_entmax(i, xp)),
              lambda c: lambda i, xp: c * 1.0, "<=",
              {"g": st.fixed_dictionaries({"l": _g_logits(5.0)}), "p": st.fixed_dictionaries({"l": _p_logits(5.0)})},
              "a one-hot output")
    + _family("entmax.l2", "‖entmax15(l)‖₂ ≤ 1", lambda i, xp: np.linalg.norm(_entmax(i, xp)),
              lambda c: lambda i, xp: c * 1.0, "<=",
              {"g": st.fixed_dictionaries({"l": _g_logits(5.0)}), "p": st.fixed_dictionaries({"l": _p_logits(5.0)})},
              "a one-hot output")
    + _family("entmax.tail", "p_(k) ≤ (1 − p_(1))/(k − 1), k ≥ 2", _sorted_desc, _tail_bound, "<=",
              {"g": st.fixed_dictionaries({"l": _g_logits(5.0, min_length=3)}),
               "p": st.fixed_dictionaries({"l": _p_logits(5.0, min_length=3)})},
              "a support of two; a one-hot output meets the mutant with equality at every entry")
    + _family("entmax.gini", "Σ p_i² ≤ (max p)^1", lambda i, xp: np.sum(_entmax(i, xp) ** 2),
              lambda c: lambda i, xp: np.max(_entmax(i, xp)) ** (2 - c), "<=",
              {"g": st.fixed_dictionaries({"l": _g_logits(5.0)}), "p": st.fixed_dictionaries({"l": _p_logits(5.0)})},
              "a support of equal entries; the mutant's exponent 1.02 leaves a one-hot output met with equality")
    + _family("sparsemax.gap", "max sparsemax(l) ≤ (1 + l_(1) − l_(2))/2",
              lambda i, xp: np.max(sparsemax()(i["l"], xp=xp)),
              lambda c: lambda i, xp: (1 + c * _top_gap(i)) / 2, "<=",
              {"g": st.fixed_dictionaries({"l": _g_logits(3.0)}), "p": st.fixed_dictionaries({"l": _p_logits(3.0)})},
              "a support of two; the mutant's 2 % is on the gap, so equal top logits still meet it with equality")
    # Lipschitz bounds in T, tight only in a limit
    + _family("logsoftmax.lipschitz", "‖ls(x/T) − ls(y/T)‖∞ ≤ 2‖x − y‖∞/T", lambda i, xp: _log_softmax_gap(i),
              lambda c: lambda i, xp: c * 2 * np.max(np.abs(i["x"] - i["y"])) / i["T"], "<=",
              {"g": _pairs(_g_vector, 5.0, 0.1, 10.0, _g_temperature),
               "p": _pairs(_p_vector, 5.0, 0.1, 10.0, _p_temperature)},
              "only in the limit: the smallest T, one entry far below the others (at the strategy's bound)")
    + _family("softmax.lipschitz.l1", "‖softmax(x/T) − softmax(y/T)‖₁ ≤ ‖x − y‖∞/T", lambda i, xp: _softmax_gap_l1(i),
              lambda c: lambda i, xp: c * np.max(np.abs(i["x"] - i["y"])) / i["T"], "<=",
              {"g": _pairs(_g_vector, 5.0, 0.1, 10.0, _g_temperature),
               "p": _pairs(_p_vector, 5.0, 0.1, 10.0, _p_temperature)},
              "only in the limit x → y at two equal top logits")
    # Lemma 1: the 1/L vanishing, tight as a/T → 0 and L grows
    + _family("lemma1.upper", "max softmax(l/T) ≤ e^{2a/T}/L, |l_i| ≤ a = 2",
              lambda i, xp: np.max(scipy.special.softmax(i["l"] / i["T"])),
              lambda c: lambda i, xp: c * np.exp(2 * 2.0 / i["T"]) / len(i["l"]), "<=",
              {"g": _with_t(_g_logits(2.0, max_length=16), _g_temperature, 0.05, 50.0),
               "p": _with_t(_p_logits(2.0, max_length=16), _p_temperature, 0.05, 50.0)},
              "only in the limit: the largest T, one logit at +a and the rest at −a, many of them")
    + _family("lemma1.lower", "min softmax(l/T) ≥ e^{−2a/T}/L, |l_i| ≤ a = 2",
              lambda i, xp: np.min(scipy.special.softmax(i["l"] / i["T"])),
              lambda c: lambda i, xp: c * np.exp(-2 * 2.0 / i["T"]) / len(i["l"]), ">=",
              {"g": _with_t(_g_logits(2.0, max_length=16), _g_temperature, 0.05, 50.0),
               "p": _with_t(_p_logits(2.0, max_length=16), _p_temperature, 0.05, 50.0)},
              "only in the limit: the largest T, one logit at −a and the rest at +a, many of them", mutant=1.02)
    # the logsumexp sandwich max l ≤ T·lse(l/T) ≤ max l + T log L
    + _family("lse.upper", "T·lse(l/T) − max l ≤ T log L",
              lambda i, xp: i["T"] * scipy.special.logsumexp(i["l"] / i["T"]) - np.max(i["l"]),
              lambda c: lambda i, xp: c * i["T"] * np.log(len(i["l"])), "<=",
              {"g": _with_t(_g_logits(5.0), _g_temperature, 0.01, 100.0),
               "p": _with_t(_p_logits(5.0), _p_temperature, 0.01, 100.0)},
              "equal logits, or the largest T")
    + _family("lse.lower", "T·lse(l/T) − min l ≥ max l − min l",
              lambda i, xp: i["T"] * scipy.special.logsumexp(i["l"] / i["T"]) - np.min(i["l"]),
              lambda c: lambda i, xp: c * (np.max(i["l"]) - np.min(i["l"])), ">=",
              {"g": _with_t(_g_logits(5.0), _g_temperature, 0.01, 100.0),
               "p": _with_t(_p_logits(5.0), _p_temperature, 0.01, 100.0)},
              "only in the limit: the smallest T", mutant=1.02)
    # Jensen / Hoeffding's lemma, tight only as (max l − min l)/T → 0 on two balanced values
    + _family("kl.hoeffding", "KL(softmax(l/T) ‖ u) ≤ (ptp(l)/T)²/8", lambda i, xp: _kl_to_uniform(i),
              lambda c: lambda i, xp: c * _ptp_over_t(i) ** 2 / 8, "<=",
              {"g": _with_t(_g_logits(5.0), _g_temperature, 0.1, 10.0),
               "p": _with_t(_p_logits(5.0), _p_temperature, 0.1, 10.0)},
              "only in the limit ptp(l)/T → 0, half the logits at each end (L = 2 suffices)")
    + _family("hoeffding.lemma", "log E_u e^{l/T} − E_u l/T ≤ (ptp(l)/T)²/8",
              lambda i, xp: scipy.special.logsumexp(i["l"] / i["T"]) - np.log(len(i["l"])) - np.mean(i["l"]) / i["T"],
              lambda c: lambda i, xp: c * _ptp_over_t(i) ** 2 / 8, "<=",
              {"g": _with_t(_g_logits(5.0), _g_temperature, 0.1, 10.0),
               "p": _with_t(_p_logits(5.0), _p_temperature, 0.1, 10.0)},
              "only in the limit ptp(l)/T → 0, half the logits at each end (L = 2 suffices)")
)

BY_NAME = {bound.name: bound for bound in BOUNDS}
