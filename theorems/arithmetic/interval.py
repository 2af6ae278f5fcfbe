"""Intervals: a second enclosure arithmetic, written apart from the ball forms, over mpmath's interval context.

The ball forms (``ball.py``, ``ballarray.py``, ``ball_linalg.py``, the duals) are the suite's own code, and a wrong
one would certify a wrong verdict. Float64 cannot catch it on its own: it carries no error bound, so a side that
cancels or underflows is far from the exact value in float64 while its ball is right. So an engine inconsistency is
declared only where a ball and a second *rigorous* enclosure are disjoint (``docs/soundness.md``), and this module
computes that second enclosure. An :class:`Interval` holds ``[lower, upper]`` as mpmath's ``iv.mpf`` (outward-rounded
ends) and computes with mpmath's interval arithmetic; the functions mpmath's interval context lacks (``tanh``,
``arcsin``, ``erf`` …) are the hull of python-flint's arb enclosures at the interval's two ends (each function is
monotone). Nothing here imports the ball backend (``tests/unit/test_interval_independence.py``): a wrong ball form
cannot agree with itself.

:class:`IntervalArray` takes numpy's calls by numpy's own dispatch (``__array_ufunc__``, ``__array_function__``):
arithmetic (object loops on the intervals' operators), the ufuncs of :func:`_forms` (numpy's and scipy.special's),
``np.maximum``/``np.minimum`` and so ``np.max``/``np.min``/``np.clip`` as the interval of the maximum (no decision),
``np.linalg`` through :mod:`theorems.arithmetic.interval_linalg`, and numpy's Python-level functions over those.
scipy's plain Python functions ``softmax``, ``log_softmax`` and ``logsumexp`` have their forms in
:data:`SCIPY_FORMS` (scipy's own code would leave the interval array; the caller reaches them:
:mod:`theorems.engine.search.enclosure`). :data:`IV` is the backend ``xp``.

Every comparison is decided on the whole interval or raises :class:`~theorems.errors.Undecided`; ``float()`` of an
interval that is not one exact double, and every function without an interval form, raise :class:`NoEnclosure`.
Under :func:`at_points` (the re-evaluation of a candidate, ``docs/soundness.md``) comparisons, ``float()`` and
rounding functions take the interval's midpoint instead, and ``sqrt`` of an interval reaching below 0 its
nonnegative part: the result is then an enclosure except at those operations, which :func:`points_taken` names.

>>> import scipy.special
>>> from fractions import Fraction
>>> with interval_bits(128):
...     third = Interval.of(1) / 3
...     p = SCIPY_FORMS["softmax"](intervals(np.array([0.0, 1.0])))
...     kl = np.sum(scipy.special.rel_entr(p, 0.5))
...     third.contains(Fraction(1, 3)), (third * 3).contains(1), Interval.of(0.5) < third
(True, True, False)
>>> kl.contains(0), kl.lower > 0.06
(False, True)
"""

from __future__ import annotations

import contextlib
import contextvars
import decimal
import fractions
import functools
import numbers
from types import SimpleNamespace

import flint
import mpmath
import numpy as np
from mpmath import libmp

from theorems.arithmetic import interval_linalg
from theorems.errors import InvalidArgumentType, TheoremsError, Undecided

iv = mpmath.iv

BITS = 128
"""The working precision of interval evaluations, in bits (mpmath's interval context)."""


class NoEnclosure(TheoremsError, ArithmeticError):
    """An operation with no interval form here (``float()`` of an interval that is not one double, a function not
    written for intervals): the evaluation that met it gives no enclosure."""


_POINTS: contextvars.ContextVar[list | None] = contextvars.ContextVar("interval_points", default=None)
"""Inside :func:`at_points`: the list of operations taken at midpoints (``None`` outside: every one raises)."""


@contextlib.contextmanager
def interval_bits(bits: int):
    """mpmath's interval context at ``bits`` bits inside the block (restored after)."""
    saved = iv.prec
    iv.prec = int(bits)
    try:
        yield bits
    finally:
        iv.prec = saved


@contextlib.contextmanager
def at_points():
    """Inside the block, an undecided comparison, ``float()`` of a wide interval and a rounding function take the
    interval's midpoint instead of raising; :func:`points_taken` lists the operations that did."""
    token = _POINTS.set([])
    try:
        yield
    finally:
        _POINTS.reset(token)


