"""``prove``: a bound proved on a whole box of instances by branch-and-bound in arb balls, not only tested.

For a statement ``small ≤ big`` (``lhs ≤ rhs``, or ``rhs ≤ lhs`` for ``>=``), ``prove`` encloses
``g = small − (1 + slack)·big`` on a box with forward-mode duals over arb
(:mod:`theorems.arithmetic.dual`: plain interval value ∩ mean-value form), discards the box when
``g ≤ 0`` is certain there, replaces a coordinate by its endpoint where ``g`` is certainly monotone in
it (so a bound attained at a corner closes at once), and bisects the rest along the coordinate of
largest ``|∂g|·width``. The float64 sides are evaluated at every box's centre (and at ``seed``-drawn
random points): a violation there goes to :func:`~theorems.engine.search.certify`, so a refutation
is the same certified counterexample as :func:`~theorems.engine.search.check` reports.

What ``slack`` means: ``status == "proved"`` is the theorem *small ≤ (1 + slack)·big at every point
of the domain* (for ``big ≥ 0``: ``small/big ≤ 1 + slack``); ``sup`` is a proved enclosure
``[lo, hi]`` of ``sup small/big`` over the domain (``lo`` attained at a witness point, ``hi ≤ 1 + slack``
when proved; ``None`` when ``big`` is not certainly positive). Tight bounds (ratio 1 at ties) are
provable only with ``slack > 0``.

>>> from theorems import STATEMENTS
>>> proof = prove(STATEMENTS["corollary3.row.corrected"], {"gaps": [(0.0, 10.0)], "T": 1.0})
>>> proof.status, proof.sup[0] > 1 - 1e-6, proof.sup[1] <= 1 + 1e-6    # tight: attained at equal logits
('proved', True, True)
"""

from __future__ import annotations

import dataclasses
import heapq
import itertools
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import flint
import numpy as np

from theorems.arithmetic.decimals import interval_text, number_text
from theorems.arithmetic.box_jet import JETS, SPACES, BoxJet, as_jet
from theorems.arithmetic.precision import F64, START_BITS, Undecided, working_bits
from theorems.arithmetic.validation import check_integer, check_number
from theorems.engine import proof_certificate, proof_reduction
from theorems.engine.boxes import Domain, as_written, bisect, centre, jet_instance
from theorems.engine.proof_domain import check_domain
from theorems.engine.search import Counterexample, IllDefined, certify
from theorems.engine.statement import Statement, callback_result, jsonable
from theorems.errors import EngineInconsistency, InvalidArgument, InvalidArgumentType

STATUSES = ("proved", "refuted", "undecided")
ENCLOSURES = BoxJet


@dataclasses.dataclass(frozen=True)
class Form:
    """An enclosure of the sides on a box: its name (the certificate's method) and the order of its jets."""

    name: str
    order: int
    declines: tuple
    """What its evaluation raises where it cannot enclose the sides on a box (then the box is bisected)."""

    @property
    def xp(self):
        return SPACES[self.order]

    def instance(self, domain, lows, highs):
        return jet_instance(domain, lows, highs, order=self.order)

    def convert(self, value):
        return as_jet(value, JETS[self.order])


_DECLINES = (Undecided, ZeroDivisionError, ValueError, OverflowError)
MEAN_VALUE = Form("mean-value", 1, _DECLINES)
TAYLOR2 = Form("taylor2", 2, (Exception,))
"""The second-order form only tightens what the mean-value form leaves open: where it cannot evaluate a side (an
operation without a second-order rule, a kink), the box is left to the mean-value form and to bisection."""
TAYLOR_BELOW = 1e-3
"""The second-order form is tried on a box the mean-value form leaves open only when the mean-value bound of ``g``
is below this (a box close to closing, where ``O(r³)`` beats ``O(r²)``): on wider boxes both fail and the
second-order evaluation, about ``n`` times the cost, would be wasted."""

SUITE_BOXES = 50_000
"""The box budget of every proof the suite runs itself (the ledger, ``check --prove``, the pytest plugin, a
derivation's links): ``max_boxes``, never seconds, so that one commit gives the same statuses and box counts on any
machine at any load. The declared domains close in at most 12,363 boxes (``corollary3.motivating.corrected``,
``docs/proofs.md``), four times that is the margin; an undecided proof costs about two minutes of one core."""

RANDOM_POINTS = 64
"""Float64 points drawn (with ``seed``) over the domain before the branch-and-bound, for a quick refutation."""


