"""The exact values the ball forms are checked against: each function from its definition, in mpmath at
``ball_forms_check.BITS`` bits, on exact inputs, written independently of the engine's forms (``None`` where the
function is undefined; scipy's own conventions where scipy defines a value, such as ``entr(x < 0) = -inf``).

Keyed by the ufunc's ``__name__``: the same reference serves ``np.exp`` on a ball array, ``Ball.exp`` on a plain
object array of balls, ``ARB.exp`` and ``DUAL.exp``."""

from __future__ import annotations

import operator

import mpmath
import numpy as np

import ball_forms_check
from ball_forms_check import check_all, defined, evaluate, mp, on_balls

from theorems.arithmetic.precision import balls

INF = mpmath.inf


def _log(base=None):
    def log(x):
        if x < 0:
            return None
        if x == 0:
            return -INF
        return mpmath.log(x) if base is None else mpmath.log(x) / mpmath.log(base)

    return log


def _inside(low, high, function):
    return lambda x: function(x) if low <= x <= high else None


def _logit(p):
    if not 0 <= p <= 1:
        return None
    if p in (0, 1):
        return INF if p == 1 else -INF
    return mpmath.log(p / (1 - p))


def _entr(x):
    if x < 0:
        return -INF
    return mpmath.mpf(0) if x == 0 else -x * mpmath.log(x)


def _xlogy(x, y):
    if x == 0:
        return mpmath.mpf(0)
    if y < 0:
        return None
    return x * (-INF if y == 0 else mpmath.log(y))


def _rel_entr(x, y):
    # scipy's definition: x log(x/y) for x, y > 0; 0 for x = 0, y >= 0; +inf otherwise
    if x > 0 and y > 0:
        return x * mpmath.log(x / y) if mpmath.isfinite(x / y) or x / y == INF else None
    if x == 0 and y >= 0:
        return mpmath.mpf(0)
    return INF


def _power(a, b):
    if b == 0:
        return mpmath.mpf(1)  # x**0 = 1 for every x (IEEE's pow, numpy)
    if a == 0 and b < 0:
        return None  # 1/0
    if a == 0 and b == 0:
        return mpmath.mpf(1)
    if a < 0 and not (mpmath.isfinite(b) and b == int(b)):
        return None
    if a < 0:
        magnitude = mpmath.power(-a, b)
        return -magnitude if int(b) % 2 else magnitude
    return mpmath.power(a, b)


def _logaddexp(a, b):
    # log(e^a + e^b) = max + log1p(e^-|a-b|): the plain sum would lose a tiny summand at any fixed precision
    if a == b == -INF or INF in (a, b):
        return max(a, b)
    return max(a, b) + mpmath.log1p(mpmath.exp(-abs(a - b)))


def _ignoring_nan(choose):
    def reference(a, b):
        if mpmath.isnan(a) and mpmath.isnan(b):
            return None
        if mpmath.isnan(a) or mpmath.isnan(b):
            return b if mpmath.isnan(a) else a
        return choose(a, b)

    return reference


def _clip(x, low, high):
    return min(max(x, low), high)


def _hypot(a, b):
    # C99's (and numpy's) hypot: +inf where either argument is infinite, even beside a nan
    if mpmath.isinf(a) or mpmath.isinf(b):
        return INF
    if mpmath.isnan(a) or mpmath.isnan(b):
        return None
    with mpmath.workprec(ball_forms_check.BITS):
        return mpmath.sqrt(a * a + b * b)


UNARY = {
    "exp": mpmath.exp, "expm1": mpmath.expm1, "log": _log(), "log2": _log(2), "log10": _log(10),
    "log1p": lambda x: None if x < -1 else -INF if x == -1 else mpmath.log1p(x),
    "sqrt": lambda x: None if x < 0 else mpmath.sqrt(x),
    "sin": mpmath.sin, "cos": mpmath.cos, "tan": mpmath.tan, "tanh": mpmath.tanh, "sinh": mpmath.sinh,
    "cosh": mpmath.cosh, "arctan": mpmath.atan, "arcsinh": mpmath.asinh,
    "arcsin": _inside(-1, 1, mpmath.asin), "arccos": _inside(-1, 1, mpmath.acos),
    "square": lambda x: x * x, "reciprocal": lambda x: None if x == 0 else 1 / x,
    "negative": operator.neg, "positive": operator.pos, "absolute": abs, "conjugate": lambda x: x,
    "isfinite": mpmath.isfinite, "isinf": mpmath.isinf, "logical_not": lambda x: not x,
    "expit": lambda x: 1 / (1 + mpmath.exp(-x)), "log_expit": lambda x: -mpmath.log1p(mpmath.exp(-x)),
    "logit": _logit, "entr": _entr,
}
"""One argument (``isnan`` is below: it has a value at nan)."""

BINARY = {
    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
    "divide": lambda a, b: None if b == 0 else a / b, "power": _power,
    "maximum": max, "minimum": min, "logaddexp": _logaddexp,
    "less": operator.lt, "less_equal": operator.le, "greater": operator.gt, "greater_equal": operator.ge,
    "equal": operator.eq, "not_equal": operator.ne, "logical_and": lambda a, b: bool(a) and bool(b),
    "logical_or": lambda a, b: bool(a) or bool(b), "xlogy": _xlogy, "rel_entr": _rel_entr,
}

REFERENCES = {name: defined(function) for name, function in {**UNARY, **BINARY}.items()}
REFERENCES["isnan"] = lambda x: bool(mpmath.isnan(x))
REFERENCES["power"] = lambda a, b: mpmath.mpf(1) if b == 0 else defined(_power)(a, b)  # nan**0 = 1 (IEEE, numpy)
REFERENCES["fmax"] = _ignoring_nan(max)
REFERENCES["fmin"] = _ignoring_nan(min)
REFERENCES["clip"] = defined(_clip)
REFERENCES["hypot"] = _hypot
"""The exact value of every elementwise function, by its ufunc's ``__name__``."""


def reference(name: str):
    return REFERENCES[name]


def float_error(name: str, *args: float) -> float:
    """The float64 original's own error beyond its last rounding, where its algorithm has one: numpy's
    ``logaddexp`` adds ``log1p(exp(-|a-b|))`` to ``max(a, b)`` (each rounding is an ulp of ``max(|a|, |b|)``,
    however small the result); scipy's ``rel_entr`` takes ``log(x/y)`` of the rounded quotient (an absolute
    error of ``ε`` in the logarithm, times ``x``)."""
    finite = [abs(a) for a in args if np.isfinite(a)]
    if name == "logaddexp":
        return 4 * 2.0 ** -52 * max(finite, default=0.0)
    if name == "rel_entr" and np.isfinite(args[0]):
        return 4 * 2.0 ** -52 * abs(args[0])
    return 0.0


def check_elementwise(form, arrays) -> None:
    """The ufunc ``form`` on ``arrays`` (broadcast) against float64 and the exact value, element by element."""
    ufunc = form.original
    floats = evaluate(ufunc, *arrays)
    ball_values = on_balls(form.on_balls, *[balls(np.asarray(a, dtype=float)) for a in arrays])
    points = np.broadcast_arrays(*arrays)
    where = list(np.ndindex(points[0].shape))
    exact = [reference(ufunc.__name__)(*(mp(p[at]) for p in points)) for at in where]
    errors = [float_error(ufunc.__name__, *(float(p[at]) for p in points)) for at in where]
    inputs = [tuple(float(p[at]) for p in points) for at in where]
    check_all(floats, ball_values, exact, what=form.name, errors=errors, inputs=inputs)
