"""The float64 sides at points of the domain: a quick refutation before and during the branch-and-bound.

A violation at a point goes to the certifier (:func:`~theorems.engine.search.certify`), so a refutation is the same
certified counterexample ``check`` reports; a point outside the domain as written (the float just below a written
``0.1``, inside the widened box) refutes nothing; a side raising inside the domain is ill-defined there.
"""

from __future__ import annotations

import numpy as np

from theorems.arithmetic.precision import F64
from theorems.engine.prove.domain import centre
from theorems.engine.prove.state import BranchAndBound, ordered, past, sides
from theorems.engine.search import Counterexample, IllDefined, certify
from theorems.engine.statement import jsonable
from theorems.errors import InvalidArgument

RANDOM_POINTS = 64
"""Float64 points drawn (with ``seed``) over the domain before the branch-and-bound, for a quick refutation."""


class Refuted(Exception):
    """A certified counterexample met inside a box's evaluation (at the vertex its monotone faces lead to)."""

    def __init__(self, counterexample: Counterexample) -> None:
        super().__init__("a certified counterexample at a vertex")
        self.counterexample = counterexample


def sample(search: BranchAndBound, rng, deadline: float | None) -> Counterexample | None:
    """The domain's centre, then :data:`RANDOM_POINTS` points drawn by ``rng``: the first certified counterexample."""
    lows, highs = search.domain.lows, search.domain.highs
    points = [centre(lows, highs)] + [rng.uniform(lows, highs) for _ in range(RANDOM_POINTS)]
    for point in points:
        if past(deadline):
            return None
        counterexample = refute_at(search, point)
        if counterexample is not None:
            return counterexample
    return None


def refute_at(search: BranchAndBound, point) -> Counterexample | None:
    """Evaluate the float64 sides at ``point``; a violation goes to the certifier (as in ``check``). A point outside
    the domain as written refutes nothing."""
    if not search.domain.holds(point):
        return None
    statement = search.statement
    instance = search.domain.point(point)
    with np.errstate(all="ignore"):
        try:
            full, (lhs, rhs) = sides(statement, instance, F64)
        except InvalidArgument:  # a user callback's unreadable result (parameters=): the user's to fix, not a verdict
            raise
        except Exception as error:  # noqa: BLE001 - a side raising inside the domain: ill-defined there
            raise IllDefined(statement.id, instance, "a side", f"raises {type(error).__name__}: {error}",
                             shown=jsonable(instance)) from error
        small, big = (np.atleast_1d(np.asarray(side, dtype=float)) for side in ordered(statement, lhs, rhs))
        small, big = np.broadcast_arrays(small, big)
    if not np.any(small - big > 0) and not np.any(np.isnan(small - big)):
        return None
    certificate = certify(statement, full)
    return certificate.counterexample if certificate.status == "violated" else None


def refute_vertex(search: BranchAndBound, point) -> None:
    """The faces led to one point where ``g > 0`` is certain: the claim fails there (a violation only at an end of
    the domain, which no sampled point or box centre meets), so it goes to the certifier, if the point lies in the
    domain as written; :class:`Refuted` when certified."""
    counterexample = refute_at(search, point)
    if counterexample is not None:
        raise Refuted(counterexample)


def floats_at_centre(search: BranchAndBound, lows, highs):
    """``(small, big)``, the float64 sides at the box's centre broadcast together; ``None`` where they have no value
    there (nothing to cross-check them with)."""
    instance = search.domain.point(centre(lows, highs))
    with np.errstate(all="ignore"):
        try:
            _, (lhs, rhs) = sides(search.statement, instance, F64)
            return np.broadcast_arrays(*(np.atleast_1d(np.asarray(side, dtype=float))
                                         for side in ordered(search.statement, lhs, rhs)))
        except Exception:  # noqa: BLE001 - a side raising at the centre: refuted or ill-defined elsewhere, not here
            return None


__all__ = ["RANDOM_POINTS", "Refuted", "floats_at_centre", "refute_at", "refute_vertex", "sample"]