def points_taken() -> tuple[str, ...]:
    """The operations taken at midpoints so far in the innermost :func:`at_points` block (in order, once each)."""
    taken = _POINTS.get() or []
    return tuple(dict.fromkeys(taken))


def _at_point(operation: str, error: Exception):
    """Inside :func:`at_points`: note ``operation``; outside: raise ``error``."""
    taken = _POINTS.get()
    if taken is None:
        raise error
    taken.append(operation)


def _raw(value) -> tuple:
    """``value`` (an ``iv.mpf``) as its two raw mpmath endpoints."""
    return value._mpi_


def _exact(x) -> "iv.mpf":
    """A number as an interval that holds it exactly (or as tightly as the precision allows, outward)."""
    if isinstance(x, Interval):
        return x.value
    if isinstance(x, (bool, np.bool_, int, np.integer)):
        return iv.mpf(int(x))
    if isinstance(x, float):
        return iv.mpf(x)  # nan becomes [-inf, +inf]: no information, never a wrong one
    if isinstance(x, np.floating):
        if not np.isfinite(x):
            return iv.mpf(float(x))
        numerator, denominator = x.as_integer_ratio()  # exact for float16 … longdouble
        return iv.mpf(numerator) / iv.mpf(denominator)
    if isinstance(x, decimal.Decimal):
        x = fractions.Fraction(x)  # exact; raises for nan and infinities (no enclosure)
    if isinstance(x, (fractions.Fraction, numbers.Rational)):
        return iv.mpf(int(x.numerator)) / iv.mpf(int(x.denominator))
    if isinstance(x, mpmath.mpf):
        return iv.mpf(x)
    raise InvalidArgumentType(f"{type(x).__name__} is not a real number an interval can hold")


def _operand(x):
    try:
        return _exact(x)
    except (TypeError, ValueError, ArithmeticError):
        return None


def _checked(value) -> "Interval":
    """An mpmath result as an :class:`Interval`; a complex result (``(-1)**0.5``) is no real enclosure."""
    if not isinstance(value, type(iv.mpf(0))):
        raise NoEnclosure(f"a real result (mpmath gave {type(value).__name__})")
    return Interval(value)


def _from_arb(value, rounding) -> tuple:
    """One end of an arb ball (an exact arb) as a raw mpmath number rounded outward to the working precision."""
    man, exp = value.mid().man_exp()
    return libmp.from_man_exp(int(man), int(exp), iv.prec, rounding)


def _to_arb(raw) -> flint.arb:
    sign, man, exp, _ = raw
    value = flint.arb(int(man)) * flint.arb(2) ** int(exp)
    return -value if sign else value


@contextlib.contextmanager
def _arb_bits():
    saved = flint.ctx.prec
    flint.ctx.prec = iv.prec + 64  # wide enough to hold every end exactly
    try:
        yield
    finally:
        flint.ctx.prec = saved


def _hull_of(balls) -> "Interval":
    """The interval from the lowest lower end to the highest upper end of some arb balls (all finite)."""
    if not all(ball.is_finite() for ball in balls):
        raise NoEnclosure("a value outside the function's domain, or unbounded")
    lows = [_from_arb(ball.lower(), libmp.round_floor) for ball in balls]
    highs = [_from_arb(ball.upper(), libmp.round_ceiling) for ball in balls]
    return Interval(iv.make_mpf((min(lows, key=_key), max(highs, key=_key))))


def _key(raw):
    return mpmath.mp.make_mpf(raw)


def _ends(x: "Interval") -> tuple[flint.arb, flint.arb]:
    """The two ends of a bounded interval as exact arbs."""
    low, high = _raw(x.value)
    if not (_finite(low) and _finite(high)):
        raise NoEnclosure(f"a function of the unbounded interval {x}")
    return _to_arb(low), _to_arb(high)


def _monotone(name: str, function=None):
    """The interval image of a function monotone on its domain (either way): arb's enclosures at the two ends,
    hulled. Outside its domain (``log`` of 0, ``arcsin`` of 2) there is no real value: :class:`NoEnclosure`."""
    function = function or (lambda ball: getattr(ball, name)())

    def image(x: "Interval") -> "Interval":
        with _arb_bits():
            return _hull_of([function(end) for end in _ends(x)])

    image.__name__ = name
    return image


