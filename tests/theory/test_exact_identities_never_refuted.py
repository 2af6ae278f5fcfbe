"""An exact identity or an equality case is never refuted: rounding residue is not a violation.

Regression: softmax's shift invariance ‖softmax(x/T) − softmax((x + c)/T)‖₂ ≤ 0 was "confirmed" false
with a left side of 1.3e-51 against an exact 0 (seed 0, 1000 examples).
"""

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from theorems import Statement, check
from theorems.maths.normalisers import softmax


def _statement(**fields):
    base = dict(id="identity.probe", title="-", paper_ref="-", reading="-", formula="-", expected="holds", reason="-")
    return Statement(**(base | fields))


SHIFT = _statement(
    lhs=lambda i, xp: xp.norm(softmax(temperature=i["T"])(i["x"], xp=xp)
                              - softmax(temperature=i["T"])(i["x"] + i["c"], xp=xp)),
    rhs=lambda i, xp: 0.0, relation="<=",
    instances=st.fixed_dictionaries({"x": hnp.arrays(np.float64, st.integers(1, 6), elements=st.floats(-5, 5)),
                                     "c": st.floats(-5, 5), "T": st.floats(0.1, 10)}))


def test_softmax_shift_invariance_is_never_refuted():
    verdict = check(SHIFT, max_examples=200, seed=0)
    assert verdict.found == "holds", verdict.report.counterexample
    assert verdict.report.float_artefacts + verdict.report.inconclusive > 0  # float64 did flag residue


def test_an_equality_case_at_equal_logits_is_never_refuted():
    """max_i α_i ≥ 1/L, with equality at equal logits (every instance here has some ties)."""
    tied = st.integers(1, 3).flatmap(lambda k: hnp.arrays(np.float64, st.integers(2, 6), elements=st.sampled_from([0.0, float(k)])))
    bound = _statement(lhs=lambda i, xp: np.max(softmax()(i["x"], xp=xp)),
                       rhs=lambda i, xp: 1 / xp.number(len(i["x"])), relation=">=",
                       instances=st.fixed_dictionaries({"x": tied}))
    verdict = check(bound, max_examples=300, seed=0)
    assert verdict.found == "holds" and verdict.report.tightness.ratio == 1.0
