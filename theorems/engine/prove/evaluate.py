"""One box of a branch-and-bound: the claim enclosed on it, closed, reduced to a face, or split.

On a box, ``g`` (``small/big − (1 + slack)`` where ``big > 0`` is certain: a common factor of both sides cancels, as
``1/T`` does; ``small − (1 ∓ slack)·big`` elsewhere: :func:`~theorems.engine.prove.forms.claim`) is enclosed by a
:class:`Method`: the jets of one order of :mod:`theorems.arithmetic.box_jet` (:data:`MEAN_VALUE`, order 1; where it
leaves the box open by less than :data:`~theorems.engine.prove.state.TAYLOR_BELOW`, :data:`TAYLOR2`, order 2). An
element whose ``g ≤ 0`` is certain is closed; one where ``g`` is certainly monotone in a coordinate is moved to the
face where ``g`` is largest (:func:`collapse`, what the certificate's ``faces`` state) and evaluated again, in the
box's form; what stays open is split along the coordinate of largest ``|∂g|·width`` (:func:`split`). Every box's
enclosures are cross-checked at its centre (:mod:`~theorems.engine.prove.crosscheck`).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from theorems.arithmetic.box_jet import BoxJet
from theorems.engine.prove import certificate
from theorems.engine.prove.branches import closed_by_paths
from theorems.engine.prove.crosscheck import cross_check_enclosure
from theorems.engine.prove.forms import (MEAN_VALUE, TAYLOR2, Method, centre_of, certainly_nonpositive,
                                         certainly_positive, evaluate, form_of, ratio_upper, upper_of)
from theorems.engine.prove.points import floats_at_centre, refute_vertex
from theorems.engine.prove.state import BranchAndBound


@dataclasses.dataclass(frozen=True)
class Bound:
    """A box's verdict: ``upper`` an upper bound of ``g`` on it (``-inf`` when closed), ``split`` the coordinate to
    bisect (``None``: closed; ``-1``: too small to split, still open)."""

    upper: float
    split: int | None

    @property
    def closed(self) -> bool:
        return self.split is None


CLOSED = Bound(-np.inf, None)


def bound(search: BranchAndBound, lows, highs) -> Bound:
    """The box ``[lows, highs]`` evaluated: each element tried with the mean-value form, then, where that leaves it
    open by less than ``search.taylor_below``, with the second-order form: whichever closes it. A closed box is
    recorded (``search.leaves``: what the certificate states) and raises the proved upper end of the sup."""
    try:
        g, small, big = evaluate(search, lows, highs)
    except MEAN_VALUE.declines:  # a decision undecided on the box (a comparison): path by path
        return branched(search, lows, highs)
    floats = floats_at_centre(search, lows, highs)
    cross_check_enclosure(search, lows, highs, small, big, floats)
    worst, worst_upper, open_elements = None, -np.inf, []
    box_ratio, faces, ratio_everywhere, methods = -np.inf, {}, True, set()
    for at in range(len(g)):
        _witness(search, small[at], big[at])
        ratio_everywhere = ratio_everywhere and certainly_positive(big[at])
        proved, ratio, faces[at] = element(search, g[at], small[at], big[at], at, lows, highs, MEAN_VALUE)
        if proved:
            box_ratio, methods = max(box_ratio, ratio), methods | {MEAN_VALUE.name}
            continue
        open_elements.append(at)
        upper = upper_of(g[at])
        if upper > worst_upper or worst is None:
            worst, worst_upper = g[at], upper
    if open_elements and worst_upper < search.taylor_below:
        closed, form = second_order(search, lows, highs, open_elements, faces, floats)
        for at, ratio in closed.items():
            box_ratio, methods = max(box_ratio, ratio), methods | {form}
        if len(closed) == len(open_elements):
            worst = None
    if worst is not None:
        return Bound(worst_upper, split(worst, lows, highs))
    method = next((name for name in (BRANCHES, TAYLOR2.name) if name in methods), MEAN_VALUE.name)
    return _closed(search, lows, highs, faces, box_ratio, method, claim=ratio_everywhere)


BRANCHES = "taylor2+branches"
"""The certificate's method of a box the second-order form closed path by path (:mod:`~theorems.engine.prove.branches`)."""


def _closed(search: BranchAndBound, lows, highs, faces, box_ratio: float, method: str, *, claim: bool = True) -> Bound:
    """The box recorded as closed by ``method`` (``search.leaves``: what the certificate states), its proved bound of
    ``small/big`` raising the proved upper end of the sup (and claimed in the certificate where ``claim``: ``big > 0``
    is certain on the box)."""
    search.sup_high = max(search.sup_high, box_ratio)
    search.closed(method)
    if search.leaves is not None:  # the box as the certificate states it: a bound only where it is a ratio's
        claimed = box_ratio if claim and box_ratio < 1 + search.slack else None
        search.leaves.append(certificate.Leaf(tuple(lows), tuple(highs), faces, claimed, form=method))
    return CLOSED


