"""The search: find an instance that violates a statement, shrink it, certify it in ball arithmetic.

A counterexample is reported only when the violation is *proved* for its instance: both sides are
re-evaluated in arb ball arithmetic (:data:`theorems.engine.precision.ARB`, python-flint) and the ball of
``lhs − rhs`` (``rhs − lhs`` for ``>=``) must lie strictly above 0. An undecided ball is retried at
128, 256, 512 and 1024 bits; still undecided, the instance is a *candidate* when its float64 violation
is far above rounding (:data:`CANDIDATE_MARGIN`; ``check`` then finds ``"candidate"``, which fails the
gate) and *inconclusive* when it is rounding-level (counted, never a counterexample). A side that is ``nan``, ``inf − inf``, or raises, makes the statement *ill-defined*
at that instance (:class:`IllDefined`), which is never "holds". Statements with their own
``confirm`` (statistical ones) are confirmed by it instead, and their ``method`` says how.

>>> from theorems import STATEMENTS, refute
>>> refute(STATEMENTS["corollary1.max-key.upper"], max_examples=50, seed=0) is None
True
>>> found = refute(STATEMENTS["corollary1.own-key.upper"], max_examples=200, seed=0)
>>> found.size, found.method.startswith("arb")
(2, True)
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import HealthCheck, Phase, Verbosity, given, settings, target
from hypothesis import seed as hypothesis_seed

from theorems.engine import hypothesis_internals as internals
from theorems.engine import optimiser, precision, sides
from theorems.engine.precision import ARB, BITS, F64, MP, NoBallForm, Undecided, balls, lift
from theorems.engine.sides import SideError
from theorems.engine.statement import Instance, Statement, jsonable
from theorems.engine.validation import check_integer
from theorems.errors import IllDefined

MAX_EXAMPLES = 1_000_000
"""The largest budget one search accepts: at the search's usual 100–3000 examples/s, a larger one
would run for hours to years. Use several seeds instead."""

PROGRESS_SECONDS = 5.0
"""How often a long search calls its ``progress`` callback."""

TARGET_CALLS_PER_EXAMPLE = 2
"""Hypothesis's ``target()`` phase may run at most ``TARGET_CALLS_PER_EXAMPLE * max_examples`` test
cases (valid or not) per search; then the search ends. Its hill-climber accepts moves that leave
the score unchanged and retries proposals that overrun, so on a flat score (a relative margin of
exactly 1 wherever a side is rounding residue against an exact 0) it ran until Hypothesis's limit of
about 100 invalid test cases per valid one: 20,000 overruns, 140 s instead of 2 s for 200 examples
(Hypothesis 6.170). A count, not a time, so that the search does not depend on the machine's load."""


@dataclasses.dataclass(frozen=True)
class Counterexample:
    """A certified violation: the instance, both sides at the worst element, and the margin.

    ``method`` says how the violation was certified (ball arithmetic and its precision, an
    exact infinity, or a statement's own statistical confirmation).
    """

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


CANDIDATE_MARGIN = 1e-8
"""A float64 violation that ball arithmetic cannot certify is a *candidate* counterexample when its relative
margin ``(lhs − rhs)/max(|lhs|, |rhs|)`` is at least this (and a high-precision re-evaluation, where the side
allows one, does not bring it below): far above float64 rounding (about 1e-16 per operation). Below it, the
instance is rounding-level residue and only counted as inconclusive."""

HIGH_PRECISION_DIGITS = 110
"""Decimal digits of the mpmath re-evaluation of a candidate (not a proof: mpmath rounds like float64, only
far less)."""

CANDIDATES_KEPT = 5
"""How many candidates a report keeps (all are counted)."""


