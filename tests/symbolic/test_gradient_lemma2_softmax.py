"""Lemma 2 specialised to softmax (``F = e^{l/T}``, ``F' = F/T``) does not give Corollary 3.

The specialised bound is ``(S/(L·min F))·(max α + ‖α‖²)/T``: at ``L = 2`` it is ``1/T`` for equal
logits (four times the paper's ``1/(4T)``, twice the true supremum ``1/(2T)``) and grows like
``e^{x/T}/T`` with the logit gap ``x`` while the true norm ``2α₁α₂/T`` vanishes. A logit-free
constant such as ``1/(4T)`` cannot follow from a bound that is unbounded over the logits.
"""

import pytest
import sympy

pytestmark = pytest.mark.symbolic

x = sympy.symbols("x", nonnegative=True)
T = sympy.symbols("T", positive=True)


def _two_point():
    F = [sympy.Integer(1), sympy.exp(x / T)]  # logits (0, x): min F = 1, max F = e^{x/T}
    S = sum(F)
    alpha = [f / S for f in F]
    slopes = [f / T for f in F]
    norm = lambda v: sympy.sqrt(sum(e**2 for e in v))  # noqa: E731
    lemma = (slopes[1] + norm(alpha) * norm(slopes)) / (2 * F[0])
    true = 2 * alpha[0] * alpha[1] / T  # λ_max of (diag α − ααᵀ)/T at L = 2
    return lemma, true


def test_specialised_bound_at_equal_logits_is_one_over_T():
    lemma, true = _two_point()
    assert sympy.simplify(lemma.subs(x, 0)) == 1 / T
    assert sympy.simplify(true.subs(x, 0)) == 1 / (2 * T)


def test_specialised_bound_is_unbounded_while_the_norm_vanishes():
    lemma, true = _two_point()
    assert sympy.limit(lemma, x, sympy.oo) == sympy.oo
    assert sympy.limit(true, x, sympy.oo) == 0


def test_specialised_bound_equals_S_over_L_min_F_times_max_alpha_plus_alpha_squared():
    lemma, _ = _two_point()
    S = 1 + sympy.exp(x / T)
    alpha = [1 / S, sympy.exp(x / T) / S]
    closed = S / 2 * (alpha[1] + alpha[0] ** 2 + alpha[1] ** 2) / T
    assert sympy.simplify(lemma - closed) == 0
