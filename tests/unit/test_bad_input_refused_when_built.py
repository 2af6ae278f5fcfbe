"""Theory-side bad input: each gets a clear error naming the argument when it is given, not later."""

import pytest
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from strategies import logits
from strategies.distance import embeddings, long_context_instances
from theorems import Derivation, Link, Term
from theorems.arithmetic.files import check_output_path
from theorems.app.cli import main

X = st.fixed_dictionaries({"x": st.floats(0, 1)})
TERM = Term("x", lambda i, xp: i["x"])


def test_a_link_with_a_statistical_that_is_not_a_function_is_refused_when_built():
    with pytest.raises(TypeError, match="statistical=5 must be None or a function"):
        Link("<=", TERM, "why", statistical=5)


def test_a_derivation_with_a_statistical_that_is_not_a_function_is_refused_when_built():
    with pytest.raises(TypeError, match="statistical='x' must be None or a function"):
        Derivation(id="my.d", title="-", instances=X, start=TERM, links=(Link("<=", TERM, "why"),), statistical="x")


@pytest.mark.parametrize("build, name", [(lambda: logits(max_length=10**7), "max_length"),
                                         (lambda: embeddings(length=10**7), "length"),
                                         (lambda: embeddings(length=100, max_dim=100), "length \\* max_dim")])
def test_absurd_strategy_sizes_are_refused_when_the_strategy_is_built(build, name):
    with pytest.raises(InvalidArgument, match=f"{name}=\\d+ must be an integer in 1..1024"):
        build()


def test_absurd_long_context_sizes_are_refused_when_built():
    with pytest.raises(InvalidArgument, match="lower max_n, ratio, extra or max_dim"):
        long_context_instances(max_n=10**6, ratio=10**4)


def test_a_negative_seed_is_a_usage_error_of_the_cli(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["check", "--seed", "-5", "lemma1.upper"])
    assert exit_.value.code == 2 and "--seed: must be a non-negative integer, got -5" in capsys.readouterr().err


def test_an_empty_output_path_is_refused_instead_of_writing_into_the_working_directory():
    with pytest.raises(ValueError, match="--out='' is empty"):
        check_output_path("", name="--out", kind="directory")
