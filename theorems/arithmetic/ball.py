"""One real number as a ball: the :class:`Ball` type, its sound comparisons and functions, and the errors of ball
arithmetic (:class:`Undecided`, :class:`NoBallForm`).

This is the bottom of the ball backend: :mod:`theorems.arithmetic.ballarray` and :mod:`theorems.arithmetic.ball_linalg`
(numpy's and scipy's functions on arrays of balls) build on it, and :mod:`theorems.arithmetic.precision` (the backends
``F64``, ``MP``, ``ARB``, and the module the rest of the code imports) imports all three. Every name here is
importable from :mod:`theorems.arithmetic.precision` as before.

>>> import flint
>>> bool(Ball(flint.arb(1) / 3) * 3 <= 2)
True
"""

from __future__ import annotations

import contextlib
import contextvars
import decimal
import functools
import numbers
from typing import Any, ClassVar

import flint
import numpy as np

from theorems.errors import InvalidArgument, InvalidArgumentType, NoBallForm, TheoremsError, Undecided

class Ball:
    """A real number known to lie in a ball ``[mid ± rad]`` (python-flint's ``arb``), with sound comparisons.

    ``arb``'s own comparisons return ``False`` when the balls overlap, so ``np.max`` of two overlapping
    balls would silently pick one; a :class:`Ball` comparison is ``True`` or ``False`` only when it is
    certain and raises :class:`Undecided` otherwise. Ints are exact on the way in; a float met in
    arithmetic comes from a side's code (instance values are made exact balls first, by :func:`balls`),
    so it carries its rounding error: ``0.1`` is the ball ``0.1 ± 1 ulp``, which holds 1/10 (a float
    whose shortest decimal form is its exact value, like ``0.5`` or ``2.0``, stays exact).
    ``float(ball)`` works only when the ball is exactly one double (an instance value), and raises
    :class:`NoBallForm` otherwise, never a silent float.

    >>> a = Ball(flint.arb(1) / 3)
    >>> bool(a * 3 <= 2)
    True
    >>> a * 3 > 1
    Traceback (most recent call last):
        ...
    theorems.errors.Undecided: [1.00000000000000 +/- 3.89e-16] > 1.00000000000000 is undecided at 53 bits
    """

    __slots__ = ("arb",)

    def __init__(self, value: Any) -> None:
        self.arb = value.arb if isinstance(value, Ball) else to_arb(value)

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
    def __neg__(self): return from_arb(-self.arb)
    def __pos__(self): return self
    def __abs__(self): return from_arb(abs(self.arb))

    def _compare(self, other, name: str, certain, certainly_not) -> bool:
        if isinstance(other, np.ndarray) and other.ndim:
            return NotImplemented
        other = to_arb(other)
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
        return _exact_double(self.arb, "float()")

    def __int__(self) -> int:
        return _exact_integer(self.arb, "int()")

    def __index__(self) -> int:
        return _exact_integer(self.arb, "an index (operator.index)")

    def __complex__(self):
        raise NoBallForm(f"complex() of {self.arb}", "a statement's sides are real")

    def __trunc__(self):
        return _exact_integer(self.arb, "math.trunc()")

    def __floor__(self):
        raise NoBallForm(f"math.floor() of {self.arb}", "it is discontinuous; not supported on balls")

    def __ceil__(self):
        raise NoBallForm(f"math.ceil() of {self.arb}", "it is discontinuous; not supported on balls")

    def __round__(self, ndigits=None):
        raise NoBallForm(f"round() of {self.arb}", "it is discontinuous; not supported on balls")

    @property
    def real(self) -> "Ball":
        """The ball itself (a real number's real part; ``numbers.Real`` has it, and ``Fraction == ball`` reads it)."""
        return self

    @property
    def imag(self) -> int:
        """0, exactly (a real number's imaginary part)."""
        return 0

    def item(self) -> "Ball":
        """The ball itself: a ball is the number, as ``np.float64(x).item()`` is ``x`` (so that
        ``np.linalg.eigvalsh(M)[1].item()`` and ``np.sum(x).item()`` read the same in float64 and in balls)."""
        return self

    array_type: ClassVar[type | None] = None
    """The ball array type, :class:`theorems.arithmetic.ballarray.BallArray`, which that module registers once, when
    it loads (:meth:`use_array_type`): it builds on this module, so this module cannot import it without an import
    circle."""

    @classmethod
    def use_array_type(cls, array_type: type) -> None:
        """Make ``array_type`` the array a lone ball takes in a numpy ufunc (called once, by ``ballarray``)."""
        cls.array_type = array_type

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        # a lone ball in a ufunc (np.exp(ball), scipy.special.expit(ball), np.float64(2) * ball) takes the ball
        # array's sound path; numpy would otherwise make a plain object array of it
        array = Ball.array_type
        if array is None:
            raise TheoremsError("no ball array type: import theorems.arithmetic.precision (the ball backend), which "
                                "registers it, before computing with balls")
        inputs = tuple(_zero_d(x).view(array) if isinstance(x, Ball) else x for x in inputs)
        result = getattr(ufunc, method)(*inputs, **kwargs)
        return result[()] if isinstance(result, np.ndarray) and result.ndim == 0 else result

    # numpy's object loops call these methods by name (np.exp on an object array of balls)
    def exp(self): return from_arb(self.arb.exp())
    def expm1(self): return from_arb(self.arb.expm1())
    def log(self): return ball_log(self)
    def log1p(self): return from_arb(self.arb.log1p()) if not (self.arb + 1).is_zero() else from_arb(flint.arb.neg_inf())
    def log2(self): return from_arb(to_arb(ball_log(self)) / flint.arb(2).log())
    def log10(self): return from_arb(to_arb(ball_log(self)) / flint.arb(10).log())
    def sqrt(self): return ball_sqrt(self)
    def sin(self): return from_arb(_sin(self.arb))
    def cos(self): return from_arb(_cos(self.arb))
    def tan(self): return from_arb(self.arb.tan())
    def tanh(self): return from_arb(self.arb.tanh())
    def sinh(self): return from_arb(_hyperbolic(self.arb, flint.arb.sinh, -1))
    def cosh(self): return from_arb(_hyperbolic(self.arb, flint.arb.cosh, 1))
    def arctan(self): return from_arb(self.arb.atan())
    def arcsin(self): return from_arb(self.arb.asin())
    def arccos(self): return from_arb(self.arb.acos())
    def arcsinh(self): return from_arb(self.arb.asinh())
    def hypot(self, other): return from_arb(ball_hypot(self.arb, to_arb(other)))
    def conjugate(self): return self

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
        theirs = to_arb(other)
    except TypeError:
        return NotImplemented
    return from_arb(operation(mine, theirs))


