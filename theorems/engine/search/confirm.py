"""Confirmation: a float64 violation is certified in ball arithmetic (or by the statement's own ``confirm``), and
what balls cannot decide is tallied as a candidate or as inconclusive.

>>> import numpy as np
>>> from theorems import STATEMENTS
>>> confirm_in_high_precision(STATEMENTS["corollary1.own-key.upper"],
...                           {"q": np.array([1.0]), "keys": np.array([[0.0], [-2.0]]), "T": 1.0}).size
2
"""

from __future__ import annotations

from theorems.engine.search.balls import certify
from theorems.engine.search.candidate import Vanished, candidate_at
from theorems.engine.search.limits import CANDIDATE_MARGIN, CANDIDATES_KEPT
from theorems.engine.search.report import Certificate, Counterexample
from theorems.engine.search.state import Search
from theorems.engine.statement import Instance, Statement, callback_result
from theorems.errors import EngineInconsistency, IllDefined


def confirm_in_high_precision(statement: Statement, instance: Instance) -> Counterexample | None:
    """The certified counterexample at ``instance``, or ``None`` when the violation is rounding or undecided.

    Raises :class:`IllDefined` where a side has no value (see :func:`certify`).
    """
    return certify(statement, instance).counterexample


def confirmation(statement: Statement):
    """The statement's own ``confirm`` (its result checked: :func:`own_confirmation`), or the default
    ball-arithmetic certification."""
    if statement.confirm is not None:
        return lambda instance: own_confirmation(statement, instance)
    return lambda instance: confirm_in_high_precision(statement, instance)


def own_confirmation(statement: Statement, instance: Instance) -> Counterexample | None:
    """``statement.confirm(instance)``, which must be a :class:`Counterexample` (confirmed) or ``None`` (not
    confirmed): anything else (``'yes'``, ``True``, a numpy bool) is an
    :class:`~theorems.errors.InvalidArgument` naming the statement and the callback, never read as a verdict."""
    return callback_result(statement.confirm(instance), statement_id=statement.id, name="confirm",
                           callback=statement.confirm, accepted=lambda v: v is None or isinstance(v, Counterexample),
                           must="a Counterexample (the violation confirmed) or None (not confirmed)")


def confirmed(search: Search, instance: Instance) -> Counterexample | IllDefined | EngineInconsistency | None:
    """What certifying a suspicious instance found: a counterexample, the :class:`IllDefined` or
    :class:`EngineInconsistency` met, or ``None``."""
    own = search.statement.confirm
    try:
        if own is not None:
            found = own_confirmation(search.statement, instance)
            search.certified += found is not None and found.certified  # a statistical confirmation is no proof
            return found
        outcome = certify(search.statement, instance)
    except (IllDefined, EngineInconsistency) as error:
        return error
    search.certified += outcome.status == "violated"
    if outcome.status == "inconclusive":
        tally(search, instance, outcome)
    return outcome.counterexample


def tally(search: Search, instance: Instance, outcome: Certificate) -> None:
    """Count an undecided instance: a candidate when its violation is far above rounding in float64 and at high
    precision, not certifiable when only in float64, else inconclusive."""
    candidate = candidate_at(search.statement, instance, outcome.detail) if outcome.bound >= CANDIDATE_MARGIN else None
    if candidate is None:
        search.inconclusive += 1
        return
    if isinstance(candidate, Vanished):
        search.not_certifiable += 1
        search.not_certifiable_reason = search.not_certifiable_reason or f"{candidate.reason} (rounding: {candidate.method})"
        return
    search.candidate_count += 1
    if len(search.candidates) < CANDIDATES_KEPT:
        search.candidates.append(candidate)
