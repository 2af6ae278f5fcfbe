"""Wrong forms cannot hide (issue 28 item 3): with one ball form made wrong (a flipped sign, a dropped term), the
gate reports an engine inconsistency; a true bound is never refuted and a false one never "holds"."""

import math

import numpy as np
import pytest
import scipy.special
from hypothesis import strategies as st

from theorems import Statement, check
from theorems.arithmetic import ball_forms

REL_ENTR = ball_forms.find("scipy.special.rel_entr").ball_form
LOG = ball_forms.find("np.log").ball_form
FAULTS = {
    "flipped rel_entr": ("scipy.special.rel_entr", lambda x, y: -REL_ENTR(x, y)),
    "log1p without its 1": ("np.log1p", lambda x: LOG(x)),  # a dropped term: log(x) for log(1 + x)
}
LOGITS = st.fixed_dictionaries({"l": st.lists(st.floats(-4, 4), min_size=2, max_size=5).map(np.array),
                                "T": st.floats(0.25, 4)})
SCALAR = st.fixed_dictionaries({"x": st.floats(-3, 3)})


def _p(i):
    return scipy.special.softmax(i["l"] / i["T"])


def _kl(i, xp):
    return np.sum(scipy.special.rel_entr(_p(i), 1 / len(i["l"])))


def _statement(name, lhs, rhs, instances, expected):
    return Statement(id=f"fault.{name}", title=name, paper_ref="-", reading="-", formula=name, lhs=lhs, rhs=rhs,
                     relation="<=", instances=instances, expected=expected, reason="-", max_examples=150)


TRUE = [
    _statement("kl-identity", _kl, lambda i, xp: math.log(len(i["l"])) - np.sum(scipy.special.entr(_p(i))),
               LOGITS, "holds"),
    _statement("softplus-above", lambda i, xp: np.maximum(i["x"], 0.0), lambda i, xp: np.log1p(np.exp(i["x"])),
               SCALAR, "holds"),
]
FALSE = [
    _statement("kl-hoeffding-3pc", _kl, lambda i, xp: 0.97 * (np.ptp(i["l"]) / i["T"]) ** 2 / 8, LOGITS, "refuted"),
    _statement("softplus-2pc", lambda i, xp: np.log1p(np.exp(i["x"])),
               lambda i, xp: np.maximum(i["x"], 0.0) + 0.98 * math.log(2), SCALAR, "refuted"),
]


@pytest.mark.parametrize("fault", sorted(FAULTS))
@pytest.mark.parametrize("statement", TRUE, ids=lambda s: s.id)
def test_a_true_bound_is_never_refuted_by_a_wrong_form(fault, statement):
    with ball_forms.replaced(*FAULTS[fault]):
        found = check(statement, seed=0).found
    assert found in ("holds", "engine-inconsistency"), found


@pytest.mark.parametrize("fault", sorted(FAULTS))
@pytest.mark.parametrize("statement", FALSE, ids=lambda s: s.id)
def test_a_false_bound_never_holds_with_a_wrong_form(fault, statement):
    with ball_forms.replaced(*FAULTS[fault]):
        found = check(statement, seed=0).found
    assert found != "holds"
    assert found in ("refuted", "candidate", "engine-inconsistency")


@pytest.mark.parametrize("statement", FALSE, ids=lambda s: s.id)
def test_the_form_a_false_bound_goes_through_makes_it_inconsistent(statement):
    name = "scipy.special.rel_entr" if "kl" in statement.id else "np.log1p"
    with ball_forms.replaced(*FAULTS["flipped rel_entr" if "kl" in statement.id else "log1p without its 1"]):
        verdict = check(statement, seed=0)
    assert verdict.found == "engine-inconsistency" and name in verdict.report.engine_inconsistency.forms


@pytest.mark.parametrize("statement", TRUE + FALSE, ids=lambda s: s.id)
def test_with_the_real_forms_the_verdicts_are_right(statement):
    assert check(statement, seed=0).found == statement.expected
