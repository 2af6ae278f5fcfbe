"""``verify_proof``: re-check a proof certificate with the checker's own arithmetic, sharing no bounding code
with the prover that wrote it.

For a statement ``small ≤ big`` the certificate claims ``small ≤ big + slack·|big|`` on its domain. The checker
says ``proved`` only when

1. the boxes tile the domain (:mod:`~theorems.checker.cover`, exact rationals); with a homogeneity
   reduction, the domain's image under the scaling lies in the base domain the boxes tile, and every box's
   evaluation is *graded* (:mod:`~theorems.checker.jet`): each operation of both sides is shown
   homogeneous, ``small`` and ``big`` of one degree, so the claim at a scaled point is the claim at the base point;
2. on every box, each element's ``g ≤ 0`` is proved by its own jets (:mod:`~theorems.checker.space`), where
   ``g = small/big − b`` if ``big > 0`` on the box (``b`` the box's claimed bound, else ``1 + slack``),
   ``small − b·big`` if ``big ≥ 0``, ``small − (1 − slack)·big`` if ``big ≤ 0``, ``small − (1 + slack)·big``
   otherwise (each ``≤ 0`` only where the claim holds);
3. each face reduction the certificate claims is re-proved: ``∂g/∂x_k`` enclosed on the whole box has the claimed
   sign, so ``g``'s largest value is on that face, where the check continues. A face whose sign the checker can
   neither confirm nor refute is dropped: the box must then close without the certificate's faces.

A box that the checker's enclosure cannot close at once is bisected (at most ``refine`` times in depth): the
claim is still proved on the whole box, by the checker's own means; a point of the box where ``g > 0`` rejects at
once. Anything else that fails rejects the certificate, and ``reason`` says what.

>>> import tempfile, pathlib
>>> from theorems.checker.certificate import FORMAT
>>> path = pathlib.Path(tempfile.mkdtemp()) / "entry.json"
>>> _ = path.write_text(json.dumps({"format": FORMAT, "version": 1, "statement": "corollary3.entry.corrected",
...     "slack": 1e-6, "domain": {"gaps": {"intervals": [[0.0, 10.0]]}, "T": {"value": 1.0}},
...     "boxes": [{"low": [0.0], "high": [5.0]}, {"low": [5.0], "high": [10.0]}]}))
>>> from theorems import STATEMENTS
>>> check = verify_proof(path, statement=STATEMENTS["corollary3.entry.corrected"])
>>> check.status, check.boxes
('proved', 2)

(``theorems.verify_proof(path)``, this package's, looks the statement up in the catalogue by the certificate's id.)
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import flint
import numpy as np

from theorems.checker import certificate as certificates
from theorems.checker.cover import outside, uncovered
from theorems.checker.jet import (Box, Choices, NotHomogeneous, NotInvariant, Undecided, at_least_bits, branching,
                                  constant, counting_hulls, jet, on_box, unchecked)
from theorems.checker.space import JET, as_jet_array
from theorems.errors import InvalidArgument, InvalidArgumentType, nothing_hidden

MAX_BRANCHES = 64
"""The most branches of undecided maxima one box is evaluated on (more: the box is bisected instead)."""

REFINE = 20
"""Default depth of the checker's own bisection of a box its enclosure does not close at once (a box around a
tight corner that the prover closed in one piece may need a few levels: the checker's second-order form is not
the prover's; a box where the claim fails is rejected at the first sub-box whose centre shows it)."""