@dataclasses.dataclass(frozen=True)
class Candidate:
    """A float64 violation far above rounding that was not certified: not a proof, but a failed gate.

    ``reason`` says why balls could not decide it (a function with no ball form, a side that called
    ``float()``, a comparison still undecided at 1024 bits); ``high_precision_margin`` is the margin
    re-evaluated with mpmath at :data:`HIGH_PRECISION_DIGITS` digits, ``None`` where the side cannot run there.
    """

    statement_id: str
    instance: Instance
    lhs: float
    rhs: float
    margin: float
    relative_margin: float
    high_precision_margin: float | None
    reason: str

    def describe(self) -> str:
        high = ("not computable" if self.high_precision_margin is None
                else f"{self.high_precision_margin:.6g} at {HIGH_PRECISION_DIGITS} digits")
        return (f"candidate counterexample (not certified): lhs = {self.lhs!r}, rhs = {self.rhs!r}, float64 margin "
                f"{self.margin:.6g} (relative {self.relative_margin:.3g}), high-precision margin {high}; "
                f"not certified because {self.reason}")

    def to_json(self) -> dict[str, Any]:
        fields = dataclasses.asdict(self) | {"instance": jsonable(self.instance)}
        return jsonable(fields)


@dataclasses.dataclass(frozen=True)
class Tightness:
    """The largest ratio ``lhs/rhs`` (``rhs/lhs`` for ``>=``) the search met, and where.

    A ratio near 1 means the bound is tight on the instances searched; far below 1, loose. It is
    measured in float64 over instances with both sides finite and the bounding side positive;
    it is a report, not a certified value.

    >>> Tightness(ratio=0.99998, instance={"L": 2}, lhs=0.5, rhs=0.50001).describe()
    'tight: 0.99998 at L = 2'
    """

    ratio: float
    instance: Instance
    lhs: float
    rhs: float

    TIGHT = 0.99
    """A ratio at or above this is called tight."""

    def describe(self) -> str:
        if self.ratio >= self.TIGHT:
            where = ", ".join(f"len({k}) = {len(v)}" if isinstance(v, np.ndarray) and v.ndim else f"{k} = {_short(v)}"
                              for k, v in self.instance.items() if _short(v) is not None)
            return f"tight: {self.ratio:.5g} at {where}" if where else f"tight: {self.ratio:.5g}"
        return f"loose: {self.ratio:.3g} at best"

    def to_json(self) -> dict[str, Any]:
        return {"ratio": self.ratio, "lhs": self.lhs, "rhs": self.rhs, "instance": jsonable(self.instance),
                "summary": self.describe()}


def _short(value) -> str | None:
    if isinstance(value, np.ndarray):
        return f"[{len(value)} entries]" if value.ndim else None
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.4g}"
    return None


@dataclasses.dataclass(frozen=True)
class SearchReport:
    """What one search did: how many examples, how long, and what it found.

    ``certified`` counts the certified violations met; ``candidates`` holds the first
    :data:`CANDIDATES_KEPT` float64 violations far above rounding that balls could not certify
    (:class:`Candidate`; ``candidate_count`` counts them all); ``inconclusive`` counts the rounding-level
    ones that balls could neither prove nor rule out at 1024 bits; ``ill_defined`` is the first
    :class:`IllDefined` met, if any.
    """

    statement_id: str
    counterexample: Counterexample | None
    examples: int
    seconds: float
    seconds_to_counterexample: float | None
    float_artefacts: int
    tightness: Tightness | None = None
    inconclusive: int = 0
    ill_defined: IllDefined | None = None
    optimiser: str = "off"
    """How the optimiser ran (or why it did not)."""
    certified: int = 0
    candidates: tuple[Candidate, ...] = ()
    candidate_count: int = 0

    @property
    def examples_per_second(self) -> float:
        return self.examples / self.seconds if self.seconds > 0 else float("inf")


class _Found(Exception):
    """Raised from one site inside the Hypothesis test: Hypothesis tells failures apart by where."""

    def __init__(self, payload: Counterexample | IllDefined) -> None:
        super().__init__(getattr(payload, "statement_id", ""))
        self.payload = payload


