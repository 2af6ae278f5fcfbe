"""The search's public functions and Statement(...) reject bad arguments at once, naming them."""

import pytest
from hypothesis import strategies as st

from theorems import STATEMENTS, Statement, check, investigate, necessity, refute

LEMMA = STATEMENTS["lemma1.upper"]


@pytest.mark.parametrize("call, error, message", [
    (lambda: investigate(LEMMA, shrink_evaluations=0), ValueError, "shrink_evaluations=0 must be an integer >= 1"),
    (lambda: investigate(LEMMA, shrink_evaluations=-3), ValueError, "shrink_evaluations=-3"),
    (lambda: refute(LEMMA, seed=[1, 2]), TypeError, r"seed=\[1, 2\] must be an integer"),
    (lambda: refute(LEMMA, seed=-1), ValueError, "seed=-1"),
    (lambda: check(LEMMA, max_examples=10**12), ValueError, "max_examples=1000000000000 .*run several seeds"),
    (lambda: necessity("lemma1.upper", "positive"), TypeError, r"statement must be a Statement, not str.*STATEMENTS\["),
    (lambda: necessity(LEMMA, 3), TypeError, "hypothesis_name=3 must be a str"),
    (lambda: check(42), TypeError, "statement must be a Statement, not int"),
])
def test_bad_search_arguments_fail_fast(call, error, message):
    with pytest.raises(error, match=message):
        call()


FIELDS = dict(id="my.bound", title="t", paper_ref="-", reading="-", formula="-", lhs=lambda i, xp: 0,
              rhs=lambda i, xp: 1, relation="<=", instances=st.just({}), expected="holds", reason="-")


@pytest.mark.parametrize("field, value, message", [
    ("lhs", 3.0, "lhs=3.0 must be a function"), ("rhs", None, "rhs=None must be a function"),
    ("hypotheses", ("positive",), "hypotheses=.* must be a tuple of Hypothesis"),
    ("max_examples", 0, "max_examples=0"), ("max_examples", 2.5, "max_examples=2.5 must be an integer"),
    ("confirm", "yes", "confirm='yes'"),
])
def test_statement_checks_its_fields_at_construction(field, value, message):
    with pytest.raises((TypeError, ValueError), match=message):
        Statement(**(FIELDS | {field: value}))
