"""Uniform points on the sphere ``S^{d−1}(M)``, drawn from a seed so that large arrays stay fast.

Hypothesis draws only the seed (and the sizes); numpy builds the array, Gaussian then normalised,
which is exactly uniform on the sphere. Shrinking still reaches small ``L`` and ``d``.

>>> from strategies import spherical_embeddings
>>> x = spherical_embeddings(length=5, dim=3, radius=2.0).example()
>>> x.shape, bool(np.allclose(np.linalg.norm(x, axis=-1), 2.0))
((5, 3), True)
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from theorems.engine.validation import (check_array, check_generator, check_integer, check_positive, check_work,
                                 validated_strategy)


def uniform_sphere(rng: np.random.Generator, *, length: int, dim: int, radius: float = 1.0) -> np.ndarray:
    """``[length, dim]`` i.i.d. uniform points on the sphere of the given radius."""
    check_generator(rng)
    check_integer(length, name="length")
    check_integer(dim, name="dim")
    check_positive(radius, name="radius")
    check_work(length * dim, what=f"points [length={length}, dim={dim}]", way_out="lower length or dim")
    gaussian = rng.standard_normal((length, dim))
    norms = np.linalg.norm(gaussian, axis=-1, keepdims=True)
    while np.any(norms == 0):  # probability zero, but a zero row cannot be normalised
        gaussian = np.where(norms == 0, rng.standard_normal((length, dim)), gaussian)
        norms = np.linalg.norm(gaussian, axis=-1, keepdims=True)
    return radius * gaussian / norms


def min_pairwise_distances(x: np.ndarray) -> np.ndarray:
    """``[...]`` the least pairwise distance of each configuration ``x [..., L, d]`` (``inf`` for one row).

    Batched, so that rejection over thousands of configurations does not loop over them.

    >>> min_pairwise_distances(np.array([[[0.0, 0.0], [3.0, 4.0]]])).tolist()
    [5.0]
    """
    x = check_array(x, name="x", min_ndim=2)  # [..., L, d]
    if x.shape[-2] < 2:
        return np.full(x.shape[:-2], np.inf)
    squared = np.sum(x * x, axis=-1)  # [..., L]; ‖a − b‖² = ‖a‖² + ‖b‖² − 2 aᵀb
    gram = squared[..., :, None] + squared[..., None, :] - 2 * x @ np.swapaxes(x, -1, -2)  # [..., L, L]
    length = x.shape[-2]
    gram[..., np.arange(length), np.arange(length)] = np.inf
    return np.sqrt(np.maximum(gram.min(axis=(-2, -1)), 0.0))


def min_pairwise_distance(x: np.ndarray) -> float:
    """The least distance between two rows of one configuration ``x [L, d]`` (``inf`` for a single row).

    >>> min_pairwise_distance(np.array([[0.0], [2.0], [5.0]]))
    2.0
    """
    x = check_array(x, name="x", ndim=2)
    return float(min_pairwise_distances(x))


@st.composite
def _embeddings(draw, length, dim, radius, min_distance, attempts):
    length = draw(length) if isinstance(length, st.SearchStrategy) else length
    dim = draw(dim) if isinstance(dim, st.SearchStrategy) else dim
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    for _ in range(attempts):
        x = uniform_sphere(rng, length=length, dim=dim, radius=radius)
        if min_distance is None or min_pairwise_distance(x) >= min_distance:
            return x
    from hypothesis import reject
    reject()


@validated_strategy
def spherical_embeddings(*, length: int | st.SearchStrategy[int], dim: int | st.SearchStrategy[int],
                         radius: float = 1.0, min_distance: float | None = None,
                         attempts: int = 100) -> st.SearchStrategy[np.ndarray]:
    """``[L, d]`` arrays of points uniform on ``S^{d−1}(radius)``.

    With ``min_distance``, draws are rejected until every pair is at least that far apart
    (Assumption 2 of the paper); after ``attempts`` failures the example is rejected.
    """
    for name, value in (("length", length), ("dim", dim)):
        if not isinstance(value, st.SearchStrategy):
            check_integer(value, name=name)
    check_positive(radius, name="radius")
    attempts = check_integer(attempts, name="attempts")
    if min_distance is not None:
        check_positive(min_distance, name="min_distance", strict=False)
        if min_distance > 2 * radius:
            raise ValueError(f"min_distance={min_distance!r} exceeds the diameter 2*radius={2 * radius!r}")
    return _embeddings(length, dim, float(radius), min_distance, attempts)
