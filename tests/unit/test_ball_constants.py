"""A float written in a side's code means its decimal value: in ball arithmetic it carries one ulp, so the
gap between 0.1 and 1/10 never certifies anything; instance values and exactly-written floats stay exact."""

from fractions import Fraction

import flint
import numpy as np
import pytest

from theorems.arithmetic.precision import Ball, balls


@pytest.mark.parametrize("literal", ["0.1", "0.2", "0.3", "1e-12", "3.14159"])
def test_a_decimal_constant_holds_its_decimal_value(literal):
    ball = (Ball(flint.arb(1)) * float(literal)).arb
    assert ball.contains(flint.arb(literal)) and ball.contains(float(literal)) and not ball.is_exact()


@pytest.mark.parametrize("value", [0.5, 2.0, 3.0, -0.25, 1024.0])
def test_a_float_whose_decimal_form_is_its_value_stays_exact(value):
    assert (Ball(flint.arb(1)) * value).arb.is_exact()


def test_instance_floats_are_exact_even_when_not_short():
    x = balls({"x": 0.1})["x"].arb
    assert x.is_exact() and Fraction(float(x.mid())) == Fraction(0.1)


def test_point_one_plus_point_two_is_not_certified_above_point_three():
    total = Ball(flint.arb(0)) + 0.1 + 0.2
    assert total.arb.overlaps(flint.arb("0.3"))  # undecided against 0.3, never "strictly above"
    with pytest.raises(ArithmeticError):
        bool(total > 0.3)


def test_numpy_scalars_carry_their_own_spacing():
    ball = (Ball(flint.arb(1)) * np.float32(0.1)).arb
    assert ball.contains(flint.arb("0.1"))