def worst(statement: Statement, instance: Instance, xp) -> tuple[Any, Any, Any, Any]:
    """``(lhs, rhs, margin, relative_margin)`` at the element where the relation fails most (float64 or mpmath)."""
    dtype = float if xp is F64 else object
    lhs, rhs = (np.atleast_1d(np.asarray(sides.evaluate(statement, side, instance, xp), dtype=dtype))
                for side in ("lhs", "rhs"))
    lhs, rhs = np.broadcast_arrays(lhs, rhs)
    margin = np.asarray(statement.violation(lhs, rhs), dtype=dtype)
    scale = np.asarray(np.maximum(np.abs(lhs), np.abs(rhs)), dtype=dtype)
    positive = np.asarray(scale > 0, dtype=bool)
    with np.errstate(all="ignore"):
        relative = np.asarray(np.where(positive, margin / np.where(positive, scale, 1), 0 * margin), dtype=dtype)
    ranking = np.nan_to_num(relative, nan=np.inf) if xp is F64 else precision.to_float(relative)
    at = np.unravel_index(int(np.argmax(ranking)), relative.shape)
    return lhs[at], rhs[at], margin[at], relative[at]


def _kind(ball) -> str:
    value = ball.arb
    if value.is_nan():
        return "nan"
    if value.is_finite():
        return "finite"
    if value.rad() == 0:  # an exact infinity (arb's ±inf points have radius 0)
        return "+inf" if precision.midpoint(value) > 0 else "-inf"
    return "wide"


@dataclasses.dataclass(frozen=True)
class Certificate:
    """The outcome of certifying one instance: ``status`` is ``"violated"`` (with a counterexample),
    ``"satisfied"`` (the float64 violation was rounding) or ``"inconclusive"``."""

    status: str
    counterexample: Counterexample | None = None
    bits: int = 0
    detail: str = ""
    bound: float = np.inf
    """For an undecided instance: a proved upper bound on the relative violation ``(lhs − rhs)/max(|lhs|, |rhs|)``
    (``inf`` when balls could not bound it). Below :data:`CANDIDATE_MARGIN` the instance is rounding-level."""


def _side_values(statement: Statement, instance: Instance, side: str):
    with precision.escapes() as escaped:
        value = sides.evaluate(statement, side, balls(dict(instance)), ARB)
    if escaped and _holds_floats(value):
        # the side turned instance values into doubles and returned a float computed from them in float64:
        # its rounding is not bounded, so nothing is certified from it
        raise NoBallForm(f"{side}: float() of an instance value, then float64 arithmetic",
                         "the side's value was computed outside ball arithmetic (math.*, float(), np.asarray(..., float))")
    values = np.atleast_1d(np.asarray(value, dtype=object))
    return _as_balls(values)  # a side may return a plain constant: it is exact


def _holds_floats(value) -> bool:
    if isinstance(value, np.ndarray):
        return value.dtype.kind == "f" or (value.dtype == object and any(
            isinstance(v, (float, np.floating)) for v in value.flat))
    return isinstance(value, (float, np.floating))


_as_balls = np.frompyfunc(lambda x: x if isinstance(x, precision.Ball) else precision.Ball(x), 1, 1)


def certify(statement: Statement, instance: Instance, *, bits: tuple[int, ...] = BITS) -> Certificate:
    """Prove or rule out the violation at ``instance`` in ball arithmetic, raising precision up to ``bits[-1]``.

    Raises :class:`IllDefined` when a side is ``nan`` (at every precision, and in float64 too),
    ``inf − inf``, or raises an error other than :class:`~theorems.engine.precision.Undecided`.

    >>> from theorems import STATEMENTS
    >>> cx = certify(STATEMENTS["corollary1.own-key.upper"], {"q": np.array([1.0]), "keys": np.array([[0.0], [-2.0]]), "T": 1.0})
    >>> cx.status, cx.counterexample.method.startswith("arb ball arithmetic")
    ('violated', True)
    """
    detail, bound = "", np.inf
    for attempt, working in enumerate(bits):
        last = attempt == len(bits) - 1
        with ARB.precision(working), precision.enclosure_notes() as notes:
            try:
                values = {side: _side_values(statement, instance, side) for side in ("lhs", "rhs")}
            except Undecided as error:
                detail = f"a comparison inside a side is undecided at 1024 bits ({error})"
                continue
            except SideError:
                raise
            except Exception as error:  # noqa: BLE001 - a side that raises is ill-defined, named with its error
                side = _failing_side(statement, instance)
                if not _raises_in_float(statement, instance, side):
                    # float64 evaluates it: the side uses an operation balls do not support; not a verdict
                    why = str(error) if isinstance(error, NoBallForm) else f"{type(error).__name__}: {error}"
                    return Certificate("inconclusive", bits=working, detail=f"{side} cannot be evaluated in balls: {why}")
                raise IllDefined(statement.id, instance, side, f"raises {type(error).__name__}: {error}") from error
            outcome = _decide(statement, instance, values, working, last, notes)
        if outcome.status != "undecided":
            return outcome
        detail, bound = outcome.detail, outcome.bound
    return Certificate("inconclusive", bits=bits[-1], detail=detail, bound=bound)


