"""Bounds whose sides call scipy.special functions bound by name at the top of the module, before ``theorems`` is
imported, with exact rational constants (``Fraction``): a downstream project's test module.

``test_names_bound_before_import.py`` copies this file into a fresh project and runs its pytest plugin. The true
bounds must pass although float64 violates them by cancellation (Hoeffding's lemma at shifts of 1e-6) or at a double
eigenvalue (λ₂ = min p when the smallest weight repeats): only the ball forms of ``log_softmax``, ``softmax`` and
``eigvalsh`` show those violations are rounding. Each is also tightened by 3 %, expected (and certified) refuted.
"""

from fractions import Fraction
from scipy.special import log_softmax, softmax   # bound before theorems is imported
import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from theorems import Statement


def _kl(i, xp):
    a, b = log_softmax(i["l"] / i["T"]), log_softmax((i["l"] + i["d"]) / i["T"])
    return np.sum(np.exp(a) * (a - b))


def _shifts(n):
    return st.fixed_dictionaries({"l": hnp.arrays(np.float64, n, elements=st.floats(-3, 3)),
                                  "d": hnp.arrays(np.float64, n, elements=st.floats(-1e-6, 1e-6)),
                                  "T": st.floats(0.5, 2)})


def _hoeffding(factor):
    return lambda i, xp: factor * np.ptp(i["d"] / i["T"]) ** 2


true_kl_hoeffding = Statement(
    id="my.kl.hoeffding", title="KL between shifted softmaxes", paper_ref="-", reading="-",
    formula="KL(p_l ‖ p_{l+d}) ≤ ptp(d/T)²/8", lhs=_kl, rhs=_hoeffding(Fraction(1, 8)), relation="<=",
    instances=st.integers(2, 5).flatmap(_shifts), expected="holds", reason="Hoeffding's lemma")
tight_kl_hoeffding = Statement(
    id="my.kl.hoeffding.tight", title="KL between shifted softmaxes, 3 % tighter", paper_ref="-", reading="-",
    formula="KL(p_l ‖ p_{l+d}) ≤ 0.97·ptp(d/T)²/8", lhs=_kl, rhs=_hoeffding(Fraction(97, 800)), relation="<=",
    instances=st.integers(2, 5).flatmap(_shifts), expected="refuted", reason="two equal logits, d two-point")


def _second_eigenvalue(i, xp):
    p = softmax(i["l"] / i["T"])
    return np.linalg.eigvalsh(np.diag(p) - np.outer(p, p))[1].item()


def _smallest(factor):
    return lambda i, xp: factor * np.min(softmax(i["l"] / i["T"]))


_TIED = st.fixed_dictionaries({"l": st.lists(st.sampled_from([-3.0, 0.0, 3.0]), min_size=3, max_size=6).map(np.array),
                               "T": st.sampled_from([0.1, 0.5, 1.0])})

true_second_eigenvalue = Statement(
    id="my.jacobian.second", title="second eigenvalue of the softmax Jacobian", paper_ref="-", reading="-",
    formula="λ₂(diag p − ppᵀ) ≥ min p", lhs=_second_eigenvalue, rhs=_smallest(1), relation=">=",
    instances=_TIED, expected="holds", reason="Cauchy interlacing")
tight_second_eigenvalue = Statement(
    id="my.jacobian.second.tight", title="second eigenvalue, 3 % higher", paper_ref="-", reading="-",
    formula="λ₂(diag p − ppᵀ) ≥ 1.03·min p", lhs=_second_eigenvalue, rhs=_smallest(Fraction(103, 100)),
    relation=">=", instances=_TIED, expected="refuted", reason="a repeated smallest weight: λ₂ = min p")
