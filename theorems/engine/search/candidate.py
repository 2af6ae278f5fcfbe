"""Candidates: float64 violations far above rounding that balls could not decide, and where a relation fails most.

>>> from theorems import STATEMENTS
>>> found = candidate_at(STATEMENTS["corollary1.own-key.upper"], {"q": np.array([1.0]), "keys": np.array([[0.0], [-2.0]]), "T": 1.0}, "")
>>> round(found.relative_margin, 4), found.reason
(0.4323, 'ball arithmetic could not decide it')
"""

from __future__ import annotations

from typing import Any

import numpy as np

from theorems.arithmetic import precision
from theorems.arithmetic.precision import F64, MP, lift
from theorems.engine import sides
from theorems.engine.search.limits import CANDIDATE_MARGIN, HIGH_PRECISION_DIGITS
from theorems.engine.search.report import Candidate
from theorems.engine.sides import SideError
from theorems.engine.statement import Instance, Statement


def worst(statement: Statement, instance: Instance, xp) -> tuple[Any, Any, Any, Any]:
    """``(lhs, rhs, margin, relative_margin)`` at the element where the relation fails most (float64 or mpmath)."""
    dtype = float if xp is F64 else object
    lhs, rhs = (np.atleast_1d(np.asarray(sides.evaluate(statement, side, instance, xp), dtype=dtype))
                for side in ("lhs", "rhs"))
    lhs, rhs = np.broadcast_arrays(lhs, rhs)
    margin = np.asarray(statement.violation(lhs, rhs), dtype=dtype)
    scale = np.asarray(np.maximum(np.abs(lhs), np.abs(rhs)), dtype=dtype)
    positive = np.asarray(scale > 0, dtype=bool)
    with np.errstate(all="ignore"):
        relative = np.asarray(np.where(positive, margin / np.where(positive, scale, 1), 0 * margin), dtype=dtype)
    ranking = np.nan_to_num(relative, nan=np.inf) if xp is F64 else precision.to_float(relative)
    at = np.unravel_index(int(np.argmax(ranking)), relative.shape)
    return lhs[at], rhs[at], margin[at], relative[at]


def candidate_at(statement: Statement, instance: Instance, reason: str) -> Candidate | None:
    """The :class:`Candidate` at an instance balls could not decide, or ``None`` when its float64 violation is
    rounding-level (relative margin below :data:`CANDIDATE_MARGIN`, in float64 or at high precision)."""
    with np.errstate(all="ignore"):
        try:
            lhs, rhs, margin, relative = worst(statement, instance, F64)
        except SideError:
            raise
        except Exception:  # noqa: BLE001 - a float64 side that raises is decided in balls (ill-defined)
            return None
    if not np.isfinite(relative) or relative < CANDIDATE_MARGIN:
        return None
    high = _high_precision_margin(statement, instance)
    if high is not None and high[1] < CANDIDATE_MARGIN:
        return None
    return Candidate(statement_id=statement.id, instance=instance, lhs=float(lhs), rhs=float(rhs), margin=float(margin),
                     relative_margin=float(relative), high_precision_margin=None if high is None else high[0],
                     reason=reason or "ball arithmetic could not decide it")


def _high_precision_margin(statement: Statement, instance: Instance) -> tuple[float, float] | None:
    """``(margin, relative margin)`` re-evaluated with mpmath at :data:`HIGH_PRECISION_DIGITS` digits, or
    ``None`` where a side cannot run on mpmath numbers."""
    import mpmath

    try:
        with mpmath.workdps(HIGH_PRECISION_DIGITS), np.errstate(all="ignore"):
            _, _, margin, relative = worst(statement, lift(dict(instance)), MP)
            return float(margin), float(relative)
    except SideError:
        raise
    except Exception:  # noqa: BLE001 - np.linalg, scipy and float() do not run on mpmath numbers
        return None
