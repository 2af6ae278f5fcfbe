"""A derivation ``e_0 ≤ e_1 ≤ … ≤ e_k`` (or ``≥``, mixed with ``=``), gated link by link.

Each link ``e_{j-1} <rel> e_j`` carries its justification ("triangle inequality", "Markov", …) and
becomes an ordinary :class:`~theorems.engine.statement.Statement` over the derivation's one instance
strategy and hypotheses; the search engine (:func:`theorems.engine.search.check`) checks it, certifies a
counterexample and reports its tightness. ``=`` is checked as ``≤`` and then, unless ``≤`` already
fails, ``≥``, each with half the link's budget; its inconclusive count is the sum of both. The chain's
conclusion ``e_0 <rel> e_k`` is :meth:`Derivation.conclusion`, itself a Statement.

:func:`gate` checks every link and names the **first link that fails**; a link whose sides are
expectations over random choices passes ``statistical=``, the function the statistical statements
use to attach their confidence-interval confirmation (e.g. ``lambda s: statistical(s, estimator)``
of :mod:`theorems.statements.separability.theorem2`, or ``confirm_expectation`` of :mod:`theorems.statements.distance.corollary2`).

>>> import numpy as np
>>> from hypothesis import strategies as st
>>> chain = Derivation(
...     id="my.chain", title="x^2 <= 2x^2 <= 3x^2", expected="holds",
...     instances=st.fixed_dictionaries({"x": st.floats(-3, 3)}),
...     start=Term("x²", lambda i, xp: i["x"] ** 2),
...     links=(Link("<=", Term("2x²", lambda i, xp: 2 * i["x"] ** 2), "doubling a square"),
...            Link("<=", Term("x² + 1", lambda i, xp: i["x"] ** 2 + 1), "wrong for |x| > 1")))
>>> report = gate(chain, max_examples=50, seed=0)
>>> report.first_failure.index, report.first_failure.link.justification
(2, 'wrong for |x| > 1')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Literal

from hypothesis.strategies import SearchStrategy

from theorems.engine.search import Counterexample, Verdict, check, describe_instance
from theorems.engine.statement import VERDICTS, Hypothesis, Side, Statement, callback_result, jsonable
from theorems.errors import InvalidArgument, InvalidArgumentType

LINK_RELATIONS = ("<=", ">=", "=")
_SYMBOL = {"<=": "≤", ">=": "≥", "=": "="}


@dataclasses.dataclass(frozen=True)
class Term:
    """One expression ``e_j`` of a chain: its formula as text and its value ``(instance, xp) -> value``."""

    text: str
    value: Side

    def __post_init__(self) -> None:
        if not isinstance(self.text, str) or not self.text:
            raise InvalidArgument(f"text={self.text!r} must be a non-empty string (the formula of this term)")
        if not callable(self.value):
            raise InvalidArgumentType(f"value must be a function (instance, xp) -> number, not {type(self.value).__name__}")


@dataclasses.dataclass(frozen=True)
class Link:
    """``previous <relation> term``, because of ``justification``.

    ``expected`` is "holds" unless the link is known to be wrong (a broken step of a published
    proof). ``statistical``, for a link between expectations, turns the link's Statement into one
    confirmed by a confidence interval (the same function the statistical statements use).
    """

    relation: Literal["<=", ">=", "="]
    term: Term
    justification: str
    expected: Literal["holds", "refuted"] = "holds"
    statistical: Callable[[Statement], Statement] | None = None

    def __post_init__(self) -> None:
        if self.relation not in LINK_RELATIONS:
            raise InvalidArgument(f"relation={self.relation!r} must be one of {LINK_RELATIONS}")
        if not isinstance(self.term, Term):
            raise InvalidArgumentType(f"term must be a Term, not {type(self.term).__name__}")
        if not isinstance(self.justification, str) or not self.justification:
            raise InvalidArgument(f"justification={self.justification!r} must say why the link holds")
        if self.expected not in VERDICTS:
            raise InvalidArgument(f"expected={self.expected!r} must be one of {VERDICTS}")
        _check_statistical(self.statistical)


def _statistical(statistical, statement: Statement) -> Statement:
    """``statistical(statement)``, which must be a :class:`Statement` (an InvalidArgument naming the callback else)."""
    return callback_result(statistical(statement), statement_id=statement.id, name="statistical", callback=statistical,
                           accepted=lambda v: isinstance(v, Statement), must="a Statement (the link's, confirmed "
                           "statistically)")


def _check_statistical(statistical) -> None:
    """``statistical=`` must be ``None`` or a function ``Statement -> Statement``; checked at construction."""
    if statistical is not None and not callable(statistical):
        raise InvalidArgumentType(f"statistical={statistical!r} must be None or a function Statement -> Statement (e.g. "
                        f"lambda s: statistical(s, estimator)), not {type(statistical).__name__}")


@dataclasses.dataclass(frozen=True)
class Derivation:
    """A chain ``start <rel_1> e_1 <rel_2> … e_k`` over one instance strategy and one set of hypotheses.

    ``expected`` is the verdict expected of the conclusion ``e_0 <rel> e_k`` (a proof with a broken
    link may still have a true conclusion). ``max_examples`` is each link's search budget.
    """

    id: str
    title: str
    instances: SearchStrategy
    start: Term
    links: tuple[Link, ...]
    expected: Literal["holds", "refuted"] = "holds"
    paper_ref: str = "user derivation"
    hypotheses: tuple[Hypothesis, ...] = ()
    source: Literal["P", "R"] = "R"
    max_examples: int | None = None
    statistical: Callable[[Statement], Statement] | None = None
    """Applied to the conclusion's Statement (when its ends are expectations)."""
    parameters: Callable[[Any, Any], Any] | None = None
    prove: Any = None
    """A domain (see :func:`~theorems.engine.prove.prove`): ``gate`` then proves every link that holds on it."""

    def __post_init__(self) -> None:
        if not isinstance(self.start, Term):
            raise InvalidArgumentType(f"start must be a Term, not {type(self.start).__name__}")
        if not isinstance(self.links, tuple) or not self.links:
            raise InvalidArgument(f"links={self.links!r} must be a non-empty tuple of Link")
        for k, link in enumerate(self.links, 1):
            if not isinstance(link, Link):
                raise InvalidArgumentType(f"links[{k - 1}] must be a Link, not {type(link).__name__}")
        if self.expected not in VERDICTS:
            raise InvalidArgument(f"expected={self.expected!r} must be one of {VERDICTS}")
        _check_statistical(self.statistical)
        # the conclusion's relation must exist: a chain mixing <= and >= proves nothing end to end
        self.relation  # noqa: B018  (raises)
        self.conclusion()  # validates id, instances and hypotheses through Statement

    @property
    def terms(self) -> tuple[Term, ...]:
        return (self.start, *(link.term for link in self.links))

    @property
    def relation(self) -> str:
        """``<=`` or ``>=``: the direction of the whole chain (``=`` links go either way)."""
        directions = {link.relation for link in self.links} - {"="}
        if len(directions) > 1:
            raise InvalidArgument(f"derivation {self.id!r} mixes <= and >= links: it concludes nothing end to end")
        return directions.pop() if directions else "<="

    @property
    def formula(self) -> str:
        text = self.start.text
        for link in self.links:
            text += f" {_SYMBOL[link.relation]} {link.term.text}"
        return text

    def _statement(self, *, id: str, title: str, lhs: Term, rhs: Term, relation: str, expected: str,
                   reason: str) -> Statement:
        return Statement(
            id=id, title=title, paper_ref=self.paper_ref, reading=f"step of {self.id}: {self.formula}",
            formula=f"{lhs.text} {_SYMBOL[relation]} {rhs.text}", lhs=lhs.value, rhs=rhs.value, relation=relation,
            instances=self.instances, expected=expected, reason=reason, hypotheses=self.hypotheses,
            source=self.source, max_examples=self.max_examples, parameters=self.parameters, prove=self.prove)

    def link_statements(self, index: int) -> tuple[Statement, ...]:
        """The Statement(s) of link ``index`` (1-based): one, or two (``≤`` and ``≥``) for an ``=`` link."""
        if isinstance(index, bool) or not isinstance(index, int) or not 1 <= index <= len(self.links):
            raise InvalidArgument(f"index={index!r} must be an integer in 1..{len(self.links)}")
        link, previous = self.links[index - 1], self.terms[index - 1]
        relations = ("<=", ">=") if link.relation == "=" else (link.relation,)
        statements = []
        for relation in relations:
            suffix = {"<=": "le", ">=": "ge"}[relation] if link.relation == "=" else ""
            statement = self._statement(
                id=f"{self.id}.step{index}" + (f".{suffix}" if suffix else ""),
                title=f"{self.title}, step {index}: {link.justification}", lhs=previous, rhs=link.term,
                relation=relation, expected=link.expected if link.relation != "=" else "holds",
                reason=link.justification)
            statements.append(_statistical(link.statistical, statement) if link.statistical else statement)
        return tuple(statements)

    def conclusion(self) -> Statement:
        """The end-to-end statement ``e_0 <rel> e_k`` the chain derives."""
        statement = self._statement(
            id=self.id, title=self.title, lhs=self.start, rhs=self.links[-1].term, relation=self.relation,
            expected=self.expected, reason="by the chain " + "; ".join(
                f"({k}) {link.justification}" for k, link in enumerate(self.links, 1)))
        return _statistical(self.statistical, statement) if self.statistical else statement


