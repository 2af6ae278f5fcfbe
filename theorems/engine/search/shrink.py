"""The shrink phase's rules: Hypothesis shrinks a failing instance by replaying smaller ones through the test, so
each replay must fail the same way, and past a budget new instances no longer count.

After the first counterexample, :data:`~theorems.engine.search.limits.SHRINK_EVALUATIONS` new instances
are evaluated; past that, only the instances already found still fail, so that Hypothesis's last replay stays
consistent and the shrinker winds down (a count, not a time: the shrunk instance does not depend on load).

>>> from theorems import STATEMENTS
>>> from theorems.engine.search.state import Search
>>> search = Search(STATEMENTS["lemma1.upper"], shrink_evaluations=1)
>>> spent(search), count(search), spent(search)
(False, None, False)
"""

from __future__ import annotations

from theorems.engine.search.report import Counterexample
from theorems.engine.search.state import Search
from theorems.engine.sides import SideError
from theorems.errors import IllDefined


class Found(Exception):
    """Raised from one site inside the Hypothesis test: Hypothesis tells failures apart by where."""

    def __init__(self, payload: Counterexample | IllDefined | SideError) -> None:
        super().__init__(getattr(payload, "statement_id", ""))
        self.payload = payload


def spent(search: Search) -> bool:
    """Whether the budget of new instances after the first counterexample is spent."""
    return search.first is not None and search.after_first >= search.shrink_evaluations


def count(search: Search) -> None:
    """Count one new instance against the budget (only once a counterexample is found)."""
    search.after_first += search.first is not None


def keep(search: Search, key: str, found: Counterexample | IllDefined) -> None:
    """Remember what an instance found, so that its replays fail the same way."""
    search.mark_first()
    search.found_by_key[key] = found
