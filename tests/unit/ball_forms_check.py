"""The contract every ball form is held to against its float64 original (``tests/unit/test_ball_forms_*.py``).

For one input (doubles, lifted to exact balls) there are three values: ``f``, what the float64 original returns
(or the error it raises); ``B``, the ball form's ball at 128 bits (or the error it raises); and ``r``, the exact
value, computed by mpmath at :data:`BITS` bits from the function's definition, independently of both (``None``
where the function is undefined, an mpmath infinity where it is an exact infinity).

- ``B`` finite: ``r`` is finite and lies in ``B`` (up to mpmath's own accuracy, 2^-(BITS-40) relative to ``r``'s
  scale), and when ``f`` is finite it lies within ``ulps`` units in the last place of ``f`` plus ``error`` (the
  original's own a-priori error beyond its last rounding, stated by each test from the algorithm numpy or scipy
  uses: ``(n-1)·ε·Σ|x|`` for a sum, ``p(n)·ε·‖A‖·κ`` for linear algebra) of ``B``. ``f`` may be ``±inf`` or nan
  where ``r`` is finite (the original overflowed or broke down in an intermediate step: the ball holds the exact
  value).
- ``B`` an exact infinity: ``r`` is that same infinity (the engine certifies from an exact infinity), and ``f`` too,
  or nan where the original broke down (``0·inf`` after an underflow).
- ``B`` nan: only where ``r`` is undefined (``None``); a nan where the function has a value would make the
  engine call a well-defined side ill-defined.
- ``B`` an unbounded ball, or a :class:`~theorems.errors.TheoremsError` raised (``NoBallForm``, ``Undecided``):
  the form declines, no claim; allowed. Any other error is allowed only where the original raises or gives nan.

:data:`ULPS` = 4: numpy's and scipy's elementary functions are within a few units in the last place (glibc's
``exp``/``log``/``sin``/``pow`` within 1-2, numpy's SIMD loops within 4); an operation that is correctly
rounded is within 1/2.
"""

from __future__ import annotations

import math
import warnings

import flint
import mpmath
import numpy as np
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from theorems.arithmetic.precision import ARB, MAX_BITS, Ball
from theorems.errors import TheoremsError, Undecided

BITS = 600
ULPS = 4
EPS = 2.0 ** -52
TINY = 2.0 ** -1074  # the smallest subnormal: an underflow's absolute error is at most half of it
BIG = np.finfo(float).max

EDGES = (0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0, -3.0, 1e-8, 5e-324, -5e-324, 2.2250738585072014e-308, 1e-300,
         -1e-300, 1e300, -1e300, BIG, -BIG, 1 - 2.0 ** -53, 1 + 2.0 ** -52, math.pi / 2, 709.78, -745.1, 36.7)
"""Zeros, signs, units, subnormals, the normal range's ends, huge and tiny magnitudes, exp's overflow edge."""

NON_FINITE = (math.inf, -math.inf, math.nan)


def examples(factor: float = 0.25) -> settings:
    """This project's Hypothesis profile, scaled down for a test run once per form (at least 10 examples)."""
    return settings(max_examples=max(10, int(settings.default.max_examples * factor)), deadline=None)


def reals(extra=(), *, finite: bool = False, low=None, high=None) -> st.SearchStrategy[float]:
    """Doubles: the edges above and ``extra`` (a form's domain edges) often, any double (subnormals included),
    moderate ones, and, unless ``finite``, infinities and nan now and then."""
    parts = [st.sampled_from(EDGES + tuple(extra)), st.floats(allow_nan=False, allow_infinity=False),
             st.floats(-40, 40)]
    if low is not None:
        parts.append(st.floats(low, high))
    if not finite:
        parts.append(st.sampled_from(NON_FINITE))
    return st.one_of(parts)


@st.composite
def arguments(draw, count: int, edges=()) -> list[np.ndarray]:
    """``count`` float arrays of broadcast-compatible shapes (``hypothesis.extra.numpy``); with two, the second
    is often the first (exact ties), its negative or its magnitude."""
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=count, min_dims=0, max_dims=2, max_side=3))
    arrays = [draw(hnp.arrays(np.float64, shape, elements=reals(edges))) for shape in shapes.input_shapes]
    if count == 2 and draw(st.booleans()):
        arrays[1] = draw(st.sampled_from([arrays[0], -arrays[0], np.abs(arrays[0])]))
    return arrays


