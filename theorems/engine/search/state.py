"""The search as an object: everything one search has met so far, in one place, and the report it makes.

The phases (:mod:`~theorems.engine.search.generate`, ``target``, ``confirm``, ``shrink``, ``optimise``)
read and update a :class:`Search`; :func:`~theorems.engine.search.run.investigate` runs them in order.

>>> from theorems import STATEMENTS
>>> search = Search(STATEMENTS["lemma1.upper"])
>>> search.examples, search.best, search.first, search.report(None, "off").counterexample
(0, None, None, None)
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

import numpy as np

from theorems.engine import optimiser
from theorems.engine.search.limits import PROGRESS_SECONDS, SHRINK_EVALUATIONS
from theorems.engine.search.report import Candidate, Counterexample, SearchReport, Tightness
from theorems.engine.search.target import Outcome
from theorems.engine.sides import SideError
from theorems.engine.statement import Instance, Statement
from theorems.errors import EngineInconsistency, IllDefined, InvalidArgument


@dataclasses.dataclass(eq=False)
class Search:
    """One search's state: its settings, its counts, what it found, and when.

    ``found_by_key`` maps an instance (its JSON ``repr``) to what certifying it found, so that Hypothesis's
    replays of it fail the same way after the shrink budget is spent; ``first`` is the time to the first
    counterexample; ``best`` the largest tightness ratio met; ``starts`` the instances the optimiser will push.
    """

    statement: Statement
    shrink_evaluations: int = SHRINK_EVALUATIONS
    progress: Callable[[int, float], None] | None = None
    use_optimiser: bool = False
    examples: int = 0
    artefacts: int = 0
    after_first: int = 0
    """New instances evaluated since the first counterexample (the shrink budget spent)."""
    inconclusive: int = 0
    certified: int = 0
    candidate_count: int = 0
    candidates: list[Candidate] = dataclasses.field(default_factory=list)
    not_certifiable: int = 0
    not_certifiable_reason: str = ""
    """Why balls could not certify the first float64 violation that the high-precision re-evaluation dismissed."""
    stopped: SideError | InvalidArgument | None = None
    """A side whose value or cost cannot be checked: it ends the search at once."""
    found_by_key: dict[str, Counterexample | IllDefined] = dataclasses.field(default_factory=dict)
    first: float | None = None
    best: Tightness | None = None
    starts: list[optimiser.Start] = dataclasses.field(default_factory=list)
    start: float = dataclasses.field(default_factory=time.perf_counter)
    shown: float = dataclasses.field(init=False)
    """When ``progress`` was last called (the start until then)."""

    def __post_init__(self) -> None:
        self.shown = self.start

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def mark_first(self) -> None:
        """Note the time to the first counterexample (once)."""
        if self.first is None:
            self.first = self.elapsed()

    def meet(self, instance: Instance, outcome: Outcome) -> None:
        """Keep the instance if its tightness ratio is the largest met so far."""
        if np.isfinite(outcome.ratio) and (self.best is None or outcome.ratio > self.best.ratio):
            self.best = Tightness(outcome.ratio, instance, outcome.lhs, outcome.rhs)

    def tell_progress(self) -> None:
        """Call ``progress(examples, seconds)`` every :data:`PROGRESS_SECONDS`."""
        if self.progress is not None and time.perf_counter() - self.shown >= PROGRESS_SECONDS:
            self.shown = time.perf_counter()
            self.progress(self.examples, self.shown - self.start)

    def tightness(self, payload) -> Tightness | None:
        """The largest ratio met, when nothing was found; a ratio above 1 with no candidate is capped at 1."""
        tightness = self.best if payload is None else None
        if tightness is not None and not self.candidates and tightness.ratio > 1:
            # every ratio above 1 was a float64 violation that balls showed to be rounding (or rounding-level
            # residue they could not settle): the bound is met with equality there, not exceeded
            tightness = dataclasses.replace(tightness, ratio=1.0)
        return tightness

    def report(self, payload: Counterexample | IllDefined | None, optimiser_status: str) -> SearchReport:
        return SearchReport(
            statement_id=self.statement.id,
            counterexample=payload if isinstance(payload, Counterexample) else None,
            examples=self.examples, seconds=self.elapsed(), seconds_to_counterexample=self.first,
            float_artefacts=self.artefacts, tightness=self.tightness(payload), inconclusive=self.inconclusive,
            ill_defined=payload if isinstance(payload, IllDefined) else None, optimiser=optimiser_status,
            certified=self.certified, candidates=tuple(self.candidates), candidate_count=self.candidate_count,
            engine_inconsistency=payload if isinstance(payload, EngineInconsistency) else None,
            not_certifiable=self.not_certifiable, not_certifiable_reason=self.not_certifiable_reason,
        )
