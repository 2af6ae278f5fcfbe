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


def check_integer(value, *, name: str, minimum: int | None = None, maximum: int | None = None, hint: str = "") -> int:
    """An ``int`` (not a bool, not a float) within ``[minimum, maximum]``; ``hint`` says what to do instead.

    >>> check_integer(10**12, name="max_examples", minimum=1, maximum=10**6)
    Traceback (most recent call last):
        ...
    ValueError: max_examples=1000000000000 must be an integer in [1, 1000000]
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name}={value!r} must be an integer, not {type(value).__name__}{hint}")
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        low = "-inf" if minimum is None else minimum
        high = "inf" if maximum is None else maximum
        raise ValueError(f"{name}={value!r} must be an integer in [{low}, {high}]{hint}")
    return int(value)


def check_output_path(path, *, name: str):
    """A file path that can be written (its folder exists or can be made, it is not a folder), checked
    before a long computation so that the work is not thrown away at the end."""
    import os
    from pathlib import Path
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{name}={str(path)!r} is a directory; give a file path such as {str(path / 'out.md')!r}")
    folder = next((p for p in (path.parent, *path.parent.parents) if p.exists()), Path("."))
    if not folder.is_dir():
        raise ValueError(f"{name}={str(path)!r} cannot be written: {str(folder)!r} is a file, not a directory")
    target = path if path.exists() else folder
    if not os.access(target, os.W_OK):
        raise ValueError(f"{name}={str(path)!r} cannot be written: no write permission on {str(target)!r}")
    return path
