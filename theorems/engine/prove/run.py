"""``prove``: a bound proved on a whole box of instances by branch-and-bound in arb balls, not only tested.

For a statement ``small ≤ big`` (``lhs ≤ rhs``, or ``rhs ≤ lhs`` for ``>=``), ``prove`` encloses ``g = small − big −
slack·|big|`` (in a form smooth on the box: :func:`~theorems.engine.prove.forms.claim`) on a box with the jets of
:mod:`theorems.arithmetic.box_jet` (plain interval value ∩ mean-value form; the second-order form where that stalls:
:mod:`~theorems.engine.prove.evaluate`), discards the box when ``g ≤ 0`` is certain there, replaces a coordinate by
its endpoint where ``g`` is certainly monotone in it (so a bound attained at a corner closes at once), and bisects
the rest along the coordinate of largest ``|∂g|·width``. The float64 sides are evaluated at every box's centre (and
at ``seed``-drawn random points): a violation there goes to :func:`~theorems.engine.search.certify`, so a refutation
is the same certified counterexample as :func:`~theorems.engine.search.check` reports.

What ``slack`` means: ``status == "proved"`` is the theorem *small ≤ big + slack·|big| at every point of the domain*
(for ``big ≥ 0``: ``small/big ≤ 1 + slack``; a bound tight where ``big < 0`` is provable too); ``sup`` is a proved
enclosure ``[lo, hi]`` of ``sup small/big`` over the domain (``lo`` attained at a witness point, ``hi ≤ 1 + slack``
when proved; ``None`` when ``big`` is not certainly positive). Tight bounds (ratio 1 at ties) are provable only with
``slack > 0``.

>>> from theorems import STATEMENTS
>>> proof = prove(STATEMENTS["corollary3.row.corrected"], {"gaps": [(0.0, 10.0)], "T": 1.0})
>>> proof.status, proof.sup[0] > 1 - 1e-5, proof.sup[1] <= 1 + 1e-6    # tight: attained at equal logits
('proved', True, True)
"""

from __future__ import annotations

import collections
import dataclasses
import heapq
import itertools
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from theorems.arithmetic.precision import F64, START_BITS, working_bits
from theorems.arithmetic.validation import check_integer, check_number
from theorems.engine.prove import certificate as certificates
from theorems.engine.prove import reduction
from theorems.engine.prove.domain import Domain, as_written, bisect, centre
from theorems.engine.prove.domain_check import check_domain
from theorems.engine.prove.evaluate import BRANCHES, MEAN_VALUE, TAYLOR2, bound
from theorems.engine.prove.points import Refuted, refute_at, sample
from theorems.engine.prove.result import Outcome, Proof
from theorems.engine.prove.state import TAYLOR_BELOW, BranchAndBound, now, past, sides
from theorems.engine.search import IllDefined
from theorems.engine.statement import Statement
from theorems.errors import EngineInconsistency, InvalidArgument, InvalidArgumentType

SUITE_BOXES = 50_000
"""The box budget of every proof the suite runs itself (the ledger, ``check --prove``, the pytest plugin, a
derivation's links): ``max_boxes``, never seconds, so that one commit gives the same statuses and box counts on any
machine at any load. The declared domains close in at most 28,747 boxes (``corollary3.motivating.corrected`` on
``T ∈ [0.1, 10]``, ``docs/proofs.md``), 1.7 times that is the margin; an undecided proof costs about three minutes of
one core."""

MAX_BITS = 4096
"""The most bits a proof through the reduction works at (the checker's limit on a certificate's ``"bits"``): a base
domain whose extent would need more (``T`` down to ``1e-7`` with logits up to 10: ``l/T`` up to ``10⁸``) is proved,
if at all, with ``T`` in the box."""


