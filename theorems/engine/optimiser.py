"""A bounded local optimiser after Hypothesis's generation: it pushes the most promising instances
toward a violation (or toward the supremum of ``lhs/rhs``, for the tightness report).

Hypothesis's ``target()`` hill-climber moves floats in coarse steps and cannot approach a supremum
reached only near ties or in a limit. Here the *choices Hypothesis made* for an instance are moved and
every proposal is replayed through the statement's own strategy (``ConjectureData.for_choices`` +
``draw``), so each proposal is an instance the strategy (and so the statement's hypotheses) admits:
bounds of each float are respected by clipping to the choice's own constraints, and a proposal the
strategy rejects (a failed ``assume``/filter) scores as the worst. Nothing the optimiser finds is
trusted: a float64 violation is certified like any other candidate.

Each run, from one start, has two moves:

- **edges** (:func:`push_to_edges`): each choice in turn is set to the ends of its own range — a float to
  its ``min_value``/``max_value``, a small integer (a length, a size, an index: a range of at most
  :data:`EDGE_INTEGERS` values) to its ends, a boolean to the other value — and kept when the score rises.
  This is how a supremum reached only in a limit is approached: the smallest ``T``, an entry at the
  strategy's bound, the largest ``L`` (a longer instance is replayed with the simplest choices appended).
  A local optimiser cannot get there: its steps are relative to where it starts, and a limit is a
  monotone climb to the edge of the domain;
- **Nelder–Mead** (scipy) on the float choices, from the point the edges reached: this polishes a
  supremum inside the domain (near ties, a small antisymmetric difference). A run that has not improved
  for :data:`PATIENCE` proposals per float (a plateau, an equality case) ends early and leaves its budget
  to the next start.

The starts (:func:`diverse`) are Hypothesis's best *distinct* instances, taken one per discrete structure
(the integer and boolean choices: length, shape, sizes) before a second of any: the best instances are
often near-copies of one another (Hypothesis's ``target()`` phase mutates its best), and one structure's
plateau must not take every run. After :data:`STARTS` runs, what is left of the budget restarts from the
next distinct instances.

This uses Hypothesis internals (the choice sequence of 6.1xx), all behind
:mod:`theorems.engine.hypothesis_internals`. :func:`available` says whether they are present; if a
release changes them, the search runs without the optimiser, warns and says so in its report.

>>> available()
True
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from theorems.engine import hypothesis_internals as internals

EVALUATIONS = 600
"""Proposals evaluated per search, over every start together (a count, so that results do not depend on load),
at :data:`BASE_EXAMPLES` examples; :func:`evaluations` scales it with the profile."""

BASE_EXAMPLES = 100
"""The examples of the default profile (``theorems-dev``), at which the optimiser gets :data:`EVALUATIONS`."""


def evaluations(profile_examples: int) -> int:
    """The optimiser's budget under a profile of ``profile_examples`` examples per search: a profile that asks
    for a harder search gets one in both phases (under ``theorems-ci``'s 300, 1,800 proposals), never less than
    :data:`EVALUATIONS`; more Hypothesis examples alone change the starts, and can miss what fewer found.

    >>> evaluations(100), evaluations(300), evaluations(30)
    (600, 1800, 600)
    """
    return max(EVALUATIONS, EVALUATIONS * profile_examples // BASE_EXAMPLES)

STARTS = 3
"""How many runs share the budget (each run may hand what it did not use to the next start)."""

POOL = 12
"""How many distinct instances are kept as starts, at most :data:`PER_STRUCTURE` of each discrete structure."""

PER_STRUCTURE = 3
"""Distinct instances kept per discrete structure (see :attr:`Start.structure`)."""

EDGE_INTEGERS = 64
"""An integer choice with at most this many values (a length, a size, an index into ``sampled_from``) is
pushed to its ends; a wider one (a seed) is an identifier, not a parameter with edges."""

EDGE_SHARE = 0.5
"""The most of a run's budget the edges may spend before Nelder–Mead starts."""

PATIENCE = 12
"""A Nelder–Mead run that has not raised its best score for ``PATIENCE × (floats + 1)`` proposals stops."""


@dataclasses.dataclass
class Start:
    """An instance met during the search, with the choices that produced it and its score."""

    score: float
    choices: tuple
    constraints: tuple  # per choice: (type, constraints)
    key: str | None = None
    """The instance itself, written out (the search's found-by-instance key): two choice sequences may draw
    one instance (an array's fill, an index that lands on the same entry), and a start is one instance."""

    @property
    def structure(self) -> tuple:
        """The discrete structure of the instance: every choice that is not a float (a length, a shape, a
        size, a seed), with the floats' places. Instances of one structure differ only by their floats."""
        return tuple(kind if kind == "float" else (kind, value)
                     for value, (kind, _) in zip(self.choices, self.constraints))


def available() -> bool:
    """Whether this Hypothesis lets the optimiser record and replay choices (warns once when not)."""
    return internals.optimiser_available()


def record() -> tuple | None:
    """The choices and their constraints of the example being tested now, or ``None`` outside a test."""
    return internals.record()


def replay(strategy, choices: tuple) -> Any | None:
    """The instance ``strategy`` draws from ``choices``, or ``None`` when it rejects them."""
    return internals.replay(strategy, choices)


def keep(pool: list[Start], start: Start) -> None:
    """Add ``start`` to ``pool`` (best first) unless it repeats an instance there or its structure already has
    :data:`PER_STRUCTURE` better ones; at most :data:`POOL` are kept.

    >>> pool = []
    >>> for score, choices in ((0.5, (1, 0.1)), (0.9, (1, 0.2)), (0.9, (1, 0.2)), (0.7, (2, 0.3))):
    ...     keep(pool, Start(score, choices, (("integer", {}), ("float", {}))))
    >>> [(s.score, s.choices) for s in pool]
    [(0.9, (1, 0.2)), (0.7, (2, 0.3)), (0.5, (1, 0.1))]
    """
    if any(s.choices == start.choices or (start.key is not None and s.key == start.key) for s in pool):
        return
    same = [s for s in pool if s.structure == start.structure]
    if len(same) >= PER_STRUCTURE:
        worst = min(same, key=lambda s: s.score)
        if start.score <= worst.score:
            return
        pool.remove(worst)
    pool.append(start)
    pool.sort(key=lambda s: -s.score)
    del pool[POOL:]


def admits(pool: list[Start], score: float) -> bool:
    """Whether an instance scoring ``score`` could enter a full ``pool`` (a cheap test before its choices are read)."""
    return len(pool) < POOL or score > pool[-1].score


def diverse(pool: list[Start]) -> list[Start]:
    """The pool in the order the runs take it: the best of each structure (best structures first), then the
    second best of each, and so on.

    >>> kinds = (("integer", {}), ("float", {}))
    >>> pool = [Start(0.9, (1, 0.2), kinds), Start(0.8, (1, 0.3), kinds), Start(0.7, (2, 0.1), kinds)]
    >>> [s.score for s in diverse(pool)]
    [0.9, 0.7, 0.8]
    """
    groups: dict[tuple, list[Start]] = {}
    for start in sorted(pool, key=lambda s: -s.score):
        groups.setdefault(start.structure, []).append(start)
    rounds = max((len(g) for g in groups.values()), default=0)
    return [group[k] for k in range(rounds) for group in groups.values() if k < len(group)]


@dataclasses.dataclass
class _Budget:
    total: int
    spent: int = 0

    @property
    def left(self) -> int:
        return self.total - self.spent


class _Done(Exception):
    """A run's share is spent, it stagnates, or the caller's ``stop`` says so."""


class _Run:
    """One run's objective: replays proposals, counts them against the budget, remembers the best point."""

    def __init__(self, strategy, start: Start, score: Callable[[Any], float], budget: _Budget, share: int,
                 stop: Callable[[], bool]) -> None:
        self.strategy, self.score_of, self.budget, self.stop = strategy, score, budget, stop
        self.best = start
        self.end = budget.spent + share
        self.since_best = 0

    def evaluate(self, choices: tuple, *, grow: bool = False) -> tuple[float, Start | None]:
        """The score of the instance ``choices`` replay to (``-inf`` when the strategy rejects them), and that
        point; the run's best is updated."""
        if self.stop() or self.budget.spent >= min(self.end, self.budget.total):
            raise _Done
        self.budget.spent += 1
        self.since_best += 1
        replayed = internals.replay_recorded(self.strategy, choices, grow=grow)
        if replayed is None:
            return -math.inf, None
        instance, used, constraints = replayed
        value = self.score_of(instance)
        value = value if not math.isnan(value) else -math.inf
        point = Start(value, used, constraints)
        if value > self.best.score:
            self.best, self.since_best = point, 0
        return value, point


def optimise(strategy, starts: list[Start], score: Callable[[Any], float], *,
             evaluations: int = EVALUATIONS, stop: Callable[[], bool] = lambda: False) -> int:
    """Push each start (in :func:`diverse` order) to its edges, then run Nelder–Mead on its float choices,
    maximising ``score(instance)``.

    ``score`` is called on every valid proposal (the caller records what it needs and may set ``stop``);
    returns the number of proposals evaluated.
    """
    budget = _Budget(evaluations)
    order = diverse(starts)
    runs = min(STARTS, len(order))
    for k, start in enumerate(order):
        if stop() or budget.left <= 0:
            break
        share = budget.left // max(runs - k, 1)  # what a run leaves goes to the next; past STARTS, restarts
        run = _Run(strategy, start, score, budget, share, stop)
        try:
            push_to_edges(run, limit=budget.spent + max(int(share * EDGE_SHARE), 1))
            _nelder_mead(run)
        except _Done:
            pass
    return budget.spent


def push_to_edges(run: _Run, *, limit: int) -> None:
    """Passes over the choices of the run's best point: each is set to the ends of its range in turn, and the
    move is kept when the score rises (a longer instance is replayed with the simplest choices appended);
    another pass while one moved something (the best end of one choice may depend on another's), within
    ``limit`` proposals."""
    moved = True
    while moved and run.budget.spent < limit:
        moved, k = False, 0
        while k < len(run.best.choices) and run.budget.spent < limit:
            here = run.best
            for value in _edges(here.choices[k], *here.constraints[k]):
                if run.budget.spent >= limit:
                    return
                _, point = run.evaluate(here.choices[:k] + (value,) + here.choices[k + 1:], grow=True)
                if point is not None and len(point.choices) > len(here.choices):
                    _settle(run, point, first=k + 1, limit=limit)
            moved |= run.best is not here
            k += 1


def _settle(run: _Run, point: Start, *, first: int, limit: int) -> None:
    """A move that lengthened the instance (a larger ``L``) is judged after the choices it moved or added are
    pushed to their edges too: the new entries come as the simplest ones (0), and an instance of the largest
    ``L`` is often better than the shorter one only once they also sit at the bound. The run's best is
    updated by what :meth:`_Run.evaluate` meets; here each choice keeps the end that raised ``point``'s score."""
    for k in range(first, len(point.choices)):
        for value in _edges(point.choices[k], *point.constraints[k]):
            if run.budget.spent >= limit:
                return
            score, moved = run.evaluate(point.choices[:k] + (value,) + point.choices[k + 1:], grow=True)
            if moved is not None and score > point.score and len(moved.choices) == len(point.choices):
                point = moved


def _edges(value, kind: str, constraints: dict) -> Iterator:
    """The ends of one choice's range that differ from ``value``."""
    if kind == "boolean":
        if 0 < constraints.get("p", 0.5) < 1:
            yield not value
        return
    low, high = constraints.get("min_value"), constraints.get("max_value")
    if kind == "integer" and (low is None or high is None or high - low > EDGE_INTEGERS):
        return
    if kind not in ("float", "integer"):
        return
    for end in (low, high):
        if end is not None and (kind == "integer" or math.isfinite(end)) and end != value:
            yield end


def _clip(value: float, constraints: dict) -> float:
    low, high = constraints.get("min_value", -math.inf), constraints.get("max_value", math.inf)
    value = min(max(value, low), high)
    if not math.isfinite(value):
        return float(np.clip(value, -1e300, 1e300))
    return value


def _nelder_mead(run: _Run) -> None:
    """Nelder–Mead on the float choices of the run's best point, until its share is spent or it stagnates."""
    from scipy.optimize import minimize

    start = run.best
    floats = [k for k, (kind, _) in enumerate(start.constraints)
              if kind == "float" and isinstance(start.choices[k], float) and math.isfinite(start.choices[k])]
    if not floats:
        return
    patience = PATIENCE * (len(floats) + 1)
    run.since_best = 0

    def objective(x):
        choices = list(start.choices)
        for k, value in zip(floats, x):
            choices[k] = _clip(float(value), start.constraints[k][1])
        value, _ = run.evaluate(tuple(choices))
        if run.since_best > patience:
            raise _Done
        return -value if math.isfinite(value) else (-1e300 if value > 0 else math.inf)

    x0 = np.array([start.choices[k] for k in floats], dtype=float)
    # a simplex of relative steps, so that moves near ties and near 0 are fine enough
    simplex = np.vstack([x0] + [x0 + np.eye(len(x0))[j] * max(abs(x0[j]) * 0.05, 1e-3) for j in range(len(x0))])
    minimize(objective, x0, method="Nelder-Mead",
             options={"maxfev": max(run.end - run.budget.spent, 1), "initial_simplex": simplex,
                      "xatol": 1e-12, "fatol": 1e-14})
