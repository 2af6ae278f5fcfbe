"""Strategies check their arguments when they are built, like ``hypothesis.extra.numpy``: a bad argument
raises Hypothesis's ``InvalidArgument`` at once, never later when an example is drawn."""

import numpy as np
import pytest
from hypothesis.errors import InvalidArgument

from strategies import (distance_instances, embeddings, logits, long_context_instances, min_pairwise_distance,
                        separability_instances, spherical_embeddings, temperatures, top_n_sizes)


@pytest.mark.parametrize("build, message", [
    (lambda: logits(min_length=2.5), "min_length=2.5 must be an integer"),
    (lambda: temperatures(max_value=float("inf")), "max_value=inf must be a finite number > 0"),
    (lambda: temperatures(min_value=5e-324), "min_value=5e-324 must be a finite number > 0 and normal"),
    (lambda: spherical_embeddings(length=0, dim=2), "length=0 must be an integer >= 1"),
    (lambda: spherical_embeddings(length=3, dim=2, attempts=0), "attempts=0 must be an integer >= 1"),
    (lambda: spherical_embeddings(length=10**5, dim=10**5), r"length=100000, dim=100000\] would need 10000000000 "),
    (lambda: embeddings(length=-1), "length=-1 must be an integer in 1..1024"),
    (lambda: embeddings(length=3, shapes=("round",)), "shapes=.* must be a non-empty tuple of names"),
    (lambda: distance_instances(max_length=1), "min_length <= max_length"),
    (lambda: long_context_instances(ratio=0), "ratio=0 must be an integer >= 1"),
    (lambda: separability_instances(max_dim=2.0), "max_dim=2.0 must be an integer"),
    (lambda: top_n_sizes(3, max_fraction=float("nan")), "max_fraction=nan"),
])
def test_bad_arguments_fail_when_the_strategy_is_built(build, message):
    with pytest.raises(InvalidArgument, match=message):
        build()


def test_invalid_argument_is_also_a_value_error():
    with pytest.raises(ValueError):
        logits(bound=-1.0)


def test_min_pairwise_distance_needs_rows_of_points():
    with pytest.raises(ValueError, match=r"x must have 2 dimension\(s\), got shape \(3,\)"):
        min_pairwise_distance(np.array([0.0, 1.0, 3.0]))
    assert min_pairwise_distance(np.array([[0.0], [1.0], [3.0]])) == 1.0
