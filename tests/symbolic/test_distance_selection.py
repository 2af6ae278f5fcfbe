"""SymPy: the selection probabilities of a uniform N-subset, the limits of Corollary 2, and the main-sum algebra."""

from itertools import combinations

import pytest
import sympy as sp

pytestmark = pytest.mark.symbolic

L, N = sp.symbols("L N", positive=True, integer=True)


def test_probability_that_a_token_is_left_out():
    """C(L − 1, N)/C(L, N) = (L − N)/L: the subsets that avoid i, over all subsets."""
    ratio = sp.binomial(L - 1, N) / sp.binomial(L, N)
    assert sp.simplify(sp.gammasimp(sp.expand_func(ratio)) - (L - N) / L) == 0


def test_probability_that_another_token_is_selected_given_i_is_left_out():
    """C(L − 2, N − 1)/C(L − 1, N) = N/(L − 1)."""
    ratio = sp.binomial(L - 2, N - 1) / sp.binomial(L - 1, N)
    assert sp.simplify(sp.gammasimp(sp.expand_func(ratio)) - N / (L - 1)) == 0


def test_corollary2_coefficient_limits():
    assert sp.limit((L - N) / L, L, sp.oo) == 1
    assert sp.limit(N / (L - 1), L, sp.oo) == 0
    assert sp.limit((L - N) / L, N, L) == 0


def test_neglected_sum_does_not_vanish():
    """(N/(L − 1))·Σ_{j≠i} α_j with α_j = 1/L tends to N/L·… = N·α_i·(L/L): its ratio to α_i tends to N, not 0."""
    ratio = (N / (L - 1)) * ((L - 1) / L) / (1 / L)
    assert sp.limit(ratio, L, sp.oo) == N


def test_main_sum_term_rewrites_with_the_scaled_centre():
    """a_i − (N/(L−1))·Σ_{j≠i} a_j = (1 + N/(L−1))·a_i − x̄,  x̄ = (N/(L−1))·Σ_j a_j (L = 6, symbolic N, a)."""
    a = sp.symbols("a0:6")
    p = N / (len(a) - 1)
    centre = p * sum(a)
    for i in range(len(a)):
        assert sp.simplify(a[i] - p * (sum(a) - a[i]) - ((1 + p) * a[i] - centre)) == 0


def test_without_replacement_variance_formula():
    """E(Y − EY)² over all N-subsets of m = 4 values equals N(m − N)/(m(m − 1))·[Σa² − (Σa)²/m]."""
    a, m = sp.symbols("b0:4"), 4
    for n in (1, 2, 3):
        sums = [sum(c) for c in combinations(a, n)]
        mean = sum(sums) / len(sums)
        variance = sum((s - mean) ** 2 for s in sums) / len(sums)
        formula = sp.Rational(n * (m - n), m * (m - 1)) * (sum(v**2 for v in a) - sum(a) ** 2 / m)
        assert sp.expand(variance - formula) == 0


def test_equal_embeddings_make_the_fixed_sum_bound_an_equality():
    """x_i = x for all i: Σ_{i∉I}‖α_i x − ᾱ x‖ = Σ_{i∉I}(ᾱ − α_i)‖x‖ = [(L − N)ᾱ − (1 − ᾱ)]‖x‖ and d_1 = 0."""
    alphas = sp.symbols("c0:5", nonnegative=True)
    n = 2
    mass = sum(alphas[:n])
    left = sum(mass - alpha for alpha in alphas[n:])  # top-n: each left-out α_i ≤ ᾱ
    right = (len(alphas) - n) * mass - (sum(alphas) - mass)
    assert sp.expand(left - right) == 0


def test_aligned_uniform_case_of_corollary2():
    """Uniform weights, equal unit embeddings: every subset gives d̃ = (L − N)·|N/L − 1/L| = (L − N)(N − 1)/L."""
    d = (L - N) * (N / L - 1 / L)
    assert sp.simplify(d - (L - N) * (N - 1) / L) == 0
    assert sp.limit(d, L, sp.oo) == N - 1