def prove(statement: Statement, domain: Mapping[str, Any] | None = None, *, slack: float = 1e-6,
          max_seconds: float | None = 60, seed: int = 0, certificate=None, homogeneity: bool = True,
          max_boxes: int | None = None, second_order: bool = True, shift: bool = True) -> Proof:
    """Prove ``statement`` on every instance of ``domain`` (default: ``statement.prove``), up to ``slack``.

    ``domain`` maps each instance key (each parameter, for a statement with ``parameters``) to an
    interval ``(low, high)``, a list of intervals (a fixed length) or a fixed value
    (:mod:`theorems.engine.prove.domain`). See the module's docstring for what ``proved`` and ``slack`` mean. An
    endpoint means the number written: ``(0.1, 10)`` is proved on a float box that holds ``[1/10, 10]``
    (:func:`~theorems.engine.prove.domain.as_written`), and the domain is printed as proved. The domain is checked
    against the statement before any work (:mod:`theorems.engine.prove.domain_check`: every key the statement reads
    present, no other, every number finite, ``T`` a positive normal temperature), else an
    :class:`~theorems.errors.InvalidArgument` names the key.

    ``max_seconds``: stop (``undecided``) when this time is spent, checked after each box (the checker's re-check of
    a reduction included); ``None``: no time limit (then ``max_boxes`` is required).

    ``certificate``: a path; when the proof is ``proved``, the closed boxes are written there as a certificate
    (:mod:`theorems.engine.prove.certificate`) and re-checked by the independent checker, whose verdict is
    ``Proof.checker``. The path is validated once, before any work.

    ``second_order``: where the mean-value form leaves a box open by less than
    :data:`~theorems.engine.prove.state.TAYLOR_BELOW`, try the second-order form (jets of order 2,
    :mod:`theorems.arithmetic.box_jet`) on it; ``False``: the mean-value form alone.

    ``max_boxes``: stop (``undecided``) after evaluating this many boxes of one search (the reduction's, and the
    one with ``T`` in the box), whatever the time left: a budget that does not depend on the machine or its load,
    which the ledger, ``check --prove``, the plugin and the derivations use (:data:`SUITE_BOXES`).

    ``homogeneity``: with ``T`` on an interval, first try the reduction to ``T = 1``
    (:mod:`theorems.engine.prove.reduction`); it counts only when the checker proves it for these sides on
    every box, else ``T`` stays a coordinate of the box (within the time left). ``shift``: for a vector of
    intervals (raw logits ``l``), first try the reduction to ``max l = 0`` (after the one to ``T = 1``; then, where
    none of those closes within half the time, the shift alone with ``T`` in the box, within the rest), on the
    same terms. Where only ``lhs − rhs`` is shift invariant, the theorem proved is ``lhs − rhs ≤ slack·|rhs|`` with
    ``rhs`` at the shifted instance ``l − max l`` (the method says so, and ``sup`` is ``None``).
    """
    domain = _checked_arguments(statement, domain, slack=slack, max_seconds=max_seconds, seed=seed,
                                max_boxes=max_boxes, homogeneity=homogeneity, second_order=second_order, shift=shift)
    path = None if certificate is None else certificates.checked_path(certificate)
    started = now()
    deadline = None if max_seconds is None else started + max_seconds
    parsed = Domain.widened(domain)
    domain = as_written(domain)
    slack = float(slack)
    options = reduction.reductions(domain, homogeneity=homogeneity, shift=shift)
    if options and not _refuted_on_sight(statement, parsed, slack, seed, deadline):
        # the reductions to T = 1 within half the time; then those that keep T (a shift alone: the tight set of
        # the base at T = 1 may be a diagonal where, with T in the box, it is a face), within the rest
        half = None if deadline is None else started + max_seconds / 2
        stages = (([o for o in options if o.degrees], half), ([o for o in options if not o.degrees], deadline))
        for stage, until in stages:
            reduced = _reduced(statement, domain, stage, slack=slack, deadline=until, seed=seed, path=path,
                               started=started, max_boxes=max_boxes, second_order=second_order) if stage else None
            if reduced is not None:
                return reduced
    outcome = search_on(statement, parsed, slack=slack, deadline=deadline, seed=seed, max_boxes=max_boxes,
                        second_order=second_order)
    search = outcome.search
    data = (certificates.certificate_json(statement=statement, domain=domain, slack=slack, leaves=search.leaves)
            if outcome.proved else None)
    proof = Proof(statement_id=statement.id, status=outcome.status, domain=_described(statement, parsed), slack=slack,
                  boxes=search.boxes, seconds=now() - started, sup=search.sup(outcome.status),
                  worst_box=outcome.worst_box, counterexample=outcome.counterexample, detail=outcome.detail,
                  box=box_json(domain), method=_method(search), tokens=_tokens(statement, parsed),
                  certificate_data=data)
    return proof if path is None else certificates.checked(proof, statement, path=path, deadline=deadline)


def _checked_arguments(statement, domain, *, slack, max_seconds, seed, max_boxes, homogeneity, second_order, shift):
    """``prove``'s arguments checked before any work (an error naming the argument); the domain to prove on."""
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
    for name, flag in (("homogeneity", homogeneity), ("second_order", second_order), ("shift", shift)):
        if not isinstance(flag, bool):
            raise InvalidArgumentType(f"{name} must be True or False, not {flag!r}")
    check_domain(statement, domain)
    return domain


def search_on(statement: Statement, parsed: Domain, *, slack: float, deadline: float | None, seed: int,
              bits: int = START_BITS, max_boxes: int | None = None, second_order: bool = True) -> Outcome:
    """The branch-and-bound on ``parsed``, stopped at ``deadline`` (a reading of the prover's clock; ``None``: none)
    or after ``max_boxes`` boxes; its closed boxes recorded for a certificate."""
    search = BranchAndBound(statement=statement, domain=parsed, slack=slack, leaves=[], bits=bits,
                            max_boxes=max_boxes, taylor_below=TAYLOR_BELOW if second_order else -np.inf)
    try:
        return branch_and_bound(search, seed, deadline)
    except IllDefined as error:  # a side with no value inside the domain: never "proved"
        return Outcome(status="undecided", search=search, detail=f"ill-defined inside the domain: {error}")


