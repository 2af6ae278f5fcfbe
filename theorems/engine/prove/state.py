"""The state of one branch-and-bound, and the sides of a statement as the prover reads them.

A :class:`BranchAndBound` is what one search over a domain's boxes knows: its statement, domain and slack, the boxes
evaluated, the proved enclosure ``[sup_low, sup_high]`` of ``sup small/big``, the closed boxes (``leaves``, what the
certificate states), which enclosure closed how many boxes, the precision and the budget. The phases
(:mod:`~theorems.engine.prove.points`, :mod:`~theorems.engine.prove.evaluate`, :mod:`~theorems.engine.prove.run`)
read and update it.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping

import numpy as np

from theorems.arithmetic.precision import START_BITS
from theorems.engine.prove.domain import Domain
from theorems.engine.statement import Statement, callback_result

TAYLOR_BELOW = 1e-3
"""The second-order form is tried on a box the mean-value form leaves open only when the mean-value bound of ``g``
is below this (a box close to closing, where ``O(r³)`` beats ``O(r²)``): on wider boxes both fail and the
second-order evaluation, about ``n`` times the cost, would be wasted."""


@dataclasses.dataclass(kw_only=True)
class BranchAndBound:
    """One search's state (see the module's docstring); ``taylor_below``: ``-inf`` turns the second-order form off."""

    statement: Statement
    domain: Domain
    slack: float
    boxes: int = 0
    sup_low: float = -np.inf
    sup_high: float = -np.inf
    ratio_known: bool = True
    leaves: list | None = None
    bits: int = START_BITS
    closed_by: dict = dataclasses.field(default_factory=dict)
    max_boxes: int | None = None
    taylor_below: float = TAYLOR_BELOW

    def sup(self, status: str) -> tuple[float, float] | None:
        """The proved enclosure of ``sup small/big`` when proved and ``big > 0`` on every box, else ``None``."""
        return (self.sup_low, self.sup_high) if self.ratio_known and status == "proved" else None

    def closed(self, method: str) -> None:
        self.closed_by[method] = self.closed_by.get(method, 0) + 1


def now() -> float:
    """The prover's clock (``time.perf_counter``): every deadline and every ``seconds`` is read from it."""
    return time.perf_counter()


def past(deadline: float | None) -> bool:
    """Whether ``deadline`` (a reading of :func:`now`; ``None``: none) has passed."""
    return deadline is not None and now() > deadline


def sides(statement: Statement, instance, xp):
    """``(instance, (lhs, rhs))``: the instance built from ``instance`` (its parameters, for a statement with
    ``parameters``) and both sides on it, against ``xp``."""
    if statement.parameters is not None:
        instance = callback_result(statement.parameters(instance, xp), statement_id=statement.id, name="parameters",
                                   callback=statement.parameters, accepted=lambda v: isinstance(v, Mapping),
                                   must="an instance: a mapping of the sides' keys to values")
    return instance, statement.sides(instance, xp)


def ordered(statement: Statement, lhs, rhs):
    """``(small, big)``: the claim is ``small ≤ big`` elementwise."""
    return (lhs, rhs) if statement.relation == "<=" else (rhs, lhs)


__all__ = ["BranchAndBound", "TAYLOR_BELOW", "now", "ordered", "past", "sides"]
