"""Temperatures on a log scale over many decades.

>>> from strategies import temperatures
>>> 1e-3 <= temperatures().example() <= 1e3
True
"""

from __future__ import annotations

from hypothesis import strategies as st

from strategies.logits import log_uniform
from strategies.arguments import validated_strategy
from theorems.arithmetic.validation import check_temperature


@validated_strategy
def temperatures(*, min_value: float = 1e-3, max_value: float = 1e3) -> st.SearchStrategy[float]:
    """``T`` log-uniform on ``[min_value, max_value]`` (default six decades), shrinking toward ``min_value``.

    Both ends must be finite, normal and ``> 0`` (:func:`theorems.arithmetic.validation.check_temperature`).
    """
    check_temperature(min_value, name="min_value")
    check_temperature(max_value, name="max_value")
    return log_uniform(min_value=min_value, max_value=max_value)