def mp(x) -> mpmath.mpf:
    """A double as the exact mpmath number (infinities too; nan stays nan)."""
    return mpmath.mpf(float(x))


def defined(function):
    """``function`` on exact mpmath numbers at :data:`BITS` bits, ``None`` where it is undefined (nan or complex)."""

    def reference(*args):
        if any(isinstance(a, mpmath.mpf) and mpmath.isnan(a) for a in args):
            return None
        with mpmath.workprec(BITS):
            try:
                value = function(*args)
            except (ZeroDivisionError, ValueError):
                return None
            if isinstance(value, (bool, np.bool_)):
                return bool(value)
            if value is None or isinstance(value, mpmath.mpc) or mpmath.isnan(value):
                return None
            return +value  # leaving workprec would not round it: an mpf keeps its bits

    return reference


def _to_mp(value: "flint.arb") -> mpmath.mpf:
    man, exp = value.man_exp()
    return mpmath.mpf((int(man), int(exp)))


def kind(value) -> str:
    """``"raised"``, ``"crashed"``, ``"nan"``, ``"wide"``, ``"+inf"``, ``"-inf"`` or ``"finite"`` for a ball (or
    what a form raised); ``"bool"`` for a truth value."""
    if isinstance(value, TheoremsError):
        return "raised"
    if isinstance(value, BaseException):
        return "crashed"
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, (int, float, np.integer, np.floating)):
        value = Ball(value)
    arb = value.arb if isinstance(value, Ball) else value
    if arb.is_nan():
        return "nan"
    if arb.is_finite():
        return "finite"
    if arb.rad() == 0:
        return "+inf" if float(arb.mid()) > 0 else "-inf"
    return "wide"


def float_kind(value) -> str:
    if isinstance(value, BaseException):
        return "raised"
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, (complex, np.complexfloating)):  # np.linalg.eigvals: real where the imaginary part is 0
        value = value.real if value.imag == 0 else math.nan
    value = float(value)
    return "nan" if value != value else "+inf" if value == math.inf else "-inf" if value == -math.inf else "finite"