@dataclasses.dataclass(frozen=True)
class ProofCheck:
    """The checker's verdict on a certificate.

    ``status``: ``"proved"`` (the theorem *small ≤ big + slack·|big| on* ``domain`` holds: every box closed, the
    boxes tile the domain, every claimed reduction re-proved) or ``"rejected"`` (``reason`` says what failed,
    ``failed_box`` where). ``boxes``: the certificate's; ``evaluations``: boxes the checker evaluated (its own
    bisections and faces included); ``faces``: face reductions re-proved; ``sup``: the largest claimed bound of
    ``small/big`` (each one verified) when every box claims one; ``reduction``: the re-proved reduction, if any.
    """

    path: str
    statement_id: str
    status: str
    reason: str
    domain: str
    slack: float
    boxes: int
    evaluations: int
    faces: int
    sup: float | None
    reduction: str | None
    seconds: float
    failed_box: int | None = None

    @property
    def proved(self) -> bool:
        return self.status == "proved"

    def describe(self) -> str:
        text = (f"{self.status}: {self.statement_id} on {self.domain}, slack {self.slack:g} "
                f"({self.boxes} boxes, {self.evaluations} evaluated by the checker, {self.faces} faces, "
                f"{self.seconds:.1f} s)")
        if self.reduction:
            text += f"; reduction: {self.reduction}"
        if self.sup is not None:
            text += f"; sup small/big ≤ {self.sup:.9g}"
        return text + (f"\n  rejected: {self.reason}" if self.reason else "")

    def to_json(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "seconds": round(self.seconds, 3)}


def verify_proof(path, *, statement=None, refine: int = REFINE,
                 progress: Callable[[int, int], None] | None = None, known=None) -> ProofCheck:
    """Re-check the certificate at ``path`` (a ``prove(..., certificate=PATH)`` file) and return a
    :class:`ProofCheck`. ``statement``: the :class:`~theorems.Statement` it proves, else the one of the certificate's
    id in ``known`` (a mapping of ids to statements; :func:`theorems.verify_proof` passes the catalogue). ``refine``:
    how many times in depth the checker may bisect a box its enclosure does not close at once (0: every box must
    close as given). ``progress(done, total)`` is called after each box. Bad input (a missing file, not a
    certificate, a newer format version, an unknown statement) raises :class:`~theorems.errors.InvalidArgument`
    naming it; a certificate that does not prove its claim is ``status == "rejected"``, never an error."""
    if isinstance(refine, bool) or not isinstance(refine, int) or not 0 <= refine <= 64:
        raise InvalidArgument(f"refine={refine!r} must be an integer in 0..64")
    certificate = certificates.read(path)
    statement = _statement(certificate, statement, known or {})
    return Checker(certificate, statement, refine, progress).run()


def screen(data: Mapping[str, Any], statement) -> bool:
    """Whether one evaluation of ``statement``'s sides on each box of the certificate ``data`` (as JSON; usually one
    box, the whole base domain of a claimed reduction) leaves the claim possible: a cheap screen, never a proof.
    ``False`` only where the evaluation shows the certificate cannot be proved (the sides not homogeneous of one
    degree under its reduction, a side that is not a real number); an evaluation left undecided passes (only
    :func:`verify_proof`, box by box, decides). Bad input raises :class:`~theorems.errors.InvalidArgument`."""
    certificate = certificates.parse(data)
    try:
        checker = Checker(certificate, statement, 0, None)
        with at_least_bits(certificate.bits):
            for box in certificate.boxes:
                checker.bound = box.bound if box.bound is not None else checker.one_plus_slack
                checker._evaluate_path(box.low, box.high, None)
    except (NotHomogeneous, NotInvariant, CertificateRejected):
        return False
    except Exception:  # noqa: BLE001 - undecided on the box (a hull, a division): only the full check decides
        return True
    return True


def _statement(certificate, statement, known):
    if statement is None:
        if certificate.statement_id not in known:
            raise InvalidArgument(f"certificate {certificate.path}: unknown statement {certificate.statement_id!r} "
                                  "(not in the catalogue: for a statement of your own pass statement=..., or "
                                  "--statements MODULE on the command line)")
        return known[certificate.statement_id]
    if not all(hasattr(statement, name) for name in ("id", "lhs", "rhs", "relation", "parameters")):
        raise InvalidArgumentType(f"statement must be a theorems.Statement, not {type(statement).__name__}")
    if statement.id != certificate.statement_id:
        raise InvalidArgument(f"statement={statement.id!r}, but the certificate {certificate.path} proves "
                              f"{certificate.statement_id!r}")
    return statement


