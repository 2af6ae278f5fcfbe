"""Bounds written the way researchers write numpy, scipy and math: a downstream project's test module.

`test_downstream_soundness.py` copies this file into a fresh project and runs its pytest plugin. Every
`true_*` statement is a true bound (it must pass: expected "holds"); every `tight_*` is the same bound
tightened by 2 % (it must fail, with a certified or a candidate counterexample). The sides use
`np.linalg`, `scipy.special`, `math`, builtins and decimal constants, never the suite's `xp`.
"""

import dataclasses
import math

import numpy as np
import scipy.special
from hypothesis import strategies as st

from theorems import Statement

LOGITS = st.fixed_dictionaries({"l": st.lists(st.floats(-4, 4), min_size=1, max_size=5).map(np.array)})
SCALAR = st.fixed_dictionaries({"x": st.floats(-3, 3)})
SYMMETRIC = st.fixed_dictionaries({"a": st.floats(-0.9, 0.9)})


def _jacobian(l):
    p = scipy.special.softmax(l)
    return np.diag(p) - np.outer(p, p)


def _statement(name, lhs, rhs, relation, instances, formula):
    return Statement(id=f"downstream.{name}", title=name, paper_ref="downstream", reading="numpy as written",
                     formula=formula, lhs=lhs, rhs=rhs, relation=relation, instances=instances,
                     expected="holds", reason="a true bound", max_examples=300)


def _tightened(statement, rhs):
    return dataclasses.replace(statement, id=statement.id + ".tight", rhs=rhs)


true_spectral_norm = _statement("spectral-norm", lambda i, xp: np.linalg.norm(_jacobian(i["l"]), 2),
                                lambda i, xp: 0.5, "<=", LOGITS, "‖J_softmax‖₂ ≤ 1/2")
tight_spectral_norm = _tightened(true_spectral_norm, lambda i, xp: 0.49)

true_eigvalsh = _statement("eigvalsh", lambda i, xp: np.linalg.eigvalsh(_jacobian(i["l"]))[-1],
                           lambda i, xp: 0.5, "<=", LOGITS, "λ_max(J_softmax) ≤ 1/2")
tight_eigvalsh = _tightened(true_eigvalsh, lambda i, xp: 0.49)

true_logsumexp = _statement("logsumexp", lambda i, xp: scipy.special.logsumexp(i["l"]),
                            lambda i, xp: np.max(i["l"]) + math.log(len(i["l"])), "<=", LOGITS,
                            "logsumexp(l) ≤ max l + log L")
tight_logsumexp = _tightened(true_logsumexp, lambda i, xp: np.max(i["l"]) + 0.98 * math.log(len(i["l"])))

true_softmax = _statement("softmax", lambda i, xp: np.max(scipy.special.softmax(i["l"])),
                          lambda i, xp: 1 / len(i["l"]), ">=", LOGITS, "max softmax(l) ≥ 1/L")
tight_softmax = _tightened(true_softmax, lambda i, xp: 1.02 / len(i["l"]))

true_log_softmax = _statement("log-softmax", lambda i, xp: np.max(scipy.special.log_softmax(i["l"])),
                              lambda i, xp: -math.log(len(i["l"])), ">=", LOGITS, "max log_softmax(l) ≥ −log L")
tight_log_softmax = _tightened(true_log_softmax, lambda i, xp: -0.98 * math.log(len(i["l"])))

true_math_exp = _statement("math-exp", lambda i, xp: math.exp(i["x"]), lambda i, xp: 1 + i["x"], ">=", SCALAR,
                           "e^x ≥ 1 + x")
tight_math_exp = _tightened(true_math_exp, lambda i, xp: 1.02 * (1 + i["x"]))

true_float_sum = _statement("float-sum", lambda i, xp: sum(float(v) for v in scipy.special.softmax(i["l"])),
                            lambda i, xp: 1.0, "<=", LOGITS, "Σ float(p_i) ≤ 1")
tight_float_sum = _tightened(true_float_sum, lambda i, xp: 0.98)

true_builtin_max = _statement("builtin-max", lambda i, xp: max(scipy.special.softmax(i["l"])),
                              lambda i, xp: 1 / len(i["l"]), ">=", LOGITS, "max(p) ≥ 1/L (Python's max)")
tight_builtin_max = _tightened(true_builtin_max, lambda i, xp: 1.02 / len(i["l"]))

true_decimal = _statement("decimal", lambda i, xp: 0.1 * np.sum(scipy.special.softmax(i["l"])) + 0.2,
                          lambda i, xp: 0.3, "<=", LOGITS, "0.1·Σp + 0.2 ≤ 0.3")
tight_decimal = _tightened(true_decimal, lambda i, xp: 0.294)

true_square = _statement("square", lambda i, xp: np.sum((scipy.special.softmax(i["l"]) - 1 / len(i["l"])) ** 2),
                         lambda i, xp: np.sum(scipy.special.softmax(i["l"]) ** 2) - 1 / len(i["l"]), "<=", LOGITS,
                         "Σ(p_i − 1/L)² ≤ Σp_i² − 1/L (an identity)")
tight_square = _tightened(true_square, lambda i, xp: 0.98 * (np.sum(scipy.special.softmax(i["l"]) ** 2)
                                                            - 1 / len(i["l"])))

true_det = _statement("det", lambda i, xp: np.linalg.det(np.array([[1.0, i["a"]], [i["a"], 1.0]])),
                      lambda i, xp: 1.0, "<=", SYMMETRIC, "det [[1, a], [a, 1]] ≤ 1")
tight_det = _tightened(true_det, lambda i, xp: 0.98)

true_expit = _statement("expit", lambda i, xp: scipy.special.expit(i["x"]), lambda i, xp: 1 / (1 + math.exp(-3)),
                        "<=", SCALAR, "σ(x) ≤ σ(3) for |x| ≤ 3")
tight_expit = _tightened(true_expit, lambda i, xp: 0.98 / (1 + math.exp(-3)))

# functions with no ball form: a float64 violation far above rounding is a candidate, which fails the gate
true_svd = _statement("svd", lambda i, xp: np.linalg.svd(_jacobian(i["l"]), compute_uv=False)[0],
                      lambda i, xp: 0.5, "<=", LOGITS, "σ_max(J_softmax) ≤ 1/2 (np.linalg.svd)")
tight_svd = _tightened(true_svd, lambda i, xp: 0.49)

true_erf = _statement("erf", lambda i, xp: scipy.special.erf(i["x"]), lambda i, xp: math.erf(3.0), "<=", SCALAR,
                      "erf(x) ≤ erf(3) for |x| ≤ 3")
tight_erf = _tightened(true_erf, lambda i, xp: 0.98 * math.erf(3.0))
