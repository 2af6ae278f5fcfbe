"""A bad argument to a public function is caught by ``except TheoremsError`` (``docs/errors.md``): a quantity
function, a strategy, ``check``, ``prove``; an ill-defined side too, with its message as before the tree."""

import math

import numpy as np
import pytest
from hypothesis import strategies as st

from strategies import logits, temperatures
from theorems import STATEMENTS, IllDefined, Statement, TheoremsError, check, prove, refute
from theorems.maths.normalisers import softmax
from theorems.maths.separability import separable_count
from theorems.engine.statement import jsonable


@pytest.mark.parametrize("call, message", [
    (lambda: softmax(temperature=0.0), "temperature=0.0 must be a finite number > 0"),
    (lambda: softmax(temperature="1"), "temperature='1' must be a real number, not str"),
    (lambda: separable_count(np.array([0.5, 0.5]), np.ones((3, 2)), 1, 0.1), r"x of shape \(3, 2\) must be"),
    (lambda: logits(min_length=2.5), "min_length=2.5 must be an integer"),
    (lambda: temperatures(max_value=float("inf")), "max_value=inf must be a finite number > 0"),
    (lambda: check(STATEMENTS["lemma1.upper"], max_examples=0), "max_examples=0"),
    (lambda: prove(STATEMENTS["lemma1.upper"], domain={}), "domain=.* must be a non-empty mapping"),
])
def test_a_bad_argument_is_a_theorems_error(call, message):
    with pytest.raises(TheoremsError, match=message):
        call()


def test_an_ill_defined_side_is_a_theorems_error():
    probe = Statement(id="nonfinite.probe", title="-", paper_ref="-", reading="-", formula="-",
                      lhs=lambda i, xp: xp.number("nan"), rhs=lambda i, xp: 2, relation="<=",
                      instances=st.fixed_dictionaries({"a": st.floats(0, 1)}), expected="holds", reason="-")
    with pytest.raises(TheoremsError) as caught:
        refute(probe, seed=0)
    assert isinstance(caught.value, IllDefined) and caught.value.side == "lhs"


def test_the_ill_defined_message_shows_the_instance_as_json_as_before_the_tree():
    instance = {"x": np.array([1.0, 2.5]), "n": np.int64(3)}
    error = IllDefined("my.probe", instance, "lhs", "is nan (element [0])", shown=jsonable(instance))
    # repr of the raw instance would show array(...) and np.int64(3): the JSON view is what it always showed
    assert str(error) == "statement 'my.probe' is ill-defined at instance {'x': [1.0, 2.5], 'n': 3}: lhs is nan (element [0])"
    assert error.to_json() == {"statement": "my.probe", "instance": {"x": [1.0, 2.5], "n": 3}, "side": "lhs",
                               "reason": "is nan (element [0])"}
