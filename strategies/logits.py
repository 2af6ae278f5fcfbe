"""Bounded logit vectors with the adversarial shapes that make attention bounds tight.

>>> from strategies import logits
>>> example = logits(bound=2.0, max_length=8).example()
>>> bool(abs(example).max() <= 2.0) and len(example) >= 2
True
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from strategies.arguments import check_drawn_size, validated_strategy
from theorems.arithmetic.validation import check_choices, check_integer, check_positive
from theorems.errors import InvalidArgument

SHAPES = ("free", "ties", "near-ties", "dominant", "extremes")
"""``free``: any values; ``ties``: few distinct values; ``near-ties``: values within 1e-9 of each
other; ``dominant``: one logit at ``+a``, the rest low; ``extremes``: every logit at ``±a``."""


@validated_strategy
def lengths(*, min_length: int = 2, max_length: int = 32) -> st.SearchStrategy[int]:
    """Context lengths, shrinking toward ``min_length`` (2: the smallest meaningful case)."""
    check_integer(min_length, name="min_length")
    check_drawn_size(max_length, name="max_length")
    if max_length < min_length:
        raise InvalidArgument(f"need 1 <= min_length <= max_length, got min_length={min_length}, max_length={max_length}")
    return st.integers(min_length, max_length)


@st.composite
def _logits(draw, bound: float, min_length: int, max_length: int, shapes: tuple[str, ...]) -> np.ndarray:
    length = draw(lengths(min_length=min_length, max_length=max_length))
    shape = draw(st.sampled_from(shapes))
    value = st.floats(-bound, bound, allow_nan=False)
    if shape == "free":
        return np.array(draw(st.lists(value, min_size=length, max_size=length)), dtype=float)
    if shape == "ties":
        levels = draw(st.lists(value, min_size=1, max_size=3))
        picks = draw(st.lists(st.integers(0, len(levels) - 1), min_size=length, max_size=length))
        return np.array([levels[i] for i in picks], dtype=float)
    if shape == "near-ties":
        centre = draw(st.floats(-bound * 0.5, bound * 0.5))
        offsets = draw(st.lists(st.floats(-1e-9, 1e-9), min_size=length, max_size=length))
        return np.clip(centre + np.array(offsets), -bound, bound)
    if shape == "dominant":
        rest = draw(st.lists(st.floats(-bound, -bound * 0.5), min_size=length - 1, max_size=length - 1))
        return np.array([bound, *rest], dtype=float)
    signs = draw(st.lists(st.booleans(), min_size=length, max_size=length))
    return np.where(signs, bound, -bound).astype(float)


@validated_strategy
def logits(*, bound: float = 5.0, min_length: int = 2, max_length: int = 32,
           shapes: tuple[str, ...] = SHAPES) -> st.SearchStrategy[np.ndarray]:
    """Float64 logit vectors ``l ∈ [−bound, bound]^L`` with ``L`` in ``min_length..max_length``.

    ``shapes`` picks the adversarial families in :data:`SHAPES`; the default draws from all.
    """
    check_positive(bound, name="bound")
    lengths(min_length=min_length, max_length=max_length)
    check_choices(shapes, name="shapes", choices=SHAPES)
    return _logits(float(bound), min_length, max_length, tuple(shapes))


@validated_strategy
def bounds(*, min_value: float = 1e-2, max_value: float = 20.0) -> st.SearchStrategy[float]:
    """Logit bounds ``a``, log-uniform: ``a`` matters through ``exp(a)``."""
    return log_uniform(min_value=min_value, max_value=max_value)


@validated_strategy
def log_uniform(*, min_value: float, max_value: float) -> st.SearchStrategy[float]:
    """Floats spread evenly over decades, shrinking toward ``min_value`` (both ends finite and ``> 0``)."""
    check_positive(min_value, name="min_value")
    check_positive(max_value, name="max_value")
    if not max_value >= min_value:
        raise InvalidArgument(f"max_value={max_value!r} must be >= min_value={min_value!r}")
    low, high = np.log10(min_value), np.log10(max_value)
    return st.floats(low, high).map(lambda e: float(min(max(10.0 ** e, min_value), max_value)))
