"""Hypothesis strategies for attention theory, reusable in your own tests.

Like ``hypothesis.extra.numpy``: every strategy takes keyword-only arguments, validates them
eagerly, and shrinks toward the smallest meaningful case (``L = 2``, ``N = 1``, the lowest decade).

>>> from hypothesis import given
>>> from strategies import logits, temperatures
>>> @given(logits(bound=3.0), temperatures())
... def test_softmax_is_positive(l, t): ...
"""

from strategies.logits import SHAPES, bounds, lengths, log_uniform, logits
from strategies.normalisers import FAMILIES, normalisers
from strategies.sizes import top_n_sizes
from strategies.spherical import min_pairwise_distance, min_pairwise_distances, spherical_embeddings, uniform_sphere
from strategies.temperatures import temperatures
from strategies.separability import separability_instances
from strategies.distance import (
    EMBEDDING_SHAPES, SEEDED_LOGITS, SEEDED_SHAPES, distance_instances, embeddings, long_context_instances,
    seeded_embeddings, seeded_logits,
)

__all__ = [
    "FAMILIES", "SHAPES", "bounds", "lengths", "log_uniform", "logits", "min_pairwise_distance", "min_pairwise_distances",
    "normalisers", "spherical_embeddings", "temperatures", "top_n_sizes", "uniform_sphere", "separability_instances",
    "EMBEDDING_SHAPES", "SEEDED_SHAPES", "distance_instances", "embeddings", "long_context_instances",
    "seeded_embeddings", "SEEDED_LOGITS", "seeded_logits",
]