class CertificateRejected(Exception):
    """A certificate that does not prove what it claims: ``reason``, and the ``box`` (its index) when one box fails.
    Internal to a check, which reports it as a rejection, never raises it to the user."""

    def __init__(self, reason: str, box: int | None = None) -> None:
        super().__init__(reason)
        self.reason, self.box = reason, box


class Checker:
    def __init__(self, certificate, statement, refine: int, progress) -> None:
        self.certificate, self.statement, self.refine, self.progress = certificate, statement, refine, progress
        self.domain = certificate.proved_on
        self.evaluations = self.faces = self.hulls = 0
        self.faces_sound = True
        self.one_plus_slack = 1 + certificate.slack
        homogeneity = certificate.homogeneity
        self.degrees = dict(homogeneity.degrees) if homogeneity else {}
        self.shift = certificate.shift
        entries = [(key, n) for key, n in zip(self.domain.free, self.domain.sizes())]
        self.coordinate_degrees = [self.degrees.get(key, 0) for key, n in entries for _ in range(n)]
        self.coordinate_shifts = [int(self.shift is not None and key == self.shift.key) for key, n in entries
                                  for _ in range(n)]
        self.fixed_of = [_resolved(piece.fixed, statement, certificate.path) for piece in certificate.pieces]
        self.fixed = self.fixed_of[0]

    def run(self) -> ProofCheck:
        started = time.perf_counter()
        with at_least_bits(self.certificate.bits):
            return self._run(started)

    def _run(self, started) -> ProofCheck:
        try:
            self._claims()
            for i, box in enumerate(self.certificate.boxes):
                self._box(i, box)
                if self.progress is not None:
                    self.progress(i + 1, len(self.certificate.boxes))
        except CertificateRejected as rejected:
            return self._result("rejected", rejected.reason, started, rejected.box)
        return self._result("proved", "", started)

    def _result(self, status, reason, started, failed_box=None) -> ProofCheck:
        bounds = [box.bound for box in self.certificate.boxes]
        sup = float(max(bounds)) if status == "proved" and all(b is not None for b in bounds) else None
        homogeneity, shift = self.certificate.homogeneity, self.shift
        parts = []
        if homogeneity:
            scaled = ", ".join(f"{k}^{v}" for k, v in homogeneity.degrees.items())
            parts.append(f"homogeneity ({scaled}) from {homogeneity.base.describe()}"
                         + (", proved by graded evaluation" if status == "proved" else ""))
        if shift:
            parts.append(f"shift invariance of {'each side' if shift.sides == 'each' else 'lhs − rhs'} in "
                         f"{shift.key} (l → l − max l) onto {len(shift.pieces)} pieces"
                         + (", proved by tagged evaluation" if status == "proved" else ""))
            if shift.sides == "difference":
                sup = None  # the bounds are ratios at the shifted instances, not at the domain's
        reduction = "; then ".join(parts) or None
        return ProofCheck(self.certificate.path, self.statement.id, status, reason,
                          self.certificate.domain.describe(), float(self.certificate.slack),
                          len(self.certificate.boxes), self.evaluations, self.faces, sup, reduction,
                          time.perf_counter() - started, failed_box)

    # what the certificate claims besides its boxes ----------------------------------------------------------
    def _claims(self) -> None:
        relation = self.certificate.relation
        if relation is not None and relation != self.statement.relation:
            raise CertificateRejected(f"the certificate was written for relation {relation!r}; {self.statement.id} has "
                            f"{self.statement.relation!r}")
        if self.certificate.homogeneity:
            reason = _image_outside_base(self.certificate.domain, self.certificate.homogeneity)
            if reason:
                raise CertificateRejected(f"reduction: {reason}")
        if self.shift:
            before = self.certificate.homogeneity.base if self.certificate.homogeneity else self.certificate.domain
            reason = _shifted_outside_pieces(before, self.shift)
            if reason:
                raise CertificateRejected(f"shift reduction: {reason}")
        for i, box in enumerate(self.certificate.boxes):
            piece = self.certificate.pieces[box.piece]
            reason = outside(piece.lows, piece.highs, box.low, box.high)
            if reason:
                raise CertificateRejected(f"box {i} is not inside the domain: {reason}", i)
            if box.bound is not None and box.bound > self.one_plus_slack:
                raise CertificateRejected(f"box {i} claims sup small/big ≤ {float(box.bound):.12g}, above 1 + slack = "
                                f"{float(self.one_plus_slack):.12g}: it proves nothing", i)
        for p, piece in enumerate(self.certificate.pieces):
            hole = uncovered(piece.lows, piece.highs,
                             [(box.low, box.high) for box in self.certificate.boxes if box.piece == p])
            if hole:
                where = f" (piece {p})" if self.shift else ""
                raise CertificateRejected(f"coverage: {hole} of {piece.describe()}{where}")

    # one box ----------------------------------------------------------------------------------------------
    def _box(self, i: int, box) -> None:
        self.bound = box.bound if box.bound is not None else self.one_plus_slack
        self.domain, self.fixed = self.certificate.pieces[box.piece], self.fixed_of[box.piece]
        try:
            reason = self._prove(box.low, box.high, None, box.faces, self.refine, None)
            if reason and box.faces:
                # a face whose sign the checker could not confirm (not refuted: the prover's g may be another form
                # of the same claim, small − (1 + slack)·big where the checker's is the ratio): the theorem on the
                # box is still proved if the box closes by the checker's own means, without the faces
                if self._prove(box.low, box.high, None, {}, self.refine, None) is None:
                    reason = None
        except NotHomogeneous as error:
            reason = f"the claimed homogeneity is not proved: {error}"
        except NotInvariant as error:
            reason = f"the claimed shift invariance is not proved: {error}"
        except CertificateRejected as rejected:
            reason = rejected.reason
        except Exception as error:  # noqa: BLE001 - a side that cannot run on jets rejects, naming why
            reason = f"the sides cannot be evaluated on the checker's jets: {type(error).__name__}: {error}"
        if reason:
            raise CertificateRejected(f"box {i} ({self.domain.describe(box.low, box.high)}): {reason}", i)

    def _prove(self, low, high, elements, faces, depth: int, forms) -> str | None:
        """``None`` when ``g_e ≤ 0`` is proved on the box for every ``e`` in ``elements`` (``None``: all) after its
        face reductions ``faces``, else why not. The box is evaluated once with hulls at undecided ``max``/``abs``;
        what that leaves open, once per branch (every branch must close: the true function is one of them at each
        point); what that leaves open, on halves."""
        open_, why, gradient = elements, "", None
        for branch in (False, True):
            try:
                paths, forms = self._evaluate(low, high, forms, branch)
            except Undecided as error:
                why = why or f"undecided on the box: {error}"
                continue
            if paths is None:  # no hull taken: a branch evaluation would be the same
                break
            still = []
            for e in range(len(paths[0])) if open_ is None else open_:
                verdict, detail = self._judge(paths, e, faces.get(e, faces.get(None, ())), exact=not branch)
                if verdict == "refuted":
                    raise CertificateRejected(detail)
                if verdict == "face":
                    k, side = faces.get(e, faces.get(None, ()))[0]
                    face = high[k] if side == "high" else low[k]
                    self.faces += 1
                    reason = self._prove(_set(low, k, face), _set(high, k, face), [e],
                                         {e: faces.get(e, faces.get(None, ()))[1:]}, depth, forms)
                    if reason:
                        return reason
                elif verdict == "open":
                    still.append(e)
                    why = why if branch and why else detail
                    gradient = paths[0][e] if gradient is None else gradient
            open_ = still
            if not open_:
                return None
        return self._split(low, high, open_, faces, depth, forms, gradient, why)

    def _judge(self, paths, e: int, steps, *, exact: bool) -> tuple[str, str]:
        """``("closed" | "face" | "refuted" | "open", why)`` for element ``e`` on the box, every path agreeing;
        ``exact``: the one path encloses the true function (a refutation is only read off that one)."""
        values = [path[e] for path in paths]
        if steps and not exact and not self.faces_sound:
            return "open", (f"element {e}: the certificate reduces a coordinate to a face of a box the checker evaluates "
                            "path by path across a comparison (the side may jump between paths), or by a path's "
                            "conditions: no face is claimed there")
        if steps:
            k, side = steps[0]
            sign = 1 if side == "high" else -1
            slopes = [g.g[k] for g in values]
            claim = (f"element {e}: the certificate reduces coordinate {k} to its {side} face, claiming "
                     f"∂g/∂x_{k} {'≥' if sign > 0 else '≤'} 0 on the box, but the checker encloses ∂g/∂x_{k} in "
                     f"[{_text(min(s.lower() for s in slopes))}, {_text(max(s.upper() for s in slopes))}]")
            if all(s.lower() >= 0 if sign > 0 else s.upper() <= 0 for s in slopes):
                return "face", ""
            if exact and (slopes[0].upper() < 0 if sign > 0 else slopes[0].lower() > 0):
                return "refuted", claim + ": the claimed sign is false"
            return "open", claim
        if all(g.hi <= 0 for g in values):
            return "closed", ""
        if exact and values[0].c.lower() > 0:
            return "refuted", (f"element {e}: at a point of the box g = {_text(values[0].c.mid())} > 0: "
                               + ("the bound it claims is false there" if self.bound < self.one_plus_slack else
                                  "the statement is false there"))
        return "open", f"element {e}: the checker's enclosure of g reaches {_text(max(g.hi for g in values))} > 0"

    def _split(self, low, high, elements, faces, depth, forms, g, reason: str) -> str | None:
        widths = [float(b - a) for a, b in zip(low, high)]
        if depth == 0 or not any(widths):
            return reason + (" (after the checker's bisections)" if self.refine else "")
        weights = [w * float(s.abs_upper()) if g is not None and s.is_finite() else w for w, s in
                   zip(widths, g.g if g is not None else widths)]
        k = int(np.argmax(weights if any(weights) else widths))
        middle = (low[k] + high[k]) / 2
        for half in ((low, _set(high, k, middle)), (_set(low, k, middle), high)):
            failed = self._prove(*half, elements, faces, depth - 1, forms)
            if failed:
                return failed
        return None

    def _evaluate(self, low, high, forms, branch: bool = False):
        """``([g per element] per path, forms)`` on the box ``[low, high]``: one path with hulls, or every branch of
        the undecided ``max``/``abs`` (``None`` when the hull evaluation took no hull: the branches would be it).
        ``forms`` (ratio / difference / theorem per element) are chosen on the first box and kept on its paths, faces
        and halves wherever they are valid there (:func:`_valid`; else each evaluation's own)."""
        if not branch:
            self.hulls = 1  # an evaluation that raises may be decided on every branch
            with counting_hulls() as hulls:
                values, forms = self._evaluate_path(low, high, forms)
            self.hulls = hulls.taken
            return [values], forms
        if not self.hulls:
            return None, forms
        paths, prefix, self.faces_sound = [], [], True
        while prefix is not None:
            if len(paths) == MAX_BRANCHES:
                raise Undecided(f"more than {MAX_BRANCHES} branches of undecided decisions")
            choices = Choices(prefix)
            with branching(choices):
                values, forms = self._evaluate_path(low, high, forms, choices)
            if paths and len(values) != len(paths[0]):
                raise CertificateRejected(f"a side gives {len(paths[0])} elements on one path of its decisions and "
                                          f"{len(values)} on another: no element is one function on the box")
            paths.append(values)
            prefix = choices.next_prefix()
        return paths, forms

    def _evaluate_path(self, low, high, forms, choices=None):
        """``([g per element], forms)`` on the box; on a path of a branch evaluation (``choices``), each ``g`` that
        does not close alone is bounded where the path's conditions hold (:func:`_where_taken`)."""
        self.evaluations += 1
        box = Box(low, high, graded=bool(self.degrees), shifting=self.shift is not None)
        with on_box(box, self.coordinate_degrees, self.coordinate_shifts) as coordinates:
            fixed = {k: _graded(v, self.degrees.get(k, 0)) if self.degrees else v for k, v in self.fixed.items()}
            params = self.domain.assemble(list(coordinates), wrap=as_jet_array, fixed=fixed)
            lhs, rhs = _sides(self.statement, params)
            small, big = (lhs, rhs) if self.statement.relation == "<=" else (rhs, lhs)
            small, big = np.broadcast_arrays(*(np.atleast_1d(np.asarray(s, dtype=object)) for s in (small, big)))
            small, big = ([jet(x) for x in side.ravel()] for side in (small, big))
            if any(x is None for x in small + big):
                raise CertificateRejected("a side returned something that is not a real number")
            own = [_form(b) for b in big]
            if forms is not None and len(forms) != len(own):
                raise CertificateRejected(f"a side gives {len(own)} elements here and {len(forms)} on the first "
                                          "evaluation of the box (another path of its decisions): no element is one "
                                          "function on the box")
            # each path, face and half in the box's form where that form is valid on it (the ratio only where big > 0
            # is certain on this very evaluation), else in its own: both read the claim the same way where both are
            chosen = own if forms is None else [f if _valid(f, b) else o for f, b, o in zip(forms, big, own)]
            forms = forms or own
            values = [self._g(s, b, form) for s, b, form in zip(small, big, chosen)]
            if choices is None:
                return values, forms
            with unchecked():
                bounded = [_where_taken(g, choices.conditions) if g.hi > 0 else g for g in values]
            self.faces_sound = self.faces_sound and choices.continuous and all(
                a is b for a, b in zip(bounded, values))
            return bounded, forms

    def _g(self, small, big, form: str):
        if self.degrees:
            _same_degree(small, big)
        if self.shift:
            _invariant(small, big, self.shift.sides)
            with unchecked():
                return self._claim(small, big, form)
        return self._claim(small, big, form)

    def _claim(self, small, big, form: str):
        bound = _arb(self.bound)
        if form == "ratio":
            return small / big - bound
        if form == "difference":
            return small - big * bound
        if self.bound < self.one_plus_slack:
            raise CertificateRejected(f"the box claims sup small/big ≤ {float(self.bound):.12g}, but big is not certainly "
                            "≥ 0 on it, so no ratio bound is proved there")
        # the theorem is small ≤ big + slack·|big|: where big ≤ 0, small − (1 − slack)·big is it exactly; elsewhere
        # small − (1 + slack)·big claims at least as much (both ≤ 0 only where the theorem holds, whatever big's sign)
        return small - big * _arb(2 - self.one_plus_slack if form == "nonpositive" else self.one_plus_slack)