def _power(base, exponent):
    # an integer power of a ball containing negative numbers (or 0) is defined, though arb's power of a
    # ball whose midpoint is 0 is nan (python-flint 0.9): repeated products instead
    if exponent.is_exact() and exponent.is_integer():
        if abs(float(exponent.mid())) <= 64:
            return _integer_power(base, int(float(exponent.mid())))
        if not base >= 0:  # a large integer power of a ball reaching below 0 (arb's is nan at -inf or around 0)
            return _signed_power(base, exponent)
    power = base ** exponent
    if power.is_nan() and base > 0 and exponent.is_finite():
        return (exponent * base.log()).exp()  # arb's power is nan past its range (1e308**1e308): unbounded instead
    return power


def _signed_power(base, exponent):
    magnitude = abs(base) ** exponent
    if int(exponent.unique_fmpz()) % 2 == 0:
        return magnitude
    if base <= 0:
        return -magnitude
    return magnitude.union(-magnitude)


def _integer_power(base, n: int):
    if n < 0:
        return 1 / _integer_power(base, -n)
    even, result, square = n % 2 == 0, flint.arb(1), base
    while n:
        if n & 1:
            result = result * square
        square, n = square * square, n >> 1
    return result.nonnegative_part() if even else result  # an even power is >= 0, whatever rounding reached


