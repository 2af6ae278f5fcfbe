"""Candidates: float64 violations far above rounding that balls could not decide, re-evaluated at high precision
before they are called candidates, and where a relation fails most.

A violation balls cannot certify (a side with an operation that has no ball form, ``float()`` of a ball, a
comparison still undecided at 1024 bits) may be float64's rounding: a side that cancels is far from its exact value
in float64. So both sides are evaluated again in interval arithmetic (:mod:`theorems.engine.search.enclosure`) at
:data:`~theorems.engine.search.limits.HIGH_PRECISION_BITS`, where the operations intervals cannot do either (an
undecided comparison, ``float()`` of a wide interval) are taken at the interval's midpoint: the result is an
enclosure except at those operations. Where no violation above rounding remains (the violation's upper end,
relative to the sides — their float64 values or their intervals, whichever is larger — below
:data:`~theorems.engine.search.limits.CANDIDATE_MARGIN`) the instance is rounding (:class:`Vanished`), counted and
named in the report as *not certifiable*, not a candidate; a violation that stays, or a side that cannot be
evaluated at all, is a candidate.

>>> from theorems import STATEMENTS
>>> found = candidate_at(STATEMENTS["corollary1.own-key.upper"], {"q": np.array([1.0]), "keys": np.array([[0.0], [-2.0]]), "T": 1.0}, "")
>>> round(found.relative_margin, 4), found.reason, found.high_precision.startswith("intervals at 128 bits")
(0.4323, 'ball arithmetic could not decide it', True)
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from theorems.engine import sides
from theorems.engine.search.enclosure import side_enclosure
from theorems.engine.search.limits import CANDIDATE_MARGIN, HIGH_PRECISION_BITS
from theorems.engine.search.report import Candidate
from theorems.engine.sides import SideError
from theorems.engine.statement import Instance, Statement
from theorems.arithmetic.precision import F64


def worst(statement: Statement, instance: Instance, xp=F64) -> tuple[Any, Any, Any, Any]:
    """``(lhs, rhs, margin, relative_margin)`` at the element where the relation fails most (in float64)."""
    lhs, rhs = _float_sides(statement, instance)
    margin = np.asarray(statement.violation(lhs, rhs), dtype=float)
    scale = np.maximum(np.abs(lhs), np.abs(rhs))
    with np.errstate(all="ignore"):
        relative = np.where(scale > 0, margin / np.where(scale > 0, scale, 1), 0 * margin)
    at = np.unravel_index(int(np.argmax(np.nan_to_num(relative, nan=np.inf))), relative.shape)
    return lhs[at], rhs[at], margin[at], relative[at]


def _float_sides(statement: Statement, instance: Instance) -> tuple[np.ndarray, np.ndarray]:
    lhs, rhs = (np.atleast_1d(np.asarray(sides.evaluate(statement, side, instance, F64), dtype=float))
                for side in ("lhs", "rhs"))
    return np.broadcast_arrays(lhs, rhs)


@dataclasses.dataclass(frozen=True)
class Vanished:
    """A float64 violation far above rounding that balls could not certify and that the high-precision
    re-evaluation showed to be rounding: ``reason`` says why balls could not, ``method`` how it vanished."""

    reason: str
    method: str


@dataclasses.dataclass(frozen=True)
class _Reevaluation:
    """Both sides in intervals at ``bits``: ``status`` ``"rounding"`` (no violation above the precision's rounding
    level), ``"violated"`` (the violation's lower end above 0) or ``"undecided"``; the violation's midpoint at the
    worst element; the operations taken at points."""

    status: str
    margin: float
    bits: int
    points: tuple[str, ...]

    def method(self) -> str:
        taken = f", {', '.join(self.points)} at the midpoint" if self.points else ""
        return f"intervals at {self.bits} bits{taken}"


def candidate_at(statement: Statement, instance: Instance, reason: str) -> Candidate | Vanished | None:
    """The :class:`Candidate` at an instance balls could not decide; :class:`Vanished` when its violation is far
    above rounding in float64 but not at high precision; ``None`` when it is rounding-level in float64 already
    (relative margin below :data:`CANDIDATE_MARGIN`)."""
    with np.errstate(all="ignore"):
        try:
            lhs, rhs, margin, relative = worst(statement, instance, F64)
        except SideError:
            raise
        except Exception:  # noqa: BLE001 - a float64 side that raises is decided in balls (ill-defined)
            return None
    if not np.isfinite(relative) or relative < CANDIDATE_MARGIN:
        return None
    why = reason or "ball arithmetic could not decide it"
    with np.errstate(all="ignore"):
        scale = np.maximum(*(np.abs(side) for side in _float_sides(statement, instance)))
    high = reevaluate(statement, instance, np.where(np.isfinite(scale), scale, 0.0))
    if high is not None and high.status == "rounding":
        return Vanished(why, high.method())
    return Candidate(statement_id=statement.id, instance=instance, lhs=float(lhs), rhs=float(rhs), margin=float(margin),
                     relative_margin=float(relative), high_precision_margin=None if high is None else high.margin,
                     reason=why, high_precision="not computable" if high is None else high.method())


def reevaluate(statement: Statement, instance: Instance, scale=0.0) -> _Reevaluation | None:
    """Both sides in intervals at each precision of :data:`HIGH_PRECISION_BITS` until the violation is rounding or
    stays; ``None`` where a side cannot be evaluated there. ``scale``: the float64 ``max(|lhs|, |rhs|)`` per
    element, a floor of the size the violation is relative to (two sides that are 0 up to rounding leave no
    size of their own)."""
    outcome = None
    for bits in HIGH_PRECISION_BITS:
        outcome = _at(statement, instance, bits, scale)
        if outcome is None or outcome.status != "undecided":
            return outcome
    return outcome


def _at(statement: Statement, instance: Instance, bits: int, scale) -> _Reevaluation | None:
    evaluated = [side_enclosure(getattr(statement, side), instance, bits=bits, points=True) for side in ("lhs", "rhs")]
    if any(e is None for e in evaluated):
        return None
    (lhs, lhs_points), (rhs, rhs_points) = evaluated
    try:
        lhs, rhs, scale = np.broadcast_arrays(lhs, rhs, scale)
    except ValueError:
        return None
    violations = [statement.violation(a, b) for a, b in zip(lhs.flat, rhs.flat)]
    if not all(v.is_finite() for v in violations):
        return None
    relative = [_relative_upper(v, a, b, float(s)) for v, a, b, s in zip(violations, lhs.flat, rhs.flat, scale.flat)]
    worst_at = int(np.argmax(relative))
    points = tuple(dict.fromkeys(lhs_points + rhs_points))
    margin = violations[worst_at].midpoint()
    if max(relative) < CANDIDATE_MARGIN:
        return _Reevaluation("rounding", margin, bits, points)
    if any(v.lower > 0 for v in violations):
        return _Reevaluation("violated", margin, bits, points)
    return _Reevaluation("undecided", margin, bits, points)


def _relative_upper(violation, lhs, rhs, floor: float) -> float:
    """The violation's upper end relative to the sides' size: the larger of ``floor`` (their float64 size) and the
    lower ends of their magnitudes; 1 where both may be 0 and the violation may be positive."""
    if violation.upper <= 0:
        return violation.upper
    scale = max(abs(lhs).lower, abs(rhs).lower, floor)
    return violation.upper / scale if scale > 0 else 1.0
