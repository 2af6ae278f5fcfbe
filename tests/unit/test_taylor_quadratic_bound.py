"""The Taylor form's bound of one coordinate's quadratic, ``max of p·h + ½a·h² over h ∈ [0, r]``, is an upper bound of
the exact maximum (its candidates: 0, r and, for a concave one, the vertex ``−p/a``), computed in rationals."""

from fractions import Fraction

import flint
from hypothesis import given
from hypothesis import strategies as st

from theorems.arithmetic.box_jet import quadratic_top

REALS = st.floats(-1e3, 1e3, allow_subnormal=False)


def _exact_max(p: Fraction, a: Fraction, r: Fraction) -> Fraction:
    candidates = [Fraction(0), p * r + a * r * r / 2]
    if a < 0 and 0 < -p / a < r:
        candidates.append(-p * p / (2 * a))
    return max(candidates)


def _fraction(ball) -> Fraction:
    mantissa, exponent = ball.upper().mid().man_exp()
    return Fraction(int(mantissa)) * Fraction(2) ** int(exponent)


@given(p=REALS, a=REALS, r=st.floats(1e-6, 1e3))
def test_the_bound_is_above_the_exact_maximum(p, a, r):
    bound = quadratic_top(flint.arb(p), flint.arb(a), flint.arb(r))
    assert _fraction(bound) >= _exact_max(Fraction(p), Fraction(a), Fraction(r))