def _zero_d(ball) -> np.ndarray:
    array = np.empty((), dtype=object)
    array[()] = ball
    return array


_ESCAPES: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("ball_escapes", default=None)
"""The innermost :func:`escapes` block's record (``None``: no block open, nothing kept)."""


@contextlib.contextmanager
def escapes():
    """Record the exact balls turned into doubles while the block runs (``float(i["x"])``, ``math.exp(i["x"])``):
    what a side computes from them afterwards is float64 arithmetic, outside the balls."""
    seen: list[str] = []
    token = _ESCAPES.set(seen)
    try:
        yield seen
    finally:
        _ESCAPES.reset(token)


def _exact_double(value, operation: str) -> float:
    """The double a ball stands for when it is exactly one double; :class:`NoBallForm` otherwise."""
    if value.is_exact() and value.is_finite():
        double = float(value.mid())
        if flint.arb(double) == value:
            seen = _ESCAPES.get()
            if seen is not None:
                seen.append(operation)
            return double
    raise NoBallForm(f"{operation} of {value}", "it would drop the ball's radius (float(), math.*, np.asarray(..., "
                                                "float) call it); compute with xp (xp.exp, xp.log, ...) or numpy on "
                                                "the ball array")


def _exact_integer(value, operation: str) -> int:
    if value.is_exact() and value.is_integer():
        return int(value.unique_fmpz())
    raise NoBallForm(f"{operation} of {value}", "the ball is not one exact integer")


def midpoint(value: Any) -> float:
    """The float64 nearest to a ball's midpoint (or ``float(value)``): for reports and ranking only, never
    for a verdict."""
    if isinstance(value, Ball):
        return float(value.arb.mid())
    if isinstance(value, flint.arb):
        return float(value.mid())
    return float(value)


def _outward(bound, direction: float) -> float:
    value = float(bound)  # rounds to nearest: step one float outward to stay a bound
    return float(np.nextafter(value, direction)) if np.isfinite(value) else value


def to_arb(value: Any):
    if isinstance(value, Ball):
        return value.arb
    if isinstance(value, flint.arb):
        return value
    if isinstance(value, (bool, np.bool_)):
        return flint.arb(int(value))
    if isinstance(value, (int, np.integer)):
        return flint.arb(int(value))
    if isinstance(value, (float, np.floating)):
        return _constant(value)
    if isinstance(value, (numbers.Rational, flint.fmpq)):
        return rational_ball(value.numerator, value.denominator)
    if isinstance(value, decimal.Decimal):
        return rational_ball(*value.as_integer_ratio()) if value.is_finite() else exact_ball(float(value))
    if isinstance(value, str):
        return to_arb(float(value)) if value.strip().lower() in ("inf", "+inf", "-inf", "nan") else flint.arb(value)
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return to_arb(value.item())
    raise InvalidArgumentType(f"cannot make a ball of {type(value).__name__} {value!r}")


def rational_ball(numerator: int, denominator: int):
    """The exact rational ``numerator/denominator`` (a ``Fraction``, a ``Decimal`` as written: ``Decimal("0.1")`` is
    1/10, not the double nearest it) as an arb ball: exact where it is a dyadic number the working precision holds
    (``Fraction(1, 8)``), else the ball of that precision around it (``Fraction(1, 3)``, ``Decimal("0.1")``).

    >>> rational_ball(1, 8).is_exact(), rational_ball(1, 10).contains(flint.fmpq(1, 10))
    (True, True)
    """
    return flint.arb(flint.fmpq(int(numerator), int(denominator)))


def exact_ball(value: float):
    """A float64 as the exact ball of its binary value (instance values: every double is a dyadic rational)."""
    value = float(value)
    if value != value:
        return flint.arb.nan()
    if value in (np.inf, -np.inf):
        return flint.arb.pos_inf() if value > 0 else flint.arb.neg_inf()
    return flint.arb(value)


