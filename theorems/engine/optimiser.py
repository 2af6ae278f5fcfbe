"""A bounded local optimiser after Hypothesis's generation: it pushes the most promising instances
toward a violation (or toward the supremum of ``lhs/rhs``, for the tightness report).

Hypothesis's ``target()`` hill-climber moves floats in coarse steps and cannot approach a supremum
reached only near ties or in a limit. Here, scipy's Nelder–Mead moves the *float choices Hypothesis
made* for an instance and replays every proposal through the statement's own strategy
(``ConjectureData.for_choices`` + ``draw``), so each proposal is an instance the strategy (and so the
statement's hypotheses) admits: bounds of each float are respected by clipping to the choice's own
constraints, and a proposal the strategy rejects (a failed ``assume``/filter) scores as the worst.
Nothing the optimiser finds is trusted: a float64 violation is certified like any other candidate.

This uses Hypothesis internals (the choice sequence of 6.1xx), all behind
:mod:`theorems.engine.hypothesis_internals`. :func:`available` says whether they are present; if a
release changes them, the search runs without the optimiser, warns and says so in its report.

>>> available()
True
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from theorems.engine import hypothesis_internals as internals

EVALUATIONS = 600
"""Proposals evaluated per search, over every start together (a count, so that results do not depend on load)."""

STARTS = 3
"""How many of the most promising instances the optimiser starts from."""


@dataclasses.dataclass
class Start:
    """An instance met during the search, with the choices that produced it and its score."""

    score: float
    choices: tuple
    constraints: tuple  # per choice: (type, constraints)


def available() -> bool:
    """Whether this Hypothesis lets the optimiser record and replay choices (warns once when not)."""
    return internals.optimiser_available()


def record() -> tuple | None:
    """The choices and their constraints of the example being tested now, or ``None`` outside a test."""
    return internals.record()


def replay(strategy, choices: tuple) -> Any | None:
    """The instance ``strategy`` draws from ``choices``, or ``None`` when it rejects them."""
    return internals.replay(strategy, choices)


def _clip(value: float, constraints: dict) -> float:
    low, high = constraints.get("min_value", -math.inf), constraints.get("max_value", math.inf)
    value = min(max(value, low), high)
    if not math.isfinite(value):
        return float(np.clip(value, -1e300, 1e300))
    return value


def optimise(strategy, starts: list[Start], score: Callable[[Any], float], *,
             evaluations: int = EVALUATIONS, stop: Callable[[], bool] = lambda: False) -> int:
    """Run Nelder–Mead from each start on its float choices, maximising ``score(instance)``.

    ``score`` is called on every valid proposal (the caller records what it needs and may set
    ``stop``); returns the number of proposals evaluated.
    """
    from scipy.optimize import minimize

    spent = 0
    per_start = max(evaluations // max(len(starts), 1), 1)
    for start in starts:
        floats = [k for k, (kind, c) in enumerate(start.constraints) if kind == "float"
                  and isinstance(start.choices[k], float) and math.isfinite(start.choices[k])]
        if not floats or stop() or spent >= evaluations:
            continue
        base = list(start.choices)

        def objective(x):
            nonlocal spent
            spent += 1
            choices = list(base)
            for k, value in zip(floats, x):
                choices[k] = _clip(float(value), start.constraints[k][1])
            instance = replay(strategy, tuple(choices))
            if instance is None:
                return math.inf
            value = score(instance)
            return -value if math.isfinite(value) else (-1e300 if value > 0 else math.inf)

        x0 = np.array([start.choices[k] for k in floats], dtype=float)
        # a simplex of relative steps, so that moves near ties and near 0 are fine enough
        simplex = np.vstack([x0] + [x0 + np.eye(len(x0))[j] * max(abs(x0[j]) * 0.05, 1e-3) for j in range(len(x0))])

        def callback(_):
            if stop():
                raise StopIteration

        try:
            minimize(objective, x0, method="Nelder-Mead", callback=callback,
                     options={"maxfev": min(per_start, evaluations - spent), "initial_simplex": simplex,
                              "xatol": 1e-12, "fatol": 1e-14})
        except StopIteration:
            break
    return spent
