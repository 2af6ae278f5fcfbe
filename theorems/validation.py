"""Eager argument checks with messages that name the argument (Hypothesis's own style).

>>> check_temperature(0.0)
Traceback (most recent call last):
    ...
ValueError: temperature=0.0 must be a finite number > 0
"""

from __future__ import annotations

import math
import numbers

import numpy as np


def check_temperature(temperature, *, name: str = "temperature") -> float:
    if isinstance(temperature, bool) or not isinstance(temperature, numbers.Real) or not math.isfinite(float(temperature)) or temperature <= 0:
        raise ValueError(f"{name}={temperature!r} must be a finite number > 0")
    return temperature


def check_array(value, *, name: str, ndim: int | None = None, min_ndim: int = 1, min_length: int = 1,
                allow_object: bool = False) -> np.ndarray:
    """A finite float array with at least ``min_length`` entries on its last axis."""
    if isinstance(value, np.ndarray) and value.dtype == object and allow_object:
        array = value
    else:
        try:
            array = np.asarray(value, dtype=float)
        except (TypeError, ValueError) as error:
            raise TypeError(f"{name} must be an array of real numbers, got {type(value).__name__}: {error}") from None
        if not np.all(np.isfinite(array)):
            bad = np.argwhere(~np.isfinite(array))[0].tolist()
            raise ValueError(f"{name} must be finite; entry {bad} is {array[tuple(bad)]!r}")
    if ndim is not None and array.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimension(s), got shape {array.shape}")
    if array.ndim < min_ndim:
        raise ValueError(f"{name} must have at least {min_ndim} dimension(s), got shape {array.shape}")
    if array.ndim and array.shape[-1] < min_length:
        raise ValueError(f"{name} must have at least {min_length} entries on its last axis, got shape {array.shape}")
    return array


def check_logits(logits, *, name: str = "logits", allow_object: bool = True) -> np.ndarray:
    return check_array(logits, name=name, allow_object=allow_object)


def check_top_n(n, length: int, *, name: str = "n") -> int:
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"{name}={n!r} must be an integer")
    if not 1 <= n <= length:
        raise ValueError(f"{name}={n!r} must lie in 1..L with L={length}")
    return int(n)


def check_positive(value, *, name: str, strict: bool = True) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(float(value)) or (value <= 0 if strict else value < 0):
        raise ValueError(f"{name}={value!r} must be a finite number {'>' if strict else '>='} 0")
    return value