def _whole(name: str):
    """The interval image of any function arb encloses on a ball: arb's enclosure on the ball holding ``x``."""

    def image(x: "Interval") -> "Interval":
        with _arb_bits():
            low, high = _ends(x)
            return _hull_of([getattr(low.union(high), name)()])

    image.__name__ = name
    return image


def _finite(raw) -> bool:
    return raw not in (libmp.finf, libmp.fninf, libmp.fnan)


class Interval:
    """A real number known to lie in ``[lower, upper]`` (mpmath's ``iv.mpf``). Arithmetic with ints, floats,
    numpy scalars, ``Fraction`` and ``Decimal`` takes each of them exactly.

    >>> x = Interval.of(2)
    >>> (x.sqrt() ** 2).contains(2), float(x), x.item() is x
    (True, 2.0, True)
    """

    __slots__ = ("value",)

    def __init__(self, value) -> None:
        self.value = value

    @classmethod
    def of(cls, x) -> "Interval":
        """``x`` as an interval holding it (an :class:`Interval` is returned as it is)."""
        return x if isinstance(x, Interval) else cls(_exact(x))

    # --- the two ends
    @property
    def lower(self) -> float:
        """The lower end rounded down to a double."""
        return libmp.to_float(_raw(self.value)[0], rnd=libmp.round_floor)

    @property
    def upper(self) -> float:
        """The upper end rounded up to a double."""
        return libmp.to_float(_raw(self.value)[1], rnd=libmp.round_ceiling)

    def midpoint(self) -> float:
        return float(self.value.mid)

    def centre(self) -> "Interval":
        """A point of the interval near its middle, at the working precision (an exact number: width 0)."""
        low, high = _raw(self.value)
        if not (_finite(low) and _finite(high)):
            raise NoEnclosure(f"the centre of {self}")
        middle = libmp.mpf_shift(libmp.mpf_add(low, high, iv.prec, libmp.round_nearest), -1)
        return Interval(iv.make_mpf((middle, middle)))

    def is_finite(self) -> bool:
        return all(_finite(end) for end in _raw(self.value))

    def is_point(self) -> bool:
        low, high = _raw(self.value)
        return libmp.mpf_eq(low, high)

    def contains(self, x) -> bool:
        """Whether ``x`` (a number, exactly) lies in the interval."""
        low, high = _raw(self.value)
        other_low, other_high = _raw(_exact(x))
        return libmp.mpf_le(low, other_low) and libmp.mpf_le(other_high, high)

    def hull(self, other: "Interval") -> "Interval":
        """The smallest interval holding both."""
        (a, b), (c, d) = _raw(self.value), _raw(_exact(other))
        return Interval(iv.make_mpf((c if libmp.mpf_lt(c, a) else a, _larger(b, d))))

    def raw_ends(self) -> tuple:
        """The two ends as raw mpmath numbers (exact), for exact comparisons with another enclosure."""
        return _raw(self.value)

    def __repr__(self) -> str:
        return f"Interval({self.value})"

    __str__ = __repr__

    # --- arithmetic
    def _binary(self, other, operation, reflected=False):
        right = _operand(other)
        if right is None:
            return NotImplemented
        left, right = (right, self.value) if reflected else (self.value, right)
        return _checked(operation(left, right))

    def __add__(self, other):
        return self._binary(other, lambda a, b: a + b)

    def __radd__(self, other):
        return self._binary(other, lambda a, b: a + b, reflected=True)

    def __sub__(self, other):
        return self._binary(other, lambda a, b: a - b)

    def __rsub__(self, other):
        return self._binary(other, lambda a, b: a - b, reflected=True)

    def __mul__(self, other):
        return self._binary(other, lambda a, b: a * b)

    def __rmul__(self, other):
        return self._binary(other, lambda a, b: a * b, reflected=True)

    def __truediv__(self, other):
        return self._binary(other, lambda a, b: a / b)

    def __rtruediv__(self, other):
        return self._binary(other, lambda a, b: a / b, reflected=True)

    def __pow__(self, other):
        exponent = _operand(other)
        if exponent is None:
            return NotImplemented
        return _power(self, Interval(exponent))

    def __rpow__(self, other):
        base = _operand(other)
        if base is None:
            return NotImplemented
        return _power(Interval(base), self)

    def __neg__(self):
        return Interval(-self.value)

    def __pos__(self):
        return self

    def __abs__(self):
        return Interval(abs(self.value))

    # --- decisions: certain, or Undecided (or the midpoints, inside at_points)
    def _order(self, other) -> tuple[tuple, tuple] | None:
        right = _operand(other)
        return None if right is None else (_raw(self.value), _raw(right))

    def _decide(self, other, symbol: str, certainly_true, certainly_false, at_midpoints):
        ends = self._order(other)
        if ends is None:
            return NotImplemented
        (a, b), (c, d) = ends
        if certainly_true(a, b, c, d):
            return True
        if certainly_false(a, b, c, d):
            return False
        _at_point(f"the comparison {symbol}", Undecided(
            f"{self} {symbol} {Interval.of(other) if _operand(other) is not None else other} is undecided"))
        return at_midpoints(self.midpoint(), Interval(_exact(other)).midpoint())

    def __lt__(self, other):
        return self._decide(other, "<", lambda a, b, c, d: libmp.mpf_lt(b, c), lambda a, b, c, d: libmp.mpf_ge(a, d),
                            lambda x, y: x < y)

    def __le__(self, other):
        return self._decide(other, "<=", lambda a, b, c, d: libmp.mpf_le(b, c), lambda a, b, c, d: libmp.mpf_gt(a, d),
                            lambda x, y: x <= y)

    def __gt__(self, other):
        return self._decide(other, ">", lambda a, b, c, d: libmp.mpf_gt(a, d), lambda a, b, c, d: libmp.mpf_le(b, c),
                            lambda x, y: x > y)

    def __ge__(self, other):
        return self._decide(other, ">=", lambda a, b, c, d: libmp.mpf_ge(a, d), lambda a, b, c, d: libmp.mpf_lt(b, c),
                            lambda x, y: x >= y)

    def __eq__(self, other):
        return self._decide(other, "==", lambda a, b, c, d: libmp.mpf_eq(a, b) and libmp.mpf_eq(c, d)
                            and libmp.mpf_eq(a, c), lambda a, b, c, d: libmp.mpf_lt(b, c) or libmp.mpf_lt(d, a),
                            lambda x, y: x == y)

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None

    def __bool__(self) -> bool:
        return bool(self != 0)

    def __float__(self) -> float:
        low, high = _raw(self.value)
        if libmp.mpf_eq(low, high) and (not _finite(low) or libmp.from_float(libmp.to_float(low)) == low):
            return libmp.to_float(low)
        _at_point("float()", NoEnclosure(f"float() of {self}, not one double"))
        return self.midpoint()

    def __int__(self) -> int:
        low, high = _raw(self.value)
        if libmp.mpf_eq(low, high) and _finite(low) and libmp.mpf_eq(libmp.mpf_floor(low), low):
            return int(libmp.to_int(low))
        raise NoEnclosure(f"int() of {self}, not one integer")

    __index__ = __int__

    def _rounded(self, name: str, rounding):
        low, high = (rounding(end) for end in _raw(self.value))
        if libmp.mpf_eq(low, high):
            return Interval(iv.make_mpf((low, high)))
        _at_point(name, Undecided(f"{name} of {self} is undecided"))
        return Interval(iv.mpf(rounding(_raw(iv.mpf(self.midpoint()))[0])))

    def floor(self):
        return self._rounded("floor", libmp.mpf_floor)

    def ceil(self):
        return self._rounded("ceil", libmp.mpf_ceil)

    def __floor__(self):
        return int(self.floor())

    def __ceil__(self):
        return int(self.ceil())

    def item(self) -> "Interval":
        return self

    def conjugate(self) -> "Interval":
        return self

    @property
    def real(self) -> "Interval":
        return self

    @property
    def imag(self) -> int:
        return 0

    # --- the functions numpy's object loops call by name (np.exp(object array) calls x.exp()); the transcendental
    # ones are arb's (mpmath's interval exp is not always outward-rounded: exp(4.2e-23) at 128 bits is one point)
    def sqrt(self):
        low, high = _raw(self.value)
        if libmp.mpf_lt(low, libmp.fzero):
            if libmp.mpf_lt(high, libmp.fzero):
                raise NoEnclosure(f"sqrt of {self} (negative)")
            # reaching below 0 by its width (a variance enclosed around 0): at points, its nonnegative part
            _at_point("sqrt at the edge of its domain", NoEnclosure(f"sqrt of {self} (not certainly >= 0)"))
            return _checked(iv.sqrt(iv.make_mpf((libmp.fzero, high))))
        return _checked(iv.sqrt(self.value))  # correctly rounded, either way

    def square(self):
        return _power(self, Interval(iv.mpf(2)))

    def absolute(self):
        return abs(self)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        # a lone interval in a ufunc (np.exp(x), scipy.special.expit(x), np.float64(2) * x) takes the array's path;
        # numpy would otherwise make a plain object array of it, which no interval form reaches
        inputs = tuple(np.asarray(x, dtype=object).view(IntervalArray) if isinstance(x, Interval) else x
                       for x in inputs)
        return wrap(getattr(ufunc, method)(*inputs, **kwargs))


