"""The checks of a run's grids and lists, before a model loads (``python -m empirical reproduce``'s and ``bench``'s
``--algorithms``, ``--temperatures``, ``--ns``, ``--lengths``); :class:`empirical.grids.Grids` and
:mod:`empirical.bench` call them. A count, an amount of work, an output path or a text file are checked by the ground
floor's own checks (``theorems.arithmetic.validation``, ``theorems.arithmetic.files``), imported where they are used.
"""

from __future__ import annotations

import math
import numbers

from theorems.errors import InvalidArgument


def check_subset(values, allowed, *, name: str) -> tuple:
    """A non-empty tuple of members of ``allowed``.

    >>> check_subset((1, 7), (1, 2, 3, 4, 5), name="--algorithms")
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: --algorithms=(1, 7) must be a non-empty subset of (1, 2, 3, 4, 5); 7 is not
    """
    values = tuple(values)
    bad = [v for v in values if v not in tuple(allowed)]
    if not values or bad:
        raise InvalidArgument(f"{name}={values!r} must be a non-empty subset of {tuple(allowed)}"
                         + (f"; {bad[0]!r} is not" if bad else ""))
    return values


def check_finite_grid(values, *, name: str, positive: bool = True) -> tuple[float, ...]:
    """A non-empty tuple of finite numbers (``> 0`` with ``positive``).

    >>> check_finite_grid((0.1, float("nan")), name="--temperatures")
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: --temperatures=(0.1, nan) must hold finite numbers > 0; nan is not
    """
    values = tuple(values)
    bad = [v for v in values if isinstance(v, bool) or not isinstance(v, numbers.Real)
           or not math.isfinite(float(v)) or (positive and v <= 0)]
    if not values or bad:
        raise InvalidArgument(f"{name}={values!r} must hold finite numbers{' > 0' if positive else ''}"
                         + (f"; {bad[0]!r} is not" if bad else ""))
    return values


def check_below(values, limit: int, *, name: str, what: str) -> tuple[int, ...]:
    """Every value ``< limit`` (e.g. each ``N`` of a grid below the context length ``L``).

    >>> check_below((1, 5, 2000), 1024, name="--ns", what="the context length L = 1024")
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: --ns=(1, 5, 2000) must stay below the context length L = 1024; 2000 does not
    """
    bad = [v for v in values if not v < limit]
    if bad:
        raise InvalidArgument(f"{name}={tuple(values)!r} must stay below {what}; {bad[0]!r} does not")
    return tuple(values)


def check_at_most(values, limit: int, *, name: str, what: str) -> tuple[int, ...]:
    """Every value ``<= limit`` (e.g. each context length at most the model's positions)."""
    bad = [v for v in values if not v <= limit]
    if bad:
        raise InvalidArgument(f"{name}={tuple(values)!r} must be at most {what}; {bad[0]!r} is not")
    return tuple(values)