def _constant(value):
    """A float met inside ball arithmetic: it comes from a side's code, so it means its decimal value
    (``0.1`` means 1/10) or a rounded result (``np.sqrt(2)``); it becomes a ball of radius one ulp, which
    holds both. A float whose shortest decimal form is exactly its binary value (``0.5``, ``2.0``, ``3.0``)
    stays exact. Instance values never come here: :func:`balls` makes them exact first."""
    return _constant_of(float(value), _ulp(value) if isinstance(value, np.floating) else None)


def _ulp(value) -> float:
    """One unit in the last place of ``value`` in its own type (float64 for a Python float)."""
    magnitude = np.abs(value)
    with np.errstate(over="ignore"):
        ulp = np.spacing(magnitude)
    if not np.isfinite(ulp):  # the type's largest number: numpy's spacing steps past it to inf; its binade's ulp
        ulp = np.spacing(np.nextafter(magnitude, type(magnitude)(0)))
    return float(ulp)


@functools.lru_cache(maxsize=4096)
def _constant_of(value: float, spacing: float | None):
    if value != value or value in (np.inf, -np.inf) or value == 0:
        return exact_ball(value)
    if decimal.Decimal(repr(value)) == decimal.Decimal(value):
        return flint.arb(value)
    return flint.arb(value, spacing if spacing is not None else _ulp(value))


def from_arb(value) -> Ball:
    ball = Ball.__new__(Ball)
    ball.arb = value
    return ball


def ball_ufunc(name: str):
    method = _ARB_FUNCTIONS.get(name) or getattr(flint.arb, name)
    return np.frompyfunc(lambda x: from_arb(method(to_arb(x))), 1, 1)


def _no_limit_at_infinity(function):
    """``function`` of an arb ball, and nan at an exact infinity: arb's ``sin`` and ``cos`` of ``±inf`` are
    ``[±1]``, but the functions have no limit there (float64 gives nan), so there is no value to enclose."""
    def apply(value):
        return flint.arb.nan() if value.rad() == 0 and not value.is_finite() else function(value)

    return apply


_sin = _no_limit_at_infinity(flint.arb.sin)
_cos = _no_limit_at_infinity(flint.arb.cos)
_ARB_FUNCTIONS = {"sin": _sin, "cos": _cos}


def _hyperbolic(value, function, sign: int):
    """arb's ``sinh``/``cosh`` (``sign`` -1/+1), or ``(e^x + sign·e^-x)/2`` where arb's is nan for a finite
    argument (python-flint 0.9 gives nan for ``sinh(3e79)``; the exponentials give an enclosure, unbounded
    if need be)."""
    result = function(value)
    if result.is_nan() and value.is_finite():
        return (value.exp() + sign * (-value).exp()) / 2
    return result


def ball_sqrt(x):
    value = to_arb(x)
    if value.is_finite() and value.lower() < 0 < value.upper():
        # the square root of a ball straddling 0 is defined only if the exact value is >= 0: not known here
        raise Undecided(f"sqrt of {value}, which straddles 0, is undecided at {flint.ctx.prec} bits")
    return from_arb(value.sqrt())


def ball_hypot(a, b):
    """``√(a² + b²)`` of two arb balls, as numpy's ``hypot``: ``+inf`` where either is an exact infinity (even beside
    a nan), nan where either is nan otherwise; the sum of squares is ``≥ 0`` exactly, so only its nonnegative part is
    kept (a ball straddling 0 squares to one reaching below 0)."""
    if any(v.rad() == 0 and not v.is_finite() and not v.is_nan() for v in (a, b)):
        return flint.arb.pos_inf()
    if a.is_nan() or b.is_nan():
        return flint.arb.nan()
    return (a * a + b * b).nonnegative_part().sqrt()