# an interval stands for one real number: argument checks that accept real numbers accept it
numbers.Real.register(Interval)


def _power(base: Interval, exponent: Interval) -> Interval:
    """``base ** exponent``: an integer exponent for any base (by products of intervals); any other only for a base
    certainly ``>= 0`` (arb's power, at the ends where the exponent is one number: ``x ** p`` is monotone in ``x``)."""
    low, high = _raw(exponent.value)
    if libmp.mpf_eq(low, high) and _finite(low) and libmp.mpf_eq(libmp.mpf_floor(low), low):
        return _integer_power(base, int(libmp.to_int(low)))
    if libmp.mpf_lt(_raw(base.value)[0], libmp.fzero):
        raise NoEnclosure(f"{base} ** {exponent} (a base that may be negative)")
    with _arb_bits():
        ends = _ends(base)
        if libmp.mpf_eq(low, high):
            power = _to_arb(low)
            return _hull_of([end ** power for end in ends])
        return _hull_of([ends[0].union(ends[1]) ** _ends(exponent)[0].union(_ends(exponent)[1])])


def _integer_power(base: Interval, n: int) -> Interval:
    """``base ** n`` for an integer ``n``: monotone in ``|x|`` (even ``n``) or in ``x`` (odd), so the powers of
    the two ends, each a product of point intervals (every product outward-rounded)."""
    if n == 0:
        return Interval(iv.mpf(1))
    if n < 0:
        return Interval(iv.mpf(1)) / _integer_power(base, -n)
    low, high = _raw(base.value)
    if n % 2 == 0:
        magnitude = _raw(abs(base.value))
        low, high = magnitude
    ends = [_point_power(end, n) for end in (low, high)]
    return Interval(iv.make_mpf((_raw(ends[0].value)[0], _raw(ends[1].value)[1])))


