"""What a search reports: its counterexample, candidates, tightness, verdict, and the ill-defined instance.

>>> Tightness(ratio=0.5, instance={"L": 2}, lhs=0.5, rhs=1.0).describe()
'loose: 0.5 at best'
>>> tightness_class(Tightness(ratio=0.9999, instance={}, lhs=0.9999, rhs=1.0))
'tight (ratio ≥ 0.99)'
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from theorems.engine.statement import Instance, jsonable
from theorems.errors import EngineInconsistency, IllDefined


@dataclasses.dataclass(frozen=True)
class Counterexample:
    """A certified violation: the instance, both sides at the worst element, and the margin.

    ``method`` says how the violation was certified (ball arithmetic and its precision, an
    exact infinity, or a statement's own statistical confirmation); ``certified`` is whether ball arithmetic
    proved it (a statistical confirmation, or a user's ``confirm=``, does not).
    """

    statement_id: str
    instance: Instance
    lhs: float
    rhs: float
    margin: float
    relative_margin: float
    size: int
    method: str
    certified: bool = False

    def to_json(self) -> dict[str, Any]:
        fields = dataclasses.asdict(self) | {"instance": jsonable(self.instance)}
        return jsonable(fields)


@dataclasses.dataclass(frozen=True)
class Candidate:
    """A float64 violation far above rounding that was not certified: not a proof, but a failed gate.

    ``reason`` says why balls could not decide it (a function with no ball form, a side that called
    ``float()``, a comparison still undecided at 1024 bits); ``high_precision_margin`` is the margin (the
    midpoint of its interval) re-evaluated in interval arithmetic at high precision, ``None`` where the side cannot
    run there, and ``high_precision`` says how (``"intervals at 128 bits, float() at the midpoint"``).
    """

    statement_id: str
    instance: Instance
    lhs: float
    rhs: float
    margin: float
    relative_margin: float
    high_precision_margin: float | None
    reason: str
    high_precision: str = ""

    def describe(self) -> str:
        high = ("not computable" if self.high_precision_margin is None
                else f"{self.high_precision_margin:.6g} ({self.high_precision})")
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


def tightness_class(tightness) -> str:
    """A tightness as the tracked ledger states it: tight or loose, which does not move with the search path."""
    if tightness is None:
        return "tightness not reported"
    threshold = getattr(tightness, "TIGHT", 0.99)
    return f"tight (ratio ≥ {threshold:g})" if tightness.ratio >= threshold else f"loose (ratio < {threshold:g})"


def describe_instance(instance) -> str:
    """An instance in Markdown, each key and its value shortened: ``describe_instance({"T": 1.0})`` is the text
    `` `T` = `1` ``."""
    return "; ".join(f"`{k}` = `{_value(v)}`" for k, v in instance.items())


def _value(value) -> str:
    if isinstance(value, np.ndarray):
        return np.array2string(np.asarray(value, dtype=float), precision=6, separator=", ", threshold=24)
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


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


@dataclasses.dataclass(frozen=True)
class SearchReport:
    """What one search did: how many examples, how long, and what it found.

    ``certified`` counts the certified violations met; ``candidates`` holds the first
    :data:`CANDIDATES_KEPT` float64 violations far above rounding that balls could not certify
    (:class:`Candidate`; ``candidate_count`` counts them all); ``inconclusive`` counts the rounding-level
    ones that balls could neither prove nor rule out at 1024 bits; ``not_certifiable`` counts the float64 violations
    far above rounding that balls could not certify (``not_certifiable_reason``: the first one's reason) and that the
    high-precision re-evaluation showed to be rounding; ``ill_defined`` is the first :class:`IllDefined` met, if any.
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
    engine_inconsistency: EngineInconsistency | None = None
    """The first instance where a side's balls and its interval enclosure were disjoint (a bug in the suite; nothing
    certified)."""
    not_certifiable: int = 0
    not_certifiable_reason: str = ""

    def not_certifiable_note(self) -> str:
        """``"3 instances not certifiable: <reason>"`` (empty when there are none)."""
        if not self.not_certifiable:
            return ""
        plural = "s" if self.not_certifiable > 1 else ""
        return f"{self.not_certifiable} instance{plural} not certifiable: {self.not_certifiable_reason}"

    @property
    def examples_per_second(self) -> float:
        return self.examples / self.seconds if self.seconds > 0 else float("inf")


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


FOUND = ("holds", "refuted", "ill-defined", "candidate", "engine-inconsistency")
"""What :func:`check` can find: ``"holds"`` (no certified counterexample, no candidate and no ill-defined
instance; rounding-level inconclusive instances are counted in the report), ``"refuted"`` (a certified
counterexample), ``"ill-defined"`` (a side has no value at some instance; never matches ``expected``) or
``"candidate"`` (float64 violations far above rounding that balls could not certify: the bound is not
shown to hold, nor proved false; never matches ``expected``, so the gate fails and says why) or
``"engine-inconsistency"`` (a side's balls and its interval enclosure are disjoint: the suite's arithmetic is wrong
there, nothing is certified from it; never matches ``expected``)."""


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
            "not_certifiable": report.not_certifiable, "not_certifiable_reason": report.not_certifiable_reason,
            "candidate": report.candidates[0].to_json() if report.candidates else None,
            "counterexample": cx.to_json() if cx else None,
            "tightness": report.tightness.to_json() if report.tightness else None,
            "ill_defined": report.ill_defined.to_json() if report.ill_defined else None,
            "engine_inconsistency": (report.engine_inconsistency.to_json() if report.engine_inconsistency else None),
        }
