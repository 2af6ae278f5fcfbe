"""The argument checks of the strategies themselves: a bad argument of a strategy factory is refused when the strategy
is built (as Hypothesis's own strategies refuse theirs), never when it is drawn.

>>> from strategies.arguments import check_drawn_size
>>> check_drawn_size(10**7, name="max_length")
Traceback (most recent call last):
    ...
theorems.errors.InvalidArgument: max_length=10000000 must be an integer in 1..1024 (Hypothesis draws each value of the array one by one, a few thousand per example at most; for larger sizes draw a seed and generate with numpy, as strategies.distance.long_context_instances does)
"""

from __future__ import annotations

import contextlib
import functools

from theorems.arithmetic.validation import check_integer
from theorems.errors import InvalidArgument

MAX_DRAWN = 1024
"""The most values a strategy draws one by one from Hypothesis for one array of an instance: Hypothesis supports a
few thousand choices per example (it refuses larger lists only when drawing), and a statement's instances are
small by design."""


def check_drawn_size(value, *, name: str, min_value: int = 1) -> int:
    """An integer size of an array a strategy draws value by value, at most :data:`MAX_DRAWN`; checked when the
    strategy is built, not when Hypothesis first draws from it.
    """
    return check_integer(value, name=name, min_value=min_value, max_value=MAX_DRAWN,
                         hint=" (Hypothesis draws each value of the array one by one, a few thousand per example at "
                              "most; for larger sizes draw a seed and generate with numpy, as "
                              "strategies.distance.long_context_instances does)")


@contextlib.contextmanager
def strategy_arguments():
    """Re-raise a bad strategy argument as :class:`InvalidArgument`, the way Hypothesis's own strategies do."""
    try:
        yield
    except InvalidArgument:
        raise
    except (TypeError, ValueError) as error:
        raise InvalidArgument(str(error)) from None


def validated_strategy(function):
    """Decorate a strategy factory whose checks may raise ``ValueError``/``TypeError``: they become
    :class:`InvalidArgument`, raised when the strategy is built, never when it is drawn."""
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        with strategy_arguments():
            return function(*args, **kwargs)
    return wrapper


__all__ = ["MAX_DRAWN", "check_drawn_size", "strategy_arguments", "validated_strategy"]