def _failing_side(statement: Statement, instance: Instance) -> str:
    try:
        _side_values(statement, instance, "lhs")
    except Undecided:
        return "rhs"
    except SideError:
        raise
    except Exception:  # noqa: BLE001
        return "lhs"
    return "rhs"


def _raises_in_float(statement: Statement, instance: Instance, side: str) -> bool:
    function = statement.lhs if side == "lhs" else statement.rhs
    with np.errstate(all="ignore"):
        try:
            function(instance, F64)
        except Exception:  # noqa: BLE001
            return True
    return False


def _float_side(statement: Statement, instance: Instance, side: str):
    function = statement.lhs if side == "lhs" else statement.rhs
    with np.errstate(all="ignore"):
        try:
            return np.atleast_1d(np.asarray(function(instance, F64), dtype=float))
        except Exception:  # noqa: BLE001
            return np.atleast_1d(np.nan)


def _decide(statement, instance, values, bits, last, notes) -> Certificate:
    lhs, rhs = np.broadcast_arrays(values["lhs"], values["rhs"])
    best = None  # (relative margin, index, lower, upper, margin ball) of the worst certified element
    undecided, bound = "", 0.0
    for at in np.ndindex(lhs.shape):
        a, b = lhs[at], rhs[at]
        kinds = {"lhs": _kind(a), "rhs": _kind(b)}
        for side, kind in kinds.items():
            if kind == "nan":
                if not last and not np.all(np.isnan(_float_side(statement, instance, side))):
                    undecided, bound = f"{side} is nan at {bits} bits", np.inf
                    continue
                raise IllDefined(statement.id, instance, side, f"is nan (element {list(at)})")
        if "nan" in kinds.values():
            continue
        if "wide" in kinds.values():
            undecided, bound = f"a side is an unbounded ball at {bits} bits", np.inf
            continue
        infinite = [k for k in kinds.values() if k != "finite"]
        if infinite:
            if len(infinite) == 2 and kinds["lhs"] == kinds["rhs"]:
                raise IllDefined(statement.id, instance, "lhs and rhs",
                                 f"are both {kinds['lhs']} (element {list(at)}): their difference inf − inf is undefined")
            sign = statement.violation(_infinity(kinds["lhs"], a), _infinity(kinds["rhs"], b))
            if sign > 0:
                method = (f"exact: lhs = {kinds['lhs'] if kinds['lhs'] != 'finite' else precision.midpoint(a)}, rhs = "
                          f"{kinds['rhs'] if kinds['rhs'] != 'finite' else precision.midpoint(b)} in arb, so the "
                          "violation is +inf")
                return Certificate("violated", _counterexample(statement, instance, a, b, np.inf, 1.0, method), bits)
            continue
        margin = statement.violation(a, b)
        low, high = margin.lower, margin.upper
        if low > 0:
            scale = max(abs(precision.midpoint(a)), abs(precision.midpoint(b)))
            relative = precision.midpoint(margin) / scale if scale > 0 else 1.0
            if best is None or relative > best[0]:
                best = (relative, at, low, high, margin)
        elif high <= 0:
            continue
        else:
            undecided = f"the violation ball [{low:.3g}, {high:.3g}] contains 0 at {bits} bits"
            scale = max(abs(a).lower, abs(b).lower)  # the exact sides are at least this large
            bound = max(bound, high / scale if scale > 0 else 1.0)
    if best is not None:
        relative, at, low, high, margin = best
        sign = "lhs − rhs" if statement.relation == "<=" else "rhs − lhs"
        method = f"arb ball arithmetic, {bits} bits: {sign} ∈ [{low:.6g}, {high:.6g}] > 0"
        if notes:
            method += "; " + "; ".join(sorted(set(notes)))
        cx = _counterexample(statement, instance, lhs[at], rhs[at], precision.midpoint(margin), relative, method)
        return Certificate("violated", cx, bits)
    if undecided:
        if not notes and "contains 0" in undecided and not np.isinf(bound):
            # both sides evaluated in plain ball arithmetic: at these precisions the width left is the rounding of
            # the float constants the sides contain (each carries one ulp), so the residue is rounding-level
            bound = 0.0
        return Certificate("undecided", bits=bits, detail=undecided, bound=bound)
    return Certificate("satisfied", bits=bits)