def _sides(statement, params):
    """``(lhs, rhs)`` on the checker's jets; an ``Undecided``, ``NotHomogeneous``, ``NotInvariant`` or ``NoBallForm``
    raised while they run is raised again even where a side caught it (``except Exception: return base``): the
    evaluation fails as if it had propagated."""
    with nothing_hidden():
        instance = statement.parameters(params, JET) if statement.parameters else params
        return statement.lhs(instance, JET), statement.rhs(instance, JET)


def _where_taken(g, conditions):
    """``g + Σ λ_j c_j`` with multipliers ``λ_j ≥ 0`` the checker picks for the path's conditions ``c_j ≥ 0`` (it is
    ``≥ g`` wherever the path is the side's, so its ``≤ 0`` proves ``g ≤ 0`` there): for each condition in turn, the
    multiplier that most lowers the enclosure's upper end among the projection of ``g``'s slope at the box's point on
    ``c``'s and the ratios that cancel one coordinate's slope, each also halved and doubled."""
    best = g
    for c in conditions:
        for weight in _multipliers(best, c):
            candidate = best + c * flint.arb(weight)
            if candidate.hi < best.hi:
                best = candidate
        if best.hi <= 0:
            break
    return best


def _multipliers(g, c) -> set[float]:
    mine, theirs = [float(x.mid()) for x in g.d], [float(x.mid()) for x in c.d]
    norm = sum(t * t for t in theirs)
    found = {-sum(m * t for m, t in zip(mine, theirs)) / norm} if norm > 0 else set()
    found |= {-float(a.mid()) / float(b.mid()) for a, b in zip(g.g, c.g) if b.is_finite() and a.is_finite()
              and float(b.mid()) != 0}
    return {w * scale for w in found if w > 0 and np.isfinite(w) for scale in (0.5, 1.0, 2.0)}


