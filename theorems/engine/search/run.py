"""One search, phase by phase: generate (with ``target()``, certification and shrinking), then optimise.

>>> from theorems import STATEMENTS
>>> investigate(STATEMENTS["corollary1.own-key.upper"], max_examples=200, seed=0).counterexample.size
2
"""

from __future__ import annotations

from collections.abc import Callable

from theorems.engine import optimiser
from theorems.engine.search import optimise as optimise_phase
from theorems.engine.search.arguments import check_search_arguments, check_statement
from theorems.engine.search.generate import generate
from theorems.engine.search.limits import SHRINK_EVALUATIONS
from theorems.engine.search.report import SearchReport
from theorems.engine.search.state import Search
from theorems.engine.statement import Statement


def investigate(statement: Statement, *, max_examples: int | None = None, seed: int | None = None,
                shrink_evaluations: int = SHRINK_EVALUATIONS,
                progress: Callable[[int, float], None] | None = None, optimise: bool = True) -> SearchReport:
    """Search for a certified, shrunk counterexample and report what the search did.

    Every float64 violation is certified in ball arithmetic (or by the statement's ``confirm``);
    the largest ratio of the two sides met is reported as :attr:`SearchReport.tightness`.
    ``progress(examples, seconds)`` is called every :data:`PROGRESS_SECONDS` on long searches.
    When Hypothesis finds no counterexample, :mod:`theorems.engine.optimiser` pushes the most promising
    instances further (``optimise=False`` turns it off); what it finds is certified like the rest,
    but not shrunk: its size is that of the instance it started from.

    >>> from theorems import STATEMENTS
    >>> report = investigate(STATEMENTS["lemma1.upper"], max_examples=30, seed=0)
    >>> report.counterexample is None and 0 < report.tightness.ratio <= 1
    True
    """
    check_statement(statement)
    check_search_arguments(max_examples=max_examples, seed=seed, shrink_evaluations=shrink_evaluations,
                           progress=progress)
    search = Search(statement, shrink_evaluations=shrink_evaluations, progress=progress,
                    use_optimiser=optimise and statement.confirm is None and optimiser.available())
    payload = generate(search, max_examples=max_examples or statement.max_examples, seed=seed)
    if search.stopped is not None:
        raise search.stopped
    status = optimise_phase.status(statement, optimise=optimise)
    if payload is None and search.use_optimiser:
        payload, status = optimise_phase.push(search)
    return search.report(payload, status)