def branched(search: BranchAndBound, lows, highs) -> Bound:
    """A box whose mean-value evaluation meets an undecided decision, closed path by path (the mean-value form, then,
    near closing, the second-order form), else split along its widest coordinate."""
    for method in (MEAN_VALUE, TAYLOR2):
        closed, worst = closed_by_paths(search, lows, highs, method)
        if closed and worst == -np.inf:
            form = f"{method.name}+branches"
            return _closed(search, lows, highs, {}, max(closed.values()), form)
        if not worst < search.taylor_below:
            break
    return Bound(worst if np.isfinite(worst) else np.inf, widest(lows, highs))


def second_order(search: BranchAndBound, lows, highs, elements, faces, floats) -> tuple[dict[int, float], str]:
    """The elements among ``elements`` that the second-order form closes on the box, with their ratio bounds
    (``faces`` records their face reductions), and the form's name; where a side is not twice differentiable on the
    box (a kink: an undecided ``max``, ``abs``, comparison), path by path (:data:`BRANCHES`, no faces).
    ``floats``: the float64 sides at the centre, for the cross-check."""
    try:
        g, small, big = evaluate(search, lows, highs, TAYLOR2)
    except TAYLOR2.declines:
        closed, _ = closed_by_paths(search, lows, highs, TAYLOR2, elements)
        faces.update({at: () for at in closed})
        return closed, BRANCHES
    cross_check_enclosure(search, lows, highs, small, big, floats)
    closed = {}
    for at in elements:
        proved, ratio, steps = element(search, g[at], small[at], big[at], at, lows, highs, TAYLOR2)
        if proved:
            closed[at], faces[at] = ratio, steps
    return closed, TAYLOR2.name


def element(search: BranchAndBound, g, small, big, at: int, lows, highs, method: Method) -> tuple[bool, float, tuple]:
    """Whether ``g ≤ 0`` is proved for this element on the box (after replacing each coordinate in which ``g`` is
    certainly monotone by the endpoint where it is largest), the proved upper bound of ``small/big`` there, and
    the face reductions applied (``(coordinate, "low" | "high")`` in order: what the certificate states)."""
    faces: list[tuple[int, str]] = []
    form = form_of(big)  # kept on the faces: the face argument bounds this g
    for _ in range(len(lows) + 1):
        if certainly_nonpositive(g):
            return True, ratio_upper(search, small, big), tuple(faces)
        if not isinstance(g, BoxJet):
            return False, np.inf, ()
        lows, highs, steps = collapse(g, lows, highs)
        if not steps:
            return False, np.inf, ()
        faces.extend(steps)
        try:
            values = evaluate(search, lows, highs, method, {at: form})
        except method.declines:
            return False, np.inf, ()
        g, small, big = (v[at] for v in values)
        _witness(search, small, big)
        if np.all(lows == highs) and certainly_positive(g):
            refute_vertex(search, lows)
    return False, np.inf, ()


def collapse(g: BoxJet, lows, highs):
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


def split(g, lows, highs) -> int:
    """The coordinate to bisect an open box along: the largest ``|∂g|·width`` (the widest where ``g`` has no finite
    gradient); ``-1`` when the box is too small to split."""
    widths = highs - lows
    if not np.any(widths > 0) or np.all(widths <= 1e-12 * np.maximum(1.0, np.abs(lows) + np.abs(highs))):
        return -1
    if isinstance(g, BoxJet) and all(s.is_finite() for s in g.gradient):
        weights = np.array([float(s.abs_upper()) for s in g.gradient]) * widths
        if np.max(weights) > 0:
            return int(np.argmax(weights))
    return widest(lows, highs)


def widest(lows, highs) -> int:
    widths = highs - lows
    if not np.any(widths > 1e-12 * np.maximum(1.0, np.abs(lows) + np.abs(highs))):
        return -1
    return int(np.argmax(widths))


def _witness(search: BranchAndBound, small, big) -> None:
    """Raise the proved lower end of ``sup small/big`` with the value at the box's centre (a point of the domain)."""
    if isinstance(small, BoxJet) or isinstance(big, BoxJet):
        low = centre_of(small) / centre_of(big) if centre_of(big) > 0 else None
        if low is not None and low.is_finite():
            search.sup_low = max(search.sup_low, float(np.nextafter(float(low.lower()), -np.inf)))


__all__ = ["BRANCHES", "Bound", "MEAN_VALUE", "Method", "TAYLOR2", "bound", "branched", "collapse", "element",
           "evaluate", "second_order", "split", "widest"]