def _point_power(raw, n: int) -> Interval:
    result, factor = Interval(iv.mpf(1)), Interval(iv.make_mpf((raw, raw)))
    while n:
        if n & 1:
            result = result * factor
        n >>= 1
        if n:
            factor = factor * factor
    return result


def _log_ball(ball: flint.arb, base: int | None = None) -> flint.arb:
    value = ball.log()
    return value if base is None else value / flint.arb(base).log()


for _name, _image in (
        ("exp", _monotone("exp")), ("expm1", _monotone("expm1")), ("log", _monotone("log")),
        ("log1p", _monotone("log1p")), ("log2", _monotone("log2", lambda b: _log_ball(b, 2))),
        ("log10", _monotone("log10", lambda b: _log_ball(b, 10))), ("sin", _whole("sin")), ("cos", _whole("cos")),
        ("tan", _whole("tan")), ("cosh", _whole("cosh")), ("tanh", _monotone("tanh")), ("sinh", _monotone("sinh")),
        ("arctan", _monotone("atan")), ("arcsin", _monotone("asin")), ("arccos", _monotone("acos")),
        ("arcsinh", _monotone("asinh")), ("arccosh", _monotone("acosh")), ("arctanh", _monotone("atanh")),
        ("erf", _monotone("erf")), ("erfc", _monotone("erfc"))):
    setattr(Interval, _name, _image)


