"""SymPy certifies the constants of the corrected Corollary 3 bounds.

With ``M = diag α − ααᵀ`` (so ``J = M/T``):
- spectral ``1/2``: ``M`` is symmetric, ``‖M‖₂ ≤ max_i Σ_k |M_ik| = max_i 2α_i(1 − α_i) ≤ 1/2``;
- Frobenius ``1/2``: ``‖M‖_F² = s₂ − 2s₃ + s₂² = s₂(1 − s₂) − 2(s₃ − s₂²)`` and
  ``s₁s₃ − s₂² = Σ_{i<j} α_iα_j(α_i − α_j)² ≥ 0``;
- row ``√2/4``: ``‖M_i·‖² = α_i²((1 − α_i)² + Σ_{j≠i} α_j²) ≤ 2α_i²(1 − α_i)²``;
- entry ``1/4``: ``α_i(1 − α_i) ≤ 1/4`` and ``α_iα_k ≤ ((α_i + α_k)/2)² ≤ 1/4``;
- finite difference: the two-point tilt ``max_x σ(x + r) − σ(x) = tanh(r/4)`` and ``L = 2``'s
  ``g = √2(σ(x + √2u) − σ(x))/ε`` reach ``(√2/ε)·tanh(ε/(2√2T))``;
each attained at ``α = (1/2, 1/2)``, i.e. ``L = 2`` with equal logits.
"""

import pytest
import sympy

pytestmark = pytest.mark.symbolic

p = sympy.symbols("p", real=True)


def _max_on_unit_interval(expression):
    critical = [x for x in sympy.solve(sympy.diff(expression, p), p) if x.is_real and 0 <= x <= 1]
    return sympy.Max(*[sympy.simplify(expression.subs(p, x)) for x in critical + [0, 1]])


def _m(alpha):
    n = len(alpha)
    return sympy.Matrix(n, n, lambda i, k: (alpha[i] if i == k else 0) - alpha[i] * alpha[k])


def test_two_point_suprema():
    M = _m([p, 1 - p])
    spectral = max(M.eigenvals(), key=lambda e: e.subs(p, sympy.Rational(1, 3)))
    assert sympy.simplify(spectral - 2 * p * (1 - p)) == 0
    assert _max_on_unit_interval(2 * p * (1 - p)) == sympy.Rational(1, 2)
    frobenius2 = sum(M[i, k] ** 2 for i in range(2) for k in range(2))
    assert _max_on_unit_interval(sympy.expand(frobenius2)) == sympy.Rational(1, 4)
    row2 = M[0, 0] ** 2 + M[0, 1] ** 2
    assert sympy.sqrt(_max_on_unit_interval(sympy.expand(row2))) == sympy.sqrt(2) / 4
    assert _max_on_unit_interval(p * (1 - p)) == sympy.Rational(1, 4)


@pytest.mark.parametrize("length", [3, 4])
def test_gershgorin_row_sums_are_two_alpha_one_minus_alpha(length):
    alpha = sympy.symbols(f"a1:{length + 1}", positive=True)
    M = _m(list(alpha))
    for i in range(length):
        absolute = M[i, i] + sum(alpha[i] * alpha[k] for k in range(length) if k != i)  # diag > 0 when Σα = 1
        total = sympy.expand(absolute.subs(alpha[-1], 1 - sum(alpha[:-1])))
        target = sympy.expand((2 * alpha[i] * (1 - alpha[i])).subs(alpha[-1], 1 - sum(alpha[:-1])))
        assert sympy.simplify(total - target) == 0


