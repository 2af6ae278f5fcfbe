"""A side must return a real number (or an array of them): anything else is a clear error naming the
statement, the side and the type, before any verdict; a side slower than its limit stops the search."""

import dataclasses
import time

import numpy as np
import pytest
from hypothesis import strategies as st

from theorems import Statement
from theorems.engine.search import check
from theorems.engine.sides import SideValueError, SlowSide

_BASE = Statement(id="my.bound", title="t", paper_ref="p", reading="r", formula="x ≤ 2",
                 lhs=lambda i, xp: i["x"], rhs=lambda i, xp: 2.0, relation="<=",
                 instances=st.fixed_dictionaries({"x": st.floats(0, 1)}), expected="holds", reason="x ≤ 1",
                 max_examples=20)


@pytest.mark.parametrize("value", ["100", None, 1 + 0j, True, [1.0, 2.0], np.array(["a"]), np.array([1 + 2j]),
                                   np.array([True]), {"x": 1}])
def test_a_side_that_returns_no_real_number_is_an_error_before_any_verdict(value):
    bad = dataclasses.replace(_BASE, rhs=lambda i, xp: value)
    with pytest.raises(SideValueError, match=r"statement 'my.bound': rhs returned"):
        check(bad, seed=0)


@pytest.mark.parametrize("value", [2, 2.0, np.float64(2.0), np.int64(2), np.array(2.0), np.array([2.0, 3.0])])
def test_real_numbers_and_arrays_are_accepted(value):
    assert check(dataclasses.replace(_BASE, rhs=lambda i, xp: value), seed=0).found == "holds"


def test_a_slow_side_stops_the_search():
    def slow(i, xp):
        time.sleep(0.3)
        return i["x"]

    started = time.perf_counter()
    with pytest.raises(SlowSide, match=r"lhs took .* over the limit of 0.1 s"):
        check(dataclasses.replace(_BASE, lhs=slow, side_seconds=0.1), seed=0)
    assert time.perf_counter() - started < 10  # stopped at once, not after every example


def test_side_seconds_is_checked():
    with pytest.raises(ValueError, match="side_seconds"):
        dataclasses.replace(_BASE, side_seconds=-1)
