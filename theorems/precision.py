"""Two arithmetic backends with one interface, so that a formula is written once.

Every side of a statement and every normaliser takes ``xp``: :data:`F64` (numpy float64, the fast
search) or :data:`MP` (numpy object arrays of mpmath numbers, the high-precision confirmation).
Only the operations below are used on ``xp``; numpy's own ``+ - * / **``, ``sum``, ``max``,
``sort``, ``cumsum``, ``where`` and ``@`` already work on object arrays of mpmath numbers.

>>> from theorems.precision import F64, MP, lift
>>> F64.exp(np.array([0.0]))[0]
np.float64(1.0)
>>> with MP.precision():
...     str(MP.exp(lift(np.array([1.0])))[0])[:20]
'2.718281828459045235'
"""

from __future__ import annotations

import contextlib
from types import SimpleNamespace
from typing import Any

import mpmath
import numpy as np

DIGITS = 50
"""Decimal digits used to confirm a counterexample (the issue asks for at least 40)."""


def _ufunc(function):
    return np.frompyfunc(function, 1, 1)


def _mp_spectral_norm(matrix) -> Any:
    singular = mpmath.svd_r(mpmath.matrix(matrix.tolist()), compute_uv=False)
    return max(singular[i] for i in range(singular.rows))


def _f64_spectral_norm(matrix) -> float:
    return float(np.linalg.norm(np.asarray(matrix, dtype=float), 2))


def _norm(xp, vector, axis=-1):
    return xp.sqrt(np.sum(vector * vector, axis=axis))


F64 = SimpleNamespace(
    name="float64",
    exp=np.exp,
    log=np.log,
    sqrt=np.sqrt,
    tanh=np.tanh,
    expm1=np.expm1,
    abs=np.abs,
    pi=np.pi,
    spectral_norm=_f64_spectral_norm,
    number=float,
    precision=contextlib.nullcontext,
)
F64.norm = lambda vector, axis=-1: _norm(F64, vector, axis)

MP = SimpleNamespace(
    name="mpmath",
    exp=_ufunc(mpmath.exp),
    log=_ufunc(mpmath.log),
    sqrt=_ufunc(mpmath.sqrt),
    tanh=_ufunc(mpmath.tanh),
    expm1=_ufunc(mpmath.expm1),
    abs=np.abs,
    pi=mpmath.pi,
    spectral_norm=_mp_spectral_norm,
    number=mpmath.mpf,
    precision=lambda: mpmath.workdps(DIGITS),
)
MP.norm = lambda vector, axis=-1: _norm(MP, vector, axis)


def lift(value: Any) -> Any:
    """Convert floats and float arrays to mpmath numbers, exactly (every float64 is an mpf).

    Integers, strings, normalisers and other values are returned unchanged; mappings, tuples
    and lists are converted item by item.
    """
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return np.array([mpmath.mpf(float(v)) for v in value.ravel()], dtype=object).reshape(value.shape)
    if isinstance(value, (float, np.floating)):
        return mpmath.mpf(float(value))
    if isinstance(value, dict):
        return {key: lift(item) for key, item in value.items()}
    if isinstance(value, (tuple, list)):
        return type(value)(lift(item) for item in value)
    return value


def to_float(value: Any) -> Any:
    """The float64 view of a (possibly mpmath) scalar or array, for reports."""
    if isinstance(value, np.ndarray):
        return np.array([float(v) for v in value.ravel()], dtype=float).reshape(value.shape)
    return float(value)