def _infinity(kind: str, ball) -> float:
    return {"+inf": np.inf, "-inf": -np.inf}.get(kind, precision.midpoint(ball))


def _counterexample(statement, instance, lhs, rhs, margin, relative, method) -> Counterexample:
    return Counterexample(
        statement_id=statement.id, instance=instance, lhs=_as_float(lhs), rhs=_as_float(rhs), margin=float(margin),
        relative_margin=float(relative), size=statement.size(instance), method=method)


def _as_float(ball) -> float:
    kind = _kind(ball)
    return {"+inf": np.inf, "-inf": -np.inf, "nan": np.nan}.get(kind, precision.midpoint(ball))


def confirm_in_high_precision(statement: Statement, instance: Instance) -> Counterexample | None:
    """The certified counterexample at ``instance``, or ``None`` when the violation is rounding or undecided.

    Raises :class:`IllDefined` where a side has no value (see :func:`certify`).
    """
    return certify(statement, instance).counterexample


def confirmation(statement: Statement):
    """The statement's own ``confirm``, or the default ball-arithmetic certification."""
    return statement.confirm or (lambda instance: confirm_in_high_precision(statement, instance))


def _float_outcome(statement: Statement, instance: Instance):
    """``(relative margin, suspicious, ratio, lhs, rhs, score)`` in float64: whether the float result calls for
    certification, the tightness ratio at the element where it is largest (``nan`` when undefined), and the
    search's score: the largest ratio among the elements that are not met with equality (the ratio when all
    are). An element bounded by itself (ratio exactly 1 on a plateau) would otherwise hide the others from
    ``target()`` and the optimiser."""
    with np.errstate(all="ignore"):
        try:
            lhs, rhs = (np.atleast_1d(np.asarray(sides.evaluate(statement, side, instance, F64, timed=True), dtype=float))
                        for side in ("lhs", "rhs"))
            lhs, rhs = np.broadcast_arrays(lhs, rhs)
        except SideError:
            raise
        except Exception:  # noqa: BLE001 - decided in balls: certified, or ill-defined with the side named
            return -1.0, True, np.nan, np.nan, np.nan, np.nan
        margin = statement.violation(lhs, rhs)
        scale = np.maximum(np.abs(lhs), np.abs(rhs))
        relative = np.where(scale > 0, margin / np.where(scale > 0, scale, 1), 0 * margin)
        top, bottom = (lhs, rhs) if statement.relation == "<=" else (rhs, lhs)
        usable = np.isfinite(top) & np.isfinite(bottom) & (bottom > 0)
        ratios = np.where(usable, top / np.where(usable, bottom, 1), -np.inf)
    at = int(np.argmax(ratios))
    ratio = (float(ratios.flat[at]), float(lhs.flat[at]), float(rhs.flat[at])) if usable.flat[at] else (np.nan,) * 3
    unequal = usable & (top != bottom)
    score = float(np.max(ratios[unequal])) if np.any(unequal) else ratio[0]
    if not np.all(np.isfinite(lhs) & np.isfinite(rhs)):  # nan and ±inf are decided in balls, never dropped
        finite = relative[np.isfinite(relative)]
        return (float(finite.max()) if finite.size else 1.0), True, *ratio, score
    worst_relative = float(np.max(relative))
    return worst_relative, bool(np.max(margin) > 0), *ratio, score


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


SHRINK_EVALUATIONS = 1000
"""Candidates evaluated after the first confirmed counterexample; past that, only instances already
confirmed still fail, so Hypothesis's last replay stays consistent and the shrinker winds down.
A count, not a time, so that the shrunk counterexample does not depend on the machine's load."""


