"""Bad statements, derivations and normalisers: each gets a TheoremsError naming the argument, before any search."""

import dataclasses

import numpy as np
import pytest
from hypothesis import strategies as st

from theorems import Derivation, Link, Statement, Term, TheoremsError, check, investigate
from theorems.engine.derivation import gate
from theorems.engine.statement import Hypothesis
from theorems.maths.normalisers import general

X = st.fixed_dictionaries({"x": st.floats(0, 1)})
_BOUND = Statement(id="my.bound", title="x at most one", paper_ref="-", reading="-", formula="x ≤ 1",
                  lhs=lambda i, xp: i["x"], rhs=lambda i, xp: 1 + 0 * i["x"], relation="<=", instances=X,
                  expected="holds", reason="x ∈ [0, 1]")


def test_a_general_normaliser_whose_F_is_zero_on_a_row_is_refused_instead_of_nan():
    zero = general(name="zero", F=lambda l, L, xp: 0 * l, F_range=lambda a, L, xp: (0, 0))
    with pytest.raises(TheoremsError, match=r"F of the normaliser 'zero' is 0 at every logit of a row"):
        zero(np.array([1.0, 2.0]))


def test_a_general_normaliser_whose_F_is_negative_is_refused():
    negative = general(name="minus", F=lambda l, L, xp: -1 - 0 * l, F_range=lambda a, L, xp: (-1, -1))
    with pytest.raises(TheoremsError, match=r"F of the normaliser 'minus' must be finite and >= 0"):
        negative(np.array([1.0, 2.0]))


@pytest.mark.parametrize("field", ["title", "paper_ref", "reading", "formula", "reason"])
def test_a_statement_without_a_text_field_is_refused(field):
    with pytest.raises(TheoremsError, match=rf"^{field}=None must be a non-empty string"):
        dataclasses.replace(_BOUND, **{field: None})


def test_a_hypothesis_violated_by_a_list_is_refused():
    with pytest.raises(TheoremsError, match=r"^violated_by=\[\{'x': 2\.0\}\] must be None or a Hypothesis strategy"):
        Hypothesis("bounded", "x ≤ 1", violated_by=[{"x": 2.0}])


def test_sides_of_shapes_that_do_not_broadcast_are_named():
    mismatched = dataclasses.replace(_BOUND, lhs=lambda i, xp: np.ones(3) * i["x"], rhs=lambda i, xp: np.ones(2))
    with pytest.raises(TheoremsError, match=r"statement 'my.bound' \(x ≤ 1\): lhs has shape \(3,\) and rhs has "
                                            r"shape \(2,\), which do not broadcast"):
        check(mismatched, max_examples=5, seed=0)


def test_terms_of_a_derivation_of_shapes_that_do_not_broadcast_are_named():
    chain = Derivation(id="my.chain", title="a chain", instances=X, start=Term("3 x", lambda i, xp: np.ones(3) * i["x"]),
                       links=(Link("<=", Term("2 x + 1", lambda i, xp: np.ones(2) * i["x"] + 1), "one step"),))
    with pytest.raises(TheoremsError, match=r"statement 'my.chain.step1' \(3 x ≤ 2 x \+ 1\): lhs has shape \(3,\) "
                                            r"and rhs has shape \(2,\)"):
        gate(chain, max_examples=5, seed=0)


def test_a_progress_that_is_not_a_function_is_refused_before_the_search():
    with pytest.raises(TheoremsError, match=r"^progress=42 must be None or a function \(examples, seconds\)"):
        investigate(_BOUND, progress=42)


@pytest.mark.parametrize("instances, message", [
    (st.floats(0, 1), r"lhs reads instance\['l'\], but the statement's strategy draws float \(0\.0\), not a mapping"),
    (st.fixed_dictionaries({"x": st.floats(0, 1)}),
     r"lhs reads instance\['l'\], but the statement's strategy draws mappings with the keys \['x'\] only; add 'l'"),
])
def test_a_strategy_the_sides_cannot_read_is_named_instead_of_an_ill_defined_verdict(instances, message):
    statement = Statement(id="my.misdrawn", title="t", paper_ref="-", reading="-", formula="l₀ ≤ 1",
                          lhs=lambda i, xp: i["l"][0], rhs=lambda i, xp: 1.0, relation="<=", expected="holds",
                          reason="-", instances=instances)
    with pytest.raises(TheoremsError, match="statement 'my.misdrawn': " + message):
        check(statement, seed=0, max_examples=20)


def test_a_side_raising_for_its_own_reasons_stays_ill_defined():
    statement = Statement(id="my.raising", title="t", paper_ref="-", reading="-", formula="{}[x] ≤ 1",
                          lhs=lambda i, xp: {}[i["x"]], rhs=lambda i, xp: 1.0, relation="<=", expected="holds",
                          reason="-", instances=st.fixed_dictionaries({"x": st.floats(0, 1)}))
    assert check(statement, seed=0, max_examples=20).found == "ill-defined"
