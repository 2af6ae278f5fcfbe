"""The search's verdicts: a counterexample (:func:`refute`), a verdict against what is expected (:func:`check`),
and whether a hypothesis is needed (:func:`necessity`).

>>> from theorems import STATEMENTS
>>> check(STATEMENTS["lemma1.upper"], max_examples=30, seed=0).found
'holds'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from theorems.engine.search.arguments import check_search_arguments, check_statement
from theorems.engine.search.limits import SHRINK_EVALUATIONS
from theorems.engine.search.report import Counterexample, Necessity, Verdict
from theorems.engine.search.run import investigate
from theorems.engine.statement import Statement
from theorems.errors import InvalidArgument, InvalidArgumentType


def refute(statement: Statement, *, max_examples: int | None = None, seed: int | None = None,
           shrink_evaluations: int = SHRINK_EVALUATIONS) -> Counterexample | None:
    """A certified, minimal counterexample to ``statement``, or ``None`` when the search finds none.

    The search is steered with ``hypothesis.target`` toward the smallest slack, shrunk by
    Hypothesis to a minimal instance, and every candidate is certified in ball arithmetic (or by the
    statement's own ``confirm``); float artefacts are discarded. Raises :class:`IllDefined` when the
    search meets an instance where a side has no value, :class:`~theorems.errors.EngineInconsistency` when a side's
    balls disagree with its float64 value there.
    """
    report = investigate(statement, max_examples=max_examples, seed=seed, shrink_evaluations=shrink_evaluations)
    if report.ill_defined is not None:
        raise report.ill_defined
    if report.engine_inconsistency is not None:
        raise report.engine_inconsistency
    return report.counterexample



def necessity(statement: Statement, hypothesis_name: str, *, max_examples: int | None = None,
              seed: int | None = None) -> Necessity:
    """Search over instances that break exactly ``hypothesis_name`` (and satisfy every other one).

    >>> from theorems import STATEMENTS, necessity
    >>> necessity(STATEMENTS["lemma1.upper"], "length-independent", seed=0).needed
    True
    """
    check_statement(statement)
    if not isinstance(hypothesis_name, str):
        raise InvalidArgumentType(f"hypothesis_name={hypothesis_name!r} must be a str, one of "
                        f"{[h.name for h in statement.hypotheses]}")
    check_search_arguments(max_examples=max_examples, seed=seed)
    hypothesis = statement.hypothesis(hypothesis_name)
    if hypothesis.violated_by is None:
        raise InvalidArgument(f"hypothesis {hypothesis_name!r} of {statement.id!r} has no violating instances to search")
    probe = dataclasses.replace(statement, instances=hypothesis.violated_by)
    report = investigate(probe, max_examples=max_examples, seed=seed)
    if report.engine_inconsistency is not None:  # "not needed" would rest on balls the engine got wrong
        raise report.engine_inconsistency
    found = report.counterexample
    return Necessity(statement.id, hypothesis_name, found is not None, found)


def check(statement: Statement, *, max_examples: int | None = None, seed: int | None = None,
          progress: Callable[[int, float], None] | None = None) -> Verdict:
    """Run the search and compare its verdict with ``statement.expected`` (see :data:`FOUND`)."""
    report = investigate(statement, max_examples=max_examples, seed=seed, progress=progress)
    found = ("engine-inconsistency" if report.engine_inconsistency
             else "refuted" if report.counterexample else "ill-defined" if report.ill_defined
             else "candidate" if report.candidate_count else "holds")
    return Verdict(statement.id, statement.expected, found, report)