def _check_statement(statement) -> Statement:
    if not isinstance(statement, Statement):
        hint = (f"; look it up first: STATEMENTS[{statement!r}]" if isinstance(statement, str) else "")
        raise TypeError(f"statement must be a Statement, not {type(statement).__name__} {statement!r}{hint}")
    return statement


def check_search_arguments(*, max_examples=None, seed=None, shrink_evaluations=SHRINK_EVALUATIONS) -> None:
    """The argument checks of :func:`investigate`, :func:`refute`, :func:`check` and :func:`necessity`.

    >>> check_search_arguments(seed=[1, 2])
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgumentType: seed=[1, 2] must be an integer, not list (or None for Hypothesis's own choice)
    """
    if max_examples is not None:
        check_integer(max_examples, name="max_examples", min_value=1, max_value=MAX_EXAMPLES,
                      hint=(f": a larger budget cannot finish (at 100–3000 examples/s, {MAX_EXAMPLES} already takes "
                            "minutes to hours); run several seeds instead (--seed 0, 1, 2 ...)"))
    if seed is not None:
        check_integer(seed, name="seed", min_value=0, hint=" (or None for Hypothesis's own choice)")
    check_integer(shrink_evaluations, name="shrink_evaluations", min_value=1,
                  hint=" (candidates evaluated while shrinking a counterexample; the default is "
                       f"{SHRINK_EVALUATIONS})")


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
    _check_statement(statement)
    check_search_arguments(max_examples=max_examples, seed=seed, shrink_evaluations=shrink_evaluations)
    own = statement.confirm
    counts = {"examples": 0, "artefacts": 0, "after_first": 0, "inconclusive": 0, "certified": 0, "candidates": 0}
    candidates: list[Candidate] = []
    stopped: list[SideError] = []  # a side whose value or cost cannot be checked ends the search at once
    found_by_key: dict[str, Counterexample | IllDefined] = {}  # replays after the budget stay consistent
    start = time.perf_counter()
    first: list[float] = []
    best: list[Tightness] = []
    shown = [start]

    def certified(instance: Instance) -> Counterexample | IllDefined | None:
        try:
            if own is not None:
                return own(instance)
            outcome = certify(statement, instance)
        except IllDefined as error:
            return error
        counts["certified"] += outcome.status == "violated"
        if outcome.status == "inconclusive":
            candidate = candidate_at(statement, instance, outcome.detail) if outcome.bound >= CANDIDATE_MARGIN else None
            counts["candidates" if candidate else "inconclusive"] += 1
            if candidate is not None and len(candidates) < CANDIDATES_KEPT:
                candidates.append(candidate)
        return outcome.counterexample

    def probe(instance: Instance) -> None:
        if not stopped:
            try:
                examine(instance)
            except SideError as error:
                stopped.append(error)
        if stopped:  # one site for every replay, so that Hypothesis sees one consistent failure
            raise _Found(stopped[0])

    def examine(instance: Instance) -> None:
        counts["examples"] += 1
        if progress is not None and time.perf_counter() - shown[0] >= PROGRESS_SECONDS:
            shown[0] = time.perf_counter()
            progress(counts["examples"], shown[0] - start)
        key = repr(jsonable(instance))
        found = found_by_key.get(key)
        spent = bool(first) and counts["after_first"] >= shrink_evaluations
        if found is None and not spent:  # once the budget is spent, new candidates no longer count
            counts["after_first"] += bool(first)
            relative, suspicious, ratio, lhs, rhs, score = _float_outcome(statement, instance)
            target(relative, label="relative margin")
            if np.isfinite(score) and score != ratio:
                target(score, label="ratio past equality cases")
            if np.isfinite(ratio) and (not best or ratio > best[0].ratio):
                best[:] = [Tightness(ratio, instance, lhs, rhs)]
            if use_optimiser and not first and np.isfinite(score):
                _remember(starts, score)
            found = certified(instance) if suspicious else None
            counts["artefacts"] += suspicious and found is None
            if found is not None:
                first.append(time.perf_counter() - start) if not first else None
                found_by_key[key] = found
        if found is not None:
            raise _Found(found)

    use_optimiser = optimise and own is None and optimiser.available()
    starts: list[optimiser.Start] = []
    chosen = _settings(max_examples or statement.max_examples, seed)
    test = chosen(given(statement.instances)(probe))
    if seed is not None:
        test = hypothesis_seed(seed)(test)
    payload = None
    try:
        with internals.without_local_constants(), internals.bounded_target_phase(TARGET_CALLS_PER_EXAMPLE * chosen.max_examples):
            test()
    except _Found as failure:
        payload = failure.payload
    except Exception:
        if not stopped:
            raise
    if stopped:
        raise stopped[0]
    status = "off" if not optimise else "not used (statistical statement)" if own is not None else (
        "unavailable (this Hypothesis lacks the choice-sequence API)" if not optimiser.available() else "")
    if payload is None and use_optimiser:
        payload, spent = _optimise(statement, starts, best, counts, certified)
        status = f"Nelder–Mead over Hypothesis's float choices, {spent} proposals"
        if isinstance(payload, Counterexample):
            first.append(time.perf_counter() - start)
            payload = dataclasses.replace(payload, method=payload.method + "; found by the optimiser (not shrunk)")
    if stopped:
        raise stopped[0]
    tightness = best[0] if best and payload is None else None
    if tightness is not None and not candidates and tightness.ratio > 1:
        # every ratio above 1 was a float64 violation that balls showed to be rounding (or rounding-level
        # residue they could not settle): the bound is met with equality there, not exceeded
        tightness = dataclasses.replace(tightness, ratio=1.0)
    return SearchReport(
        statement_id=statement.id,
        counterexample=payload if isinstance(payload, Counterexample) else None,
        examples=counts["examples"], seconds=time.perf_counter() - start,
        seconds_to_counterexample=first[0] if first else None, float_artefacts=counts["artefacts"],
        tightness=tightness, inconclusive=counts["inconclusive"],
        ill_defined=payload if isinstance(payload, IllDefined) else None, optimiser=status,
        certified=counts["certified"], candidates=tuple(candidates), candidate_count=counts["candidates"],
    )