def _form(big) -> str:
    return "ratio" if big.lo > 0 else "difference" if big.lo >= 0 else "nonpositive" if big.hi <= 0 else "theorem"


def _valid(form: str, big) -> bool:
    """Whether ``form`` reads the claim right on an evaluation whose ``big`` is ``big`` (:func:`_form`'s conditions)."""
    return {"ratio": big.lo > 0, "difference": big.lo >= 0, "nonpositive": big.hi <= 0}.get(form, True)


def _same_degree(small, big) -> None:
    if small.deg != big.deg and not small.v.is_zero() and not big.v.is_zero():
        raise NotHomogeneous(f"the two sides have degrees {small.deg} and {big.deg}")


def _invariant(small, big, sides: str) -> None:
    """The shift reduction's claim on this path: each side does not move (``each``), or both move alike
    (``difference``: ``lhs − rhs`` does not move); else :class:`NotInvariant`."""
    if small.s is None or big.s is None:
        raise NotInvariant("a side carries no shift tag")
    if sides == "each" and (small.s != 0 or big.s != 0):
        raise NotInvariant(f"the sides move by {small.s}·c and {big.s}·c under l → l + c·1, not each by 0")
    if small.s != big.s:
        raise NotInvariant(f"the sides move by {small.s}·c and {big.s}·c under l → l + c·1: lhs − rhs moves")


