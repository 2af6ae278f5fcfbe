"""Integer powers of balls containing 0 or negative numbers are finite and sound (python-flint 0.9 returns
nan for a power of a ball whose midpoint is 0); checked against products computed independently."""

import flint
import pytest

from theorems.arithmetic.precision import Ball


@pytest.mark.parametrize("n", [1, 2, 3, 4, 7, -2])
@pytest.mark.parametrize("value", ["0 +/- 1e-39", "-0.5 +/- 1e-20", "1.5 +/- 1e-30"])
def test_integer_power_encloses_the_repeated_product(value, n):
    base = flint.arb(value)
    if n < 0 and base.contains(0):
        return
    power = (Ball(base) ** n).arb
    product = flint.arb(1)
    for _ in range(abs(n)):
        product *= base
    product = 1 / product if n < 0 else product
    assert power.is_finite() and power.overlaps(product) and power.contains(product.mid())


def test_even_power_is_nonnegative():
    assert (Ball(flint.arb("0 +/- 1e-39")) ** 2).arb.lower() >= 0
    assert (Ball(flint.arb("0 +/- 1e-39")) ** 2.0).arb.lower() >= 0
