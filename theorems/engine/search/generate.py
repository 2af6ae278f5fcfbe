"""The generate phase: Hypothesis draws instances from the statement's strategy and each goes through
:func:`examine`: scored for ``target()``, kept for the optimiser, certified when float64 finds it violated.

A counterexample (or an ill-defined instance) is raised as :class:`~theorems.engine.search.shrink.Found`,
which Hypothesis then shrinks; a side whose value or cost cannot be checked stops the search at once.

>>> hypothesis_settings(200, seed=0).max_examples
200
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed

from theorems.engine import hypothesis_internals as internals
from theorems.engine.search import shrink
from theorems.engine.search.limits import TARGET_CALLS_PER_EXAMPLE
from theorems.engine.search.optimise import confirm_or_discount, remember
from theorems.engine.search.report import Counterexample
from theorems.engine.search.state import Search
from theorems.engine.search.target import aim, float_outcome
from theorems.engine.sides import SideError
from theorems.engine.statement import Instance, jsonable
from theorems.errors import IllDefined, InvalidArgument


def hypothesis_settings(max_examples: int | None, seed: int | None) -> settings:
    """The search's Hypothesis settings: the current profile's, quiet, with no database, deadline or health check."""
    base = settings()
    return settings(
        base,
        max_examples=max_examples or base.max_examples,
        derandomize=base.derandomize and seed is None,
        database=None,
        deadline=None,
        verbosity=Verbosity.quiet,
        report_multiple_bugs=False,
        print_blob=False,
        phases=[Phase.explicit, Phase.generate, Phase.target, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )


def generate(search: Search, *, max_examples: int, seed: int | None) -> Counterexample | IllDefined | SideError | None:
    """Run Hypothesis over the statement's instances; the shrunk failure it ends with, or ``None``."""
    chosen = hypothesis_settings(max_examples, seed)

    def body(instance: Instance) -> None:
        probe(search, instance)

    test = chosen(given(search.statement.instances)(body))
    if seed is not None:
        test = hypothesis_seed(seed)(test)
    try:
        with internals.without_local_constants(), internals.bounded_target_phase(TARGET_CALLS_PER_EXAMPLE * chosen.max_examples):
            test()
    except shrink.Found as failure:
        return failure.payload
    except Exception:
        if search.stopped is None:
            raise
    return None


def probe(search: Search, instance: Instance) -> None:
    """The test's body: examine the instance unless a side stopped the search."""
    if search.stopped is None:
        try:
            examine(search, instance)
        except (SideError, InvalidArgument) as error:  # a side, or a user callback's result, that cannot be read
            search.stopped = error
    if search.stopped is not None:  # one site for every replay, so that Hypothesis sees one consistent failure
        raise shrink.Found(search.stopped)


def examine(search: Search, instance: Instance) -> None:
    """Count the instance, and raise what it found (now, or when it was first met)."""
    search.examples += 1
    search.tell_progress()
    key = repr(jsonable(instance))
    found = search.found_by_key.get(key)
    if found is None and not shrink.spent(search):  # once the budget is spent, new candidates no longer count
        found = _evaluate(search, instance, key)
    if found is not None:
        raise shrink.Found(found)


def _evaluate(search: Search, instance: Instance, key: str) -> Counterexample | IllDefined | None:
    shrink.count(search)
    outcome = float_outcome(search.statement, instance)
    search.meet(instance, outcome)
    found = None
    if outcome.suspicious:  # certified first, so that a float artefact steers neither target() nor the optimiser
        found, outcome = confirm_or_discount(search, instance, outcome)
    aim(outcome)
    if search.use_optimiser and search.first is None and found is None and np.isfinite(outcome.score):
        remember(search.starts, outcome.score, key)
    if found is not None:
        shrink.keep(search, key, found)
    return found
