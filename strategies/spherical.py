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

from strategies.arguments import validated_strategy
from theorems.arithmetic.validation import check_integer, check_positive, check_work
# the samplers live with the mathematics that needs them (maths is below strategies); re-exported here
from theorems.errors import InvalidArgument
from theorems.maths.spherical import min_pairwise_distance, min_pairwise_distances, uniform_sphere

__all__ = ["min_pairwise_distance", "min_pairwise_distances", "spherical_embeddings", "uniform_sphere"]


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
    if not isinstance(length, st.SearchStrategy) and not isinstance(dim, st.SearchStrategy):
        # refused when built, as uniform_sphere would refuse it at every draw
        check_work(length * dim, what=f"spherical_embeddings [length={length}, dim={dim}]",
                   way_out="lower length or dim")
    check_positive(radius, name="radius")
    attempts = check_integer(attempts, name="attempts")
    if min_distance is not None:
        check_positive(min_distance, name="min_distance", strict=False)
        if min_distance > 2 * radius:
            raise InvalidArgument(f"min_distance={min_distance!r} exceeds the diameter 2*radius={2 * radius!r}")
    return _embeddings(length, dim, float(radius), min_distance, attempts)