@dataclasses.dataclass(frozen=True)
class Proof:
    """The outcome of :func:`prove`. ``status`` is ``"proved"`` (``small ≤ (1 + slack)·big`` on the whole
    domain), ``"refuted"`` (``counterexample`` certified in balls, as in ``check``) or ``"undecided"``
    (time ran out, or a side has no ball form: ``detail`` says which; ``worst_box`` is where)."""

    statement_id: str
    status: str
    domain: str
    slack: float
    boxes: int
    seconds: float
    sup: tuple[float, float] | None
    worst_box: str | None = None
    counterexample: Counterexample | None = None
    detail: str = ""
    box: Mapping[str, Any] | None = None
    method: str = ""
    checker: str | None = None
    checker_detail: str = ""
    tokens: int | None = None
    certificate_data: Mapping[str, Any] | None = dataclasses.field(default=None, repr=False, compare=False)
    """The proof as a certificate's JSON (when proved): :func:`theorems.engine.proof_certificate.checked` writes
    and re-checks it."""

    def scope(self) -> str:
        """What was proved, in one line: the ``T`` range, ``L``, the method and the checker's agreement.

        >>> Proof("s", "proved", "gaps ∈ [0, 10]^1, T ∈ [0.1, 10]", 1e-6, 9, 0.1, None,
        ...       box={"T": [0.09999999999999999, 10.0]}, method="m", checker="proved", tokens=2).scope()
        'T ∈ [0.1, 10], L = 2; method: m; independent checker: proved'
        """
        box = self.box or {}
        t = box.get("T")
        parts = ["T ∈ [{}, {}]".format(*interval_text(*t)) if isinstance(t, list) else
                 f"T = {number_text(t)}" if isinstance(t, (int, float)) else "no T"]
        if self.tokens is not None:
            parts[0] += f", L = {self.tokens}"
        if self.method:
            parts.append(f"method: {self.method}")
        parts.append(f"independent checker: {self.checker}" if self.checker else
                     f"independent checker: {self.checker_detail or 'not run'}")
        return "; ".join(parts)

    def describe(self) -> str:
        sup = f"sup ratio ∈ [{self.sup[0]:.9g}, {self.sup[1]:.9g}]" if self.sup else "no ratio enclosure"
        text = f"{self.status} on {self.domain}, slack {self.slack:g} ({self.boxes} boxes, {self.seconds:.1f} s; {sup})"
        if self.status == "undecided":
            text += f"; {self.detail}" + (f"; worst box {self.worst_box}" if self.worst_box else "")
        if self.status == "proved":
            text += f"; {self.scope()}"
        if self.counterexample is not None:
            cx = self.counterexample
            text += (f"; counterexample {jsonable(cx.instance)}: lhs = {cx.lhs:.6g}, rhs = {cx.rhs:.6g} "
                     f"(certified: {cx.method})")
        return text

    def to_json(self) -> dict[str, Any]:
        return {"statement": self.statement_id, "status": self.status, "domain": self.domain, "slack": self.slack,
                "boxes": self.boxes, "seconds": round(self.seconds, 3), "sup": list(self.sup) if self.sup else None,
                "worst_box": self.worst_box, "detail": self.detail,
                "counterexample": self.counterexample.to_json() if self.counterexample else None,
                "box": self.box, "method": self.method, "checker": self.checker, "tokens": self.tokens,
                "scope": self.scope()}


@dataclasses.dataclass
class _Search:
    statement: Statement
    domain: Domain
    slack: float
    boxes: int = 0
    sup_low: float = -np.inf
    sup_high: float = -np.inf
    ratio_known: bool = True
    leaves: list | None = None
    bits: int = START_BITS
    closed_by: dict = dataclasses.field(default_factory=dict)
    max_boxes: int | None = None
    taylor_below: float = TAYLOR_BELOW


