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


# ---------------------------------------------------------------------------------------------
# Command-line inputs of ``python -m empirical`` (files and grids), checked before a model loads.


def check_count(value, *, name: str, minimum: int = 1) -> int:
    """An integer ``>= minimum`` (``bool`` refused).

    >>> check_count(0, name="--windows")
    Traceback (most recent call last):
        ...
    ValueError: --windows=0 must be an integer >= 1
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name}={value!r} must be an integer >= {minimum}")
    return int(value)


def check_subset(values, allowed, *, name: str) -> tuple:
    """A non-empty tuple of members of ``allowed``.

    >>> check_subset((1, 7), (1, 2, 3, 4, 5), name="--algorithms")
    Traceback (most recent call last):
        ...
    ValueError: --algorithms=(1, 7) must be a non-empty subset of (1, 2, 3, 4, 5); 7 is not
    """
    values = tuple(values)
    bad = [v for v in values if v not in tuple(allowed)]
    if not values or bad:
        raise ValueError(f"{name}={values!r} must be a non-empty subset of {tuple(allowed)}"
                         + (f"; {bad[0]!r} is not" if bad else ""))
    return values


def check_finite_grid(values, *, name: str, positive: bool = True) -> tuple[float, ...]:
    """A non-empty tuple of finite numbers (``> 0`` with ``positive``).

    >>> check_finite_grid((0.1, float("nan")), name="--temperatures")
    Traceback (most recent call last):
        ...
    ValueError: --temperatures=(0.1, nan) must hold finite numbers > 0; nan is not
    """
    values = tuple(values)
    bad = [v for v in values if isinstance(v, bool) or not isinstance(v, numbers.Real)
           or not math.isfinite(float(v)) or (positive and v <= 0)]
    if not values or bad:
        raise ValueError(f"{name}={values!r} must hold finite numbers{' > 0' if positive else ''}"
                         + (f"; {bad[0]!r} is not" if bad else ""))
    return values


def check_below(values, limit: int, *, name: str, what: str) -> tuple[int, ...]:
    """Every value ``< limit`` (e.g. each ``N`` of a grid below the context length ``L``).

    >>> check_below((1, 5, 2000), 1024, name="--ns", what="the context length L = 1024")
    Traceback (most recent call last):
        ...
    ValueError: --ns=(1, 5, 2000) must stay below the context length L = 1024; 2000 does not
    """
    bad = [v for v in values if not v < limit]
    if bad:
        raise ValueError(f"{name}={tuple(values)!r} must stay below {what}; {bad[0]!r} does not")
    return tuple(values)


def check_at_most(values, limit: int, *, name: str, what: str) -> tuple[int, ...]:
    """Every value ``<= limit`` (e.g. each context length at most the model's positions)."""
    bad = [v for v in values if not v <= limit]
    if bad:
        raise ValueError(f"{name}={tuple(values)!r} must be at most {what}; {bad[0]!r} is not")
    return tuple(values)


def check_text_file(path, *, name: str = "--text"):
    """An existing UTF-8 text file (a BOM allowed); binary or UTF-16 files are refused by name.

    >>> check_text_file("/no/such/file")
    Traceback (most recent call last):
        ...
    ValueError: --text='/no/such/file' does not exist; it must be a UTF-8 text file
    """
    from pathlib import Path

    path = Path(path)
    if not path.exists():
        raise ValueError(f"{name}={str(path)!r} does not exist; it must be a UTF-8 text file")
    if not path.is_file():
        raise ValueError(f"{name}={str(path)!r} is not a file; it must be a UTF-8 text file")
    data = path.read_bytes()
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise ValueError(f"{name}={str(path)!r} is UTF-16 (byte-order mark {data[:2]!r}); it must be UTF-8: "
                         f"convert it, e.g. `iconv -f UTF-16 -t UTF-8 {path} > {path.stem}-utf8.txt`")
    nul = data.find(bytes(1))
    if nul >= 0:
        raise ValueError(f"{name}={str(path)!r} holds NUL bytes (offset {nul}): a binary file, not "
                         "UTF-8 text")
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(f"{name}={str(path)!r} is not UTF-8 text (byte {data[error.start]:#04x} at offset "
                         f"{error.start}); it must be a UTF-8 text file") from None
    if not data.strip():
        raise ValueError(f"{name}={str(path)!r} is empty; it must hold text")
    return path


def check_output_directory(path, *, name: str = "--out"):
    """A directory that exists or can be created (not an existing file, not under one, writable).

    >>> check_output_directory("/proc/version")
    Traceback (most recent call last):
        ...
    ValueError: --out='/proc/version' is an existing file; it must be a directory (existing or new)
    """
    import os
    from pathlib import Path

    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{name}={str(path)!r} is an existing file; it must be a directory (existing or new)")
    parent = path
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise ValueError(f"{name}={str(path)!r} lies under the file {str(parent)!r}; it must be a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ValueError(f"{name}={str(path)!r} cannot be written ({str(parent)!r} is not writable)")
    return path