@dataclasses.dataclass(frozen=True)
class LinkReport:
    """What the engine found for one link: a verdict per checked direction."""

    index: int
    link: Link
    verdicts: tuple[Verdict, ...]
    proofs: tuple[Any, ...] = ()
    """One :class:`~theorems.engine.prove.Proof` per direction when the derivation declares a domain."""

    @property
    def found(self) -> str:
        """``engine-inconsistency`` if a direction met one (nothing it certified can be trusted), else ``refuted``
        if a direction or a proof is refuted, else ``ill-defined`` or ``candidate`` (an uncertified violation far
        above rounding) if one is, else ``holds``."""
        found = {v.found for v in self.verdicts} | {p.status for p in self.proofs}  # a refuted proof is certified
        return next((f for f in ("engine-inconsistency", "refuted", "ill-defined", "candidate") if f in found), "holds")

    @property
    def ill_defined(self) -> Any:
        return next((v.report.ill_defined for v in self.verdicts if getattr(v.report, "ill_defined", None)), None)

    def describe_failure(self) -> str:
        """The certified counterexample, or why the link has no value at some instance."""
        if self.counterexample is not None:
            return "counterexample " + describe_counterexample(self.counterexample)
        if self.ill_defined is not None:
            return f"ill-defined: {self.ill_defined}"
        engine = next((v.report.engine_inconsistency for v in self.verdicts
                       if getattr(v.report, "engine_inconsistency", None)), None)
        if engine is not None:
            return str(engine)
        candidate = next((v.report.candidates[0] for v in self.verdicts if v.report.candidates), None)
        return candidate.describe() if candidate is not None else "no counterexample"

    @property
    def matches(self) -> bool:
        if self.link.relation == "=" and self.link.expected == "refuted":
            return self.found == "refuted"  # an equality expected to fail fails in at least one direction
        return self.found == self.link.expected

    @property
    def counterexample(self) -> Counterexample | None:
        found = [v.report.counterexample for v in self.verdicts] + [p.counterexample for p in self.proofs]
        return next((cx for cx in found if cx is not None), None)

    @property
    def inconclusive(self) -> int:
        """Instances neither proved nor ruled out at 1024 bits, over every direction checked."""
        return sum(v.report.inconclusive for v in self.verdicts)

    @property
    def tightness(self) -> Any:
        """The engine's tightness report of a link that holds (``None`` when it has none)."""
        reports = [getattr(v.report, "tightness", None) for v in self.verdicts if v.found == "holds"]
        reports = [t for t in reports if t is not None]
        return max(reports, key=lambda t: t.ratio) if reports else None