def prove(statement: Statement, domain: Mapping[str, Any] | None = None, *, slack: float = 1e-6,
          max_seconds: float | None = 60, seed: int = 0, certificate=None, homogeneity: bool = True,
          max_boxes: int | None = None, second_order: bool = True) -> Proof:
    """Prove ``statement`` on every instance of ``domain`` (default: ``statement.prove``), up to ``slack``.

    ``domain`` maps each instance key (each parameter, for a statement with ``parameters``) to an
    interval ``(low, high)``, a list of intervals (a fixed length) or a fixed value
    (:mod:`theorems.engine.boxes`). See the module's docstring for what ``proved`` and ``slack`` mean. An endpoint
    means the number written: ``(0.1, 10)`` is proved on a float box that holds ``[1/10, 10]``
    (:func:`~theorems.engine.boxes.as_written`), and the domain is printed as proved. The domain is checked against
    the statement before any work (:mod:`theorems.engine.proof_domain`: every key the statement reads present, no
    other, every number finite, ``T`` a positive normal temperature), else an
    :class:`~theorems.errors.InvalidArgument` names the key.

    ``max_seconds``: stop (``undecided``) when this time is spent, checked after each box (the checker's re-check of
    a reduction included); ``None``: no time limit (then ``max_boxes`` is required).

    ``certificate``: a path; when the proof is ``proved``, the closed boxes are written there as a certificate
    (:mod:`theorems.engine.proof_certificate`) and re-checked by the independent checker, whose verdict is
    ``Proof.checker``. The path is validated before any work.

    ``second_order``: where the mean-value form leaves a box open by less than :data:`TAYLOR_BELOW`, try the
    second-order Taylor form (:mod:`theorems.arithmetic.taylor`) on it; ``False``: the mean-value form alone.

    ``max_boxes``: stop (``undecided``) after evaluating this many boxes of one search (the reduction's, and the
    one with ``T`` in the box), whatever the time left: a budget that does not depend on the machine or its load,
    which the ledger, ``check --prove``, the plugin and the derivations use (:data:`SUITE_BOXES`).

    ``homogeneity``: with ``T`` on an interval, first try the reduction to ``T = 1``
    (:mod:`theorems.engine.proof_reduction`); it counts only when the checker proves it for these sides on
    every box, else ``T`` stays a coordinate of the box (within the time left).
    """
    if not isinstance(statement, Statement):
        raise InvalidArgumentType(f"statement must be a Statement, not {type(statement).__name__}")
    domain = statement.prove if domain is None else domain
    if domain is None:
        raise InvalidArgument(f"domain is required: {statement.id!r} declares no default domain (Statement.prove)")
    check_number(slack, name="slack", min_value=0.0, max_value=1.0)
    if max_seconds is not None:
        check_number(max_seconds, name="max_seconds", min_value=0.0, max_value=86_400.0)
    check_integer(seed, name="seed", min_value=0)
    if max_boxes is not None:
        check_integer(max_boxes, name="max_boxes", min_value=1)
    elif max_seconds is None:
        raise InvalidArgument("max_seconds=None needs max_boxes: a proof with neither limit may never end")
    for name, flag in (("homogeneity", homogeneity), ("second_order", second_order)):
        if not isinstance(flag, bool):
            raise InvalidArgumentType(f"{name} must be True or False, not {flag!r}")
    check_domain(statement, domain)
    path = None if certificate is None else proof_certificate.checked_path(certificate)
    started = time.perf_counter()
    deadline = None if max_seconds is None else started + max_seconds
    parsed = Domain.widened(domain)
    domain = as_written(domain)
    if homogeneity and proof_reduction.applies(domain) and not _refuted_on_sight(statement, parsed, slack, seed,
                                                                                 deadline):
        half = None if deadline is None else started + max_seconds / 2
        reduced = _reduced(statement, domain, slack=float(slack), deadline=half, seed=seed, path=path,
                           started=started, max_boxes=max_boxes, second_order=second_order)
        if reduced is not None:
            return reduced
    search, status, worst, counterexample, detail = _search_on(
        statement, parsed, slack=float(slack), deadline=deadline, seed=seed, record=True, max_boxes=max_boxes,
        second_order=second_order)
    data = (proof_certificate.certificate_json(statement=statement, domain=domain, slack=slack, leaves=search.leaves)
            if status == "proved" else None)
    proof = Proof(statement.id, status, _described(statement, parsed), float(slack), search.boxes,
                  time.perf_counter() - started, _sup(search, status), worst, counterexample, detail,
                  box=box_json(domain), method=_method(search), tokens=_tokens(statement, parsed),
                  certificate_data=data)
    return proof if path is None else proof_certificate.checked(proof, statement, path=path, deadline=deadline)


def _refuted_on_sight(statement: Statement, parsed: Domain, slack: float, seed: int, deadline: float | None) -> bool:
    """Whether the float64 sides at the domain's sampled points (those the search samples first) show a certified
    counterexample: then no reduction is tried (the search with ``T`` in the box reports it), and a reduction the
    checker wrongly accepted could not hide a statement false where it was sampled."""
    try:
        return _sample(_Search(statement, parsed, slack), np.random.default_rng(seed), deadline) is not None
    except IllDefined:  # a side without a value there: the search says so
        return False


