"""The sort-free ball form of sparsemax that ``prove`` uses (``τ = max_S (Σ_S z − 1)/|S|``, a ``max`` of affine
forms, enclosed soundly where it is undecided): on random boxes of logits its dual's value ball holds the float64
sparsemax at random points of the box and its gradient the slope between two of them (mean-value theorem). A
threshold made too narrow (candidate supports dropped, or the centre's value claimed for the box) must fail."""

import flint
import numpy as np
import pytest

from theorems.arithmetic import box_jet
from theorems.maths import normalisers
from theorems.maths.normalisers import sparsemax

TOLERANCE = 1e-12  # float64 sparsemax against the balls: rounding only


def _check_sparsemax(*, length=3, boxes=40, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(boxes):
        a, b = rng.uniform(-2, 2, length), rng.uniform(-2, 2, length)
        lows, highs = np.minimum(a, b), np.maximum(a, b)
        intervals = [(flint.arb((lo + hi) / 2), flint.arb((hi - lo) / 2)) for lo, hi in zip(lows, highs)]
        with box_jet.on_box(intervals) as coordinates:
            enclosed = sparsemax()(np.array(coordinates, dtype=object).view(box_jet.DualArray), xp=box_jet.DUAL)
        p, q = rng.uniform(lows, highs), rng.uniform(lows, highs)
        at_p, at_q = sparsemax()(p), sparsemax()(q)
        for e, fp, fq in zip(enclosed, at_p, at_q):
            e = box_jet.as_jet(e)
            for value in (fp, fq):
                assert e.value.lower() - TOLERANCE <= value <= e.value.upper() + TOLERANCE, \
                    f"sparsemax {value} outside {e.value}"
            slope = sum((g * float(d) for g, d in zip(e.gradient, q - p)), 0 * e.value)
            assert slope.lower() - TOLERANCE <= fq - fp <= slope.upper() + TOLERANCE, f"slope {fq - fp} outside {slope}"


@pytest.mark.parametrize("length", [2, 3, 4])
def test_dual_sparsemax_encloses_float64_values_and_slopes(length):
    _check_sparsemax(length=length)


def test_dual_sparsemax_agrees_with_the_sorted_threshold_at_points():
    rng = np.random.default_rng(1)
    for _ in range(50):
        z = rng.uniform(-2, 2, 4)
        with box_jet.on_box([(flint.arb(float(x)), flint.arb(0)) for x in z]) as coordinates:
            weights = sparsemax()(np.array(coordinates, dtype=object).view(box_jet.DualArray), xp=box_jet.DUAL)
        assert np.allclose([float(box_jet.as_jet(w).value.mid()) for w in weights], sparsemax()(z), atol=1e-12)


def test_a_threshold_missing_supports_is_caught(monkeypatch):
    full = normalisers._threshold_without_sort

    def narrow(logits, xp):  # only the full support: wrong wherever some weight is 0
        return (np.sum(logits, axis=-1, keepdims=True) - 1) / logits.shape[-1]
    monkeypatch.setattr(normalisers, "_threshold_without_sort", narrow)
    with pytest.raises(AssertionError, match="outside"):
        _check_sparsemax()
    monkeypatch.setattr(normalisers, "_threshold_without_sort", full)
    _check_sparsemax()


def test_a_threshold_claimed_at_the_centre_is_caught(monkeypatch):
    full = normalisers._threshold_without_sort

    def narrow(logits, xp):
        tau = full(logits, xp)
        for t in tau.ravel():
            t.value = t.centre  # the centre's threshold claimed for the whole box: unsound
        return tau
    monkeypatch.setattr(normalisers, "_threshold_without_sort", narrow)
    with pytest.raises(AssertionError, match="outside"):
        _check_sparsemax()
