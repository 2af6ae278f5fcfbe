"""Three arithmetic backends with one interface, so that a formula is written once.

Every side of a statement and every normaliser takes ``xp``: :data:`F64` (numpy float64, the fast
search), :data:`ARB` (numpy object arrays of :class:`Ball` values, python-flint's arb balls: the
certification, where every result is a ball that provably contains the exact value) or :data:`MP`
(object arrays of mpmath numbers, kept for cross-checks). Only the operations below are used on
``xp`` (``exp log sqrt tanh expm1 sin cos abs norm max spectral_norm number precision``, the
:class:`~theorems.arithmetic.backend.Backend` protocol, and ``pi``; ``xp.max`` is
``np.max`` except on balls, where it is a sound ball maximum); numpy's own
``+ - * / **``, ``sum``, ``max``, ``sort``, ``cumsum``, ``where`` and ``@`` work on object arrays.
On balls, every comparison (and so ``max``, ``sort``, ``where(a > b, ...)``) is either certain or
raises :class:`Undecided`, never a guess; a ball never becomes a float silently (:class:`NoBallForm`), a
float constant from a side's code carries one ulp, and plain numpy, ``np.linalg`` and ``scipy.special`` run
on ball arrays through :mod:`theorems.arithmetic.ballarray` and :mod:`theorems.arithmetic.ball_namespace`
(``docs/soundness.md``).

>>> from theorems.arithmetic.precision import F64, MP, lift
>>> F64.exp(np.array([0.0]))[0]
np.float64(1.0)
>>> with MP.precision():
...     str(MP.exp(lift(np.array([1.0])))[0])[:20]
'2.718281828459045235'
>>> with ARB.precision(128):
...     ARB.exp(balls(np.array([1.0])))[0].lower > 2.71828
True
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import flint
import mpmath
import numpy as np

# The ball type lives in theorems.arithmetic.ball (its errors in theorems.errors), the bottom of the ball backend; the numpy and scipy
# forms (ballarray, ball_linalg) build on it. Importing them replaces nothing in numpy or scipy: numpy reaches a ball
# array's forms by its own protocols, and a side evaluated on balls reaches the others by name (ball_namespace).
# The names stay importable from here.
from theorems.arithmetic.ball import (Ball, NoBallForm, Undecided, to_arb, from_arb, ball_ufunc, ball_max,  # noqa: F401
                                      ball_norm, ball_spectral_norm, exact_ball, ball_log, root_of_squares, ball_sqrt,
                                      enclosure_notes, escapes, midpoint)
from theorems.arithmetic.ballarray import BallArray  # noqa: F401

DIGITS = 50
"""Decimal digits of the mpmath backend (kept for cross-checks; certification uses :data:`ARB`)."""

START_BITS = 128
"""Working precision of the first certification attempt, in bits."""

MAX_BITS = 1024
"""The precision cap: a ball still undecided at this many bits makes the instance inconclusive."""

BITS = (128, 256, 512, 1024)
"""The precisions tried in turn by the certifier."""


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
    sin=np.sin,
    cos=np.cos,
    abs=np.abs,
    pi=np.pi,
    spectral_norm=_f64_spectral_norm,
    number=float,
    precision=contextlib.nullcontext,
)
F64.norm = lambda vector, axis=-1: _norm(F64, vector, axis)
F64.max = np.max

MP = SimpleNamespace(
    name="mpmath",
    exp=_ufunc(mpmath.exp),
    log=_ufunc(mpmath.log),
    sqrt=_ufunc(mpmath.sqrt),
    tanh=_ufunc(mpmath.tanh),
    expm1=_ufunc(mpmath.expm1),
    sin=_ufunc(mpmath.sin),
    cos=_ufunc(mpmath.cos),
    abs=np.abs,
    pi=mpmath.pi,
    spectral_norm=_mp_spectral_norm,
    number=mpmath.mpf,
    precision=lambda: mpmath.workdps(DIGITS),
)
MP.norm = lambda vector, axis=-1: _norm(MP, vector, axis)
MP.max = np.max


class _Arb(SimpleNamespace):
    """The ball backend's namespace; ``pi`` is a property so it is computed at the current precision."""

    @property
    def pi(self) -> Ball:
        return from_arb(flint.arb.pi())


