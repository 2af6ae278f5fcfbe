"""A box closed path by path where a decision of the side is undecided on it (:mod:`theorems.arithmetic.box_branches`).

The sides are evaluated once per path (each undecided ``max``/``min``/``abs``/comparison taking one outcome, every
sequence of outcomes in turn, at most :data:`MAX_PATHS`: more, and the box is bisected); at every point of the box the side is one of the paths, so
an element whose claim ``g ≤ 0`` is proved on every path is proved on the box. On a path, ``g ≤ 0`` need only hold
where its outcomes are the side's: where ``g`` alone does not close, ``g + Σ λ_j c_j`` is tried, ``c_j ≥ 0`` the
path's conditions and ``λ_j ≥ 0`` chosen here (any choice is sound: it is ``≥ g`` where every ``c_j ≥ 0``). No face
reduction is made on a path, and no point value of a path is taken as the side's (a path is the side only where
its conditions hold).

>>> MAX_PATHS
16
"""

from __future__ import annotations

import flint
import numpy as np

from theorems.arithmetic.box_branches import Branches, branching
from theorems.arithmetic.box_jet import BoxJet
from theorems.engine.prove.forms import Method, claims, ratio_upper, upper_of
from theorems.engine.prove.state import BranchAndBound

MAX_PATHS = 16
"""The most paths one box is evaluated on (more: the box is bisected instead)."""


def closed_by_paths(search: BranchAndBound, lows, highs, method: Method, elements=None) -> tuple[dict[int, float], float]:
    """The elements among ``elements`` (``None``: all) that every path closes on the box, each with its proved
    bound of ``small/big`` (at most ``1 + slack``), and the largest upper bound of ``g`` left on an element that
    does not close (``-inf`` when all do, ``inf`` where the paths cannot be evaluated or give different numbers of
    elements)."""
    prefix, paths, bounds, worst = [], 0, None, -np.inf
    while prefix is not None:
        if paths == MAX_PATHS:
            return {}, np.inf
        choices = Branches(list(prefix))
        try:
            with method.instance(search.domain, lows, highs) as instance, branching(choices):
                g, small, big = claims(search, instance, method)
                if bounds is None:
                    bounds, size = {e: -np.inf for e in (range(len(g)) if elements is None else elements)}, len(g)
                if len(g) != size:  # a side whose element count depends on a decision: no element is one function
                    return {}, np.inf
                for e in list(bounds):
                    upper = _upper_where_taken(g[e], choices.conditions)
                    if upper <= 0:
                        bounds[e] = max(bounds[e], ratio_upper(search, small[e], big[e]))
                    else:
                        del bounds[e]
                        worst = max(worst, upper)
        except method.declines:
            return {}, np.inf
        if not bounds:
            return {}, worst
        paths += 1
        prefix = choices.next_prefix()
    return bounds, worst


def _upper_where_taken(g, conditions) -> float:
    """An upper bound of ``g`` where every condition ``c ≥ 0`` holds: ``g``'s own, or that of ``g + λ·c`` with
    the best ``λ ≥ 0`` found for each condition in turn (inside the box's context: the sum is tightened too)."""
    best = upper_of(g)
    if best <= 0 or not isinstance(g, BoxJet):
        return best
    for c in conditions:
        if not isinstance(c, BoxJet):
            continue
        for weight in _weights(g, c):
            candidate = g + c * flint.arb(weight)
            if upper_of(candidate) < best:
                g, best = candidate, upper_of(candidate)
        if best <= 0:
            break
    return best


def _weights(g: BoxJet, c: BoxJet) -> list[float]:
    """Multipliers worth trying for ``g + λ·c``: those that cancel one coordinate's slope of ``g`` by ``c``'s (the
    corners of the linear bound ``Σ_k |∂_k g + λ ∂_k c|·r_k``), and twice and half each."""
    weights = set()
    for dg, dc in zip(g.gradient, c.gradient):
        if not (dg.is_finite() and dc.is_finite()):
            continue
        slope, against = float(dg.mid()), float(dc.mid())
        if against != 0 and -slope / against > 0 and np.isfinite(-slope / against):
            weights.update(w * -slope / against for w in (0.5, 1.0, 2.0))
    return sorted(weights)


__all__ = ["MAX_PATHS", "closed_by_paths"]