def evaluate(function, *args):
    """``function(*args)``, or the error it raised (returned, to be judged by :func:`check`); numpy's warnings
    about what it computes (overflow, an empty mean) are the values judged, not news."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            return function(*args)
        except Exception as error:  # noqa: BLE001 - what it raised is judged by check()
            return error


def on_balls(function, *args):
    """``function(*args)`` at 128 bits (where certification starts), or the error it raised; where that is nan
    or an undecided comparison, at 1024 bits as well (the certifier's last precision, where a nan side is read as
    ill-defined), element by element."""
    with ARB.precision(128):
        first = evaluate(function, *args)
    if not (isinstance(first, Undecided) or any(kind(v) == "nan" for v in elements(first)
                                                 if not isinstance(v, (bool, np.bool_)))):
        return first
    with ARB.precision(MAX_BITS):
        last = evaluate(function, *args)
    if isinstance(first, BaseException) or isinstance(last, BaseException) or np.shape(first) != np.shape(last):
        return last if isinstance(first, Undecided) else first
    if not np.ndim(first):
        return last
    merged = np.asarray(first, dtype=object).copy()
    for at in np.ndindex(merged.shape):
        if not isinstance(merged[at], (bool, np.bool_)) and kind(merged[at]) == "nan":
            merged[at] = np.asarray(last, dtype=object)[at]
    return merged


def check(f, ball, r, *, what: str, error: float = 0.0, scale=0.0, ulps: float = ULPS) -> None:
    """Assert the contract above for one value; ``what`` names the form and the input in the message;
    ``scale``: the size of the quantities the reference is computed from (its absolute accuracy)."""
    if isinstance(ball, (int, float, np.integer, np.floating)) and not isinstance(ball, (bool, np.bool_)):
        ball = Ball(ball)  # a plain number a form returns (np.sum's initial, an empty sum's 0): as the engine reads it
    ball_kind, f_kind = kind(ball), float_kind(f)
    message = f"{what}: float64 gives {f!r}, the ball form {ball!r}, the exact value is {r}"
    if ball_kind == "bool" or f_kind == "bool":
        assert ball_kind == "raised" or (ball_kind == "bool" and f_kind == "bool" and bool(ball) == bool(f)
                                         and (r is None or bool(r) == bool(f))), message
        return
    if ball_kind in ("raised", "wide"):
        return
    if ball_kind == "crashed":
        assert f_kind in ("raised", "nan"), message + " (a crash where the original has a value)"
        return
    if ball_kind == "nan":
        assert r is None, message + " (nan where the function has a value: the engine would call it ill-defined)"
        return
    if ball_kind in ("+inf", "-inf"):
        assert r is not None and mpmath.isinf(r) and (r > 0) == (ball_kind == "+inf"), message
        assert f_kind in (ball_kind, "nan", "raised"), message + " (an exact infinity the original does not give)"
        return
    assert r is not None and mpmath.isfinite(r), message + " (a finite ball where the function has no finite value)"
    _contains(ball, r, message, scale)
    if f_kind == "finite":
        f = f.real if isinstance(f, (complex, np.complexfloating)) else f
        _near(ball, float(f), message, error + ulps * _ulp(float(f)))


def _contains(ball, r, message: str, scale: float) -> None:
    arb = ball.arb if isinstance(ball, Ball) else ball
    with mpmath.workprec(BITS):
        mid, rad = _to_mp(arb.mid()), _to_mp(flint.arb(arb.rad()))
        slack = (abs(r) + mpmath.mpf(scale)) * mpmath.mpf(2) ** (40 - BITS)
        assert mid - rad - slack <= r <= mid + rad + slack, message + " (the ball misses the exact value)"


def _ulp(f: float) -> float:
    """One unit in the last place of ``f`` (of the largest double too, where numpy's spacing says inf)."""
    with np.errstate(over="ignore"):
        spacing = np.spacing(abs(f))
    return float(spacing if np.isfinite(spacing) else np.spacing(np.nextafter(abs(f), 0)))


def _near(ball, f: float, message: str, tolerance: float) -> None:
    arb = ball.arb if isinstance(ball, Ball) else ball
    with mpmath.workprec(BITS):
        mid, rad = _to_mp(arb.mid()), _to_mp(flint.arb(arb.rad()))
        distance = max(mpmath.mpf(0), abs(mp(f) - mid) - rad)
        assert distance <= tolerance, message + f" (float64 is {mpmath.nstr(distance, 3)} from the ball, " \
                                                f"above the {tolerance:.3g} its rounding allows)"


def elements(value) -> list:
    """The elements of a result (a scalar, a ball, an array) in order."""
    if isinstance(value, BaseException):
        return [value]
    return list(np.asarray(value, dtype=object).ravel()) if np.ndim(value) else [
        value[()] if isinstance(value, np.ndarray) else value]


def check_all(floats, ball_values, references, *, what: str, errors=None, scale=0.0, ulps: float = ULPS,
              inputs=None) -> None:
    """:func:`check` element by element (an error raised by either side stands for every element); ``inputs``:
    each element's arguments, for the message."""
    f_list, b_list = elements(floats), elements(ball_values)
    count = len(references)
    f_list = f_list * count if len(f_list) == 1 and count > 1 and isinstance(f_list[0], BaseException) else f_list
    b_list = b_list * count if len(b_list) == 1 and count > 1 and isinstance(b_list[0], BaseException) else b_list
    if not isinstance(floats, BaseException) and not isinstance(ball_values, BaseException):
        assert np.shape(floats) == np.shape(ball_values), f"{what}: shape {np.shape(ball_values)} on balls, " \
                                                          f"{np.shape(floats)} in float64"
    assert len(f_list) == len(b_list) == count, f"{what}: {len(b_list)} ball values, {len(f_list)} floats, {count} references"
    errors = [0.0] * count if errors is None else list(np.broadcast_to(np.asarray(errors, dtype=float), (count,)))
    for k, (f, b, r, e) in enumerate(zip(f_list, b_list, references, errors)):
        at = f"{what}{inputs[k]}" if inputs is not None else f"{what} [element {k}]"
        check(f, b, r, what=at, error=e, scale=scale, ulps=ulps)
