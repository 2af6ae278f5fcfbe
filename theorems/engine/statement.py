"""A statement of the paper as an immutable value: its hypotheses, both sides, and what we expect.

A statement claims ``lhs(instance) <relation> rhs(instance)`` for every instance its hypotheses
admit. ``instances`` is a Hypothesis strategy that yields exactly those instances (dicts of named
values). Both sides are written once against the arithmetic backend ``xp``
(:mod:`theorems.arithmetic.precision`), so the same formula runs in float64 for the search and in arb ball
arithmetic for the certification. Sides may be arrays; the relation is then claimed elementwise.

>>> import dataclasses
>>> from theorems import STATEMENTS
>>> upper = STATEMENTS["corollary1.max-key.upper"]
>>> tighter = dataclasses.replace(upper, id="my.tighter", rhs=lambda i, xp: upper.rhs(i, xp) / 2)
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Mapping
from typing import Any, Literal

import numpy as np
from hypothesis.strategies import SearchStrategy

from theorems.arithmetic.ball_namespace import on_balls
from theorems.arithmetic.precision import ARB, to_float
from theorems.arithmetic.validation import check_integer
from theorems.errors import InvalidArgument, InvalidArgumentType

Instance = Mapping[str, Any]
Side = Callable[[Instance, Any], Any]
RELATIONS = ("<=", ">=")
VERDICTS = ("holds", "refuted")
RESULTS = (
    "lemma1", "corollary1", "theorem1.fixed", "theorem1.random", "corollary2",
    "theorem2.lower", "theorem2.upper", "theorem2.assumptions", "lemma2", "corollary3",
)
_ID = re.compile(r"^[a-z0-9]+(\.[a-z0-9][a-z0-9-]*)*$")


class _Side:
    """A side as the engine calls it: the function as written, and on balls (``xp`` the ball backend ``ARB``) the same
    code with its names of ``np.linalg`` and ``scipy.special`` resolved to their ball forms
    (:func:`~theorems.arithmetic.ball_namespace.on_balls`), however and whenever the module bound them. It compares
    equal to the function it holds."""

    def __init__(self, function: Side) -> None:
        self.function = function
        functools.update_wrapper(self, function)

    def __call__(self, instance: Instance, xp) -> Any:
        if xp is ARB:
            return on_balls(self.function)(instance, xp)
        return self.function(instance, xp)

    def __eq__(self, other: object) -> bool:
        return self.function == (other.function if isinstance(other, _Side) else other)

    def __hash__(self) -> int:
        return hash(self.function)

    def __repr__(self) -> str:
        return repr(self.function)


def as_written(side: Callable) -> Callable:
    """The function a statement's side holds, as its author wrote it (what another arithmetic rebinds its names in)."""
    return side.function if isinstance(side, _Side) else side


@dataclasses.dataclass(frozen=True)
class Hypothesis:
    """A named hypothesis; ``violated_by`` yields instances that break exactly this one."""

    name: str
    text: str
    violated_by: SearchStrategy | None = None

    def __post_init__(self) -> None:
        for field in ("name", "text"):
            _check_text(getattr(self, field), name=field)
        if self.violated_by is not None and not isinstance(self.violated_by, SearchStrategy):
            raise InvalidArgumentType(
                f"violated_by={self.violated_by!r} must be None or a Hypothesis strategy of instances that break "
                f"hypothesis {self.name!r} (e.g. st.fixed_dictionaries(...)), not {type(self.violated_by).__name__}")


_TEXTS = ("title", "paper_ref", "reading", "formula", "reason")


def _check_text(value: Any, *, name: str) -> None:
    if not isinstance(value, str) or not value.strip():
        raise InvalidArgumentType(f"{name}={value!r} must be a non-empty string")


def default_size(instance: Instance) -> int:
    """The length of the longest array in the instance: what a minimal counterexample minimises."""
    lengths = [len(v) for v in instance.values() if isinstance(v, np.ndarray) and v.ndim > 0]
    return max(lengths, default=0)


