"""Assumption 2 by rejection: every kept configuration is δ-separated, the acceptance rate is
P(Assumption 2) under Assumption 1, and (nearly) infeasible requests fail with a clear message."""

import numpy as np
import pytest
from scipy.spatial.distance import pdist

from strategies.spherical import min_pairwise_distance, min_pairwise_distances
from theorems.maths.separability_sampling import (max_min_distance, pilot_min_distance,
                                  sample_configurations, sample_sphere)


def test_kept_configurations_are_separated():
    x, rate = sample_configurations(samples=500, length=5, dim=3, radius=1.0, min_distance=0.6, seed=0)
    assert min(min_pairwise_distance(c) for c in x) >= 0.6 and 0 < rate < 1


def test_batched_min_distance_agrees_with_scipy_pdist():
    x = np.random.default_rng(1).standard_normal((40, 6, 3))
    np.testing.assert_allclose(min_pairwise_distances(x), [pdist(c).min() for c in x], rtol=1e-10)
    assert min_pairwise_distance(x[0]) == pytest.approx(pdist(x[0]).min(), rel=1e-10)


def test_acceptance_rate_is_the_probability_of_assumption_2():
    free, _ = sample_configurations(samples=20000, length=4, dim=3, radius=1.0, seed=11)
    expected = np.mean(min_pairwise_distances(free) >= 0.8)
    _, rate = sample_configurations(samples=5000, length=4, dim=3, radius=1.0, min_distance=0.8, seed=12)
    assert abs(rate - expected) < 0.03


def test_pilot_quantile_sets_the_acceptance():
    delta = pilot_min_distance(quantile=0.7, length=4, dim=3, radius=1.0, seed=0, samples=4000)
    _, rate = sample_configurations(samples=4000, length=4, dim=3, radius=1.0, min_distance=delta, seed=5)
    assert abs(rate - 0.3) < 0.05


@pytest.mark.parametrize("length, dim, bound", [(2, 1, 2.0), (3, 1, 0.0), (4, 2, np.sqrt(2)), (3, 2, np.sqrt(3)),
                                                (4, 3, np.sqrt(8 / 3)), (6, 3, np.sqrt(2))])
def test_largest_minimum_distance(length, dim, bound):
    assert max_min_distance(length=length, dim=dim, radius=1.0) == pytest.approx(bound)


def test_infeasible_request_is_refused_at_once():
    with pytest.raises(ValueError, match="min_distance=1.8 is infeasible"):
        sample_configurations(samples=1, length=3, dim=2, radius=1.0, min_distance=1.8, seed=0)


def test_nearly_infeasible_request_stops_with_the_rate_seen():
    # the regular simplex is the only configuration at the bound: rejection essentially never gets there
    with pytest.raises(ValueError, match="nearly infeasible"):
        sample_configurations(samples=10, length=4, dim=3, radius=1.0, min_distance=0.99 * np.sqrt(8 / 3), seed=0,
                              max_draws=20000)


def test_single_configuration_sampler():
    x, rate = sample_sphere(length=3, dim=2, radius=1.0, min_distance=1.5, seed=0)
    assert x.shape == (3, 2) and min_pairwise_distance(x) >= 1.5 and 0 < rate < 1


@pytest.mark.parametrize("kwargs, message", [
    (dict(samples=0), "samples=0"), (dict(dim=0), "dim=0"), (dict(radius=-1.0), "radius=-1.0"),
    (dict(min_distance=-0.1), "min_distance=-0.1"), (dict(law="gaussian"), "law='gaussian'"),
])
def test_bad_arguments_are_named(kwargs, message):
    arguments = dict(samples=1, length=2, dim=2, radius=1.0, min_distance=0.0, seed=0) | kwargs
    with pytest.raises(ValueError, match=message):
        sample_configurations(**arguments)