@pytest.mark.parametrize("length", [2, 3, 4])
def test_frobenius_identity_and_cauchy_schwarz_gap(length):
    alpha = sympy.symbols(f"a1:{length + 1}", positive=True)
    M = _m(list(alpha))
    s1, s2, s3 = (sum(a**k for a in alpha) for k in (1, 2, 3))
    frobenius2 = sum(M[i, k] ** 2 for i in range(length) for k in range(length))
    assert sympy.expand(frobenius2 - (s2 - 2 * s3 + s2**2)) == 0
    gap = sum(alpha[i] * alpha[j] * (alpha[i] - alpha[j]) ** 2 for i in range(length) for j in range(i + 1, length))
    assert sympy.expand(s1 * s3 - s2**2 - gap) == 0
    s = sympy.symbols("s", real=True)
    assert sympy.maximum(s * (1 - s), s, sympy.Interval(0, 1)) == sympy.Rational(1, 4)


def test_row_norm_bound_is_tight():
    a = sympy.symbols("a", real=True)
    assert sympy.maximum(2 * a**2 * (1 - a) ** 2, a, sympy.Interval(0, 1)) == sympy.Rational(1, 8)


def test_two_point_tilt_and_finite_difference_supremum():
    x = sympy.symbols("x", real=True)
    r, eps, T = sympy.symbols("r epsilon T", positive=True)
    sigma = lambda z: 1 / (1 + sympy.exp(-z))  # noqa: E731
    moved = sigma(x + r) - sigma(x)
    best = sympy.solve(sympy.diff(moved, x), x)
    assert any(sympy.simplify(b + r / 2) == 0 for b in best)
    assert sympy.simplify((moved.subs(x, -r / 2) - sympy.tanh(r / 4)).rewrite(sympy.exp)) == 0
    g = sympy.sqrt(2) * moved.subs(x, -r / 2).subs(r, sympy.sqrt(2) * eps / T) / eps
    target = sympy.sqrt(2) / eps * sympy.tanh(eps / (2 * sympy.sqrt(2) * T))
    assert sympy.simplify((g - target).rewrite(sympy.exp)) == 0
    assert sympy.limit(target, eps, 0) == 1 / (2 * T)  # the derivative regime: 1/(2T)
    assert sympy.limit(target * eps, eps, sympy.oo) == sympy.sqrt(2)  # saturation: ‖Δα‖ → √2


def test_motivating_example_constant():
    u = sympy.symbols("u", positive=True)
    sigma = lambda z: 1 / (1 + sympy.exp(-z))  # noqa: E731
    change = sympy.sqrt(2) * (sigma(2 * u) - sigma(-u))  # L = 2, equal logits, A = (2ε, 0), B = (0, ε), u = ε/T
    assert sympy.limit(change / u, u, 0) == 3 * sympy.sqrt(2) / 4
    assert 3 * sympy.sqrt(2) / 4 > sympy.sqrt(5) / 4  # the paper's constant applied to ‖A − B‖ = √5ε


def test_motivating_change_factored_form_is_the_difference():
    """The factored entries of ``corollary3._motivating_change`` equal ``α(A) − α(B)`` exactly (``L = 4``, top 0,
    runner-up 1): with ``w_j = e^{l_j/T}`` and ``v = e^{ε/T}``, both are rational in ``w`` and ``v``."""
    w = sympy.symbols("w0:4", positive=True)
    v = sympy.symbols("v", positive=True)
    A = [w[0] * v**2, w[1], w[2], w[3]]  # e^{A_j/T}: A = l + 2ε e_0
    B = [w[0], w[1] * v, w[2], w[3]]  # e^{B_j/T}: B = l + ε e_1
    p = [x / sum(A) for x in A]
    q = [x / sum(B) for x in B]
    E = {k: 1 - v**-k for k in (1, 2, 3)}
    behind = 1 - w[1] / w[0]
    factored = [p[0] * (q[1] * E[3] + (q[2] + q[3]) * E[2]), -q[1] * (p[0] * E[3] + (p[2] + p[3]) * E[1]),
                *(-p[0] * q[j] * E[1] * (1 + behind * (1 - E[1])) for j in (2, 3))]
    assert all(sympy.cancel(f - (p[j] - q[j])) == 0 for j, f in enumerate(factored))
    wrong = factored[0].subs(E[3], E[2])  # a factor mistaken: the check has teeth
    assert sympy.cancel(wrong - (p[0] - q[0])) != 0
