"""The target phase: each instance's float64 outcome, and the scores Hypothesis's ``target()`` climbs.

>>> from theorems import STATEMENTS
>>> outcome = float_outcome(STATEMENTS["corollary1.own-key.upper"],
...                         {"q": np.array([1.0]), "keys": np.array([[0.0], [-2.0]]), "T": 1.0})
>>> outcome.suspicious, outcome.ratio > 1
(True, True)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from hypothesis import target

from theorems.arithmetic.precision import F64
from theorems.engine import sides
from theorems.engine.sides import SideError
from theorems.engine.statement import Instance, Statement


TIE_ULPS = 4
"""Two sides this many units in the last place apart (relative to the larger) are met with equality: an
instance equal by structure (a zero query, a one-hot output, a constant sample) is often computed a few
roundings apart, and such a tie carries no more information than an exact one."""


class Outcome(NamedTuple):
    """An instance in float64: its worst relative margin, whether it calls for certification, the tightness
    ratio and both sides where that ratio is largest (``nan`` when undefined), and the search's score."""

    relative: float
    suspicious: bool
    ratio: float
    lhs: float
    rhs: float
    score: float


def float_outcome(statement: Statement, instance: Instance) -> Outcome:
    """``(relative margin, suspicious, ratio, lhs, rhs, score)`` in float64: whether the float result calls for
    certification, the tightness ratio at the element where it is largest (``nan`` when undefined), and the
    search's score: the largest ratio among the elements that are not met with equality (up to
    :data:`TIE_ULPS` roundings), ``nan`` when every element is (an equality case: a zero query, a one-hot
    output, equal logits). An element bounded by itself (ratio exactly 1 on a plateau) would otherwise hide
    the others from ``target()`` and the optimiser, and an instance where both sides are equal by structure
    would outrank every instance that carries information (its ratio is 1, a supremum's): the score does not
    reward a tie."""
    with np.errstate(all="ignore"):
        try:
            lhs, rhs = (np.atleast_1d(np.asarray(sides.evaluate(statement, side, instance, F64, timed=True), dtype=float))
                        for side in ("lhs", "rhs"))
            lhs, rhs = sides.broadcast_sides(lhs, rhs, statement=statement)
        except SideError:
            raise
        except Exception:  # noqa: BLE001 - decided in balls: certified, or ill-defined with the side named
            for side in ("lhs", "rhs"):  # unless the strategy draws what the sides cannot read: the user's to fix
                if (wrong := sides.misdrawn(statement, side, instance)) is not None:
                    raise wrong from None
            return Outcome(-1.0, True, np.nan, np.nan, np.nan, np.nan)
        margin = statement.violation(lhs, rhs)
        scale = np.maximum(np.abs(lhs), np.abs(rhs))
        relative = np.where(scale > 0, margin / np.where(scale > 0, scale, 1), 0 * margin)
        ratio, score = _ratio_and_score(statement, lhs, rhs)
    if not np.all(np.isfinite(lhs) & np.isfinite(rhs)):  # nan and ±inf are decided in balls, never dropped
        finite = relative[np.isfinite(relative)]
        return Outcome((float(finite.max()) if finite.size else 1.0), True, *ratio, score)
    return Outcome(float(np.max(relative)), bool(np.max(margin) > 0), *ratio, score)


def _ratio_and_score(statement: Statement, lhs: np.ndarray, rhs: np.ndarray) -> tuple[tuple, float]:
    """``((ratio, lhs, rhs), score)``: the largest ratio ``lhs/rhs`` (``rhs/lhs`` for ``>=``) over the elements
    with both sides finite and the bounding one positive, with both sides there (``nan`` when there is none),
    and the largest ratio among the elements not met with equality up to :data:`TIE_ULPS` roundings (``nan``
    when all are)."""
    top, bottom = (lhs, rhs) if statement.relation == "<=" else (rhs, lhs)
    with np.errstate(all="ignore"):
        usable = np.isfinite(top) & np.isfinite(bottom) & (bottom > 0)
        ratios = np.where(usable, top / np.where(usable, bottom, 1), -np.inf)
    at = int(np.argmax(ratios))
    ratio = (float(ratios.flat[at]), float(lhs.flat[at]), float(rhs.flat[at])) if usable.flat[at] else (np.nan,) * 3
    unequal = usable & (np.abs(top - bottom) > TIE_ULPS * np.finfo(float).eps * np.maximum(np.abs(top), np.abs(bottom)))
    score = float(np.max(ratios[unequal])) if np.any(unequal) else np.nan
    return ratio, score


def rounding(outcome: Outcome) -> Outcome:
    """The outcome of an instance whose float64 violation balls showed to be rounding: met with equality
    (relative margin 0), not suspicious any more, and no score: its float64 ratio is noise, which neither
    ``target()`` nor the optimiser should climb (the optimiser scores it as the worst, never as a violation)."""
    return outcome._replace(relative=min(outcome.relative, 0.0), suspicious=False, score=np.nan)


def aim(outcome: Outcome) -> None:
    """Steer Hypothesis toward a violation: the relative margin, and the ratio past equality cases where it differs."""
    target(outcome.relative, label="relative margin")
    if np.isfinite(outcome.score) and outcome.score != outcome.ratio:
        target(outcome.score, label="ratio past equality cases")
