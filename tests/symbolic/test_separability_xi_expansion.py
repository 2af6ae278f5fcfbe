"""The expansion behind ξ_i²: ‖Σ_{j≠i} α_j x_j‖² with x_jᵀx_k = M² − ‖x_j − x_k‖²/2 on the sphere."""

import itertools

import sympy as sp

M, delta = sp.symbols("M delta", positive=True)
alphas = sp.symbols("a1:4", nonnegative=True)                  # the other selected weights, j ∈ I_N ∖ {i}
pairs = list(itertools.combinations(range(3), 2))
gaps = {p: sp.Symbol(f"d{p[0]}{p[1]}", positive=True) for p in pairs}  # ‖x_j − x_k‖


def squared_norm():
    """Σ_j α_j² M² + Σ_{j≠k} α_j α_k (M² − d_jk²/2)."""
    diagonal = sum(a ** 2 for a in alphas) * M ** 2
    cross = sum(2 * alphas[j] * alphas[k] * (M ** 2 - gaps[(j, k)] ** 2 / 2) for j, k in pairs)
    return diagonal + cross


def xi_squared():
    cross_sum = sum(alphas[j] * alphas[k] for j, k in itertools.permutations(range(3), 2))
    return M ** 2 * sum(a ** 2 for a in alphas) + (M ** 2 - delta ** 2 / 2) * cross_sum


def test_xi_squared_minus_the_norm_is_a_sum_of_nonnegative_terms():
    """ξ_i² − ‖·‖² = Σ_{j<k} α_j α_k (d_jk² − δ²) ≥ 0 whenever every d_jk ≥ δ (Assumption 2)."""
    difference = sp.expand(xi_squared() - squared_norm())
    assert sp.simplify(difference - sum(alphas[j] * alphas[k] * (gaps[(j, k)] ** 2 - delta ** 2) for j, k in pairs)) == 0


def test_the_cross_sum_is_a_square_minus_squares():
    """Σ_{j≠k} α_j α_k = (Σα_j)² − Σα_j², the closed form the vectorised code uses."""
    cross_sum = sum(alphas[j] * alphas[k] for j, k in itertools.permutations(range(3), 2))
    assert sp.expand(cross_sum - (sum(alphas) ** 2 - sum(a ** 2 for a in alphas))) == 0


def test_xi_is_at_most_m_times_the_other_mass():
    """ξ_i² = (δ²/2)Σα_j² + (M² − δ²/2)(Σα_j)² ≤ M²(Σα_j)² because Σα_j² ≤ (Σα_j)²."""
    rewritten = delta ** 2 / 2 * sum(a ** 2 for a in alphas) + (M ** 2 - delta ** 2 / 2) * sum(alphas) ** 2
    assert sp.expand(xi_squared() - rewritten) == 0
    slack = sp.expand(M ** 2 * sum(alphas) ** 2 - rewritten)
    assert sp.simplify(slack - delta ** 2 / 2 * (sum(alphas) ** 2 - sum(a ** 2 for a in alphas))) == 0


def test_under_assumption_1_alone_the_second_moment_is_the_diagonal():
    """E[x_jᵀx_k] = 0 for independent uniform points: E‖·‖² = M²Σα_j², i.e. ξ² at δ² = 2M²."""
    assert sp.simplify(xi_squared().subs(delta, sp.sqrt(2) * M) - M ** 2 * sum(a ** 2 for a in alphas)) == 0