def _arb(value: Fraction):
    return flint.arb(flint.fmpq(value.numerator, value.denominator))


def _set(values, k: int, value) -> tuple:
    values = list(values)
    values[k] = value
    return tuple(values)


def _text(value) -> str:
    return f"{float(value):.9g}"


def _graded(value, degree):
    """A fixed value of nonzero degree as constant jets of that degree (a float is exact here: a domain value)."""
    if not degree:
        return value
    if isinstance(value, np.ndarray):
        return as_jet_array(np.array([constant(flint.arb(float(x)), degree) for x in value.ravel()],
                                     dtype=object).reshape(value.shape))
    if isinstance(value, (int, float)):
        return constant(flint.arb(value), degree)
    raise NotHomogeneous(f"the fixed value {value!r} cannot be scaled")


def _resolved(fixed: Mapping[str, Any], statement, path: str) -> dict[str, Any]:
    """The fixed values, those written by name taken from the statement's declared domain."""
    declared = statement.prove or {}
    values = {}
    for key, value in fixed.items():
        if isinstance(value, certificates._Named):
            match = declared.get(key)
            if match is None or getattr(match, "name", None) != value.name:
                raise InvalidArgument(f"certificate {path}: {key} = {value.name!r} is not the value "
                                      f"{statement.id} declares for {key!r}; the checker rebuilds only those")
            value = match
        values[key] = value
    return values