def _tokens(statement: Statement, parsed: Domain) -> int | None:
    """``L``, the number of logits (or keys, or entries of ``u``/``x``) of the instance at the domain's centre."""
    try:
        instance, _ = _sides(statement, parsed.point(centre(parsed.lows, parsed.highs)), F64) \
            if statement.parameters is None else (statement.parameters(parsed.point(centre(parsed.lows, parsed.highs)),
                                                                       F64), None)
    except Exception:  # noqa: BLE001 - only a label: a side that needs more than floats has none
        return None
    for key in ("logits", "keys", "x", "u"):
        if isinstance(instance, Mapping) and key in instance and np.ndim(instance[key]) >= 1:
            return int(np.shape(instance[key])[0])
    return None


def _sup(search: "_Search", status: str):
    return (search.sup_low, search.sup_high) if search.ratio_known and status == "proved" else None


def _search_on(statement: Statement, parsed: Domain, *, slack: float, deadline: float | None, seed: int,
               record: bool, bits: int = START_BITS, max_boxes: int | None = None, second_order: bool = True):
    """``(search, status, worst box, counterexample, detail)`` of the branch-and-bound on ``parsed``, stopped at
    ``deadline`` (a ``time.perf_counter()`` reading; ``None``: none) or after ``max_boxes`` boxes."""
    search = _Search(statement, parsed, slack, leaves=[] if record else None, bits=bits, max_boxes=max_boxes,
                     taylor_below=TAYLOR_BELOW if second_order else -np.inf)

    def finish(status, *, worst=None, counterexample=None, detail=""):
        return status, worst, counterexample, detail

    try:
        outcome = _branch_and_bound(search, seed, deadline, finish)
    except IllDefined as error:  # a side with no value inside the domain: never "proved"
        outcome = ("undecided", None, None, f"ill-defined inside the domain: {error}")
    return (search, *outcome)


MAX_BITS = 4096
"""The most bits a proof through the reduction works at (the checker's limit on a certificate's ``"bits"``): a base
domain whose extent would need more (``T`` down to ``1e-7`` with logits up to 10: ``l/T`` up to ``10⁸``) is proved,
if at all, with ``T`` in the box."""


def _reduced(statement: Statement, domain, *, slack: float, deadline: float | None, seed: int, path, started,
             max_boxes: int | None, second_order: bool) -> Proof | None:
    """The proof through homogeneity in ``(l, T)`` when the base proof closes and the checker proves the reduction
    on every one of its boxes (by ``deadline``); ``None`` otherwise (the caller proves with ``T`` in the box)."""
    for degrees in proof_reduction.proposals(domain):
        if _past(deadline) or not proof_reduction.plausible(statement, domain, degrees, slack):
            continue
        base = proof_reduction.base_domain(domain, degrees)
        parsed = Domain.parse(base)
        # l/T up to 100 at T = 1: 1 − α = e^(−100) and its square must be resolved, not lost to rounding
        extent = float(np.max(np.abs(np.concatenate([parsed.lows, parsed.highs]))))
        if not 6 * extent <= MAX_BITS:
            continue
        search, status, *_ = _search_on(statement, parsed, slack=slack, deadline=deadline, seed=seed,
                                        record=True, bits=max(START_BITS, int(6 * extent)), max_boxes=max_boxes,
                                        second_order=second_order)
        if status != "proved":
            return None
        data = proof_certificate.certificate_json(statement=statement, domain=domain, slack=slack, leaves=search.leaves,
                                                  reduction=proof_reduction.reduction_json(domain, degrees),
                                                  bits=search.bits if search.bits > START_BITS else 0)
        scaled = ", ".join(f"{key}^{d}" for key, d in degrees.items())
        method = (f"homogeneity in ({scaled}) to T = 1, proved by the checker's graded evaluation on every box; "
                  f"at T = 1: {_method(search)}")
        proof = Proof(statement.id, "proved", _described(statement, Domain.parse(domain)), slack, search.boxes,
                      time.perf_counter() - started, _sup(search, status), box=box_json(domain), method=method,
                      tokens=_tokens(statement, Domain.parse(domain)), certificate_data=data)
        with tempfile.TemporaryDirectory() as folder:  # the reduction counts only when the checker proves it
            proof = proof_certificate.checked(proof, statement, path=Path(folder) / "proof.json", deadline=deadline)
        if proof.checker != "proved":
            return None  # no file left behind: the user's path is written only with a proof
        if path is not None:
            proof_certificate.write(path, data)
        return proof
    return None


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() > deadline


