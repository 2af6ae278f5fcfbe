"""Reading the balls of both sides: whether the violation is proved, ruled out, or undecided at this precision.

>>> from theorems import STATEMENTS
>>> from theorems.arithmetic.precision import ARB, Ball
>>> statement = STATEMENTS["lemma1.upper"]
>>> with ARB.precision(128):
...     decide(statement, {}, {"lhs": np.array([Ball(1)]), "rhs": np.array([Ball(2)])}, 128, True, []).status
'satisfied'
"""

from __future__ import annotations

import dataclasses

import numpy as np

from theorems.arithmetic import precision
from theorems.arithmetic.precision import F64
from theorems.engine import sides
from theorems.engine.search.report import Certificate, Counterexample
from theorems.engine.statement import Instance, Statement, instance_size, jsonable
from theorems.errors import IllDefined


def _kind(ball) -> str:
    value = ball.arb
    if value.is_nan():
        return "nan"
    if value.is_finite():
        return "finite"
    if value.rad() == 0:  # an exact infinity (arb's ±inf points have radius 0)
        return "+inf" if precision.midpoint(value) > 0 else "-inf"
    return "wide"


def _float_side(statement: Statement, instance: Instance, side: str):
    function = getattr(statement, side)
    with np.errstate(all="ignore"):
        try:
            return np.atleast_1d(np.asarray(function(instance, F64), dtype=float))
        except Exception:  # noqa: BLE001
            return np.atleast_1d(np.nan)


@dataclasses.dataclass
class _Reading:
    """What the elements read so far show: the worst proved violation, and the last undecided one with a bound."""

    best: tuple | None = None  # (relative margin, index, lower, upper, margin ball) of the worst certified element
    undecided: str = ""
    bound: float = 0.0

    def unbounded(self, why: str) -> None:
        self.undecided, self.bound = why, np.inf


def decide(statement, instance, values, bits, last, notes) -> Certificate:
    """Read the balls of both sides element by element: ``"violated"`` (a certified counterexample at the worst
    element), ``"undecided"`` (with why, and a bound on the relative violation) or ``"satisfied"``."""
    lhs, rhs = sides.broadcast_sides(values["lhs"], values["rhs"], statement=statement)
    reading = _Reading()
    for at in np.ndindex(lhs.shape):
        exact = _read(statement, instance, lhs[at], rhs[at], at, bits, last, reading)
        if exact is not None:
            return exact
    return _conclude(statement, instance, lhs, rhs, reading, bits, notes)


def _read(statement, instance, a, b, at, bits, last, reading: _Reading) -> Certificate | None:
    """Read one element: a certificate when an exact infinity proves the violation, else update ``reading``."""
    kinds = {"lhs": _kind(a), "rhs": _kind(b)}
    if _has_nan(statement, instance, kinds, at, bits, last, reading):
        return None
    if "wide" in kinds.values():
        reading.unbounded(f"a side is an unbounded ball at {bits} bits")
        return None
    if any(kind != "finite" for kind in kinds.values()):
        return _infinite(statement, instance, kinds, a, b, at, bits)
    _finite(statement.violation(a, b), a, b, at, bits, reading)
    return None


def _has_nan(statement, instance, kinds, at, bits, last, reading: _Reading) -> bool:
    """Whether a side is nan: undecided below the last precision where float64 has a value, else ill-defined."""
    for side, kind in kinds.items():
        if kind == "nan":
            if not last and not np.all(np.isnan(_float_side(statement, instance, side))):
                reading.unbounded(f"{side} is nan at {bits} bits")
                continue
            raise IllDefined(statement.id, instance, side, f"is nan (element {list(at)})", shown=jsonable(instance))
    return "nan" in kinds.values()


def _infinite(statement, instance, kinds, a, b, at, bits) -> Certificate | None:
    """An element with an exact infinity: ``inf − inf`` is ill-defined; a violation of +inf is proved."""
    infinite = [k for k in kinds.values() if k != "finite"]
    if len(infinite) == 2 and kinds["lhs"] == kinds["rhs"]:
        raise IllDefined(statement.id, instance, "lhs and rhs",
                         f"are both {kinds['lhs']} (element {list(at)}): their difference inf − inf is undefined",
                         shown=jsonable(instance))
    sign = statement.violation(_infinity(kinds["lhs"], a), _infinity(kinds["rhs"], b))
    if sign > 0:
        method = (f"exact: lhs = {kinds['lhs'] if kinds['lhs'] != 'finite' else precision.midpoint(a)}, rhs = "
                  f"{kinds['rhs'] if kinds['rhs'] != 'finite' else precision.midpoint(b)} in arb, so the "
                  "violation is +inf")
        return Certificate("violated", _counterexample(statement, instance, a, b, np.inf, 1.0, method), bits)
    return None


def _finite(margin, a, b, at, bits, reading: _Reading) -> None:
    """A finite element: its violation ball proves a violation, rules it out, or contains 0 (undecided)."""
    low, high = margin.lower, margin.upper
    if low > 0:
        scale = max(abs(precision.midpoint(a)), abs(precision.midpoint(b)))
        relative = precision.midpoint(margin) / scale if scale > 0 else 1.0
        if reading.best is None or relative > reading.best[0]:
            reading.best = (relative, at, low, high, margin)
    elif high <= 0:
        return
    else:
        reading.undecided = f"the violation ball [{low:.3g}, {high:.3g}] contains 0 at {bits} bits"
        scale = max(abs(a).lower, abs(b).lower)  # the exact sides are at least this large
        reading.bound = max(reading.bound, high / scale if scale > 0 else 1.0)


def _conclude(statement, instance, lhs, rhs, reading: _Reading, bits, notes) -> Certificate:
    if reading.best is not None:
        return Certificate("violated", _proved(statement, instance, lhs, rhs, reading.best, bits, notes), bits)
    if reading.undecided:
        bound = reading.bound
        if not notes and "contains 0" in reading.undecided and not np.isinf(bound):
            # both sides evaluated in plain ball arithmetic: at these precisions the width left is the rounding of
            # the float constants the sides contain (each carries one ulp), so the residue is rounding-level
            bound = 0.0
        return Certificate("undecided", bits=bits, detail=reading.undecided, bound=bound)
    return Certificate("satisfied", bits=bits)


def _proved(statement, instance, lhs, rhs, best, bits, notes) -> Counterexample:
    """The counterexample at the worst certified element, its method naming the ball and the enclosures used."""
    relative, at, low, high, margin = best
    sign = "lhs − rhs" if statement.relation == "<=" else "rhs − lhs"
    method = f"arb ball arithmetic, {bits} bits: {sign} ∈ [{low:.6g}, {high:.6g}] > 0"
    if notes:
        method += "; " + "; ".join(sorted(set(notes)))
    return _counterexample(statement, instance, lhs[at], rhs[at], precision.midpoint(margin), relative, method)


def _infinity(kind: str, ball) -> float:
    return {"+inf": np.inf, "-inf": -np.inf}.get(kind, precision.midpoint(ball))


def _counterexample(statement, instance, lhs, rhs, margin, relative, method) -> Counterexample:
    return Counterexample(
        statement_id=statement.id, instance=instance, lhs=_as_float(lhs), rhs=_as_float(rhs), margin=float(margin),
        relative_margin=float(relative), size=instance_size(statement, instance), method=method, certified=True)


def _as_float(ball) -> float:
    kind = _kind(ball)
    return {"+inf": np.inf, "-inf": -np.inf, "nan": np.nan}.get(kind, precision.midpoint(ball))