def _ranges(domain, key) -> list[tuple[Fraction, Fraction]] | None:
    """The intervals of ``key``'s entries in ``domain`` (a fixed number is a point), or ``None`` for a named value."""
    if key in domain.free:
        index = domain.free.index(key)
        at = sum(domain.sizes()[:index])
        return list(zip(domain.lows[at:at + domain.sizes()[index]], domain.highs[at:at + domain.sizes()[index]]))
    value = domain.fixed[key]
    if isinstance(value, (np.ndarray, int, float)):
        return [(Fraction(float(x)), Fraction(float(x))) for x in np.ravel(value)]
    return None


def _image_outside_base(domain, homogeneity) -> str | None:
    """Why the domain's image under ``key ↦ key·(T_base/T)^deg`` is not inside the base domain, or ``None``."""
    base, scale = homogeneity.base, homogeneity.scale
    if set(domain.order) != set(base.order):
        return f"the base domain's keys {sorted(base.order)} are not the domain's {sorted(domain.order)}"
    scales, pivot = _ranges(domain, scale), _ranges(base, scale)
    if scales is None or len(scales) != 1 or scale in base.free or pivot is None or len(pivot) != 1:
        return f"{scale!r} must be one number: an interval in the domain, fixed in the base"
    (t0, t1), (tb, _) = scales[0], pivot[0]
    if t0 <= 0 or tb <= 0:
        return f"{scale!r} must be positive to scale by it"
    for key in domain.order:
        if key == scale:
            continue
        degree, mine, theirs = homogeneity.degrees.get(key, Fraction(0)), _ranges(domain, key), _ranges(base, key)
        if mine is None or theirs is None:
            if degree or domain.fixed.get(key) != base.fixed.get(key):
                return f"{key!r} is a named value: it must be the same in both and of degree 0"
            continue
        if len(mine) != len(theirs):
            return f"{key!r} has {len(mine)} entries in the domain and {len(theirs)} in the base"
        if degree.denominator != 1:
            return f"{key!r} has a fractional degree {degree}"
        factors = [(tb / t) ** int(degree) for t in (t0, t1)]
        for j, ((lo, hi), (blo, bhi)) in enumerate(zip(mine, theirs)):
            image = [x * f for x in (lo, hi) for f in factors]
            if min(image) < blo or max(image) > bhi:
                return (f"{key}[{j}] ∈ [{float(lo):g}, {float(hi):g}] scales to [{float(min(image)):g}, "
                        f"{float(max(image)):g}], outside the base's [{float(blo):g}, {float(bhi):g}]")
    return None