def _branch_and_bound(search: _Search, seed: int, deadline: float | None, finish) -> Proof:
    parsed = search.domain
    counterexample = _sample(search, np.random.default_rng(seed), deadline)
    if counterexample is not None:
        return finish("refuted", counterexample=counterexample)
    order = itertools.count()
    heap = [(-np.inf, next(order), parsed.lows, parsed.highs)]
    with working_bits(search.bits):
        while heap:
            if _past(deadline):
                _, _, lows, highs = heap[0]
                return finish("undecided", worst=parsed.describe(lows, highs),
                              detail=f"time limit reached with {len(heap)} boxes open")
            if search.max_boxes is not None and search.boxes >= search.max_boxes:
                _, _, lows, highs = heap[0]
                return finish("undecided", worst=parsed.describe(lows, highs),
                              detail=f"box budget {search.max_boxes} reached with {len(heap)} boxes open")
            _, _, lows, highs = heapq.heappop(heap)
            search.boxes += 1
            counterexample = _refute_at(search, centre(lows, highs))
            if counterexample is not None:
                return finish("refuted", counterexample=counterexample)
            try:
                upper, split = _bound(search, lows, highs)
            except _Refuted as refuted:
                return finish("refuted", counterexample=refuted.counterexample)
            except (EngineInconsistency, IllDefined):
                raise
            except Exception as error:  # noqa: BLE001 - an operation without an enclosure (np.hypot, float() of a box)
                return finish("undecided", worst=parsed.describe(lows, highs),
                              detail=f"a side has no ball form on a box: {type(error).__name__}: {error}")
            if split is None:
                continue
            if split < 0:
                return finish("undecided", worst=parsed.describe(lows, highs),
                              detail="a box too small to split is still undecided")
            for half in bisect(lows, highs, split):
                heapq.heappush(heap, (-upper, next(order), *half))
    return finish("proved")


def box_json(domain: Mapping[str, Any]) -> dict[str, Any]:
    """The domain as data: ``{key: [low, high] | value | [[low, high], ...]}`` (a named object by its name).

    >>> box_json({"gaps": [(0, 10)], "T": (0.1, 10), "eps": 1.0})
    {'gaps': [[0.0, 10.0]], 'T': [0.1, 10.0], 'eps': 1.0}
    """
    shown = {}
    for key, entry in proof_certificate.domain_spec(domain).items():
        (kind, value), = entry.items()
        shown[key] = value
    return shown


def _method(search: _Search) -> str:
    """What closed the boxes: the mean-value form (interval ∩ mean-value, monotone faces) and, where it stalled,
    the second-order Taylor form (with how many boxes each), on boxes in ``T`` or with ``T`` fixed."""
    taylor = search.closed_by.get(TAYLOR2.name, 0)
    forms = (f"interval ∩ mean-value form on {search.closed_by.get(MEAN_VALUE.name, 0)} boxes, second-order Taylor "
             f"form on {taylor}" if taylor else "interval ∩ mean-value form")
    text = f"branch-and-bound in arb balls ({forms}, monotone faces)"
    return text + ", T a coordinate of the box" if "T" in search.domain.keys else text


def _described(statement: Statement, domain: Domain) -> str:
    """The domain as text; with what the parametrisation builds (its docstring up to the first colon)."""
    text = domain.describe()
    doc = (getattr(statement.parameters, "__doc__", None) or "").strip()
    return f"{text} → {doc.split(':')[0].replace('``', '')}" if doc else text


def _sides(statement: Statement, instance, xp):
    if statement.parameters is not None:
        instance = callback_result(statement.parameters(instance, xp), statement_id=statement.id, name="parameters",
                                   callback=statement.parameters, accepted=lambda v: isinstance(v, Mapping),
                                   must="an instance: a mapping of the sides' keys to values")
    return instance, statement.sides(instance, xp)


def _ordered(statement: Statement, lhs, rhs):
    """``(small, big)``: the claim is ``small ≤ big`` elementwise."""
    return (lhs, rhs) if statement.relation == "<=" else (rhs, lhs)


def _sample(search: _Search, rng, deadline: float | None) -> Counterexample | None:
    lows, highs = search.domain.lows, search.domain.highs
    points = [centre(lows, highs)] + [rng.uniform(lows, highs) for _ in range(RANDOM_POINTS)]
    for point in points:
        if _past(deadline):
            return None
        counterexample = _refute_at(search, point)
        if counterexample is not None:
            return counterexample
    return None


