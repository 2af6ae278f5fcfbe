"""The optimise phase: when Hypothesis finds no counterexample, :mod:`theorems.engine.optimiser` pushes the most
promising instances it met further; every float64 violation proposed is certified like the rest, but not shrunk.

>>> from theorems import STATEMENTS
>>> status(STATEMENTS["lemma1.upper"], optimise=False)
'off'
"""

from __future__ import annotations

import dataclasses

import numpy as np

from theorems.engine import optimiser
from theorems.engine.search.confirm import confirmed
from theorems.engine.search.report import Counterexample
from theorems.engine.search.state import Search
from theorems.engine.search.target import float_outcome
from theorems.engine.statement import Instance, Statement
from theorems.errors import IllDefined


def status(statement: Statement, *, optimise: bool) -> str:
    """Why the optimiser will not run (``""`` when it may)."""
    return "off" if not optimise else "not used (statistical statement)" if statement.confirm is not None else (
        "unavailable (this Hypothesis lacks the choice-sequence API)" if not optimiser.available() else "")


def remember(starts: list[optimiser.Start], ratio: float) -> None:
    """Keep the ``optimiser.STARTS`` instances with the largest ratio ``lhs/rhs`` (``rhs/lhs`` for ``>=``;
    above 1 is a violation), with their choices. The ratio, not the relative margin, so that instances
    where both sides vanish (margin 0) do not crowd out those near the supremum."""
    if len(starts) >= optimiser.STARTS and ratio <= min(s.score for s in starts):
        return
    recorded = optimiser.record()
    if recorded is None:
        return
    starts.append(optimiser.Start(ratio, *recorded))
    starts.sort(key=lambda s: -s.score)
    del starts[optimiser.STARTS:]


def push(search: Search) -> tuple[Counterexample | IllDefined | None, str]:
    """Push the best instances with the optimiser; what it found (marked as such), and how it ran."""
    found: list[Counterexample | IllDefined] = []

    def score(instance: Instance) -> float:
        return _score(search, instance, found)

    spent = optimiser.optimise(search.statement.instances, search.starts, score, stop=lambda: bool(found))
    payload = found[0] if found else None
    if isinstance(payload, Counterexample):
        search.mark_first()
        payload = dataclasses.replace(payload, method=payload.method + "; found by the optimiser (not shrunk)")
    return payload, f"Nelder–Mead over Hypothesis's float choices, {spent} proposals"


def _score(search: Search, instance: Instance, found: list) -> float:
    """The optimiser's objective at one proposal; a suspicious proposal is certified (until one is found)."""
    search.examples += 1
    outcome = float_outcome(search.statement, instance)
    search.meet(instance, outcome)
    if outcome.suspicious and not found:
        certified = confirmed(search, instance)
        if certified is not None:
            found.append(certified)
        else:
            search.artefacts += 1
    return outcome.score if np.isfinite(outcome.score) else (np.inf if outcome.suspicious else -np.inf)
