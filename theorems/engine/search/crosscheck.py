"""Cross-checks: a side's balls against an independent evaluation of the same side at the same instance.

No certificate (and no "holds") may rest on one hand-written computation: every ball form is code of the suite's
own, and one that computes another function than the one it stands for would certify a wrong verdict. So before
:func:`~theorems.engine.search.balls.certify` reads the balls of a side, each element is compared with the side's
float64 value. The ball must contain it up to :data:`TOLERANCE` times the element's scale ``max(|lhs|, |rhs|)``
in float64: the search already calls a relative violation below that rounding
(:data:`~theorems.engine.search.limits.CANDIDATE_MARGIN`), so a disagreement below it cannot change a verdict, and
one above it is not float64 rounding unless the side cancels catastrophically. For that case a second opinion is
asked first: where the side runs on mpmath numbers, at :data:`HIGH_PRECISION_DIGITS` digits, the mpmath value decides
(float64 was inaccurate, the ball may be right). A disagreement that survives is an
:class:`~theorems.errors.EngineInconsistency` naming the statement, the instance, both values and the ball forms the
side went through.

>>> from theorems import STATEMENTS
>>> from theorems.arithmetic.precision import Ball
>>> statement = STATEMENTS["corollary1.own-key.upper"]
>>> instance = {"q": np.array([1.0]), "keys": np.array([[0.0], [-2.0]]), "T": 1.0}
>>> floats = FloatSides(statement, instance)
>>> cross_check(statement, instance, {"lhs": np.array([Ball(-5)]), "rhs": np.array([Ball(1)])}, floats)
Traceback (most recent call last):
    ...
theorems.errors.EngineInconsistency: engine inconsistency in statement 'corollary1.own-key.upper' ...
"""

from __future__ import annotations

import numpy as np

from theorems.arithmetic import ballarray, precision
from theorems.arithmetic.precision import ARB, F64, MP, balls, lift
from theorems.engine.search.limits import CANDIDATE_MARGIN, HIGH_PRECISION_DIGITS
from theorems.engine.sides import SideError
from theorems.engine.statement import Instance, Statement, jsonable
from theorems.errors import EngineInconsistency

TOLERANCE = CANDIDATE_MARGIN
"""How far (relative to ``max(|lhs|, |rhs|)`` at the element, in float64) a ball may miss the side's float64 value:
the search's own rounding level, below which no violation counts."""

SUBNORMAL = float(np.finfo(float).tiny)
"""Below the smallest normal float64 (2.2e-308) precision is absolute, not relative: a side's value there (a
product of two 1e-158 entries) is a few subnormal ulps from the exact one, which no relative tolerance allows."""

ROUNDING_FACTOR = 16
"""Where no mpmath value can be had, float64's value may lie this many times a 53-bit ball's radius (the side's
own rounding error bound at float64's precision, cancellations included) away from the high-precision ball: the
libm functions numpy calls are within an ulp or two of arb's correctly rounded ones, and numpy sums pairwise."""

_SIDES = ("lhs", "rhs")


def _as_floats(value) -> np.ndarray | None:
    """A side's value as a float array, or ``None`` when it is not one (then it is no reference)."""
    try:
        return np.atleast_1d(np.asarray(value, dtype=float))
    except (TypeError, ValueError):
        return None


class FloatSides:
    """Both sides of a statement evaluated once in float64 at one instance (``None`` for a side that raises), and
    the scale ``max(|lhs|, |rhs|)`` per element that the tolerance is relative to."""

    def __init__(self, statement: Statement, instance: Instance) -> None:
        self.values: dict[str, np.ndarray | None] = {}
        for side in _SIDES:
            function = getattr(statement, side)
            with np.errstate(all="ignore"):
                try:
                    self.values[side] = _as_floats(function(instance, F64))
                except SideError:
                    raise
                except Exception:  # noqa: BLE001 - a side that raises in float64 is decided in balls alone
                    self.values[side] = None
        present = [np.abs(v) for v in self.values.values() if v is not None]
        try:
            scale = (np.maximum(*np.broadcast_arrays(*present)) if len(present) == 2
                     else present[0] if present else None)
        except ValueError:
            scale = None
        self.scale = None if scale is None else np.where(np.isfinite(scale), scale, 0.0)


