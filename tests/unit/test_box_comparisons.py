"""Every comparison of a box quantity is decided on the whole box or not at all, in the prover's duals and Taylor
forms and in the checker's jets alike: ``==``, ``!=``, ``<``, ``in``, ``bool()``, ``np.equal``, ``np.not_equal``,
``np.sign``, ``np.where``, ``np.argmax``, ``np.sort``, ``max``/``sorted`` keys and identity tests either raise
(``Undecided``, or a ``TypeError`` where there is no enclosure: ``hash``, ``in`` a set) or give what float64 gives at
every point of the box. Identity (Python's default ``==``) would give ``x - x == 0`` False and send a side down a branch never taken."""

from fractions import Fraction

import flint
import numpy as np
import pytest

from theorems.arithmetic.box_jet import DualArray, TaylorArray, on_box
from theorems.checker.jet import Box
from theorems.checker.jet import on_box as jet_box
from theorems.checker.space import as_jet_array

PATTERNS = {
    "x - x == 0": lambda l: (l[0] - l[0]) == 0,
    "tie with max": lambda l: l[0] - max(l) == 0,
    "tie with np.max": lambda l: l[0] - np.max(l) == 0,
    "!=": lambda l: l[0] != l[1],
    "(x - x) in [0]": lambda l: (l[0] - l[0]) in [0],
    "x in [y]": lambda l: l[0] in [l[1]],
    # bitwise: exact equality of box quantities is the comparison under test, decided on the whole box or raising
    "np.equal": lambda l: np.equal(l, l[::-1]).tolist(),
    "np.not_equal": lambda l: np.not_equal(l, l[::-1]).tolist(),
    "np.sign": lambda l: np.sign(l - 1).tolist(),
    "array ==": lambda l: (l == l[0]).tolist(),
    "np.where": lambda l: np.where(l == l[0], 1, 0).tolist(),
    # bitwise: as above, numpy's array_equal on box quantities
    "np.array_equal": lambda l: np.array_equal(l, l + 0),
    "np.argmax": lambda l: int(np.argmax(l)),
    "np.argsort": lambda l: np.argsort(l).tolist(),
    "np.nonzero": lambda l: np.nonzero(l - l[0])[0].tolist(),
    "bool": lambda l: bool(l[0] - l[1]),
    "<": lambda l: l[0] < l[1],
    "sorted key": lambda l: sorted(range(2), key=lambda k: l[k]),
    "list.index of max": lambda l: list(l).index(max(l)),
    "abs(x) - x == 0": lambda l: abs(l[0]) - l[0] == 0,
    "np.max is l[0]": lambda l: np.max(l) is l[0],
    "abs(x) is x": lambda l: abs(l[0]) is l[0],
    "+x is x": lambda l: +l[0] is l[0],
    "in a set": lambda l: l[0] in {0.0},
}
BOXES = [([0.0, 0.0], [1.0, 1.0]), ([0.0, 2.0], [1.0, 3.0]), ([2.0, 0.0], [3.0, 1.0]), ([0.5, 0.5], [0.5, 0.5]),
         ([1.0, 0.0], [2.0, 1.0])]
"""Ties inside, one side certainly larger either way, a point, a tie on an edge."""


def _on_box(kind: str, lows, highs, f):
    if kind == "jet":
        with jet_box(Box([Fraction(a) for a in lows], [Fraction(b) for b in highs])) as coordinates:
            return f(as_jet_array(np.array(coordinates, dtype=object)))
    order, view = {"dual": (1, DualArray), "taylor": (2, TaylorArray)}[kind]
    intervals = [((flint.arb(a) + flint.arb(b)) / 2, (flint.arb(b) - flint.arb(a)) / 2) for a, b in zip(lows, highs)]
    with on_box(intervals, order=order) as coordinates:
        return f(np.array(coordinates, dtype=object).view(view))


def _points(lows, highs):
    rng = np.random.default_rng(0)
    lows, highs = np.array(lows), np.array(highs)
    corners = [np.where([i & 1, i & 2], highs, lows) for i in range(4)]
    return corners + [0.5 * (lows + highs)] + [rng.uniform(lows, highs) for _ in range(20)]


@pytest.mark.parametrize("kind", ["dual", "taylor", "jet"])
@pytest.mark.parametrize("name", PATTERNS)
def test_a_comparison_is_decided_on_the_whole_box_or_raises(kind, name):
    f = PATTERNS[name]
    for lows, highs in BOXES:
        try:
            decided = _on_box(kind, lows, highs, f)
        except Exception:  # noqa: BLE001 - Undecided, NotSmooth, or no enclosure (hash): never a wrong answer
            continue
        for point in _points(lows, highs):
            assert f(np.array(point, dtype=float)) == decided, (kind, name, lows, highs, point, decided)


@pytest.mark.parametrize("kind", ["dual", "taylor", "jet"])
def test_an_exact_equality_is_decided_true(kind):
    """Not only refused: ``x - x == 0`` is True on every box (the difference is exactly 0), ``x - x != 0`` False."""
    assert _on_box(kind, [0.0, 0.0], [1.0, 1.0], lambda l: ((l[0] - l[0]) == 0, (l[0] - l[0]) != 0)) == (True, False)
    assert _on_box(kind, [0.0, 2.0], [1.0, 3.0], lambda l: (l[0] == l[1], l[0] != l[1])) == (False, True)
