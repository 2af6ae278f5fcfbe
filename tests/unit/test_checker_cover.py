"""The checker's coverage test is exact: every tiling of a box by bisection (float midpoints, as ``prove`` splits)
covers it, every box removed or shifted leaves a hole that is named, overlaps are allowed, and the verdict agrees
with a brute-force check on the grid of all the boxes' endpoints."""

import itertools
from fractions import Fraction

import numpy as np
import pytest

from theorems.checker.cover import outside, uncovered


def _bisection_tiling(rng, lows, highs, count):
    boxes = [(list(lows), list(highs))]
    while len(boxes) < count:
        low, high = boxes.pop(int(rng.integers(len(boxes))))
        k = int(rng.integers(len(low)))
        if high[k] - low[k] < 1e-9:
            boxes.append((low, high))
            continue
        middle = 0.5 * (low[k] + high[k])
        boxes += [(low, high[:k] + [middle] + high[k + 1:]), (low[:k] + [middle] + low[k + 1:], high)]
    return [(tuple(map(Fraction, a)), tuple(map(Fraction, b))) for a, b in boxes]


def _brute_force(lows, highs, boxes) -> bool:
    """Covered iff every cell of the grid of all endpoints lies in some box (its centre does)."""
    grids = [sorted({lo, hi, *(b[0][k] for b in boxes), *(b[1][k] for b in boxes)}) for k, (lo, hi) in
             enumerate(zip(lows, highs))]
    for cell in itertools.product(*[list(zip(g, g[1:])) for g in grids]):
        point = [(a + b) / 2 for a, b in cell]
        if not any(all(lo <= x <= hi for x, lo, hi in zip(point, b[0], b[1])) for b in boxes):
            return False
    return True


@pytest.mark.parametrize("dimension", [1, 2, 3])
def test_bisection_tilings_cover_and_a_missing_box_is_a_hole(dimension):
    rng = np.random.default_rng(dimension)
    lows, highs = [0.0] * dimension, [10.0] * dimension
    exact = [Fraction(x) for x in lows], [Fraction(x) for x in highs]
    for _ in range(20):
        boxes = _bisection_tiling(rng, lows, highs, int(rng.integers(2, 60)))
        assert uncovered(*exact, boxes) is None
        missing = boxes.pop(int(rng.integers(len(boxes))))
        hole = uncovered(*exact, boxes)
        assert hole is not None and hole.startswith("the boxes leave")
        assert not _brute_force(*exact, boxes)
        boxes.append(missing)


def test_random_boxes_agree_with_the_brute_force_grid():
    rng = np.random.default_rng(0)
    lows, highs = (Fraction(0), Fraction(0)), (Fraction(4), Fraction(4))
    for _ in range(200):
        boxes = []
        for _ in range(int(rng.integers(1, 7))):
            a, b = sorted(rng.integers(0, 5, 2)), sorted(rng.integers(0, 5, 2))
            boxes.append(((Fraction(int(a[0])), Fraction(int(b[0]))), (Fraction(int(a[1])), Fraction(int(b[1])))))
        assert (uncovered(lows, highs, boxes) is None) == _brute_force(lows, highs, boxes), boxes


def test_a_shift_by_one_ulp_is_a_hole():
    F = Fraction
    boxes = [((F(0),), (F(0.5),)), ((F(np.nextafter(0.5, 1)),), (F(1),))]
    assert uncovered((F(0),), (F(1),), boxes) is not None
    boxes[1] = ((F(0.5),), (F(1),))
    assert uncovered((F(0),), (F(1),), boxes) is None


def test_a_fixed_coordinate_and_zero_volume_boxes():
    F = Fraction
    lows, highs = (F(0), F(2)), (F(1), F(2))  # the second coordinate is fixed at 2
    assert uncovered(lows, highs, [((F(0), F(2)), (F(1), F(2)))]) is None
    assert uncovered(lows, highs, [((F(0), F(2)), (F(1, 2), F(2))), ((F(1, 2), F(2)), (F(1, 2), F(2)))]) is not None
    assert outside(lows, highs, (F(0), F(2)), (F(1), F(3))) == "coordinate 1 spans [2, 3], outside the domain's [2, 2]"


def test_overlapping_boxes_are_allowed():
    F = Fraction
    assert uncovered((F(0),), (F(3),), [((F(0),), (F(2),)), ((F(1),), (F(3),))]) is None
