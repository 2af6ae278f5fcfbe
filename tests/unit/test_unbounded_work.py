"""Work that cannot finish is refused before anything is allocated, with its size and a way out."""

import time
import tracemalloc

import numpy as np
import pytest

from theorems.maths import distance as D

ALPHA40, X40 = np.full(40, 1 / 40), np.ones((40, 1))


def test_exact_expectation_over_c_40_20_subsets_is_refused_before_allocation():
    tracemalloc.start()
    began = time.perf_counter()
    with pytest.raises(ValueError, match=r"C\(40, 20\) = 137846528820 subsets.*use method='monte-carlo'"):
        D.expected_distance(ALPHA40, X40, 20, method="exact")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 10 << 20 and time.perf_counter() - began < 5  # no subset table was built


def test_the_way_out_works():
    estimate = D.expected_distance(ALPHA40, X40, 20, method="monte-carlo", samples=64)
    assert not estimate.exact and np.isfinite(float(estimate.mean))


def test_the_subset_table_itself_is_bounded():
    with pytest.raises(ValueError, match=r"C\(40, 20\) = 137846528820 subsets, more than EXACT_MAX_SUBSETS"):
        D.subsets(40, 20)


def test_monte_carlo_with_an_unbounded_sample_count_is_refused():
    with pytest.raises(ValueError, match=r"samples=1000000000000 .* entries, more than the limit .*lower samples"):
        D.expected_distance(np.array([0.5, 0.3, 0.2]), np.eye(3), 1, method="monte-carlo", samples=10 ** 12)
