"""Uniform points on the sphere ``S^{d−1}(M)`` from a numpy generator, and the least pairwise distance of a
configuration: the samplers of Assumptions 1–2, here so that both :mod:`theorems.maths.separability_sampling`
and the strategies of :mod:`strategies.spherical` (a floor above) use them.

>>> x = uniform_sphere(np.random.default_rng(0), length=5, dim=3, radius=2.0)
>>> x.shape, bool(np.allclose(np.linalg.norm(x, axis=-1), 2.0))
((5, 3), True)
"""

from __future__ import annotations

import numpy as np

from theorems.arithmetic.validation import check_array, check_generator, check_integer, check_positive, check_work


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