def maximum(a, b) -> Interval:
    """The interval of ``max(x, y)`` over ``x ∈ a``, ``y ∈ b``: no decision needed."""
    (a_low, a_high), (b_low, b_high) = _raw(_exact(a)), _raw(_exact(b))
    return Interval(iv.make_mpf((_larger(a_low, b_low), _larger(a_high, b_high))))


def _larger(a, b):
    return b if libmp.mpf_lt(a, b) else a


def minimum(a, b) -> Interval:
    """The interval of ``min(x, y)`` over ``x ∈ a``, ``y ∈ b``."""
    return -maximum(-Interval.of(a), -Interval.of(b))


def pi() -> Interval:
    with _arb_bits():
        return _hull_of([flint.arb.pi()])


def _unary(method: str):
    return np.frompyfunc(lambda x: getattr(Interval.of(x), method)(), 1, 1)


def _expit(x):
    return 1 / (1 + (-x).exp())


def _log_expit(x):
    return -((-x).exp().log1p())


def _logit(x):
    if not (x > 0 and x < 1):  # scipy's ±inf at 0 and 1 and nan outside are no interval's
        raise NoEnclosure(f"logit of {x} (not certainly inside (0, 1))")
    return (x / (1 - x)).log()


def _xlogy(x, y):
    if x == 0:
        return Interval.of(0)
    return x * y.log()


def _entr(x):
    if x == 0:
        return Interval.of(0)
    if not x > 0:
        raise NoEnclosure(f"entr of {x} (not certainly > 0)")
    return -(x * x.log())


def _rel_entr(x, y):
    if x == 0 and y >= 0:
        return Interval.of(0)
    if not (x > 0 and y > 0):
        raise NoEnclosure(f"rel_entr of {x}, {y} (not certainly both > 0)")
    return x * (x / y).log()


def _logaddexp(a, b):
    top = maximum(a, b)
    return ((a - top).exp() + (b - top).exp()).log() + top


def _sign(x):
    if x > 0:
        return Interval.of(1)
    if x < 0:
        return Interval.of(-1)
    if x == 0:
        return Interval.of(0)
    raise AssertionError("unreachable: a comparison above decided or raised")


def _of(function, nin: int):
    return np.frompyfunc(lambda *args: function(*(Interval.of(a) for a in args)), nin, 1)


def _forms() -> dict:
    """Each ufunc with an interval form, as a Python-level ufunc over :class:`Interval` values."""
    table = {getattr(np, name): _unary(method) for name, method in (
        ("exp", "exp"), ("expm1", "expm1"), ("log", "log"), ("log1p", "log1p"), ("log2", "log2"),
        ("log10", "log10"), ("sqrt", "sqrt"), ("sin", "sin"), ("cos", "cos"), ("tan", "tan"), ("tanh", "tanh"),
        ("sinh", "sinh"), ("cosh", "cosh"), ("arctan", "arctan"), ("arcsin", "arcsin"), ("arccos", "arccos"),
        ("arcsinh", "arcsinh"), ("arccosh", "arccosh"), ("arctanh", "arctanh"), ("square", "square"),
        ("floor", "floor"), ("ceil", "ceil"))}
    table.update({np.maximum: _of(maximum, 2), np.minimum: _of(minimum, 2), np.fmax: _of(maximum, 2),
                  np.fmin: _of(minimum, 2), np.logaddexp: _of(_logaddexp, 2), np.sign: _of(_sign, 1),
                  np.reciprocal: _of(lambda x: 1 / x, 1),
                  np.hypot: _of(lambda a, b: (a.square() + b.square()).sqrt(), 2)})
    clip = np._core.umath.clip if hasattr(np, "_core") else np.core.umath.clip
    table[clip] = _of(lambda x, low, high: minimum(maximum(x, low), high), 3)
    try:
        import scipy.special as special
    except ImportError:  # scipy is optional
        return table
    table.update({special.expit: _of(_expit, 1), special.log_expit: _of(_log_expit, 1), special.logit: _of(_logit, 1),
                  special.xlogy: _of(_xlogy, 2), special.entr: _of(_entr, 1), special.rel_entr: _of(_rel_entr, 2),
                  special.erf: _unary("erf"), special.erfc: _unary("erfc")})
    return table


