"""``expected_distance``: exact enumeration, Monte Carlo intervals that cover the exact value, and its switch."""

import math

import numpy as np
import pytest
import torch

from theorems.maths.distance import EXACT_LIMIT, expected_distance, random_main_sum, subsets


def _row(seed=0, length=8, dim=3):
    rng = np.random.default_rng(seed)
    return rng.dirichlet(np.ones(length)), rng.standard_normal((length, dim))


def test_subsets_are_all_distinct_subsets_of_size_n():
    every = subsets(6, 3)
    assert every.shape == (math.comb(6, 3), 6) and (every.sum(-1) == 3).all()
    assert len({tuple(row) for row in every}) == len(every)


def test_monte_carlo_interval_covers_the_exact_value():
    """Over 40 rows, the 99% interval misses the exact mean at most a few times (binomial: P(>= 4 misses) < 1%)."""
    rng = np.random.default_rng(3)
    alpha, x = rng.dirichlet(np.ones(7), size=40), rng.standard_normal((40, 7, 2))
    exact = expected_distance(alpha, x, 3, method="exact")
    estimate = expected_distance(alpha, x, 3, method="monte-carlo", samples=4000, seed=1, level=0.99)
    missed = np.sum((exact.mean < estimate.low) | (exact.mean > estimate.high))
    assert exact.exact and not estimate.exact and missed <= 3


def test_monte_carlo_is_reproducible_from_its_seed():
    alpha, x = _row()
    a, b = (expected_distance(alpha, x, 2, method="monte-carlo", samples=500, seed=7) for _ in range(2))
    assert a.mean == b.mean and a.low < a.mean < a.high


def test_auto_switches_to_monte_carlo_above_the_enumeration_limit():
    alpha, x = _row(length=40)
    assert math.comb(40, 3) > EXACT_LIMIT
    assert not expected_distance(alpha, x, 3, samples=200).exact
    assert expected_distance(alpha, x, 1).exact


def test_every_key_selected_gives_zero():
    alpha, x = _row()
    assert expected_distance(alpha, x, 8).mean == 0


def test_expectation_is_at_least_the_main_sum_in_torch_batches():
    rng = np.random.default_rng(4)
    alpha, x = rng.dirichlet(np.ones(6), size=(2, 3)), rng.standard_normal((2, 1, 6, 2))
    estimate = expected_distance(torch.tensor(alpha), torch.tensor(x), 2)
    assert isinstance(estimate.mean, torch.Tensor) and estimate.mean.shape == (2, 3)
    assert (estimate.mean.numpy() >= random_main_sum(alpha, x, 2) - 1e-12).all()


@pytest.mark.parametrize("kw, message", [({"method": "guess"}, "method"), ({"samples": 1}, "samples"),
                                         ({"level": 1.0}, "level"), ({"reading": "max"}, "reading")])
def test_bad_options_are_named(kw, message):
    alpha, x = _row()
    with pytest.raises(ValueError, match=message):
        expected_distance(alpha, x, 2, **kw)
