"""Corollary 1's constants follow from Lemma 1 with F = exp(l/T) and a = Δ, and Lemma 1's are tight."""

import sympy as sp

l, a, T, L, delta = sp.symbols("l a T L Delta", positive=True)
F = sp.exp(l / T)


def test_exp_is_increasing_so_its_range_on_the_interval_is_at_the_endpoints():
    assert sp.simplify(sp.diff(F, l)) == sp.exp(l / T) / T  # > 0 for T > 0


def test_upper_constant_is_e_to_the_2_delta_over_T():
    c2 = F.subs(l, delta) / F.subs(l, -delta)
    assert sp.simplify(c2 - sp.exp(2 * delta / T)) == 0


def test_lower_constant_is_the_reciprocal():
    c1 = F.subs(l, -delta) / F.subs(l, delta)
    assert sp.simplify(c1 - sp.exp(-2 * delta / T)) == 0


def test_lemma1_upper_constant_is_attained_as_L_grows():
    """One logit at a, L − 1 at −a: L·α_1 → F(a)/F(−a) = C_2, so no smaller constant works."""
    weight = F.subs(l, a) / (F.subs(l, a) + (L - 1) * F.subs(l, -a))
    assert sp.limit(L * weight, L, sp.oo) == sp.exp(2 * a / T)


def test_lemma1_lower_constant_is_attained_as_L_grows():
    weight = F.subs(l, -a) / (F.subs(l, -a) + (L - 1) * F.subs(l, a))
    assert sp.limit(L * weight, L, sp.oo) == sp.exp(-2 * a / T)


def test_cauchy_schwarz_bounds_the_logit_by_delta():
    """|q·k| ≤ ‖q‖‖k‖ in two dimensions, as a sum of squares (Lagrange's identity)."""
    q1, q2, k1, k2 = sp.symbols("q1 q2 k1 k2", real=True)
    gap = (q1**2 + q2**2) * (k1**2 + k2**2) - (q1 * k1 + q2 * k2) ** 2
    assert sp.expand(gap - (q1 * k2 - q2 * k1) ** 2) == 0


def test_corrected_own_key_exponent_bounds_the_logit_gap():
    """l_i − l_j ≤ ‖q‖‖k_i‖ + ‖q‖‖k_j‖ ≤ ‖q‖‖k_i‖ + ‖q‖ max‖k‖: the corrected exponent, without the factor 2."""
    qn, ki, kj, kmax = sp.symbols("qn ki kj kmax", nonnegative=True)
    worst_gap = qn * ki + qn * kj
    assert sp.simplify((qn * ki + qn * kmax) - worst_gap - qn * (kmax - kj)) == 0