def candidate_at(statement: Statement, instance: Instance, reason: str) -> Candidate | None:
    """The :class:`Candidate` at an instance balls could not decide, or ``None`` when its float64 violation is
    rounding-level (relative margin below :data:`CANDIDATE_MARGIN`, in float64 or at high precision)."""
    with np.errstate(all="ignore"):
        try:
            lhs, rhs, margin, relative = worst(statement, instance, F64)
        except SideError:
            raise
        except Exception:  # noqa: BLE001 - a float64 side that raises is decided in balls (ill-defined)
            return None
    if not np.isfinite(relative) or relative < CANDIDATE_MARGIN:
        return None
    high = _high_precision_margin(statement, instance)
    if high is not None and high[1] < CANDIDATE_MARGIN:
        return None
    return Candidate(statement_id=statement.id, instance=instance, lhs=float(lhs), rhs=float(rhs), margin=float(margin),
                     relative_margin=float(relative), high_precision_margin=None if high is None else high[0],
                     reason=reason or "ball arithmetic could not decide it")


def _high_precision_margin(statement: Statement, instance: Instance) -> tuple[float, float] | None:
    """``(margin, relative margin)`` re-evaluated with mpmath at :data:`HIGH_PRECISION_DIGITS` digits, or
    ``None`` where a side cannot run on mpmath numbers."""
    import mpmath

    try:
        with mpmath.workdps(HIGH_PRECISION_DIGITS), np.errstate(all="ignore"):
            _, _, margin, relative = worst(statement, lift(dict(instance)), MP)
            return float(margin), float(relative)
    except SideError:
        raise
    except Exception:  # noqa: BLE001 - np.linalg, scipy and float() do not run on mpmath numbers
        return None


def _remember(starts: list, ratio: float) -> None:
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


