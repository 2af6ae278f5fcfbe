"""The search: find an instance that violates a statement, shrink it, confirm it in high precision.

>>> from theorems import STATEMENTS, refute
>>> refute(STATEMENTS["corollary1.max-key.upper"], max_examples=50, seed=0) is None
True
>>> found = refute(STATEMENTS["corollary1.own-key.upper"], max_examples=200, seed=0)
>>> found.size
2
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import time
from typing import Any

import numpy as np
from hypothesis import HealthCheck, Phase, Verbosity, given, settings, target
from hypothesis import seed as hypothesis_seed

from theorems.precision import DIGITS, F64, MP, lift, to_float
from theorems.statement import Instance, Statement, jsonable

RELATIVE_TOLERANCE = 10.0 ** -(DIGITS - 10)
"""A violation smaller than this, relative to the sides, is rounding at ``DIGITS`` digits."""


@dataclasses.dataclass(frozen=True)
class Counterexample:
    """A confirmed violation: the instance, both sides at the worst element, and the margin."""

    statement_id: str
    instance: Instance
    lhs: float
    rhs: float
    margin: float
    relative_margin: float
    size: int
    method: str

    def to_json(self) -> dict[str, Any]:
        fields = dataclasses.asdict(self) | {"instance": jsonable(self.instance)}
        return jsonable(fields)


@dataclasses.dataclass(frozen=True)
class SearchReport:
    """What one search did: how many examples, how long, and what it found."""

    statement_id: str
    counterexample: Counterexample | None
    examples: int
    seconds: float
    seconds_to_counterexample: float | None
    float_artefacts: int

    @property
    def examples_per_second(self) -> float:
        return self.examples / self.seconds if self.seconds > 0 else float("inf")


class _Confirmed(Exception):
    def __init__(self, counterexample: Counterexample) -> None:
        super().__init__(counterexample.statement_id)
        self.counterexample = counterexample


def worst(statement: Statement, instance: Instance, xp) -> tuple[Any, Any, Any, Any]:
    """``(lhs, rhs, margin, relative_margin)`` at the element where the relation fails most."""
    dtype = object if xp is MP else float
    lhs, rhs = (np.atleast_1d(np.asarray(side, dtype=dtype)) for side in statement.sides(instance, xp))
    lhs, rhs = np.broadcast_arrays(lhs, rhs)
    margin = np.asarray(statement.violation(lhs, rhs), dtype=dtype)
    scale = np.asarray(np.maximum(np.abs(lhs), np.abs(rhs)), dtype=dtype)
    positive = np.asarray(scale > 0, dtype=bool)
    with np.errstate(all="ignore"):
        relative = np.asarray(np.where(positive, margin / np.where(positive, scale, 1), 0 * margin), dtype=dtype)
    ranking = to_float(relative) if xp is MP else np.nan_to_num(relative, nan=np.inf)
    at = np.unravel_index(int(np.argmax(ranking)), relative.shape)
    return lhs[at], rhs[at], margin[at], relative[at]


def confirm_in_high_precision(statement: Statement, instance: Instance) -> Counterexample | None:
    """Re-evaluate both sides with ``DIGITS`` decimal digits; ``None`` when the violation vanishes."""
    with MP.precision():
        lhs, rhs, margin, relative = worst(statement, lift(dict(instance)), MP)
        if not relative > RELATIVE_TOLERANCE:
            return None
        return Counterexample(
            statement_id=statement.id, instance=instance, lhs=float(lhs), rhs=float(rhs),
            margin=float(margin), relative_margin=float(relative), size=statement.size(instance),
            method=f"mpmath, {DIGITS} digits",
        )


def confirmation(statement: Statement):
    """The statement's own ``confirm``, or the default mpmath re-evaluation."""
    return statement.confirm or (lambda instance: confirm_in_high_precision(statement, instance))


def _float_outcome(statement: Statement, instance: Instance) -> tuple[float, bool]:
    """The relative margin in float64, and whether the float result calls for confirmation."""
    with np.errstate(all="ignore"):
        try:
            _, _, margin, relative = worst(statement, instance, F64)
        except (FloatingPointError, OverflowError, ZeroDivisionError):
            return -1.0, True
    if np.isnan(margin) or margin > 0:
        return (float(relative) if np.isfinite(relative) else 1.0), True
    return (float(relative) if np.isfinite(relative) else -1.0), False


def _settings(max_examples: int | None, seed: int | None) -> settings:
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


@contextlib.contextmanager
def _without_local_constants():
    """Hypothesis mixes literals harvested from every imported local module into generated data, so
    one seed draws differently in a test session and on the command line, depending on what
    happens to be imported. A verdict must not depend on that: the pool is emptied during a
    search. (Internal API with no public switch; if a Hypothesis release drops it, nothing is done.)"""
    providers = importlib.import_module("hypothesis.internal.conjecture.providers")
    original, pool = getattr(providers, "_get_local_constants", None), getattr(providers, "_local_constants", None)
    cache = getattr(getattr(providers, "CONSTANTS_CACHE", None), "cache", None)
    if original is None or pool is None or cache is None:
        yield
        return
    empty = type(pool)()
    providers._get_local_constants = lambda: empty
    cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = original
        cache.clear()