@dataclasses.dataclass(frozen=True)
class DerivationReport:
    """Every link's report, the first failing link, and the conclusion's verdict."""

    derivation: Derivation
    links: tuple[LinkReport, ...]
    conclusion: Verdict | None
    """Searched only when some link fails; when every link holds the conclusion holds by the chain."""
    seed: int | None

    @property
    def first_failure(self) -> LinkReport | None:
        return next((link for link in self.links if link.found != "holds"), None)

    @property
    def first_mismatch(self) -> LinkReport | None:
        """The first link whose verdict differs from its ``expected``."""
        return next((link for link in self.links if not link.matches), None)

    @property
    def found(self) -> str:
        return self.conclusion.found if self.conclusion is not None else "holds"

    @property
    def matches(self) -> bool:
        return self.first_mismatch is None and self.found == self.derivation.expected

    @property
    def loosest(self) -> LinkReport | None:
        """The holding inequality link the engine measured least tight (``None`` without tightness)."""
        measured = [link for link in self.links if link.link.relation != "=" and link.tightness is not None]
        return min(measured, key=lambda link: link.tightness.ratio) if measured else None


def _link_report(derivation: Derivation, k: int, link: Link, max_examples, seed) -> LinkReport:
    from theorems.engine.prove import SUITE_BOXES, prove

    statements = derivation.link_statements(k)
    verdicts = _check_link(statements, max_examples, seed)
    proofs = ()
    if derivation.prove is not None and all(v.found == "holds" for v in verdicts):
        proofs = tuple(prove(s, seed=seed or 0, max_seconds=None, max_boxes=SUITE_BOXES) for s in statements)
    return LinkReport(k, link, verdicts, proofs)


