"""Reading the balls of both sides: whether the violation is proved, ruled out, or undecided at this precision.

>>> from theorems import STATEMENTS
>>> from theorems.engine.precision import ARB, Ball
>>> statement = STATEMENTS["lemma1.upper"]
>>> with ARB.precision(128):
...     decide(statement, {}, {"lhs": np.array([Ball(1)]), "rhs": np.array([Ball(2)])}, 128, True, []).status
'satisfied'
"""

from __future__ import annotations

import numpy as np

from theorems.engine import precision
from theorems.engine.precision import F64
from theorems.engine.search.report import Certificate, Counterexample, IllDefined
from theorems.engine.statement import Instance, Statement


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
    function = statement.lhs if side == "lhs" else statement.rhs
    with np.errstate(all="ignore"):
        try:
            return np.atleast_1d(np.asarray(function(instance, F64), dtype=float))
        except Exception:  # noqa: BLE001
            return np.atleast_1d(np.nan)


def decide(statement, instance, values, bits, last, notes) -> Certificate:
    lhs, rhs = np.broadcast_arrays(values["lhs"], values["rhs"])
    best = None  # (relative margin, index, lower, upper, margin ball) of the worst certified element
    undecided, bound = "", 0.0
    for at in np.ndindex(lhs.shape):
        a, b = lhs[at], rhs[at]
        kinds = {"lhs": _kind(a), "rhs": _kind(b)}
        for side, kind in kinds.items():
            if kind == "nan":
                if not last and not np.all(np.isnan(_float_side(statement, instance, side))):
                    undecided, bound = f"{side} is nan at {bits} bits", np.inf
                    continue
                raise IllDefined(statement.id, instance, side, f"is nan (element {list(at)})")
        if "nan" in kinds.values():
            continue
        if "wide" in kinds.values():
            undecided, bound = f"a side is an unbounded ball at {bits} bits", np.inf
            continue
        infinite = [k for k in kinds.values() if k != "finite"]
        if infinite:
            if len(infinite) == 2 and kinds["lhs"] == kinds["rhs"]:
                raise IllDefined(statement.id, instance, "lhs and rhs",
                                 f"are both {kinds['lhs']} (element {list(at)}): their difference inf − inf is undefined")
            sign = statement.violation(_infinity(kinds["lhs"], a), _infinity(kinds["rhs"], b))
            if sign > 0:
                method = (f"exact: lhs = {kinds['lhs'] if kinds['lhs'] != 'finite' else precision.midpoint(a)}, rhs = "
                          f"{kinds['rhs'] if kinds['rhs'] != 'finite' else precision.midpoint(b)} in arb, so the "
                          "violation is +inf")
                return Certificate("violated", _counterexample(statement, instance, a, b, np.inf, 1.0, method), bits)
            continue
        margin = statement.violation(a, b)
        low, high = margin.lower, margin.upper
        if low > 0:
            scale = max(abs(precision.midpoint(a)), abs(precision.midpoint(b)))
            relative = precision.midpoint(margin) / scale if scale > 0 else 1.0
            if best is None or relative > best[0]:
                best = (relative, at, low, high, margin)
        elif high <= 0:
            continue
        else:
            undecided = f"the violation ball [{low:.3g}, {high:.3g}] contains 0 at {bits} bits"
            scale = max(abs(a).lower, abs(b).lower)  # the exact sides are at least this large
            bound = max(bound, high / scale if scale > 0 else 1.0)
    if best is not None:
        relative, at, low, high, margin = best
        sign = "lhs − rhs" if statement.relation == "<=" else "rhs − lhs"
        method = f"arb ball arithmetic, {bits} bits: {sign} ∈ [{low:.6g}, {high:.6g}] > 0"
        if notes:
            method += "; " + "; ".join(sorted(set(notes)))
        cx = _counterexample(statement, instance, lhs[at], rhs[at], precision.midpoint(margin), relative, method)
        return Certificate("violated", cx, bits)
    if undecided:
        if not notes and "contains 0" in undecided and not np.isinf(bound):
            # both sides evaluated in plain ball arithmetic: at these precisions the width left is the rounding of
            # the float constants the sides contain (each carries one ulp), so the residue is rounding-level
            bound = 0.0
        return Certificate("undecided", bits=bits, detail=undecided, bound=bound)
    return Certificate("satisfied", bits=bits)


def _infinity(kind: str, ball) -> float:
    return {"+inf": np.inf, "-inf": -np.inf}.get(kind, precision.midpoint(ball))


def _counterexample(statement, instance, lhs, rhs, margin, relative, method) -> Counterexample:
    return Counterexample(
        statement_id=statement.id, instance=instance, lhs=_as_float(lhs), rhs=_as_float(rhs), margin=float(margin),
        relative_margin=float(relative), size=statement.size(instance), method=method)


def _as_float(ball) -> float:
    kind = _kind(ball)
    return {"+inf": np.inf, "-inf": -np.inf, "nan": np.nan}.get(kind, precision.midpoint(ball))