def _shifted_outside_pieces(before, shift) -> str | None:
    """Why some instance of ``before`` shifted to ``l − (max l)·1`` lies in no piece of ``shift`` whose top entry is
    its largest, or ``None``. Where entry ``i`` is the largest, the shifted ``l_j`` lies in ``[a_j − b_i, min(0,
    b_j − a_i)]`` (``l_j ∈ [a_j, b_j]``) and ``l_i`` is 0; every other key is unchanged."""
    ranges = _ranges(before, shift.key)
    floor = max(low for low, _ in ranges)
    for i, (a_i, b_i) in enumerate(ranges):
        if b_i < floor:
            continue  # entry i is never the largest
        image = [(Fraction(0), Fraction(0)) if j == i else (a_j - b_i, min(Fraction(0), b_j - a_i))
                 for j, (a_j, b_j) in enumerate(ranges)]
        if not any(top == i and _holds(piece, before, shift.key, image) for top, piece in shift.pieces):
            shown = " × ".join(f"[{float(lo):g}, {float(hi):g}]" for lo, hi in image)
            return f"no piece with top entry {i} holds {shift.key} ∈ {shown} (the instances whose largest entry is {i})"
    return None


def _holds(piece, before, key: str, image) -> bool:
    """Whether ``piece`` holds ``image`` for ``key`` and every other key of ``before`` as it is."""
    for name in before.order:
        mine, theirs = (image if name == key else _ranges(before, name)), _ranges(piece, name)
        if mine is None or theirs is None:
            if mine is not None or theirs is not None or not _same_value(before.fixed.get(name), piece.fixed.get(name)):
                return False
            continue
        if len(mine) != len(theirs) or any(lo < plo or hi > phi for (lo, hi), (plo, phi) in zip(mine, theirs)):
            return False
    return True


def _same_value(a, b) -> bool:
    return type(a) is type(b) and a == b
