"""Three arithmetic backends with one interface, so that a formula is written once.

Every side of a statement and every normaliser takes ``xp``: :data:`F64` (numpy float64, the fast
search), :data:`ARB` (numpy object arrays of :class:`Ball` values, python-flint's arb balls: the
certification, where every result is a ball that provably contains the exact value) or :data:`MP`
(object arrays of mpmath numbers, kept for cross-checks). Only the operations below are used on
``xp`` (``exp log sqrt tanh expm1 sin cos abs pi norm max spectral_norm number precision``; ``xp.max`` is
``np.max`` except on balls, where it is a sound ball maximum); numpy's own
``+ - * / **``, ``sum``, ``max``, ``sort``, ``cumsum``, ``where`` and ``@`` work on object arrays.
On balls, every comparison (and so ``max``, ``sort``, ``where(a > b, ...)``) is either certain or
raises :class:`Undecided`, never a guess.

>>> from theorems.engine.precision import F64, MP, lift
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
import functools
import numbers
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import flint
import mpmath
import numpy as np

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


class Undecided(ArithmeticError):
    """A comparison of two overlapping balls: its answer is not known at the working precision.

    Raised by :class:`Ball` comparisons (and so by ``np.max``, ``np.sort``, ``np.where(a > b, ...)``
    on object arrays of balls) instead of guessing; the certifier retries at a higher precision and
    reports the instance as inconclusive when the answer is still unknown at :data:`MAX_BITS`.
    """


class Ball:
    """A real number known to lie in a ball ``[mid ± rad]`` (python-flint's ``arb``), with sound comparisons.

    ``arb``'s own comparisons return ``False`` when the balls overlap, so ``np.max`` of two overlapping
    balls would silently pick one; a :class:`Ball` comparison is ``True`` or ``False`` only when it is
    certain and raises :class:`Undecided` otherwise. Arithmetic with ints, floats and numpy scalars is
    exact on the way in (every float64 is an exact ``arb``).

    >>> a = Ball(flint.arb(1) / 3)
    >>> bool(a * 3 <= 2)
    True
    >>> a * 3 > 1
    Traceback (most recent call last):
        ...
    theorems.engine.precision.Undecided: [1.00000000000000 +/- 3.89e-16] > 1.00000000000000 is undecided at 53 bits
    """

    __slots__ = ("arb",)

    def __init__(self, value: Any) -> None:
        self.arb = value.arb if isinstance(value, Ball) else _arb(value)

    # arithmetic: every result is a Ball, so that comparisons stay sound all the way through a formula
    def __add__(self, other): return _operate(lambda a, b: a + b, self.arb, other)
    def __radd__(self, other): return _operate(lambda a, b: b + a, self.arb, other)
    def __sub__(self, other): return _operate(lambda a, b: a - b, self.arb, other)
    def __rsub__(self, other): return _operate(lambda a, b: b - a, self.arb, other)
    def __mul__(self, other): return _operate(lambda a, b: a * b, self.arb, other)
    def __rmul__(self, other): return _operate(lambda a, b: b * a, self.arb, other)
    def __truediv__(self, other): return _operate(lambda a, b: a / b, self.arb, other)
    def __rtruediv__(self, other): return _operate(lambda a, b: b / a, self.arb, other)
    def __pow__(self, other): return _operate(_power, self.arb, other)
    def __rpow__(self, other): return _operate(lambda a, b: _power(b, a), self.arb, other)
    def __neg__(self): return _ball(-self.arb)
    def __pos__(self): return self
    def __abs__(self): return _ball(abs(self.arb))

    def _compare(self, other, name: str, certain, certainly_not) -> bool:
        if isinstance(other, np.ndarray) and other.ndim:
            return NotImplemented
        other = _arb(other)
        if certain(self.arb, other):
            return True
        if certainly_not(self.arb, other):
            return False
        raise Undecided(f"{self.arb} {name} {other} is undecided at {flint.ctx.prec} bits")

    def __lt__(self, other): return self._compare(other, "<", lambda a, b: a < b, lambda a, b: a >= b)
    def __le__(self, other): return self._compare(other, "<=", lambda a, b: a <= b, lambda a, b: a > b)
    def __gt__(self, other): return self._compare(other, ">", lambda a, b: a > b, lambda a, b: a <= b)
    def __ge__(self, other): return self._compare(other, ">=", lambda a, b: a >= b, lambda a, b: a < b)
    def __eq__(self, other): return self._compare(other, "==", lambda a, b: a == b, lambda a, b: a != b)
    def __ne__(self, other): return self._compare(other, "!=", lambda a, b: a != b, lambda a, b: a == b)
    __hash__ = None

    def __bool__(self) -> bool:
        return self != 0

    def __float__(self) -> float:
        return float(self.arb.mid())

    def __repr__(self) -> str:
        return f"Ball({self.arb})"

    @property
    def lower(self) -> float:
        """A float64 at or below every number in the ball (rounded outward)."""
        return _outward(self.arb.lower(), -np.inf)

    @property
    def upper(self) -> float:
        """A float64 at or above every number in the ball (rounded outward)."""
        return _outward(self.arb.upper(), np.inf)


# a ball stands for one real number: argument checks that accept real numbers accept it
numbers.Real.register(Ball)


def _operate(operation, mine, other):
    """``operation(mine, other)`` as a Ball; ``NotImplemented`` for arrays, so numpy broadcasts elementwise."""
    if isinstance(other, np.ndarray) and other.ndim:
        return NotImplemented
    try:
        theirs = _arb(other)
    except TypeError:
        return NotImplemented
    return _ball(operation(mine, theirs))


def _power(base, exponent):
    # an integer power of a ball containing negative numbers is defined (arb's real power is not)
    if exponent.is_exact() and exponent.is_integer() and abs(float(exponent.mid())) <= 64:
        return base ** int(float(exponent.mid()))
    return base ** exponent


def _outward(bound, direction: float) -> float:
    value = float(bound)  # rounds to nearest: step one float outward to stay a bound
    return float(np.nextafter(value, direction)) if np.isfinite(value) else value


def _arb(value: Any):
    if isinstance(value, Ball):
        return value.arb
    if isinstance(value, flint.arb):
        return value
    if isinstance(value, (bool, np.bool_)):
        return flint.arb(int(value))
    if isinstance(value, (int, np.integer)):
        return flint.arb(int(value))
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if value != value:
            return flint.arb.nan()
        if value in (np.inf, -np.inf):
            return flint.arb.pos_inf() if value > 0 else flint.arb.neg_inf()
        return flint.arb(value)  # exact: every float64 is a dyadic rational
    if isinstance(value, str):
        return _arb(float(value)) if value.strip().lower() in ("inf", "+inf", "-inf", "nan") else flint.arb(value)
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return _arb(value.item())
    raise TypeError(f"cannot make a ball of {type(value).__name__} {value!r}")


def _ball(value) -> Ball:
    ball = Ball.__new__(Ball)
    ball.arb = value
    return ball


def _ball_function(name: str):
    method = getattr(flint.arb, name)
    return np.frompyfunc(lambda x: _ball(method(_arb(x))), 1, 1)


def _sqrt(x):
    value = _arb(x)
    if value.is_finite() and value.lower() < 0 < value.upper():
        # the square root of a ball straddling 0 is defined only if the exact value is >= 0: not known here
        raise Undecided(f"sqrt of {value}, which straddles 0, is undecided at {flint.ctx.prec} bits")
    return _ball(value.sqrt())


def _ball_norm(vector, axis=-1):
    # a sum of squares is >= 0 exactly, so only its nonnegative part matters (rounding may reach below 0)
    squares = np.sum(vector * vector, axis=axis)
    return np.frompyfunc(lambda x: _ball(_arb(x).nonnegative_part().sqrt()), 1, 1)(squares)


def _ball_max(values, axis=None):
    """A sound maximum of balls: the ball holding the largest of the exact values, without deciding
    which element it is (``np.max`` would have to compare overlapping balls)."""
    pairwise = np.frompyfunc(lambda a, b: _ball(_arb(a).max(_arb(b))), 2, 1)
    values = np.asarray(values, dtype=object)
    return pairwise.reduce(values.ravel() if axis is None else values, axis=0 if axis is None else axis)


def _log(x):
    value = _arb(x)
    if value.is_zero():  # arb's log(0) is nan; the formula means -inf
        return _ball(flint.arb.neg_inf())
    return _ball(value.log())


_NOTES: list[list[str]] = []


@contextlib.contextmanager
def enclosure_notes():
    """Collect how sides that are not plain ball arithmetic were enclosed (for a counterexample's ``method``)."""
    notes: list[str] = []
    _NOTES.append(notes)
    try:
        yield notes
    finally:
        _NOTES.pop()


def _root_of_squares(values) -> "flint.arb":
    """``√(Σ x²)`` of arb balls; the sum is >= 0 exactly, so only its nonnegative part is kept (a ball of
    squares straddling 0 after rounding would otherwise give ``nan``)."""
    return sum((x * x for x in values), flint.arb(0)).nonnegative_part().sqrt()


def _ball_spectral_norm(matrix) -> Ball:
    """A certified enclosure of the largest singular value of a matrix of balls.

    Lower end: ``‖Jv‖/‖v‖`` for the float64 top right singular vector ``v`` (any nonzero ``v`` gives
    a lower bound, evaluated in balls). Upper end: ``min(‖J‖_F, √(‖J‖_1‖J‖_∞))``, both rigorous upper
    bounds evaluated in balls. The result is the ball spanning the two, so it is exact when ``J``
    has rank one (as every 2×2 softmax Jacobian has) and otherwise as wide as the gap.
    """
    matrix = np.asarray(matrix, dtype=object)
    if matrix.ndim != 2 or matrix.size == 0:
        raise ValueError(f"spectral_norm needs a non-empty matrix, got shape {matrix.shape}")
    approx = np.asarray([[float(x) for x in row] for row in matrix], dtype=float)
    entries = [[_arb(x) for x in row] for row in matrix]
    if not np.all(np.isfinite(approx)):
        return _ball(flint.arb.nan())
    _, _, vt = np.linalg.svd(approx)
    v = [flint.arb(float(x)) for x in vt[0]]
    norm_v = _root_of_squares(v)
    image = [sum((row[j] * v[j] for j in range(len(v))), flint.arb(0)) for row in entries]
    lower = _root_of_squares(image) / norm_v if not norm_v.is_zero() else flint.arb(0)
    frobenius = _root_of_squares([x for row in entries for x in row])
    one = functools.reduce(flint.arb.max, (sum((abs(row[j]) for row in entries), flint.arb(0))
                                           for j in range(len(entries[0]))))
    infinity = functools.reduce(flint.arb.max, (sum((abs(x) for x in row), flint.arb(0)) for row in entries))
    upper = frobenius.upper().min((one * infinity).nonnegative_part().sqrt().upper())
    if _NOTES:
        _NOTES[-1].append("spectral norm enclosed in balls between ‖Jv‖/‖v‖ (v: float64 top singular vector; "
                          "a lower bound) and min(‖J‖_F, √(‖J‖_1‖J‖_∞)) (an upper bound)")
    # the hull of [lower.lower, upper]: every number in it is at most the true norm's upper bound
    return _ball(lower.lower().union(upper))


class _Arb(SimpleNamespace):
    """The ball backend's namespace; ``pi`` is a property so it is computed at the current precision."""

    @property
    def pi(self) -> Ball:
        return _ball(flint.arb.pi())


ARB = _Arb(
    name="arb",
    exp=_ball_function("exp"),
    log=np.frompyfunc(_log, 1, 1),
    sqrt=np.frompyfunc(_sqrt, 1, 1),
    tanh=_ball_function("tanh"),
    expm1=_ball_function("expm1"),
    sin=_ball_function("sin"),
    cos=_ball_function("cos"),
    abs=np.abs,
    spectral_norm=_ball_spectral_norm,
    number=Ball,
    precision=lambda bits=START_BITS: _bits(bits),
)
ARB.norm = _ball_norm
ARB.max = _ball_max


@contextlib.contextmanager
def _bits(bits: int):
    saved = flint.ctx.prec
    flint.ctx.prec = int(bits)
    try:
        yield bits
    finally:
        flint.ctx.prec = saved


class BallArray(np.ndarray):
    """An object array of :class:`Ball` values on which ``np.maximum``/``np.minimum`` (and so ``np.max``,
    ``np.min``, ``np.clip``-style code) are *sound*: they return the ball of the exact max/min without
    deciding which element it is. Every other ufunc runs as on a plain object array, whose comparisons
    raise :class:`Undecided` when unsure (``np.sort``, ``np.argsort``, ``np.where(a > b, ...)``)."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        ufunc = _SOUND.get(ufunc, ufunc)
        inputs = tuple(x.view(np.ndarray) if isinstance(x, BallArray) else x for x in inputs)
        if "out" in kwargs:
            kwargs["out"] = tuple(x.view(np.ndarray) if isinstance(x, BallArray) else x for x in kwargs["out"])
        if ufunc in _SOUND.values() and "initial" in kwargs:
            kwargs["initial"] = _ball(_arb(kwargs["initial"]))
        if ufunc in _SOUND.values() and method == "reduce":
            return _wrap(_reduce_axes(ufunc, inputs[0], **kwargs))
        return _wrap(getattr(ufunc, method)(*inputs, **kwargs))


def _reduce_axes(ufunc, array, axis=0, keepdims=False, **kwargs):
    """``ufunc.reduce`` over several axes (a Python-level ufunc reduces over one): move them last, flatten them."""
    array = np.asarray(array, dtype=object)
    axes = tuple(range(array.ndim)) if axis is None else (axis,) if np.isscalar(axis) else tuple(axis)
    axes = tuple(sorted(a % array.ndim for a in axes))
    rest = [a for a in range(array.ndim) if a not in axes]
    moved = np.transpose(array, rest + list(axes)).reshape([array.shape[a] for a in rest] + [-1])
    result = ufunc.reduce(moved, axis=-1, **kwargs)
    if keepdims:
        result = np.asarray(result, dtype=object).reshape([1 if a in axes else array.shape[a] for a in range(array.ndim)])
    return result


def _wrap(result):
    if isinstance(result, tuple):
        return tuple(_wrap(r) for r in result)
    if isinstance(result, np.ndarray) and result.dtype == object and not isinstance(result, BallArray):
        return result.view(BallArray)
    return result


_SOUND = {
    np.maximum: np.frompyfunc(lambda a, b: _ball(_arb(a).max(_arb(b))), 2, 1),
    np.minimum: np.frompyfunc(lambda a, b: _ball(_arb(a).min(_arb(b))), 2, 1),
}
_SOUND[np.fmax], _SOUND[np.fmin] = _SOUND[np.maximum], _SOUND[np.minimum]


def balls(value: Any) -> Any:
    """Convert floats and float arrays to exact :class:`Ball` values (every float64 is an exact ball).

    Integers, strings, normalisers and other values are returned unchanged; mappings, tuples and
    lists are converted item by item.

    >>> balls({"T": 0.1, "n": 2})["T"].arb.is_exact()
    True
    """
    return _convert_floats(value, lambda x: _ball(_arb(x)), array=lambda a: a.view(BallArray))


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
        return np.array([float(v) for v in value.ravel()], dtype=float).reshape(value.shape)
    return float(value)
