"""Bad input gets a clear error naming the argument, never a deep numpy traceback or a wrong number."""

import numpy as np
import pytest
from hypothesis import strategies as st

from strategies import logits, spherical_embeddings, temperatures, top_n_sizes
from theorems import STATEMENTS, Statement, necessity, refute
from theorems.arithmetic.validation import check_top_n
from theorems.catalogue import select
from theorems.maths import normalisers as nz


@pytest.mark.parametrize("temperature", [0.0, -1.0, float("nan"), float("inf"), "1", True])
def test_invalid_temperature(temperature):
    with pytest.raises((ValueError, TypeError), match="temperature="):
        nz.softmax(temperature=temperature)


@pytest.mark.parametrize("bad", [[1.0, float("nan")], [float("inf"), 0.0]])
def test_non_finite_logits(bad):
    with pytest.raises(ValueError, match="logits must be finite"):
        nz.softmax()(np.array(bad))


def test_scalar_logits_are_the_wrong_shape():
    with pytest.raises(ValueError, match="logits must have at least 1 dimension"):
        nz.sparsemax()(np.float64(1.0))


def test_non_numeric_logits():
    with pytest.raises(TypeError, match="logits must be an array of real numbers"):
        nz.softmax()(["a", "b"])


@pytest.mark.parametrize("n", [0, 6, -1])
def test_top_n_outside_one_to_L(n):
    with pytest.raises(ValueError, match=r"n=.* must lie in 1\.\.L with L=5"):
        check_top_n(n, 5)


def test_top_n_must_be_an_integer():
    with pytest.raises(TypeError, match="n=2.5 must be an integer"):
        check_top_n(2.5, 5)


def test_unknown_statement_id_suggests_neighbours():
    with pytest.raises(KeyError, match="unknown statement id 'lemma1.middle'.*lemma1.upper"):
        STATEMENTS["lemma1.middle"]
    with pytest.raises(KeyError, match="unknown statement id 'lemma9'"):
        select(["lemma9"])


def test_unknown_hypothesis_lists_the_known_ones():
    with pytest.raises(ValueError, match="no hypothesis named 'smooth'.*'positive'"):
        necessity(STATEMENTS["lemma1.upper"], "smooth")


@pytest.mark.parametrize("field, value, message", [
    ("relation", "<", "relation='<'"), ("expected", "true", "expected='true'"), ("id", "Lemma 1", "id='Lemma 1'"),
    ("source", "X", "source='X'"), ("instances", [1, 2], "instances must be a Hypothesis strategy"),
])
def test_statement_fields_are_validated(field, value, message):
    fields = dict(id="my.bound", title="t", paper_ref="-", reading="-", formula="-", lhs=lambda i, xp: 0,
                  rhs=lambda i, xp: 1, relation="<=", instances=st.just({}), expected="holds", reason="-")
    with pytest.raises((ValueError, TypeError), match=message):
        Statement(**(fields | {field: value}))


def test_refute_rejects_a_non_statement_and_bad_budgets():
    with pytest.raises(TypeError, match="statement must be a Statement"):
        refute("lemma1.upper")
    with pytest.raises(ValueError, match="max_examples=0"):
        refute(STATEMENTS["lemma1.upper"], max_examples=0)


@pytest.mark.parametrize("build, message", [
    (lambda: logits(bound=-1.0), "bound=-1.0"),
    (lambda: logits(min_length=3, max_length=2), "min_length <= max_length"),
    (lambda: logits(shapes=("spiky",)), "shapes="),
    (lambda: temperatures(min_value=0.0), "min_value=0.0"),
    (lambda: temperatures(min_value=2.0, max_value=1.0), "max_value=1.0"),
    (lambda: spherical_embeddings(length=3, dim=2, radius=1.0, min_distance=3.0), "exceeds the diameter"),
    (lambda: top_n_sizes(0), "length=0"),
])
def test_strategy_arguments_are_validated_eagerly(build, message):
    with pytest.raises(ValueError, match=message):
        build()