def branch_and_bound(search: BranchAndBound, seed: int, deadline: float | None) -> Outcome:
    """Sample the domain, then evaluate its boxes, the one with the largest upper bound of ``g`` first, until every
    box is closed (proved), a point refutes the claim, or the time or the box budget runs out (undecided)."""
    parsed = search.domain
    counterexample = sample(search, np.random.default_rng(seed), deadline)
    if counterexample is not None:
        return Outcome(status="refuted", search=search, counterexample=counterexample)
    order = itertools.count()
    heap = [(-np.inf, next(order), parsed.lows, parsed.highs)]
    with working_bits(search.bits):
        while heap:
            stopped = _stopped(search, deadline, len(heap))
            if stopped:
                return Outcome(status="undecided", search=search, worst_box=parsed.describe(*heap[0][2:]),
                               detail=stopped)
            _, _, lows, highs = heapq.heappop(heap)
            search.boxes += 1
            counterexample = refute_at(search, centre(lows, highs))
            if counterexample is not None:
                return Outcome(status="refuted", search=search, counterexample=counterexample)
            try:
                verdict = bound(search, lows, highs)
            except Refuted as refuted:
                return Outcome(status="refuted", search=search, counterexample=refuted.counterexample)
            except (EngineInconsistency, IllDefined):
                raise
            except Exception as error:  # noqa: BLE001 - an operation without an enclosure (np.hypot, float() of a box)
                return Outcome(status="undecided", search=search, worst_box=parsed.describe(lows, highs),
                               detail=f"a side has no ball form on a box: {type(error).__name__}: {error}")
            if verdict.closed:
                continue
            if verdict.split < 0:
                return Outcome(status="undecided", search=search, worst_box=parsed.describe(lows, highs),
                               detail="a box too small to split is still undecided")
            for half in bisect(lows, highs, verdict.split):
                heapq.heappush(heap, (-verdict.upper, next(order), *half))
    return Outcome(status="proved", search=search)


def _stopped(search: BranchAndBound, deadline: float | None, open_boxes: int) -> str:
    """Why the search stops before its next box (the time limit, the box budget), or ``""``."""
    if past(deadline):
        return f"time limit reached with {open_boxes} boxes open"
    if search.max_boxes is not None and search.boxes >= search.max_boxes:
        return f"box budget {search.max_boxes} reached with {open_boxes} boxes open"
    return ""


def _reduced(statement: Statement, domain, options, *, slack: float, deadline: float | None, seed: int, path,
             started, max_boxes: int | None, second_order: bool) -> Proof | None:
    """The proof through the first of the reductions ``options`` that the screen admits, whose base proof closes
    on every piece and which the checker proves on every one of its boxes (by ``deadline``); a base proof the
    checker rejects lets the next one be tried. ``None`` otherwise (the caller proves on the domain's own box)."""
    for option in options:
        if past(deadline) or not reduction.plausible(statement, domain, option, slack):
            continue
        searches = _pieces_proved(statement, option.pieces(domain), slack=slack, deadline=deadline, seed=seed,
                                  max_boxes=max_boxes, second_order=second_order)
        if searches is None:
            return None  # a weaker reduction would not close where this one did not
        proof = _checked_reduction(statement, domain, option, searches, slack=slack, deadline=deadline, path=path,
                                   started=started)
        if proof is not None:
            return proof
    return None


def _pieces_proved(statement, pieces, *, slack, deadline, seed, max_boxes, second_order) -> list | None:
    """The searches that proved the statement on every piece (within ``max_boxes`` together), or ``None``."""
    searches, used = [], 0
    for top, piece in pieces:
        parsed = Domain.parse(piece)
        # l/T up to 100 at T = 1: 1 − α = e^(−100) and its square must be resolved, not lost to rounding
        extent = float(np.max(np.abs(np.concatenate([parsed.lows, parsed.highs]))))
        if not 6 * extent <= MAX_BITS:
            return None
        budget = None if max_boxes is None else max_boxes - used
        if budget is not None and budget < 1:
            return None
        outcome = search_on(statement, parsed, slack=slack, deadline=deadline, seed=seed,
                            bits=max(START_BITS, int(6 * extent)), max_boxes=budget, second_order=second_order)
        if not outcome.proved:
            return None
        used += outcome.search.boxes
        if top is not None:
            outcome.search.leaves[:] = [dataclasses.replace(leaf, piece=len(searches)) for leaf in outcome.search.leaves]
        searches.append(outcome.search)
    return searches