def cross_check(statement: Statement, instance: Instance, values: dict[str, np.ndarray], floats: FloatSides) -> None:
    """Raise :class:`EngineInconsistency` when an element's ball misses the float64 value of its side by more than
    :data:`TOLERANCE` times its scale and a second opinion (:func:`_explained`) does not explain it."""
    for side in _SIDES:
        missed = _first_miss(values[side], floats.values[side], floats.scale)
        if missed is None:
            continue
        at, shape, ball, value = missed
        reference, value = _second_opinion(statement, instance, side, at, shape, ball, value, floats.scale)
        if reference is None:
            continue  # float64 was the inaccurate one (cancellation): mpmath or its own error bound says so
        raise EngineInconsistency(statement.id, instance, side, ball=str(ball.arb), value=value, reference=reference,
                                  forms=_forms(statement, instance, side), element=tuple(int(i) for i in at),
                                  shown=jsonable(instance))


def _first_miss(balls_, floats_, scale):
    """``(element, shape, ball, float value)`` of the first element whose ball misses its float64 value (``shape``:
    the shape the element indexes), else ``None``."""
    if floats_ is None or scale is None:
        return None
    try:
        ball_array, float_array, scales = np.broadcast_arrays(balls_, floats_, scale)
    except ValueError:
        return None
    for at in np.ndindex(ball_array.shape):
        ball, value = ball_array[at], float(float_array[at])
        if _misses(ball, value, float(scales[at])):
            return at, ball_array.shape, ball, value
    return None


def _distance(ball, value: float) -> float:
    """How far ``value`` lies outside ``ball`` (0 inside)."""
    return max(ball.lower - value, value - ball.upper, 0.0)


def _misses(ball, value: float, scale: float) -> bool:
    if not np.isfinite(value) or not isinstance(ball, precision.Ball) or not ball.arb.is_finite():
        return False  # nothing to compare: an overflow in float64, or a ball that decide() reads as nan or infinite
    return _distance(ball, value) > TOLERANCE * max(scale, abs(value)) + SUBNORMAL


def _element(value, at: tuple, shape: tuple):
    """Element ``at`` of a side's value, broadcast to the ``shape`` the cross-check indexes."""
    array = np.atleast_1d(np.asarray(value, dtype=object))
    return np.broadcast_to(array, np.broadcast_shapes(array.shape, shape))[at]


def _second_opinion(statement, instance, side, at, shape, ball, value, scale) -> tuple[str | None, float]:
    """Where the side runs on mpmath: ``(None, mp value)`` when the ball holds it (float64 was inaccurate), else
    ``("mpmath at N digits", mp value)``. Where it cannot: ``(None, value)`` when float64's own error bound
    reaches the ball (:func:`_within_float_rounding`), else ``("float64", value)``."""
    import mpmath
    function = getattr(statement, side)
    try:
        with mpmath.workdps(HIGH_PRECISION_DIGITS), np.errstate(all="ignore"):
            high = float(_element(function(lift(dict(instance)), MP), at, shape))
    except SideError:
        raise
    except Exception:  # noqa: BLE001 - np.linalg, scipy and float() do not run on mpmath numbers
        explained = _within_float_rounding(function, instance, at, shape, ball, value)
        return None if explained else "float64", value
    if not _misses(ball, high, float(_element(scale, at, shape))):
        return None, high
    return f"mpmath at {HIGH_PRECISION_DIGITS} digits (float64: {value!r})", high


def _within_float_rounding(function, instance, at, shape, ball, value: float) -> bool:
    """Whether ``value`` lies within :data:`ROUNDING_FACTOR` times the radius of the side's 53-bit ball (evaluated
    by the same forms at float64's precision) of ``ball``: then float64's error explains the miss (a side whose
    terms cancel, ``KL(p‖u)`` near 0), not a wrong form, which misses by the value's own size."""
    try:
        with precision.working_bits(53), np.errstate(all="ignore"):
            coarse = _element(function(balls(dict(instance)), ARB), at, shape)
        radius = float(coarse.arb.rad()) if isinstance(coarse, precision.Ball) else np.inf
    except Exception:  # noqa: BLE001 - a side that has no 53-bit value gives no error bound: the miss stands
        return False
    return np.isfinite(radius) and _distance(ball, value) <= ROUNDING_FACTOR * radius


def _forms(statement: Statement, instance: Instance, side: str) -> tuple[str, ...]:
    """The dispatch-table entries the side goes through in balls (evaluated once more, traced)."""
    function = getattr(statement, side)
    try:
        with ballarray.traced() as hit, np.errstate(all="ignore"):
            function(balls(dict(instance)), ARB)
    except Exception:  # noqa: BLE001 - the names met before an error are still what it went through
        pass
    return tuple(sorted(hit))
