"""What a user's callback returns is checked (issue 28 item 6): a ``confirm=`` returning ``'yes'``, ``True`` or a
numpy bool, a ``size=`` returning a float, a ``parameters=`` returning a list, a derivation's ``statistical=``
returning something else than a Statement: each is an InvalidArgument naming the statement and the callback,
never read as a verdict (``'yes'`` once turned a false claim into "holds")."""

import numpy as np
import pytest
from hypothesis import strategies as st

from theorems import InvalidArgument, Statement, check
from theorems.engine.prove import prove

SCALAR = st.fixed_dictionaries({"x": st.floats(0, 1)})


def _false_claim(**changes):
    fields = dict(id="mine.false", title="-", paper_ref="-", reading="-", formula="x ≤ x/2", relation="<=",
                  lhs=lambda i, xp: i["x"], rhs=lambda i, xp: i["x"] / 2, instances=SCALAR, expected="refuted",
                  reason="false for x > 0", max_examples=30)
    return Statement(**(fields | changes))


def yes(instance):
    return "yes"


@pytest.mark.parametrize("result", ["yes", True, np.bool_(True), 1.0])
def test_confirm_returning_anything_but_a_counterexample_or_none_is_named(result):
    statement = _false_claim(confirm=lambda instance: result)
    with pytest.raises(InvalidArgument, match=r"statement 'mine.false': its confirm=.* returned .*; confirm must "
                                              r"return a Counterexample .* or None"):
        check(statement, seed=0)


def test_a_named_callback_is_named_by_its_name():
    with pytest.raises(InvalidArgument, match="its confirm=yes returned str 'yes'"):
        check(_false_claim(confirm=yes), seed=0)


def test_confirm_returning_none_is_a_documented_not_confirmed():
    assert check(_false_claim(confirm=lambda instance: None), seed=0).found == "holds"


def test_size_must_be_a_count():
    with pytest.raises(InvalidArgument, match="its size=.* returned float 1.5; size must return a non-negative int"):
        check(_false_claim(size=lambda instance: 1.5), seed=0)


def test_parameters_must_build_an_instance():
    statement = Statement(id="mine.params", title="-", paper_ref="-", reading="-", formula="0 ≤ x²", relation="<=",
                          lhs=lambda i, xp: 0 * i["x"], rhs=lambda i, xp: i["x"] * i["x"], instances=SCALAR,
                          expected="holds", reason="-", parameters=lambda p, xp: [p["t"]], prove={"t": (0.0, 1.0)})
    with pytest.raises(InvalidArgument, match="its parameters=.* returned list .*; parameters must return an instance"):
        prove(statement, max_seconds=5, seed=0)


def test_a_derivations_statistical_must_return_a_statement():
    from theorems.engine.derivation import Derivation, Link, Term

    x = Term("x", lambda i, xp: i["x"])
    with pytest.raises(InvalidArgument, match="its statistical=.* returned str 'yes'; statistical must return a "
                                              "Statement"):  # at construction: the conclusion is built there
        Derivation(id="mine.chain", title="-", start=x, instances=SCALAR, statistical=lambda s: "yes",
                   links=(Link("<=", Term("x + 1", lambda i, xp: i["x"] + 1), "adds 1"),))