SHRINK_EVALUATIONS = 1000
"""Candidates evaluated after the first confirmed counterexample; past that, only instances already
confirmed still fail, so Hypothesis's last replay stays consistent and the shrinker winds down.
A count, not a time, so that the shrunk counterexample does not depend on the machine's load."""


def investigate(statement: Statement, *, max_examples: int | None = None, seed: int | None = None,
           shrink_evaluations: int = SHRINK_EVALUATIONS) -> SearchReport:
    """Search for a confirmed, shrunk counterexample and report what the search did."""
    if not isinstance(statement, Statement):
        raise TypeError(f"statement must be a Statement, not {type(statement).__name__}")
    if max_examples is not None and (isinstance(max_examples, bool) or not isinstance(max_examples, int) or max_examples < 1):
        raise ValueError(f"max_examples={max_examples!r} must be a positive integer")
    confirm = confirmation(statement)
    counts = {"examples": 0, "artefacts": 0, "after_first": 0}
    confirmed: dict[str, Counterexample] = {}  # by instance, so that replays after the budget stay consistent
    start = time.perf_counter()
    first: list[float] = []

    def probe(instance: Instance) -> None:
        counts["examples"] += 1
        key = repr(jsonable(instance))
        found = confirmed.get(key)
        spent = counts["after_first"] >= shrink_evaluations
        if found is None and not spent:  # once the budget is spent, new candidates no longer count
            counts["after_first"] += bool(first)
            relative, suspicious = _float_outcome(statement, instance)
            target(relative, label="relative margin")
            found = confirm(instance) if suspicious else None
            counts["artefacts"] += suspicious and found is None
            if found is not None:
                first.append(time.perf_counter() - start) if not first else None
                confirmed[key] = found
        if found is not None:  # one raise site: Hypothesis tells failures apart by where they are raised
            raise _Confirmed(found)

    test = _settings(max_examples or statement.max_examples, seed)(given(statement.instances)(probe))
    if seed is not None:
        test = hypothesis_seed(seed)(test)
    counterexample = None
    try:
        with _without_local_constants():
            test()
    except _Confirmed as failure:
        counterexample = failure.counterexample
    return SearchReport(
        statement_id=statement.id, counterexample=counterexample, examples=counts["examples"],
        seconds=time.perf_counter() - start, seconds_to_counterexample=first[0] if first else None,
        float_artefacts=counts["artefacts"],
    )


def refute(statement: Statement, *, max_examples: int | None = None, seed: int | None = None) -> Counterexample | None:
    """A confirmed, minimal counterexample to ``statement``, or ``None`` when the search finds none.

    The search is steered with ``hypothesis.target`` toward the smallest slack, shrunk by
    Hypothesis to a minimal instance, and every candidate is re-checked with mpmath at
    ``DIGITS`` digits (or the statement's own ``confirm``); float artefacts are discarded.
    """
    return investigate(statement, max_examples=max_examples, seed=seed).counterexample


@dataclasses.dataclass(frozen=True)
class Necessity:
    """Whether a hypothesis is needed: a confirmed counterexample once it is broken, or none found."""

    statement_id: str
    hypothesis: str
    needed: bool
    counterexample: Counterexample | None

    def to_json(self) -> dict[str, Any]:
        return {"statement": self.statement_id, "hypothesis": self.hypothesis, "needed": self.needed,
                "counterexample": self.counterexample.to_json() if self.counterexample else None}


def necessity(statement: Statement, hypothesis_name: str, *, max_examples: int | None = None,
              seed: int | None = None) -> Necessity:
    """Search over instances that break exactly ``hypothesis_name`` (and satisfy every other one).

    >>> from theorems import STATEMENTS, necessity
    >>> necessity(STATEMENTS["lemma1.upper"], "length-independent", seed=0).needed
    True
    """
    hypothesis = statement.hypothesis(hypothesis_name)
    if hypothesis.violated_by is None:
        raise ValueError(f"hypothesis {hypothesis_name!r} of {statement.id!r} has no violating instances to search")
    probe = dataclasses.replace(statement, instances=hypothesis.violated_by)
    found = refute(probe, max_examples=max_examples, seed=seed)
    return Necessity(statement.id, hypothesis_name, found is not None, found)


@dataclasses.dataclass(frozen=True)
class Verdict:
    """The verdict of one statement against what it is expected to be."""

    statement_id: str
    expected: str
    found: str
    report: SearchReport

    @property
    def matches(self) -> bool:
        return self.expected == self.found

    def to_json(self) -> dict[str, Any]:
        cx = self.report.counterexample
        return {
            "id": self.statement_id, "expected": self.expected, "found": self.found, "matches": self.matches,
            "examples": self.report.examples, "seconds": round(self.report.seconds, 4),
            "examples_per_second": round(self.report.examples_per_second, 1),
            "seconds_to_counterexample": self.report.seconds_to_counterexample,
            "float_artefacts": self.report.float_artefacts,
            "counterexample": cx.to_json() if cx else None,
        }


def check(statement: Statement, *, max_examples: int | None = None, seed: int | None = None) -> Verdict:
    """Run the search and compare its verdict with ``statement.expected``."""
    report = investigate(statement, max_examples=max_examples, seed=seed)
    found = "refuted" if report.counterexample else "holds"
    return Verdict(statement.id, statement.expected, found, report)