def gate(derivation: Derivation, *, max_examples: int | None = None, seed: int | None = None) -> DerivationReport:
    """Check every link of ``derivation`` with the search engine, then its conclusion if a link fails."""
    if not isinstance(derivation, Derivation):
        raise InvalidArgumentType(f"derivation must be a Derivation, not {type(derivation).__name__}")
    reports = tuple(_link_report(derivation, k, link, max_examples, seed) for k, link in enumerate(derivation.links, 1))
    conclusion = None
    if any(r.found != "holds" for r in reports):
        conclusion = check(derivation.conclusion(), max_examples=max_examples, seed=seed)
    return DerivationReport(derivation, reports, conclusion, seed)


def _check_link(statements: tuple[Statement, ...], max_examples: int | None, seed: int | None) -> tuple[Verdict, ...]:
    """Each direction of a link, stopping at the first refuted one (a refuted ``≤`` decides an ``=`` link); the two
    directions of an ``=`` link share one link's budget, so that it costs one search, not two."""
    if len(statements) > 1:
        from hypothesis import settings

        budget = max_examples or statements[0].max_examples or settings().max_examples
        max_examples = max(1, -(-budget // len(statements)))
    verdicts = []
    for statement in statements:
        verdicts.append(check(statement, max_examples=max_examples, seed=seed))
        if verdicts[-1].found == "refuted":
            break
    return tuple(verdicts)


@dataclasses.dataclass(frozen=True)
class Expectation:
    """A statement or derivation with a pinned verdict and, optionally, a pinned tightness.

    ``verdict`` overrides the target's own ``expected``; ``tightness`` (in ``(0, 1]``) requires the
    engine's tightness ratio of a holding target to stay at least that (a bound documented as tight
    must stay tight). Build one with :func:`expect`.
    """

    target: Statement | Derivation
    verdict: Literal["holds", "refuted"] | None = None
    tightness: float | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.target, (Statement, Derivation)):
            raise InvalidArgumentType(f"target must be a Statement or a Derivation, not {type(self.target).__name__}")
        if self.verdict is not None and self.verdict not in VERDICTS:
            raise InvalidArgument(f"verdict={self.verdict!r} must be one of {VERDICTS} or None")
        if self.tightness is not None:
            if isinstance(self.tightness, bool) or not isinstance(self.tightness, (int, float)) or not 0 < self.tightness <= 1:
                raise InvalidArgument(f"tightness={self.tightness!r} must be a number in (0, 1]")
            if (self.verdict or self.target.expected) != "holds":
                raise InvalidArgument("tightness can only be pinned on a target expected to hold")

    @property
    def expected(self) -> str:
        return self.verdict or self.target.expected


def expect(target: Statement | Derivation, *, verdict: str | None = None, tightness: float | None = None) -> Expectation:
    """Pin the verdict (and tightness) the test suite must find for ``target``.

    >>> from theorems import STATEMENTS
    >>> expect(STATEMENTS["corollary3.entry.corrected"], tightness=0.99).expected
    'holds'
    """
    return Expectation(target, verdict, tightness)


# ----------------------------------------------------------------------------------------------
# short readable messages (the pytest plugin's failures and the ledger's proof accounts)


def describe_counterexample(cx: Counterexample) -> str:
    """Instance, both sides, margin and how it was certified, on two lines."""
    instance = " ".join(describe_instance(cx.instance).split())  # one line, even for 2-d arrays
    return (f"instance: {instance}\n"
            f"lhs = {cx.lhs:.6g}, rhs = {cx.rhs:.6g}, margin = {cx.margin:.3g} "
            f"(relative {cx.relative_margin:.3g}, size {cx.size}); certified by {cx.method}")


def describe_tightness(tightness: Any) -> str:
    if tightness is None:
        return "tightness not reported by the engine"
    describe = getattr(tightness, "describe", None)
    return f"tightness ratio {tightness.ratio:.4g}" + (f" ({describe()})" if describe else "")


def describe_verdict(statement: Statement, verdict: Verdict, *, expected: str | None = None) -> str:
    """What a failed statement test prints: the claim, expected and found, the certified counterexample."""
    expected = expected or statement.expected
    lines = [f"statement {statement.id}: {statement.formula}",
             f"expected {expected}, found {verdict.found} ({verdict.report.examples} examples)"]
    cx, ill = verdict.report.counterexample, getattr(verdict.report, "ill_defined", None)
    engine = getattr(verdict.report, "engine_inconsistency", None)
    if engine is not None:
        lines.append(str(engine))
    elif cx is not None:
        lines.append("counterexample " + describe_counterexample(cx).replace("\n", "\n  "))
    elif ill is not None:
        lines.append(f"ill-defined: {ill}")
    elif getattr(verdict.report, "candidates", ()):
        candidate = verdict.report.candidates[0]
        lines.append(f"{verdict.report.candidate_count} float64 violation(s) far above rounding that ball arithmetic "
                     f"could not certify; the first, at {jsonable(candidate.instance)}:\n  {candidate.describe()}")
    elif verdict.found == "holds" and getattr(verdict.report, "tightness", None) is not None:
        lines.append(describe_tightness(verdict.report.tightness))
    return "\n".join(lines)


def describe_report(report: DerivationReport) -> str:
    """Every link's verdict, the first failing link with its certified counterexample, the conclusion."""
    d = report.derivation
    lines = [f"derivation {d.id}: {d.formula}"]
    for r in report.links:
        status = r.found + ("" if r.matches else f" (expected {r.link.expected})")
        status += f", {r.inconclusive} inconclusive" if r.inconclusive else ""
        detail = f"; {describe_tightness(r.tightness)}" if r.found == "holds" and r.link.relation != "=" else ""
        detail += "".join(f"; {proof.describe()}" for proof in r.proofs)
        lines.append(f"  step {r.index} [{_SYMBOL[r.link.relation]} {r.link.term.text}] "
                     f"{r.link.justification}: {status}{detail}")
    failure = report.first_failure
    if failure is not None:
        lines.append(f"first failing link: step {failure.index} ({failure.link.justification})")
        lines.append("  " + failure.describe_failure().replace("\n", "\n  "))
    conclusion = "holds by the chain" if report.conclusion is None else f"{report.found} when searched directly"
    lines.append(f"conclusion {d.start.text} {_SYMBOL[d.relation]} {d.links[-1].term.text}: {conclusion}"
                 f" (expected {d.expected})")
    return "\n".join(lines)