def _optimise(statement: Statement, starts, best, counts, certified):
    """Push the best instances with the optimiser; certify every float64 violation it proposes."""
    found: list = []

    def score(instance) -> float:
        counts["examples"] += 1
        relative, suspicious, ratio, lhs, rhs, score = _float_outcome(statement, instance)
        if np.isfinite(ratio) and (not best or ratio > best[0].ratio):
            best[:] = [Tightness(ratio, instance, lhs, rhs)]
        if suspicious and not found:
            outcome = certified(instance)
            if outcome is not None:
                found.append(outcome)
            else:
                counts["artefacts"] += 1
        return score if np.isfinite(score) else (np.inf if suspicious else -np.inf)

    spent = optimiser.optimise(statement.instances, starts, score, stop=lambda: bool(found))
    return (found[0] if found else None), spent


def refute(statement: Statement, *, max_examples: int | None = None, seed: int | None = None,
           shrink_evaluations: int = SHRINK_EVALUATIONS) -> Counterexample | None:
    """A certified, minimal counterexample to ``statement``, or ``None`` when the search finds none.

    The search is steered with ``hypothesis.target`` toward the smallest slack, shrunk by
    Hypothesis to a minimal instance, and every candidate is certified in ball arithmetic (or by the
    statement's own ``confirm``); float artefacts are discarded. Raises :class:`IllDefined` when the
    search meets an instance where a side has no value.
    """
    report = investigate(statement, max_examples=max_examples, seed=seed, shrink_evaluations=shrink_evaluations)
    if report.ill_defined is not None:
        raise report.ill_defined
    return report.counterexample


@dataclasses.dataclass(frozen=True)
class Necessity:
    """Whether a hypothesis is needed: a certified counterexample once it is broken, or none found."""

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
    _check_statement(statement)
    if not isinstance(hypothesis_name, str):
        raise TypeError(f"hypothesis_name={hypothesis_name!r} must be a str, one of "
                        f"{[h.name for h in statement.hypotheses]}")
    check_search_arguments(max_examples=max_examples, seed=seed)
    hypothesis = statement.hypothesis(hypothesis_name)
    if hypothesis.violated_by is None:
        raise ValueError(f"hypothesis {hypothesis_name!r} of {statement.id!r} has no violating instances to search")
    probe = dataclasses.replace(statement, instances=hypothesis.violated_by)
    report = investigate(probe, max_examples=max_examples, seed=seed)
    found = report.counterexample
    return Necessity(statement.id, hypothesis_name, found is not None, found)


FOUND = ("holds", "refuted", "ill-defined", "candidate")
"""What :func:`check` can find: ``"holds"`` (no certified counterexample, no candidate and no ill-defined
instance; rounding-level inconclusive instances are counted in the report), ``"refuted"`` (a certified
counterexample), ``"ill-defined"`` (a side has no value at some instance; never matches ``expected``) or
``"candidate"`` (float64 violations far above rounding that balls could not certify: the bound is not
shown to hold, nor proved false; never matches ``expected``, so the gate fails and says why)."""


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
        cx, report = self.report.counterexample, self.report
        return {
            "id": self.statement_id, "expected": self.expected, "found": self.found, "matches": self.matches,
            "examples": report.examples, "seconds": round(report.seconds, 4),
            "examples_per_second": round(report.examples_per_second, 1),
            "seconds_to_counterexample": report.seconds_to_counterexample,
            "float_artefacts": report.float_artefacts, "inconclusive": report.inconclusive,
            "certified": report.certified, "candidates": report.candidate_count,
            "candidate": report.candidates[0].to_json() if report.candidates else None,
            "counterexample": cx.to_json() if cx else None,
            "tightness": report.tightness.to_json() if report.tightness else None,
            "ill_defined": report.ill_defined.to_json() if report.ill_defined else None,
        }


def check(statement: Statement, *, max_examples: int | None = None, seed: int | None = None,
          progress: Callable[[int, float], None] | None = None) -> Verdict:
    """Run the search and compare its verdict with ``statement.expected`` (see :data:`FOUND`)."""
    report = investigate(statement, max_examples=max_examples, seed=seed, progress=progress)
    found = ("refuted" if report.counterexample else "ill-defined" if report.ill_defined
             else "candidate" if report.candidate_count else "holds")
    return Verdict(statement.id, statement.expected, found, report)
