"""Exact coverage: the union of a certificate's boxes equals its domain, with rational endpoints.

Every box must lie in the domain, and every point of the domain in some box. Coordinates of zero width in the
domain are fixed (every box must agree there) and left out; a box of zero width in another coordinate has no
volume and covers nothing (a union of closed boxes that misses a point of the domain misses a ball around it).
The rest is a sweep: each endpoint is replaced by its rank among the endpoints of its coordinate (an order-preserving
relabelling, so coverage is unchanged), and a region no single box contains is cut at a box edge inside it, until
every region is contained in a box (covered) or meets none (a hole, reported).

>>> F = Fraction
>>> uncovered([F(0)], [F(2)], [([F(0)], [F(1)]), ([F(1)], [F(2)])])
>>> uncovered([F(0)], [F(2)], [([F(0)], [F(1)]), ([F(3, 2)], [F(2)])])
'the boxes leave [1, 1.5] uncovered'
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np


def outside(lows, highs, box_low, box_high) -> str | None:
    """Why the box is not inside the domain, or ``None``."""
    for k, (lo, hi, a, b) in enumerate(zip(lows, highs, box_low, box_high)):
        if a < lo or b > hi:
            return f"coordinate {k} spans [{float(a):g}, {float(b):g}], outside the domain's [{float(lo):g}, {float(hi):g}]"
    return None


def uncovered(lows, highs, boxes) -> str | None:
    """``None`` when the union of ``boxes`` (pairs ``(low, high)`` inside the domain) is the domain ``[lows, highs]``,
    else a text naming a region left uncovered."""
    live = [k for k in range(len(lows)) if lows[k] < highs[k]]
    full = [(low, high) for low, high in boxes if all(low[k] < high[k] for k in live)]
    if not live:
        return None if boxes else "no box"
    if not full:
        return "no box has volume: the boxes leave the whole domain uncovered"
    ranks = []
    for k in live:
        values = sorted({lows[k], highs[k], *(b[0][k] for b in full), *(b[1][k] for b in full)})
        ranks.append((values, {v: i for i, v in enumerate(values)}))
    low = np.array([[index[b[0][k]] for (_, index), k in zip(ranks, live)] for b in full], dtype=np.int64)
    high = np.array([[index[b[1][k]] for (_, index), k in zip(ranks, live)] for b in full], dtype=np.int64)
    start = np.array([index[lows[k]] for (_, index), k in zip(ranks, live)])
    stop = np.array([index[highs[k]] for (_, index), k in zip(ranks, live)])
    hole = _sweep(low, high, start, stop)
    if hole is None:
        return None
    region = " × ".join(f"[{float(values[a]):g}, {float(values[b]):g}]" for (values, _), a, b in zip(ranks, *hole))
    return f"the boxes leave {region} uncovered" + (f" (coordinates {live})" if len(live) < len(lows) else "")


def _sweep(low, high, start, stop):
    """A region ``(start, stop)`` of rank space meeting no box, or ``None`` when the boxes cover it."""
    stack = [(start, stop, np.arange(len(low)))]
    while stack:
        start, stop, members = stack.pop()
        members = members[np.all(low[members] < stop, axis=1) & np.all(high[members] > start, axis=1)]
        if len(members) == 0:
            return start, stop
        if np.any(np.all(low[members] <= start, axis=1) & np.all(high[members] >= stop, axis=1)):
            continue
        edges = np.concatenate([low[members], high[members]])
        inside = (edges > start) & (edges < stop)
        k = int(np.argmax(inside.any(axis=0)))  # some box edge lies strictly inside, or one box would contain it
        cut = int(np.median(edges[inside[:, k], k]))
        left_stop, right_start = stop.copy(), start.copy()
        left_stop[k] = right_start[k] = cut
        stack.append((right_start, stop, members))
        stack.append((start, left_stop, members))
    return None
