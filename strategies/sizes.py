"""Top-N sizes for a given length.

>>> from strategies import top_n_sizes
>>> 1 <= top_n_sizes(5).example() <= 5
True
"""

from __future__ import annotations

from hypothesis import strategies as st

from strategies.arguments import validated_strategy
from theorems.arithmetic.validation import check_integer, check_number


@validated_strategy
def top_n_sizes(length: int, *, max_fraction: float = 1.0) -> st.SearchStrategy[int]:
    """``N`` in ``1..max(1, floor(max_fraction·L))``, shrinking toward 1."""
    check_integer(length, name="length")
    check_number(max_fraction, name="max_fraction", min_value=0, max_value=1, exclude_min=True)
    return st.integers(1, max(1, int(max_fraction * length)))
