"""The tightened dual forms ``prove`` relies on, against float64 at points of random boxes: a quotient whose
gradient uses the mean-value-tightened quotient, a norm whose unit vector ``x/‖x‖`` is enclosed by its mean-value
form, and a ``max`` decided on the mean-value form's endpoints (a kink on a box's edge). Each dual's value ball
must hold the function at two random points of the box and its gradient the slope between them; the same forms
made too narrow (the centre claimed for the box, the spread dropped) must fail: the check has teeth."""

import flint
import numpy as np
import pytest

from theorems.arithmetic import box_jet

TOLERANCE = 1e-12  # float64 against the balls: rounding only


def _quotient(x, y):
    return (x * y + 1) / (x * x + y * y + 1)


def _norm(x, y):
    if isinstance(x, box_jet.Dual):
        return box_jet.norm(np.array([x - y, x * y, 1 + x * x], dtype=object))
    return float(np.linalg.norm([x - y, x * y, 1 + x * x]))


def _fixed_direction(x, y):
    """``‖(y, −y)‖/‖(2y, −2y)‖ = 1/2`` on ``y > 0``: the direction of both vectors is fixed (sparsemax's case)."""
    if isinstance(x, box_jet.Dual):
        return box_jet.norm(np.array([y + 0 * x, -y], dtype=object)) / box_jet.norm(np.array([2 * y, -2 * y], dtype=object))
    return 0.5


def _max(x, y):
    if isinstance(x, box_jet.Dual):
        return box_jet.maximum(x, y * y)
    return max(x, y * y)


FUNCTIONS = {"quotient": _quotient, "norm": _norm, "fixed_direction": _fixed_direction, "max": _max}


def _check(function, *, boxes=60, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(boxes):
        lows = rng.uniform(0.5, 2, 2)
        highs = lows + rng.uniform(0, 0.3, 2)
        intervals = [((flint.arb(float(lo)) + flint.arb(float(hi))) / 2, (flint.arb(float(hi)) - flint.arb(float(lo))) / 2)
                     for lo, hi in zip(lows, highs)]
        with box_jet.on_box(intervals) as (x, y):
            enclosed = box_jet.as_jet(function(x, y))
        p, q = rng.uniform(lows, highs), rng.uniform(lows, highs)
        at_p, at_q = float(function(*p)), float(function(*q))
        for value in (at_p, at_q):
            assert enclosed.value.lower() - TOLERANCE <= value <= enclosed.value.upper() + TOLERANCE, \
                f"value {value} outside {enclosed.value}"
        slope = sum((g * float(d) for g, d in zip(enclosed.gradient, q - p)), 0 * enclosed.value)
        assert slope.lower() - TOLERANCE <= at_q - at_p <= slope.upper() + TOLERANCE, f"slope {at_q - at_p} outside {slope}"


@pytest.mark.parametrize("name", FUNCTIONS)
def test_tightened_forms_enclose_float64_values_and_slopes(name):
    _check(FUNCTIONS[name])


def test_a_fixed_direction_ratio_is_enclosed_to_second_order():
    """``‖(y, −y)‖/‖(2y, −2y)‖`` on ``y ∈ [1, 1.01]``: the plain unit vector is ``O(0.01)`` wide; tightened, the
    ratio's enclosure is within ``1e-6`` of ``1/2`` (what proves sparsemax's ratio 1 at slack ``1e-6``)."""
    with box_jet.on_box([(flint.arb(1), flint.arb(0)), (flint.arb("1.005"), flint.arb("0.005"))]) as (x, y):
        ratio = _fixed_direction(x, y)
    assert ratio.value.upper() - 0.5 < 1e-6 and 0.5 - ratio.value.lower() < 1e-6, ratio


def test_a_kink_on_the_box_edge_is_decided():
    """``max(x, 1)`` on ``x ∈ [1 − 2⁻¹³, 1]``: ``x ≤ 1`` holds on the box, so the max is ``1`` with gradient 0 (an
    arb ball of ``x − 1`` reaches past 0 by its rounded-up radius, and the hull of the gradients would be taken)."""
    with box_jet.on_box([(flint.arb(1 - 2.0**-14), flint.arb(2.0**-14))]) as (x,):
        chosen = box_jet.maximum(x, 1)
    assert chosen.gradient[0].is_zero() and chosen.value == 1


@pytest.mark.parametrize("name", ["quotient", "norm"])  # the fixed direction is exact at its centre
def test_a_meet_that_claims_the_centre_is_caught(monkeypatch, name):
    def narrow(a, b):  # the tightened enclosure's midpoint claimed for the whole box: unsound
        return flint.arb(b.mid()) if b.is_finite() else a
    monkeypatch.setattr(box_jet, "meet", narrow)
    with pytest.raises(AssertionError, match="outside"):
        _check(FUNCTIONS[name])


def test_a_max_decided_without_the_spread_is_caught(monkeypatch):
    def narrow(d):  # the centre's sign taken for the box: unsound
        return d.centre.lower(), d.centre.upper()
    monkeypatch.setattr(box_jet, "_endpoints", narrow)
    with pytest.raises(AssertionError, match="outside"):
        _check(_max, boxes=200)
