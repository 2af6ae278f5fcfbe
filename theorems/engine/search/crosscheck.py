"""Cross-checks: a side's enclosure against a second enclosure of the same side, computed by separate code.

No certificate (and no "holds", and no proof) may rest on one hand-written computation: every ball form, dual and
Taylor form is code of the suite's own, and one that computes another function than the one it stands for would
certify a wrong verdict. Two computations disagree only when two *rigorous* enclosures of one number are disjoint;
a value without an error bound decides nothing (float64 loses a cancelling or subnormal side entirely, and mpmath's
points round too). So the one policy here, :func:`disagreement`, used by the search (:func:`cross_check`, on balls,
at every precision before :func:`~theorems.engine.search.balls.certify` reads them) and by the prover
(``cross_check_enclosure`` of :mod:`theorems.engine.prove.crosscheck`, on each box's enclosures at the box's centre), is:

1. float64 *triggers*: where the side's float64 value lies farther than :data:`TOLERANCE` times the element's scale
   ``max(|lhs|, |rhs|)`` (plus :data:`SUBNORMAL`) from the enclosure, a second enclosure is computed (a miss below
   that cannot change a verdict: the search calls such violations rounding);
2. the second enclosure is the same side in interval arithmetic (:func:`~theorems.engine.search.enclosure.side_enclosure`,
   mpmath's intervals through code that shares nothing with the ball forms);
3. an :class:`~theorems.errors.EngineInconsistency` is declared only where the two are *disjoint*. A second
   enclosure that cannot be had (a function with no interval form) or that is too wide to decide means "agrees".

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

import dataclasses
from collections.abc import Callable

import flint
import numpy as np
from mpmath import libmp

from theorems.arithmetic import ballarray, interval
from theorems.arithmetic.precision import ARB, F64, balls
from theorems.engine.search.enclosure import side_enclosure
from theorems.engine.search.limits import CANDIDATE_MARGIN
from theorems.engine.sides import SideError
from theorems.engine.statement import Instance, Statement, jsonable
from theorems.errors import EngineInconsistency

TOLERANCE = CANDIDATE_MARGIN
"""How far (relative to ``max(|lhs|, |rhs|)`` at the element, in float64) the float64 value may lie from an
enclosure before a second enclosure is computed: the search's own rounding level, below which no violation
counts. It only triggers; it never decides."""

SUBNORMAL = float(np.finfo(float).tiny)
"""Below the smallest normal float64 (2.2e-308) precision is absolute, not relative: a side's value there (a
product of two 1e-158 entries) is a few subnormal ulps from the exact one, which no relative tolerance allows."""

_SIDES = ("lhs", "rhs")


def _as_floats(value) -> np.ndarray | None:
    """A side's value as a float array, or ``None`` when it is not one (then it is no reference)."""
    try:
        return np.atleast_1d(np.asarray(value, dtype=float))
    except (TypeError, ValueError):
        return None


class FloatSides:
    """Both sides of a statement evaluated once in float64 at one instance (``None`` for a side that raises), the
    scale ``max(|lhs|, |rhs|)`` per element that the tolerance is relative to, and each side's interval enclosure
    once it has been asked for (:meth:`enclosure`: certification cross-checks at every precision, one point)."""

    def __init__(self, statement: Statement, instance: Instance) -> None:
        self.statement, self.instance = statement, instance
        self.intervals: dict[str, np.ndarray | None] = {}
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
        self.scale = scale_of(self.values["lhs"], self.values["rhs"])

    def enclosure(self, side: str) -> np.ndarray | None:
        """The side's interval enclosure at the instance (computed once)."""
        if side not in self.intervals:
            self.intervals[side] = side_enclosure(getattr(self.statement, side), self.instance)
        return self.intervals[side]


def scale_of(lhs: np.ndarray | None, rhs: np.ndarray | None) -> np.ndarray | None:
    """``max(|lhs|, |rhs|)`` per element (finite; 0 where not), from whichever sides have a float64 value."""
    present = [np.abs(v) for v in (lhs, rhs) if v is not None]
    try:
        scale = (np.maximum(*np.broadcast_arrays(*present)) if len(present) == 2
                 else present[0] if present else None)
    except ValueError:
        return None
    return None if scale is None else np.where(np.isfinite(scale), scale, 0.0)


