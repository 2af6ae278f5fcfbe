"""A ball never silently becomes a float: float(), math.*, int(), np.asarray(..., float) raise NoBallForm
unless the ball is exactly one double (or one integer), and then they return exactly it."""

import math

import flint
import numpy as np
import pytest

from theorems.arithmetic.precision import Ball, NoBallForm, balls


def _third():
    return Ball(flint.arb(1) / 3)


@pytest.mark.parametrize("leave", [float, int, math.exp, math.log, math.sqrt, math.floor, round, complex,
                                   lambda b: np.asarray([b], dtype=float), lambda b: range(b),
                                   lambda b: "%.3f" % b])
def test_an_inexact_ball_cannot_leave(leave):
    with pytest.raises(NoBallForm):
        leave(_third())


def test_an_exact_instance_value_leaves_exactly():
    x = balls(np.array([0.1, 3.0]))
    assert float(x[0]) == 0.1 and int(x[1]) == 3 and math.exp(x[1]) == math.exp(3.0)
    assert np.asarray(x, dtype=float).tolist() == [0.1, 3.0]


def test_a_computed_ball_does_not_leave_even_when_its_midpoint_is_a_double():
    total = balls(np.array([0.1, 0.2])).sum()  # 0.1 + 0.2 exactly: not a double
    with pytest.raises(NoBallForm, match="float"):
        float(total)
