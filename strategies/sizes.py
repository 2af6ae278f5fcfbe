"""Top-N sizes for a given length.

>>> from strategies import top_n_sizes
>>> 1 <= top_n_sizes(5).example() <= 5
True
"""

from __future__ import annotations

from hypothesis import strategies as st


def top_n_sizes(length: int, *, max_fraction: float = 1.0) -> st.SearchStrategy[int]:
    """``N`` in ``1..max(1, floor(max_fraction·L))``, shrinking toward 1."""
    if length < 1:
        raise ValueError(f"length={length!r} must be >= 1")
    if not 0 < max_fraction <= 1:
        raise ValueError(f"max_fraction={max_fraction!r} must lie in (0, 1]")
    return st.integers(1, max(1, int(max_fraction * length)))
