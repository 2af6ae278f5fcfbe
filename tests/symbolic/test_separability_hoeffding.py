"""The Hoeffding-type exponent for one variable of range [0, 2M], and what each reading corresponds to."""

import sympy as sp

t, M, R = sp.symbols("t M R", positive=True)


def hoeffding_exponent(width):
    """Hoeffding's lower-tail exponent for the mean of one variable of range ``width``: 2t²/width²."""
    return 2 * t ** 2 / width ** 2


def test_range_two_m_gives_the_2m2_reading():
    assert sp.simplify(hoeffding_exponent(2 * M) - t ** 2 / (2 * M ** 2)) == 0


def test_the_16m2_reading_is_hoeffding_for_a_range_of_4_sqrt2_m():
    width = sp.solve(sp.Eq(hoeffding_exponent(R), t ** 2 / (16 * M ** 2)), R)
    assert width == [4 * sp.sqrt(2) * M]


def test_the_16m2_exponent_is_eight_times_weaker():
    assert sp.simplify((t ** 2 / (2 * M ** 2)) / (t ** 2 / (16 * M ** 2))) == 8


def test_mcdiarmid_for_the_norm_of_a_weighted_sum_is_at_least_as_strong():
    """‖Σ_j α_j x_j‖ moves by ≤ 2Mα_j per x_j: exponent 2t²/Σ(2Mα_j)² = t²/(2M²Σα_j²) ≥ t²/(2M²) when Σα_j² ≤ 1."""
    a1, a2, a3 = sp.symbols("a1:4", positive=True)
    mcdiarmid = 2 * t ** 2 / sum((2 * M * a) ** 2 for a in (a1, a2, a3))
    ratio = sp.simplify(mcdiarmid / (t ** 2 / (2 * M ** 2)))
    assert sp.simplify(ratio - 1 / (a1 ** 2 + a2 ** 2 + a3 ** 2)) == 0


def test_the_upper_bound_floor_when_r_and_xi_lie_in_0_m():
    """|ξ − r| ≤ M on [0, M]² (attained at a corner), so exp(−(ξ − r)²/(cM²)) ≥ e^{−1/c}."""
    xi_, r = sp.symbols("xi r", nonnegative=True)
    corners = [((xi_ - r) ** 2).subs({xi_: a, r: b}) for a in (0, M) for b in (0, M)]
    assert sp.Max(*corners) == M ** 2
    assert [sp.exp(-M ** 2 / (c * M ** 2)) for c in (2, 16)] == [sp.exp(-sp.Rational(1, 2)), sp.exp(-sp.Rational(1, 16))]
