"""The issue's two user bounds, written as a user would (a helper of ``test_prove_user_bounds.py``; statements
built in functions: the pytest plugin would check a module-level one). ``factor`` scales the right side: 0.98 is
the 2 % mutant."""

import numpy as np
from hypothesis import strategies as st

from theorems import Statement
from theorems.engine.prove.domain import below_zero
from theorems.statements.gradient.corollary3 import jacobian


def _logits(n):
    return st.fixed_dictionaries({"logits": st.lists(st.floats(-5, 5), min_size=n, max_size=n).map(np.array),
                                  "T": st.floats(0.1, 10)})


def _gaps(p, xp):
    """Logits ``(0, −gaps)``: both bounds are invariant under permutations, and under shifts of the logits
    (``‖J‖₂`` exactly; ``T·LSE(l/T) − max l`` too), so these cover every logit vector of range ≤ ``max gaps``."""
    return {"logits": below_zero(p["gaps"]), "T": p["T"]}


def spectral(factor: float = 1.0) -> Statement:
    """``‖J‖₂ ≤ 1/(2T)``, ``J`` the Jacobian of softmax at temperature ``T``."""
    return Statement(id="user.spectral-half-over-t", title="spectral norm of the softmax Jacobian", paper_ref="-",
                     reading="-", formula="‖J‖₂ ≤ 1/(2T)", relation="<=", instances=_logits(2), expected="holds",
                     reason="-", parameters=_gaps, lhs=lambda i, xp: xp.spectral_norm(jacobian(i, xp)),
                     rhs=lambda i, xp: factor / (2 * i["T"]))


def lse(factor: float = 1.0) -> Statement:
    """``T·LSE(l/T) ≤ max l + T log 3`` at ``L = 3``."""
    def lhs(i, xp):
        return i["T"] * xp.log(np.sum(xp.exp(i["logits"] / i["T"])))

    def rhs(i, xp):
        return factor * (np.max(i["logits"]) + i["T"] * xp.log(xp.number(3)))

    return Statement(id="user.lse-upper", title="log-sum-exp at temperature T", paper_ref="-", reading="-",
                     formula="T·LSE(l/T) ≤ max l + T log 3", relation="<=", instances=_logits(3), expected="holds",
                     reason="-", parameters=_gaps, lhs=lhs, rhs=rhs)
