"""A statement with a non-finite side never "holds": +inf against a finite bound is a certified
violation; nan, inf − inf and a side that raises make it ill-defined, with the side named."""

import pytest
from hypothesis import strategies as st

from theorems import IllDefined, Statement, check, refute


def _statement(lhs, rhs, relation="<="):
    return Statement(id="nonfinite.probe", title="-", paper_ref="-", reading="-", formula="-", lhs=lhs, rhs=rhs,
                     relation=relation, instances=st.fixed_dictionaries({"a": st.floats(0, 1)}),
                     expected="holds", reason="-")


def test_infinite_left_side_against_a_finite_bound_is_refuted():
    found = refute(_statement(lambda i, xp: xp.number("inf"), lambda i, xp: 2), seed=0)
    assert found is not None and found.lhs == float("inf") and found.method.startswith("exact")


def test_infinite_bound_is_satisfied():
    assert check(_statement(lambda i, xp: i["a"], lambda i, xp: xp.number("inf")), seed=0).found == "holds"


@pytest.mark.parametrize("lhs, rhs, side", [
    (lambda i, xp: xp.number("nan"), lambda i, xp: 2, "lhs"),
    (lambda i, xp: xp.number("inf"), lambda i, xp: xp.number("inf"), "lhs and rhs"),
    (lambda i, xp: i["a"], lambda i, xp: 1 / (i["a"] - i["a"]), "rhs"),
    (lambda i, xp: {"b": i["a"]}["c"], lambda i, xp: 1, "lhs"),  # raises on its own (an instance's missing key is
    # the strategy's fault, not the bound's: tests/unit/test_bad_input_refused_before_search.py)
])
def test_undefined_sides_are_ill_defined_never_holds(lhs, rhs, side):
    statement = _statement(lhs, rhs)
    verdict = check(statement, seed=0)
    assert verdict.found == "ill-defined" and not verdict.matches
    assert verdict.report.ill_defined.side == side
    with pytest.raises(IllDefined, match=f"'nonfinite.probe' is ill-defined at instance .*{side}"):
        refute(statement, seed=0)
