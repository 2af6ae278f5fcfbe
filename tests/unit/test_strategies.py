"""The strategies produce what they promise, and shrink toward the smallest case."""

import numpy as np
import pytest
from hypothesis import find, given
from hypothesis import strategies as st
from scipy import stats

from strategies import logits, min_pairwise_distance, spherical_embeddings, temperatures, top_n_sizes, uniform_sphere


@given(logits(bound=2.5, max_length=9))
def test_logits_respect_bound_and_length(l):
    assert 2 <= len(l) <= 9 and np.all(np.abs(l) <= 2.5) and l.dtype == np.float64


@pytest.mark.parametrize("shape", ["ties", "near-ties", "dominant", "extremes"])
def test_each_adversarial_shape_can_be_drawn(shape):
    checks = {"ties": lambda l: len(set(l.tolist())) < len(l),
              "near-ties": lambda l: 0 < np.ptp(l) < 1e-8,
              "dominant": lambda l: l[0] == 3.0 and np.all(l[1:] <= -1.5),
              "extremes": lambda l: set(np.abs(l).tolist()) == {3.0}}
    assert checks[shape](find(logits(bound=3.0, shapes=(shape,), min_length=3), checks[shape]))


def test_logits_shrink_to_length_two():
    assert len(find(logits(), lambda l: True)) == 2


@given(temperatures(min_value=1e-3, max_value=1e3))
def test_temperatures_in_range(t):
    assert 1e-3 <= t <= 1e3


def test_temperatures_span_the_decades():
    draws = [find(temperatures(), lambda t, lo=lo: lo <= t < lo * 10) for lo in (1e-3, 1e-1, 1e1, 1e2)]
    assert len(draws) == 4


@given(spherical_embeddings(length=st.integers(2, 30), dim=st.integers(1, 8), radius=3.0))
def test_embeddings_lie_on_the_sphere(x):
    assert np.allclose(np.linalg.norm(x, axis=-1), 3.0)


@given(spherical_embeddings(length=6, dim=5, radius=1.0, min_distance=0.5))
def test_embeddings_respect_the_minimum_distance(x):
    assert min_pairwise_distance(x) >= 0.5


def test_uniform_sphere_first_coordinate_follows_its_law():
    """For uniform x on S^{d-1}, (x_1 + 1)/2 ~ Beta((d-1)/2, (d-1)/2)."""
    x = uniform_sphere(np.random.default_rng(0), length=20000, dim=5)
    assert stats.kstest((x[:, 0] + 1) / 2, stats.beta(2, 2).cdf).pvalue > 0.01


def test_large_embeddings_are_fast_to_draw():
    """Built from one drawn seed: a [4096, 64] draw is one numpy call, not 262144 Hypothesis choices."""
    x = find(spherical_embeddings(length=4096, dim=64), lambda x: True)
    assert x.shape == (4096, 64)


@given(st.integers(1, 50).flatmap(lambda L: st.tuples(st.just(L), top_n_sizes(L))))
def test_top_n_sizes_lie_in_one_to_L(pair):
    length, n = pair
    assert 1 <= n <= length