def _checked_reduction(statement, domain, option, searches, *, slack, deadline, path, started) -> Proof | None:
    """The base proofs ``searches`` (one per piece) as a proof on ``domain`` by the reduction ``option``, when the
    checker proves it (its file written to ``path`` then); ``None`` when the checker does not."""
    bits = max(search.bits for search in searches)
    leaves = [leaf for search in searches for leaf in search.leaves]
    data = certificates.certificate_json(statement=statement, domain=domain, slack=slack, leaves=leaves,
                                         bits=bits if bits > START_BITS else 0, **option.fields(domain))
    method = (f"{option.describe()}, proved by the checker's evaluation on every box; after it: "
              f"{_method(*searches)}")
    whole = Domain.parse(domain)
    sup = None
    if option.sides == "each" and all(search.ratio_known for search in searches):
        sup = (max(search.sup_low for search in searches), max(search.sup_high for search in searches))
    proof = Proof(statement_id=statement.id, status="proved", domain=_described(statement, whole), slack=slack,
                  boxes=sum(search.boxes for search in searches), seconds=now() - started, sup=sup,
                  box=box_json(domain), method=method, tokens=_tokens(statement, whole), certificate_data=data)
    with tempfile.TemporaryDirectory() as folder:  # the reduction counts only when the checker proves it
        proof = certificates.checked(proof, statement, path=Path(folder) / "proof.json", deadline=deadline)
    if proof.checker != "proved":
        return None  # no file left behind: the user's path is written only with a proof
    if path is not None:
        certificates.write(path, data)
    return proof


def _refuted_on_sight(statement: Statement, parsed: Domain, slack: float, seed: int, deadline: float | None) -> bool:
    """Whether the float64 sides at the domain's sampled points (those the search samples first) show a certified
    counterexample: then no reduction is tried (the search with ``T`` in the box reports it), and a reduction the
    checker wrongly accepted could not hide a statement false where it was sampled."""
    try:
        search = BranchAndBound(statement=statement, domain=parsed, slack=slack)
        return sample(search, np.random.default_rng(seed), deadline) is not None
    except IllDefined:  # a side without a value there: the search says so
        return False


def box_json(domain: Mapping[str, Any]) -> dict[str, Any]:
    """The domain as data: ``{key: [low, high] | value | [[low, high], ...]}`` (a named object by its name).

    >>> box_json({"gaps": [(0, 10)], "T": (0.1, 10), "eps": 1.0})
    {'gaps': [[0.0, 10.0]], 'T': [0.1, 10.0], 'eps': 1.0}
    """
    shown = {}
    for key, entry in certificates.domain_spec(domain).items():
        (kind, value), = entry.items()
        shown[key] = value
    return shown


def _method(*searches: BranchAndBound) -> str:
    """What closed the boxes (of one search, or of a reduction's searches, one per piece): the mean-value form
    (interval ∩ mean-value, monotone faces) and, where it stalled, the second-order Taylor form, and path by path
    where a decision was undecided (with how many boxes each), on boxes in ``T`` or with ``T`` fixed."""
    counts = collections.Counter()
    for search in searches:
        counts.update(search.closed_by)
    branched = counts[BRANCHES] + counts[f"{MEAN_VALUE.name}+branches"]
    taylor = counts[TAYLOR2.name]
    forms = "interval ∩ mean-value form"
    if taylor or branched:
        forms += f" on {counts[MEAN_VALUE.name]} boxes, second-order Taylor form on {taylor}"
    if branched:
        forms += f", path by path at undecided decisions on {branched}"
    text = f"branch-and-bound in arb balls ({forms}, monotone faces)"
    return text + ", T a coordinate of the box" if "T" in searches[0].domain.keys else text


def _described(statement: Statement, domain: Domain) -> str:
    """The domain as text; with what the parametrisation builds (its docstring up to the first colon)."""
    text = domain.describe()
    doc = (getattr(statement.parameters, "__doc__", None) or "").strip()
    return f"{text} → {doc.split(':')[0].replace('``', '')}" if doc else text


def _tokens(statement: Statement, parsed: Domain) -> int | None:
    """``L``, the number of logits (or keys, or entries of ``u``/``x``) of the instance at the domain's centre."""
    point = parsed.point(centre(parsed.lows, parsed.highs))
    try:
        instance = sides(statement, point, F64)[0] if statement.parameters is None else statement.parameters(point, F64)
    except Exception:  # noqa: BLE001 - only a label: a side that needs more than floats has none
        return None
    for key in ("logits", "keys", "x", "u"):
        if isinstance(instance, Mapping) and key in instance and np.ndim(instance[key]) >= 1:
            return int(np.shape(instance[key])[0])
    return None


__all__ = ["MAX_BITS", "SUITE_BOXES", "box_json", "branch_and_bound", "prove", "search_on"]