def _refute_at(search: _Search, point) -> Counterexample | None:
    """Evaluate the float64 sides at ``point``; a violation goes to the certifier (as in ``check``). A point outside
    the domain as written (the float just below a written ``0.1``, inside the widened box) refutes nothing."""
    if not search.domain.holds(point):
        return None
    statement = search.statement
    instance = search.domain.point(point)
    with np.errstate(all="ignore"):
        try:
            full, (lhs, rhs) = _sides(statement, instance, F64)
        except InvalidArgument:  # a user callback's unreadable result (parameters=): the user's to fix, not a verdict
            raise
        except Exception as error:  # noqa: BLE001 - a side raising inside the domain: ill-defined there
            raise IllDefined(statement.id, instance, "a side", f"raises {type(error).__name__}: {error}",
                             shown=jsonable(instance)) from error
        small, big = (np.atleast_1d(np.asarray(side, dtype=float)) for side in _ordered(statement, lhs, rhs))
        small, big = np.broadcast_arrays(small, big)
    if not np.any(small - big > 0) and not np.any(np.isnan(small - big)):
        return None
    certificate = certify(statement, full)
    return certificate.counterexample if certificate.status == "violated" else None


def _evaluate(search: _Search, lows, highs, form: Form = MEAN_VALUE) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(g, small, big)`` as flat arrays of ``form``'s enclosures on the box, ``g`` the claim in whichever form is provable:
    ``small/big − (1 + slack)`` where ``big > 0`` is certain (a common factor of both sides cancels there, as
    ``1/T`` does), ``small − (1 + slack)·big`` elsewhere; both are ``≤ 0`` exactly where the claim holds."""
    with form.instance(search.domain, lows, highs) as instance:
        _, (lhs, rhs) = _sides(search.statement, instance, form.xp)
        small, big = (np.atleast_1d(np.asarray(side, dtype=object)) for side in _ordered(search.statement, lhs, rhs))
        small, big = (np.array([form.convert(x) for x in side.ravel()], dtype=object)  # constants too: exact balls
                      for side in np.broadcast_arrays(small, big))
        factor = flint.arb(1) + flint.arb(search.slack)  # exactly 1 + slack (a float sum would round)
        g = np.array([s / b - factor if _certainly_positive(b) else s - b * factor
                      for s, b in zip(small, big)], dtype=object)
        return g, small, big


def _floats_at_centre(search: _Search, lows, highs):
    """``(small, big)``, the float64 sides at the box's centre broadcast together; ``None`` where they have no value
    there (nothing to cross-check them with)."""
    instance = search.domain.point(centre(lows, highs))
    with np.errstate(all="ignore"):
        try:
            _, (lhs, rhs) = _sides(search.statement, instance, F64)
            return np.broadcast_arrays(*(np.atleast_1d(np.asarray(side, dtype=float))
                                         for side in _ordered(search.statement, lhs, rhs)))
        except Exception:  # noqa: BLE001 - a side raising at the centre: refuted or ill-defined elsewhere, not here
            return None


def cross_check_enclosure(search: _Search, lows, highs, small, big, floats) -> None:
    """The box's enclosures (the duals' or Taylor forms' values) against the sides at the box's centre, by the search's
    one cross-check policy (:func:`theorems.engine.search.crosscheck.disagreement`): where the float64 sides at the
    centre (``floats``, from :func:`_floats_at_centre`) lie farther than rounding from an enclosure, the sides are
    enclosed at the centre in interval arithmetic (code apart from the forms), and only an enclosure disjoint from
    that one is an :class:`~theorems.errors.EngineInconsistency` (a form computing another function than the one it
    stands for: no proof may rest on it). A float64 value far off alone is rounding (``(1e16 + x) − 1e16``)."""
    from theorems.engine.search.crosscheck import disagreement, scale_of

    if floats is None:
        return
    instance = search.domain.point(centre(lows, highs))
    scale = scale_of(floats[0].ravel(), floats[1].ravel())
    at_centre = _CentreIntervals(search.statement, instance)
    for name, enclosures, values in (("small", small, floats[0].ravel()), ("big", big, floats[1].ravel())):
        firsts = [enclosure.value if isinstance(enclosure, ENCLOSURES) else _ball(enclosure) for enclosure in enclosures]
        found = disagreement(firsts, values, scale, lambda name=name: at_centre.ordered(name))
        if found is not None:
            side = {"small": "lhs", "big": "rhs"}[name] if search.statement.relation == "<=" else (
                {"small": "rhs", "big": "lhs"}[name])
            raise EngineInconsistency(search.statement.id, instance, side, ball=found.first.str(17),
                                      value=found.second.midpoint(),
                                      reference=f"{found.reference()} at the box's centre (the ball: the enclosure on "
                                                f"the box {search.domain.describe(lows, highs)})",
                                      element=found.element, shown=jsonable(instance))


class _CentreIntervals:
    """Both sides enclosed in intervals at one point, ordered ``(small, big)`` and flat like the box's enclosures;
    evaluated once, when first asked (``None`` where intervals cannot evaluate a side)."""

    def __init__(self, statement: Statement, instance) -> None:
        self.statement, self.instance, self.sides = statement, instance, None

    def ordered(self, name: str):
        from theorems.engine.search.enclosure import side_enclosure

        if self.sides is None:
            lhs, rhs = (side_enclosure(getattr(self.statement, side), self.instance,
                                       parameters=self.statement.parameters) for side in ("lhs", "rhs"))
            self.sides = ((None, None) if lhs is None or rhs is None
                          else tuple(a.ravel() for a in np.broadcast_arrays(*_ordered(self.statement, lhs, rhs))))
        return self.sides[0 if name == "small" else 1]


def _certainly_positive(value) -> bool:
    value = value.value if isinstance(value, ENCLOSURES) else _ball(value)
    return bool(value > 0)


def _bound(search: _Search, lows, highs) -> tuple[float, int | None]:
    """``(upper bound of g, coordinate to split)`` on the box; ``split is None`` when ``g ≤ 0`` is proved
    there, ``-1`` when the box can no longer be split. Each element is tried with the mean-value form, then, if
    that leaves it open by less than :data:`TAYLOR_BELOW`, with the second-order form: whichever closes it."""
    try:
        g, small, big = _evaluate(search, lows, highs)
    except MEAN_VALUE.declines:
        return np.inf, _widest(lows, highs)
    floats = _floats_at_centre(search, lows, highs)
    cross_check_enclosure(search, lows, highs, small, big, floats)
    worst, worst_upper, open_elements = None, -np.inf, []
    box_ratio, faces, ratio_everywhere, forms = -np.inf, {}, True, set()
    for at in range(len(g)):
        _witness(search, small[at], big[at])
        ratio_everywhere = ratio_everywhere and _certainly_positive(big[at])
        proved, ratio, faces[at] = _element(search, g[at], small[at], big[at], at, lows, highs, MEAN_VALUE)
        if proved:
            box_ratio, forms = max(box_ratio, ratio), forms | {MEAN_VALUE.name}
            continue
        open_elements.append(at)
        upper = _upper(g[at])
        if upper > worst_upper or worst is None:
            worst, worst_upper = g[at], upper
    if open_elements and worst_upper < search.taylor_below:
        closed = _second_order(search, lows, highs, open_elements, faces, floats)
        for at, ratio in closed.items():
            box_ratio, forms = max(box_ratio, ratio), forms | {TAYLOR2.name}
        if len(closed) == len(open_elements):
            worst = None
    if worst is None:
        search.sup_high = max(search.sup_high, box_ratio)
        method = TAYLOR2.name if TAYLOR2.name in forms else MEAN_VALUE.name
        search.closed_by[method] = search.closed_by.get(method, 0) + 1
        if search.leaves is not None:  # the box as the certificate states it: a bound only where it is a ratio's
            bound = box_ratio if ratio_everywhere and box_ratio < 1 + search.slack else None
            search.leaves.append(proof_certificate.Leaf(tuple(lows), tuple(highs), faces, bound, form=method))
        return -np.inf, None
    return worst_upper, _split(worst, lows, highs)


def _second_order(search: _Search, lows, highs, elements, faces, floats) -> dict[int, float]:
    """The elements among ``elements`` that the second-order form closes on the box, with their ratio bounds
    (``faces`` records their face reductions); none where a side is not twice differentiable on the box.
    ``floats``: the float64 sides at the centre, for the cross-check."""
    try:
        g, small, big = _evaluate(search, lows, highs, TAYLOR2)
    except TAYLOR2.declines:
        return {}
    cross_check_enclosure(search, lows, highs, small, big, floats)
    closed = {}
    for at in elements:
        proved, ratio, steps = _element(search, g[at], small[at], big[at], at, lows, highs, TAYLOR2)
        if proved:
            closed[at], faces[at] = ratio, steps
    return closed


def _upper(value) -> float:
    value = value.value if isinstance(value, ENCLOSURES) else _ball(value)
    upper = float(value.upper()) if value.is_finite() else np.inf
    return np.nextafter(upper, np.inf)


def _ball(value):
    from theorems.arithmetic.precision import Ball
    return Ball(value).arb


def _element(search: _Search, g, small, big, at: int, lows, highs, form: Form) -> tuple[bool, float, tuple]:
    """Whether ``g ≤ 0`` is proved for this element on the box (after replacing each coordinate in which ``g`` is
    certainly monotone by the endpoint where it is largest), the proved upper bound of ``small/big`` there, and
    the face reductions applied (``(coordinate, "low" | "high")`` in order: what the certificate states)."""
    faces: list[tuple[int, str]] = []
    for _ in range(len(lows) + 1):
        if _certainly_nonpositive(g):
            return True, _ratio_upper(search, small, big), tuple(faces)
        if not isinstance(g, ENCLOSURES):
            return False, np.inf, ()
        lows, highs, steps = _collapse(g, lows, highs)
        if not steps:
            return False, np.inf, ()
        faces.extend(steps)
        try:
            values = _evaluate(search, lows, highs, form)
        except form.declines:
            return False, np.inf, ()
        g, small, big = (v[at] for v in values)
        _witness(search, small, big)
        if np.all(lows == highs) and _certainly_positive(g):
            _refute_vertex(search, lows)
    return False, np.inf, ()


class _Refuted(Exception):
    """A certified counterexample met inside a box's evaluation (at the vertex its monotone faces lead to)."""

    def __init__(self, counterexample: Counterexample) -> None:
        super().__init__("a certified counterexample at a vertex")
        self.counterexample = counterexample