@dataclasses.dataclass(frozen=True)
class Disagreement:
    """Two disjoint enclosures of one element of a side: ``first`` (the engine's: a ball, a dual's or Taylor form's
    value) and ``second`` (intervals), with the float64 value that triggered the comparison."""

    element: tuple[int, ...]
    first: flint.arb
    second: interval.Interval
    value: float
    bits: int = interval.BITS

    def reference(self) -> str:
        return (f"interval arithmetic (mpmath's intervals at {self.bits} bits, code apart from the ball forms), "
                f"which encloses it in [{self.second.lower!r}, {self.second.upper!r}], disjoint from the ball "
                f"(float64 gives {self.value!r})")


def disagreement(firsts, floats, scale, second: Callable[[], np.ndarray | None]) -> Disagreement | None:
    """The first element where ``firsts`` (enclosures: arbs, or balls with ``.arb``) and the second enclosure
    (``second()``, intervals, computed only when float64 triggers it) are disjoint; ``None`` when they agree.

    ``floats`` (the side's float64 values) and ``scale`` (``max(|lhs|, |rhs|)``) only trigger the comparison: a
    float64 value farther than :data:`TOLERANCE` times the scale from every enclosure of its element.
    """
    if floats is None or scale is None:
        return None
    try:
        enclosures, values, scales = np.broadcast_arrays(np.asarray(firsts, dtype=object), floats, scale)
    except ValueError:
        return None
    if not any(_misses(_arb(enclosures[at]), float(values[at]), float(scales[at]))
               for at in np.ndindex(enclosures.shape)):
        return None
    seconds = second()
    if seconds is None:
        return None  # no second enclosure: nothing says the first is wrong
    try:
        seconds = np.broadcast_to(seconds, enclosures.shape)
    except ValueError:
        return None
    for at in np.ndindex(enclosures.shape):
        first = _arb(enclosures[at])
        if first is not None and disjoint(first, seconds[at]):
            return Disagreement(tuple(int(i) for i in at), first, seconds[at], float(values[at]))
    return None


def _arb(enclosure) -> flint.arb | None:
    value = getattr(enclosure, "arb", enclosure)
    return value if isinstance(value, flint.arb) else None


def _misses(first: flint.arb | None, value: float, scale: float) -> bool:
    """Whether float64's ``value`` lies far (beyond rounding) from the enclosure ``first``: the trigger."""
    if first is None or not np.isfinite(value) or not first.is_finite():
        return False  # nothing to compare: an overflow in float64, or a nan or unbounded enclosure
    low, high = float(first.lower()), float(first.upper())
    return max(low - value, value - high, 0.0) > TOLERANCE * max(scale, abs(value)) + SUBNORMAL


def _raw(end: flint.arb) -> tuple:
    """An exact arb number (an end of a ball) as a raw mpmath number, exactly."""
    man, exp = end.mid().man_exp()
    return libmp.from_man_exp(int(man), int(exp))


def disjoint(first: flint.arb, second: interval.Interval) -> bool:
    """Whether two enclosures of one number have no point in common (decided exactly; never for an unbounded one).

    >>> disjoint(flint.arb(1), interval.Interval.of(2)), disjoint(flint.arb(1, 1), interval.Interval.of(2))
    (True, False)
    """
    if not first.is_finite() or not second.is_finite():
        return False
    low, high = second.raw_ends()
    return libmp.mpf_lt(_raw(first.upper()), low) or libmp.mpf_lt(high, _raw(first.lower()))


def cross_check(statement: Statement, instance: Instance, values: dict[str, np.ndarray], floats: FloatSides) -> None:
    """Raise :class:`EngineInconsistency` where a side's balls and its interval enclosure are disjoint (looked at
    where float64 misses the balls by more than :data:`TOLERANCE` times the scale: :func:`disagreement`)."""
    for side in _SIDES:
        found = disagreement(values[side], floats.values[side], floats.scale,
                             lambda side=side: floats.enclosure(side))
        if found is not None:
            raise EngineInconsistency(statement.id, instance, side, ball=str(found.first),
                                      value=found.second.midpoint(), reference=found.reference(),
                                      forms=_forms(statement, instance, side), element=found.element,
                                      shown=jsonable(instance))


def _forms(statement: Statement, instance: Instance, side: str) -> tuple[str, ...]:
    """The dispatch-table entries the side goes through in balls (evaluated once more, traced)."""
    function = getattr(statement, side)
    try:
        with ballarray.traced() as hit, np.errstate(all="ignore"):
            function(balls(dict(instance)), ARB)
    except Exception:  # noqa: BLE001 - the names met before an error are still what it went through
        pass
    return tuple(sorted(hit))