@dataclasses.dataclass(frozen=True)
class Statement:
    """One reading of one result of the paper, as an executable predicate.

    ``source`` is ``"P"`` when the formula is the paper's own and ``"R"`` when it was reconstructed
    (see ``../shared/spec/STATEMENTS.md``). ``confirm``, when given, replaces the default certification
    in ball arithmetic (statistical statements confirm with a confidence interval instead, and
    their counterexample's ``method`` says so); it takes the instance and returns a
    :class:`~theorems.engine.search.Counterexample` or ``None``. Checked at construction: ``lhs``/``rhs``
    callable, ``hypotheses`` a tuple of :class:`Hypothesis`, ``max_examples`` a positive integer.

    For :func:`~theorems.engine.prove.prove`: ``parameters``, when given, builds the instance from free
    parameters ``(parameters, xp) -> instance`` through ``xp`` (so a box of parameters becomes an instance of
    balls), and ``prove`` is the default domain (of parameters, or of instance keys) that the ledger, the
    CLI's ``check --prove`` and the pytest plugin prove on.
    """

    id: str
    title: str
    paper_ref: str
    reading: str
    formula: str
    lhs: Side
    rhs: Side
    relation: Literal["<=", ">="]
    instances: SearchStrategy
    expected: Literal["holds", "refuted"]
    reason: str
    hypotheses: tuple[Hypothesis, ...] = ()
    source: Literal["P", "R"] = "P"
    size: Callable[[Instance], int] = default_size
    confirm: Callable[[Instance], Any] | None = None
    max_examples: int | None = None
    side_seconds: float | None = None
    """The limit on one float64 call of a side (default :data:`theorems.engine.sides.SIDE_SECONDS`)."""
    parameters: Callable[[Instance, Any], Instance] | None = None
    prove: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not _ID.match(self.id):
            raise InvalidArgument(f"id={self.id!r} must look like 'lemma1.reading' (lower case, dots)")
        for name in _TEXTS:
            _check_text(getattr(self, name), name=name)
        if self.relation not in RELATIONS:
            raise InvalidArgument(f"relation={self.relation!r} must be one of {RELATIONS}")
        if self.expected not in VERDICTS:
            raise InvalidArgument(f"expected={self.expected!r} must be one of {VERDICTS}")
        if self.source not in ("P", "R"):
            raise InvalidArgument(f"source={self.source!r} must be 'P' (paper) or 'R' (reconstructed)")
        if not isinstance(self.instances, SearchStrategy):
            raise InvalidArgumentType(f"instances must be a Hypothesis strategy, not {type(self.instances).__name__}")
        for name in ("lhs", "rhs", "size"):
            if not callable(getattr(self, name)):
                raise InvalidArgumentType(f"{name}={getattr(self, name)!r} must be a function (instance, xp) -> value")
        if self.confirm is not None and not callable(self.confirm):
            raise InvalidArgumentType(f"confirm={self.confirm!r} must be None or a function (instance) -> Counterexample | None")
        if not isinstance(self.hypotheses, tuple) or not all(isinstance(h, Hypothesis) for h in self.hypotheses):
            raise InvalidArgumentType(f"hypotheses={self.hypotheses!r} must be a tuple of Hypothesis values")
        if self.parameters is not None and not callable(self.parameters):
            raise InvalidArgumentType(f"parameters={self.parameters!r} must be None or a function (parameters, xp) -> instance")
        if self.prove is not None and not isinstance(self.prove, Mapping):
            raise InvalidArgumentType(f"prove={self.prove!r} must be None or a domain: a mapping of keys to intervals or values")
        if self.max_examples is not None:
            check_integer(self.max_examples, name="max_examples", min_value=1, max_value=1_000_000)
        if self.side_seconds is not None and (isinstance(self.side_seconds, bool) or not isinstance(
                self.side_seconds, (int, float)) or not 0 < self.side_seconds < float("inf")):
            raise InvalidArgument(f"side_seconds={self.side_seconds!r} must be a positive number of seconds (or None)")
        names = [h.name for h in self.hypotheses]
        if len(set(names)) != len(names):
            raise InvalidArgument(f"hypothesis names of {self.id!r} repeat: {names}")
        for name in ("lhs", "rhs"):
            side = getattr(self, name)
            object.__setattr__(self, name, side if isinstance(side, _Side) else _Side(side))

    def hypothesis(self, name: str) -> Hypothesis:
        for hypothesis in self.hypotheses:
            if hypothesis.name == name:
                return hypothesis
        known = ", ".join(repr(h.name) for h in self.hypotheses) or "none"
        raise InvalidArgument(f"{self.id!r} has no hypothesis named {name!r}; it has {known}")

    def sides(self, instance: Instance, xp) -> tuple[Any, Any]:
        return self.lhs(instance, xp), self.rhs(instance, xp)

    def violation(self, lhs, rhs):
        """Elementwise amount by which the relation fails (positive means violated)."""
        return lhs - rhs if self.relation == "<=" else rhs - lhs


def callback_result(value: Any, *, statement_id: str, name: str, callback: Any, accepted: Callable[[Any], bool],
                    must: str) -> Any:
    """``value``, what the user's callback ``name=`` returned, when ``accepted(value)``; else an
    :class:`~theorems.errors.InvalidArgument` naming the statement, the callback and what it returned: a result the
    API does not document (a string ``'yes'`` from ``confirm=``, a bool for a counterexample) must never be read
    as one (``'yes'`` is truthy; a ``False`` would read as "not confirmed" by accident).

    >>> callback_result("yes", statement_id="my.claim", name="confirm", callback=print,
    ...                 accepted=lambda v: v is None, must="a Counterexample or None")
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: statement 'my.claim': its confirm=<built-in function print> returned str 'yes'; confirm must return a Counterexample or None
    """
    if accepted(value):
        return value
    shown = repr(value)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    raise InvalidArgument(f"statement {statement_id!r}: its {name}={_callable_name(callback)} returned "
                          f"{type(value).__name__} {shown}; {name} must return {must}")


def _callable_name(callback: Any) -> str:
    """A named function by its qualified name (``my_confirm``), anything else (a lambda, a built-in) by its repr."""
    name = getattr(callback, "__qualname__", None)
    if name and "<lambda>" not in name and not repr(callback).startswith("<built-in"):
        return name
    return repr(callback)


def instance_size(statement: Statement, instance: Instance) -> int:
    """``statement.size(instance)``, checked: a non-negative ``int`` (a bool, float or negative count is an
    :class:`~theorems.errors.InvalidArgument` naming the statement and the callback)."""
    return callback_result(statement.size(instance), statement_id=statement.id, name="size", callback=statement.size,
                           accepted=lambda v: isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
                           and v >= 0, must="a non-negative int (the instance's size, for shrinking)")


def jsonable(value: Any) -> Any:
    """A JSON-ready view of an instance value: arrays become lists, objects their name."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return to_float(value).tolist() if value.dtype.kind in "fO" else value.tolist()
    if isinstance(value, (tuple, list)):
        return [jsonable(v) for v in value]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    if value is None or isinstance(value, str):
        return value
    return getattr(value, "name", None) or repr(value)

