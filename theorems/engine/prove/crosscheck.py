"""A box's enclosures cross-checked at the box's centre, by the search's one policy
(:func:`theorems.engine.search.crosscheck.disagreement`).

Where the float64 sides at the centre lie farther than rounding from an enclosure, the sides are enclosed at the
centre in interval arithmetic (code apart from the jets), and only an enclosure disjoint from that one is an
:class:`~theorems.errors.EngineInconsistency` (a jet computing another function than the one it stands for: no proof
may rest on it). A float64 value far off alone is rounding (``(1e16 + x) − 1e16``).
"""

from __future__ import annotations

import numpy as np

from theorems.arithmetic.box_jet import BoxJet
from theorems.arithmetic.precision import Ball
from theorems.engine.prove.domain import centre
from theorems.engine.prove.state import BranchAndBound, ordered
from theorems.engine.search.crosscheck import disagreement, scale_of
from theorems.engine.search.enclosure import side_enclosure
from theorems.engine.statement import Statement, jsonable
from theorems.errors import EngineInconsistency


def cross_check_enclosure(search: BranchAndBound, lows, highs, small, big, floats) -> None:
    """The box's enclosures ``small`` and ``big`` (jets, or constants) against the sides at the box's centre
    (``floats``, from :func:`~theorems.engine.prove.points.floats_at_centre`): an
    :class:`~theorems.errors.EngineInconsistency` where one is disjoint from the sides' interval enclosure there."""
    if floats is None:
        return
    instance = search.domain.point(centre(lows, highs))
    scale = scale_of(floats[0].ravel(), floats[1].ravel())
    at_centre = CentreIntervals(search.statement, instance)
    for name, enclosures, values in (("small", small, floats[0].ravel()), ("big", big, floats[1].ravel())):
        firsts = [enclosure.value if isinstance(enclosure, BoxJet) else Ball(enclosure).arb for enclosure in enclosures]
        found = disagreement(firsts, values, scale, lambda name=name: at_centre.ordered(name))
        if found is not None:
            side = {"small": "lhs", "big": "rhs"}[name] if search.statement.relation == "<=" else (
                {"small": "rhs", "big": "lhs"}[name])
            raise EngineInconsistency(search.statement.id, instance, side, ball=found.first.str(17),
                                      value=found.second.midpoint(),
                                      reference=f"{found.reference()} at the box's centre (the ball: the enclosure on "
                                                f"the box {search.domain.describe(lows, highs)})",
                                      element=found.element, shown=jsonable(instance))


class CentreIntervals:
    """Both sides enclosed in intervals at one point, ordered ``(small, big)`` and flat like the box's enclosures;
    evaluated once, when first asked (``None`` where intervals cannot evaluate a side)."""

    def __init__(self, statement: Statement, instance) -> None:
        self.statement, self.instance, self.sides = statement, instance, None

    def ordered(self, name: str):
        if self.sides is None:
            lhs, rhs = (side_enclosure(getattr(self.statement, side), self.instance,
                                       parameters=self.statement.parameters) for side in ("lhs", "rhs"))
            self.sides = ((None, None) if lhs is None or rhs is None
                          else tuple(a.ravel() for a in np.broadcast_arrays(*ordered(self.statement, lhs, rhs))))
        return self.sides[0 if name == "small" else 1]


__all__ = ["CentreIntervals", "cross_check_enclosure"]