def _refute_vertex(search: _Search, point) -> None:
    """The faces led to one point where ``g > 0`` is certain: the claim fails there (a violation only at an end of
    the domain, which no sampled point or box centre meets), so it goes to the certifier, if the point lies in the
    domain as written; :class:`_Refuted` when certified."""
    counterexample = _refute_at(search, point)
    if counterexample is not None:
        raise _Refuted(counterexample)


def _certainly_nonpositive(g) -> bool:
    value = g.value if isinstance(g, ENCLOSURES) else _ball(g)
    return bool(value.is_finite() and value.upper() <= 0)


def _witness(search: _Search, small, big) -> None:
    """Raise the proved lower end of ``sup small/big`` with the value at the box's centre (a point of the domain)."""
    if isinstance(small, ENCLOSURES) or isinstance(big, ENCLOSURES):
        low = _centre(small) / _centre(big) if _centre(big) > 0 else None
        if low is not None and low.is_finite():
            search.sup_low = max(search.sup_low, float(np.nextafter(float(low.lower()), -np.inf)))


def _centre(value):
    return value.centre if isinstance(value, ENCLOSURES) else _ball(value)


def _collapse(g: BoxJet, lows, highs):
    """The box with each coordinate where ``g`` is certainly monotone set to the endpoint where ``g`` is largest,
    and the steps taken, ``(coordinate, "low" | "high")``."""
    lows, highs, steps = lows.copy(), highs.copy(), []
    for k, slope in enumerate(g.gradient):
        if lows[k] == highs[k] or not slope.is_finite():
            continue
        if slope.lower() >= 0:  # g nondecreasing in x_k on the box: its largest values are at x_k = high
            lows[k] = highs[k]
            steps.append((k, "high"))
        elif slope.upper() <= 0:
            highs[k] = lows[k]
            steps.append((k, "low"))
    return lows, highs, steps


def _ratio_upper(search: _Search, small, big) -> float:
    bound = 1 + search.slack
    big_value = big.value if isinstance(big, ENCLOSURES) else _ball(big)
    small_value = small.value if isinstance(small, ENCLOSURES) else _ball(small)
    if not big_value > 0:
        search.ratio_known = False
        return bound
    ratio = small_value / big_value
    return min(bound, float(np.nextafter(float(ratio.upper()), np.inf))) if ratio.is_finite() else bound


def _split(g, lows, highs) -> int:
    widths = highs - lows
    if not np.any(widths > 0) or np.all(widths <= 1e-12 * np.maximum(1.0, np.abs(lows) + np.abs(highs))):
        return -1
    if isinstance(g, ENCLOSURES) and all(s.is_finite() for s in g.gradient):
        weights = np.array([float(s.abs_upper()) for s in g.gradient]) * widths
        if np.max(weights) > 0:
            return int(np.argmax(weights))
    return _widest(lows, highs)


def _widest(lows, highs) -> int:
    widths = highs - lows
    if not np.any(widths > 1e-12 * np.maximum(1.0, np.abs(lows) + np.abs(highs))):
        return -1
    return int(np.argmax(widths))