ARB = _Arb(
    name="arb",
    exp=ball_ufunc("exp"),
    log=np.frompyfunc(ball_log, 1, 1),
    sqrt=np.frompyfunc(ball_sqrt, 1, 1),
    tanh=ball_ufunc("tanh"),
    expm1=ball_ufunc("expm1"),
    sin=ball_ufunc("sin"),
    cos=ball_ufunc("cos"),
    abs=np.abs,
    spectral_norm=ball_spectral_norm,
    number=Ball,
    precision=lambda bits=START_BITS: working_bits(bits),
)
ARB.norm = ball_norm
ARB.max = ball_max


def increasing_image(function: Callable, x):
    """``function`` (increasing) of every number in the arb ball ``x``: the hull of its values at ``x``'s two
    ends. arb's own ``function(x)`` of a wide ball may be far wider: its ``tanh`` of ``[0.04, 7.52]`` reaches
    ``−0.85``, so a positive ``√2·tanh(3ε/4)`` was not certainly positive on a box of ``ε``.

    >>> x = flint.arb(3.78, 3.74)
    >>> x.tanh().lower() < -0.8, increasing_image(flint.arb.tanh, x).lower() > 0.03
    (True, True)
    """
    whole = function(x)  # first, so that a function's own check of its domain sees the whole ball
    if not whole.is_finite() or x.rad() == 0:
        return whole
    return meet(whole, function(flint.arb(x.lower())).union(function(flint.arb(x.upper()))))


def meet(a, b):
    """The intersection of two enclosures of one quantity (either when the other is not finite or they are
    disjoint, which would be a bug: keep the first)."""
    if not b.is_finite() or not a.overlaps(b):
        return a
    return b if not a.is_finite() else a.intersection(b)


@contextlib.contextmanager
def working_bits(bits: int):
    saved = flint.ctx.prec
    flint.ctx.prec = int(bits)
    try:
        yield bits
    finally:
        flint.ctx.prec = saved


def balls(value: Any) -> Any:
    """Convert floats and float arrays to exact :class:`Ball` values (every float64 is an exact ball).

    Integers, strings, normalisers and other values are returned unchanged; mappings, tuples and
    lists are converted item by item.

    >>> balls({"T": 0.1, "n": 2})["T"].arb.is_exact()
    True
    """
    return _convert_floats(value, lambda x: from_arb(exact_ball(x)), array=lambda a: a.view(BallArray))


def lift(value: Any) -> Any:
    """Convert floats and float arrays to mpmath numbers, exactly (every float64 is an mpf).

    Integers, strings, normalisers and other values are returned unchanged; mappings, tuples
    and lists are converted item by item.
    """
    return _convert_floats(value, mpmath.mpf)


def _convert_floats(value: Any, convert: Callable[[float], Any], *, array: Callable = lambda a: a) -> Any:
    """``value`` with every float and float array entry passed through ``convert`` (float arrays become
    object arrays, then ``array(result)``); mappings, tuples and lists item by item, the rest unchanged."""
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return array(np.array([convert(float(v)) for v in value.ravel()], dtype=object).reshape(value.shape))
    if isinstance(value, (float, np.floating)):
        return convert(float(value))
    if isinstance(value, dict):
        return {key: _convert_floats(item, convert, array=array) for key, item in value.items()}
    if isinstance(value, (tuple, list)):
        return type(value)(_convert_floats(item, convert, array=array) for item in value)
    return value


def to_float(value: Any) -> Any:
    """The float64 view of a (possibly mpmath) scalar or array, for reports."""
    if isinstance(value, np.ndarray):
        return np.array([midpoint(v) for v in value.ravel()], dtype=float).reshape(value.shape)
    return midpoint(value)