_FORMS = _forms()
_HULLS = {np.maximum: maximum, np.minimum: minimum, np.fmax: maximum, np.fmin: minimum}
# ufuncs that numpy's object loops run on the intervals' own operators: arithmetic, and comparisons that decide
_NATIVE = {np.add, np.subtract, np.multiply, np.true_divide, np.divide, np.power, np.negative, np.positive,
           np.absolute, np.less, np.less_equal, np.greater, np.greater_equal, np.equal, np.not_equal,
           np.logical_not, np.conjugate, np.matmul}
# numpy's object loops of logical_and/or return an operand (Python's `and`), not a truth value: decided here
_LOGICAL = {np.logical_and: np.vectorize(lambda a, b: bool(a) and bool(b), otypes=[bool]),
            np.logical_or: np.vectorize(lambda a, b: bool(a) or bool(b), otypes=[bool]),
            np.logical_xor: np.vectorize(lambda a, b: bool(a) != bool(b), otypes=[bool])}
_TRUTH = {np.isfinite: lambda x: _truth(x, "isfinite"), np.isinf: lambda x: _truth(x, "isinf"),
          np.isnan: lambda x: _truth(x, "isnan")}


def _truth(x, name: str) -> bool:
    """``isfinite``/``isinf``/``isnan`` of the number an interval holds, where the interval decides it (an
    interval never holds nan: mpmath turns a nan into ``[-inf, +inf]``, which decides nothing)."""
    if not isinstance(x, Interval):
        return bool(getattr(np, name)(x))
    if x.is_finite():
        return name == "isfinite"
    if x.is_point():  # an exact infinity
        return name == "isinf"
    raise NoEnclosure(f"np.{name} of {x} (an unbounded interval)")


class IntervalArray(np.ndarray):
    """An object array of :class:`Interval` values that numpy and scipy.special compute on soundly, or raise
    :class:`NoEnclosure` naming the function."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        inputs = tuple(x.view(np.ndarray) if isinstance(x, IntervalArray) else x for x in inputs)
        if "out" in kwargs:
            raise NoEnclosure(f"np.{ufunc.__name__}(out=...)")
        if ufunc in _TRUTH and method == "__call__":
            return np.vectorize(_TRUTH[ufunc], otypes=[bool])(inputs[0])
        if ufunc in _LOGICAL and method == "__call__":
            return _LOGICAL[ufunc](*inputs)
        if ufunc in _HULLS and method == "reduce":
            return wrap(_reduce(_HULLS[ufunc], inputs[0], **kwargs))
        if ufunc in _NATIVE or ufunc.__name__.endswith("(vectorized)"):
            if method == "reduce" and "where" in kwargs and "initial" not in kwargs and ufunc.identity is not None:
                kwargs["initial"] = Interval.of(ufunc.identity)  # the object loop has none of its own
            return wrap(getattr(ufunc, method)(*inputs, **kwargs))
        form = _FORMS.get(ufunc)
        if form is None or method != "__call__":
            raise NoEnclosure(f"{_name(ufunc)}" + ("" if method == "__call__" else f".{method}"))
        return wrap(form(*inputs, **kwargs))

    def __array_function__(self, func, types, args, kwargs):
        module = getattr(func, "__module__", "") or ""
        if module.startswith("numpy.linalg"):
            form = interval_linalg.FUNCTIONS.get(func.__name__)
            if form is None:
                raise NoEnclosure(f"np.linalg.{func.__name__}")
            try:
                return wrap(form(*args, number=Interval.of, maximum=maximum, **kwargs))
            except interval_linalg.Declined as error:
                raise NoEnclosure(str(error)) from error
        return wrap(super().__array_function__(func, types, args, kwargs))


def _name(ufunc) -> str:
    return f"np.{ufunc.__name__}" if getattr(np, ufunc.__name__, None) is ufunc else f"scipy.special.{ufunc.__name__}"


def wrap(result):
    """Object arrays in ``result`` (also inside tuples) as :class:`IntervalArray`; a 0-d one as its element."""
    if isinstance(result, tuple):
        return tuple(wrap(r) for r in result)
    if isinstance(result, np.ndarray) and result.dtype == object:
        return result.view(IntervalArray) if result.ndim else result[()]
    return result


def _reduce(pair, array, axis=None, keepdims=False, initial=None, where=True, **_):
    """``pair`` (the interval maximum or minimum of two) over ``axis`` (all axes for ``None``), numpy's way."""
    array = np.asarray(array, dtype=object)
    axes = tuple(range(array.ndim)) if axis is None else (axis,) if np.isscalar(axis) else tuple(axis)
    axes = tuple(sorted(a % array.ndim for a in axes)) if array.ndim else ()
    rest = [a for a in range(array.ndim) if a not in axes]
    moved = np.transpose(array, rest + list(axes)).reshape([array.shape[a] for a in rest] + [-1])
    mask = np.transpose(np.broadcast_to(where, array.shape), rest + list(axes)).reshape(moved.shape)
    out = np.empty(moved.shape[:-1], dtype=object)
    for at in np.ndindex(out.shape):
        chosen = [x for x, keep in zip(moved[at], mask[at]) if keep] + ([] if initial is None else [initial])
        if not chosen:
            raise NoEnclosure("a maximum of nothing (numpy raises: zero-size array with no identity)")
        out[at] = functools.reduce(pair, chosen[1:], Interval.of(chosen[0]))
    if keepdims:
        out = out.reshape([1 if a in axes else array.shape[a] for a in range(array.ndim)])
    return out if out.ndim else out[()]