def ball_norm(vector, axis=-1):
    # a sum of squares is >= 0 exactly, so only its nonnegative part matters (rounding may reach below 0)
    squares = np.sum(vector * vector, axis=axis)
    return np.frompyfunc(lambda x: from_arb(to_arb(x).nonnegative_part().sqrt()), 1, 1)(squares)


def ball_max(values, axis=None):
    """A sound maximum of balls: the ball holding the largest of the exact values, without deciding
    which element it is (``np.max`` would have to compare overlapping balls)."""
    pairwise = np.frompyfunc(lambda a, b: from_arb(to_arb(a).max(to_arb(b))), 2, 1)
    values = np.asarray(values, dtype=object)
    return pairwise.reduce(values.ravel() if axis is None else values, axis=0 if axis is None else axis)


def ball_log(x):
    value = to_arb(x)
    if value.is_zero():  # arb's log(0) is nan; the formula means -inf
        return from_arb(flint.arb.neg_inf())
    return from_arb(value.log())


_NOTES: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("ball_enclosure_notes", default=None)
"""The innermost :func:`enclosure_notes` block's notes (``None``: no block open, nothing kept)."""


@contextlib.contextmanager
def enclosure_notes():
    """Collect how sides that are not plain ball arithmetic were enclosed (for a counterexample's ``method``)."""
    notes: list[str] = []
    token = _NOTES.set(notes)
    try:
        yield notes
    finally:
        _NOTES.reset(token)


def root_of_squares(values) -> "flint.arb":
    """``√(Σ x²)`` of arb balls; the sum is >= 0 exactly, so only its nonnegative part is kept (a ball of
    squares straddling 0 after rounding would otherwise give ``nan``)."""
    return sum((x * x for x in values), flint.arb(0)).nonnegative_part().sqrt()


def ball_spectral_norm(matrix) -> Ball:
    """A certified enclosure of the largest singular value of a matrix of balls.

    Lower end: ``‖Jv‖/‖v‖`` for the float64 top right singular vector ``v`` (any nonzero ``v`` gives
    a lower bound, evaluated in balls). Upper end: ``min(‖J‖_F, √(‖J‖_1‖J‖_∞))``, both rigorous upper
    bounds evaluated in balls. The result is the ball spanning the two, so it is exact when ``J``
    has rank one (as every 2×2 softmax Jacobian has) and otherwise as wide as the gap.
    """
    matrix = np.asarray(matrix, dtype=object)
    if matrix.ndim != 2 or matrix.size == 0:
        raise InvalidArgument(f"spectral_norm needs a non-empty matrix, got shape {matrix.shape}")
    approx = np.asarray([[midpoint(x) for x in row] for row in matrix], dtype=float)
    entries = [[to_arb(x) for x in row] for row in matrix]
    if not np.all(np.isfinite(approx)):
        return from_arb(flint.arb.nan())
    _, _, vt = np.linalg.svd(approx)
    v = [flint.arb(float(x)) for x in vt[0]]
    norm_v = root_of_squares(v)
    image = [sum((row[j] * v[j] for j in range(len(v))), flint.arb(0)) for row in entries]
    lower = root_of_squares(image) / norm_v if not norm_v.is_zero() else flint.arb(0)
    frobenius = root_of_squares([x for row in entries for x in row])
    one = functools.reduce(flint.arb.max, (sum((abs(row[j]) for row in entries), flint.arb(0))
                                           for j in range(len(entries[0]))))
    infinity = functools.reduce(flint.arb.max, (sum((abs(x) for x in row), flint.arb(0)) for row in entries))
    upper = frobenius.upper().min((one * infinity).nonnegative_part().sqrt().upper())
    notes = _NOTES.get()
    if notes is not None:
        notes.append("spectral norm enclosed in balls between ‖Jv‖/‖v‖ (v: float64 top singular vector; "
                          "a lower bound) and min(‖J‖_F, √(‖J‖_1‖J‖_∞)) (an upper bound)")
    # the hull of [lower.lower, upper]: every number in it is at most the true norm's upper bound
    return from_arb(lower.lower().union(upper))
