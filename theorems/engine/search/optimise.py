"""The optimise phase: when Hypothesis finds no counterexample, :mod:`theorems.engine.optimiser` pushes the most
promising instances it met further; every float64 violation proposed is certified like the rest, but not shrunk.

>>> from theorems import STATEMENTS
>>> status(STATEMENTS["lemma1.upper"], optimise=False)
'off'
"""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import settings

from theorems.engine import optimiser
from theorems.engine.search.confirm import confirmed
from theorems.engine.search.report import Counterexample
from theorems.engine.search.state import Search
from theorems.engine.search.target import Outcome, float_outcome, rounding
from theorems.engine.statement import Instance, Statement
from theorems.errors import IllDefined


def status(statement: Statement, *, optimise: bool) -> str:
    """Why the optimiser will not run (``""`` when it may)."""
    return "off" if not optimise else "not used (statistical statement)" if statement.confirm is not None else (
        "unavailable (this Hypothesis lacks the choice-sequence API)" if not optimiser.available() else "")


def remember(starts: list[optimiser.Start], score: float, key: str | None = None) -> None:
    """Offer the instance being tested to the optimiser's pool of starts (:func:`optimiser.keep`: distinct
    instances, a few per discrete structure, best score first), with its choices. The score is the ratio
    ``lhs/rhs`` (``rhs/lhs`` for ``>=``; above 1 is a violation) past equality cases, not the relative margin,
    so that instances where both sides vanish (margin 0) do not crowd out those near the supremum; an
    instance met with equality everywhere (score ``nan``) is never offered. An instance that cannot enter
    the pool is not even recorded (its choices are not read back from Hypothesis). ``key`` is the instance
    written out (the search's found-by-instance key): one instance is one start, whatever choices drew it."""
    if not optimiser.admits(starts, score):
        return
    recorded = optimiser.record()
    if recorded is not None:
        optimiser.keep(starts, optimiser.Start(score, *recorded, key=key))


def push(search: Search) -> tuple[Counterexample | IllDefined | None, str]:
    """Push the best instances with the optimiser; what it found (marked as such), and how it ran."""
    found: list[Counterexample | IllDefined] = []

    def score(instance: Instance) -> float:
        return optimiser_score(search, instance, found)

    budget = optimiser.evaluations(settings().max_examples)  # the loaded profile's, not the statement's own count
    spent = optimiser.optimise(search.statement.instances, search.starts, score, evaluations=budget,
                               stop=lambda: bool(found))
    payload = found[0] if found else None
    if isinstance(payload, Counterexample):
        search.mark_first()
        payload = dataclasses.replace(payload, method=payload.method + "; found by the optimiser (not shrunk)")
    return payload, f"Nelder–Mead over Hypothesis's float choices after a push to their edges, {spent} proposals"


def optimiser_score(search: Search, instance: Instance, found: list) -> float:
    """The optimiser's objective at one proposal; a suspicious proposal is certified (until one is found), and
    one that balls show to be rounding scores as the worst: its float64 ratio is noise (both sides near 0, or
    cancelling), and climbing it would spend the budget on certifications of noise."""
    search.examples += 1
    outcome = float_outcome(search.statement, instance)
    search.meet(instance, outcome)
    if outcome.suspicious and not found:
        certified, outcome = confirm_or_discount(search, instance, outcome)
        if certified is not None:
            found.append(certified)
    return outcome.score if np.isfinite(outcome.score) else (np.inf if outcome.suspicious else -np.inf)


def confirm_or_discount(search: Search, instance: Instance,
                        outcome: Outcome) -> tuple[Counterexample | IllDefined | None, Outcome]:
    """Certify a suspicious instance: what it found, and the outcome the search steers by. A float64
    violation that balls show to be rounding (a float artefact, or rounding-level residue) is counted and
    steers nothing: :func:`~theorems.engine.search.target.rounding`. A candidate (far above rounding,
    undecided) keeps its float64 outcome: it is real evidence."""
    candidates = search.candidate_count
    found = confirmed(search, instance)
    if found is not None:
        return found, outcome
    search.artefacts += 1
    return None, (outcome if search.candidate_count > candidates else rounding(outcome))