def _as_array(x):
    return np.asarray(x, dtype=object).view(IntervalArray)


def _softmax(x, axis=None):
    x = _as_array(x)
    shifted = np.exp(x - np.max(x, axis=axis, keepdims=True))  # any shift is exact in theory; this one is safe
    return shifted / np.sum(shifted, axis=axis, keepdims=True)


def _log_softmax(x, axis=None):
    x = _as_array(x)
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def _logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    if return_sign:
        raise NoEnclosure("scipy.special.logsumexp(return_sign=True)")
    a = _as_array(a)
    if b is not None:
        a, b = np.broadcast_arrays(a, np.asarray(b, dtype=object))
        a = _as_array(np.where(np.vectorize(lambda w: w == 0, otypes=[bool])(b), Interval.of(-np.inf), a))
    top = np.max(a, axis=axis, keepdims=True)
    top = np.vectorize(lambda t: Interval.of(0) if not t.is_finite() else t, otypes=[object])(top)
    terms = np.exp(a - top) if b is None else _as_array(b) * np.exp(a - top)
    result = np.log(np.sum(terms, axis=axis, keepdims=True)) + top
    if not keepdims:
        result = np.squeeze(result, axis=axis) if axis is not None else np.asarray(result).reshape(())
    return wrap(np.asarray(result, dtype=object))


SCIPY_FORMS = {"softmax": _softmax, "log_softmax": _log_softmax, "logsumexp": _logsumexp}
"""scipy.special's plain Python functions with an interval form, by name (scipy's own code would leave the
interval array: ``softmax`` turns its argument into a plain array first)."""


def _norm(vector, axis=-1):
    vector = _as_array(vector)
    return np.sqrt(np.sum(vector * vector, axis=axis))


def _max(values, axis=None):
    return np.max(_as_array(values), axis=axis)


class _IntervalSpace(SimpleNamespace):
    @property
    def pi(self) -> Interval:
        return pi()


IV = _IntervalSpace(
    name="interval", exp=np.exp, log=np.log, sqrt=np.sqrt, tanh=np.tanh, expm1=np.expm1, sin=np.sin, cos=np.cos,
    abs=np.abs, norm=_norm, max=_max, spectral_norm=lambda matrix: np.linalg.norm(_as_array(matrix), 2),
    number=Interval.of, precision=lambda *args: contextlib.nullcontext(iv.prec),  # the caller sets the precision
)
"""The backend ``xp`` over intervals (the :class:`~theorems.arithmetic.backend.Backend` protocol)."""


def intervals(value):
    """Floats and float arrays as exact intervals (arrays as :class:`IntervalArray`); mappings, tuples and lists
    item by item; integers and everything else unchanged.

    >>> intervals({"T": 0.1, "n": 2})["T"].is_point()
    True
    """
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return np.array([Interval.of(v) for v in value.ravel()], dtype=object).reshape(value.shape).view(IntervalArray)
    if isinstance(value, (float, np.floating)):
        return Interval.of(value)
    if isinstance(value, dict):
        return {key: intervals(item) for key, item in value.items()}
    if isinstance(value, (tuple, list)):
        return type(value)(intervals(item) for item in value)
    return value


