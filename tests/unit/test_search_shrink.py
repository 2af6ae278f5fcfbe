"""The shrink phase's budget: after the first counterexample only ``shrink_evaluations`` new instances are
evaluated; past it a new instance passes unevaluated, and an instance already found still fails the same way."""

import numpy as np
import pytest
from hypothesis import strategies as st

from theorems import Statement
from theorems.engine.search import Counterexample
from theorems.engine.search import shrink
from theorems.engine.search import generate
from theorems.engine.search.state import Search

_EVALUATED = []


def _lhs(i, xp):
    _EVALUATED.append(i["x"])
    return i["x"]


_BELOW_ONE = Statement(id="my.below-one", title="t", paper_ref="p", reading="r", formula="x ≤ 1", lhs=_lhs,
                       rhs=lambda i, xp: 1.0, relation="<=", instances=st.fixed_dictionaries({"x": st.floats(0, 2)}),
                       expected="refuted", reason="r")


def _found(x: float) -> Counterexample:
    return Counterexample("my.below-one", {"x": x}, x, 1.0, x - 1, (x - 1) / x, 1, "test")


def test_the_budget_counts_only_after_the_first_counterexample():
    search = Search(_BELOW_ONE, shrink_evaluations=2)
    shrink.count(search)
    assert search.after_first == 0 and not shrink.spent(search)
    shrink.keep(search, "k", _found(2.0))
    assert search.first is not None and search.found_by_key == {"k": _found(2.0)}
    shrink.count(search)
    assert not shrink.spent(search)
    shrink.count(search)
    assert shrink.spent(search)


def test_keep_notes_the_time_of_the_first_counterexample_only():
    search = Search(_BELOW_ONE)
    shrink.keep(search, "a", _found(2.0))
    first = search.first
    shrink.keep(search, "b", _found(1.5))
    assert search.first == first and set(search.found_by_key) == {"a", "b"}


def test_past_the_budget_new_instances_pass_and_found_ones_replay(monkeypatch):
    monkeypatch.setattr(generate, "aim", lambda outcome: None)  # target() is only callable inside a Hypothesis test
    examine = generate.examine
    search = Search(_BELOW_ONE, shrink_evaluations=1)
    with pytest.raises(shrink.Found) as raised:
        examine(search, {"x": np.float64(1.5)})  # a violation, certified: the first counterexample
    first = raised.value.payload
    assert isinstance(first, Counterexample) and first.lhs == 1.5
    examine(search, {"x": np.float64(0.5)})  # the budget's one new instance (it holds)
    _EVALUATED.clear()
    examine(search, {"x": np.float64(1.75)})  # a violation, but the budget is spent: not evaluated
    assert _EVALUATED == [] and search.examples == 3
    with pytest.raises(shrink.Found) as replayed:
        examine(search, {"x": np.float64(1.5)})
    assert replayed.value.payload is first and _EVALUATED == []
