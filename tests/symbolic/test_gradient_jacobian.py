"""SymPy's Jacobian of ``α_i = F(l_i)/Σ_j F(l_j)`` equals Lemma 2's closed form, and the numeric
closed form agrees with it at a point (the third of the three independent computations)."""

import numpy as np
import pytest
import sympy

from theorems.maths import normalisers as nz
from theorems.maths.gradient import normaliser_jacobian, sympy_jacobian

pytestmark = pytest.mark.symbolic

T, c = sympy.symbols("T c", positive=True)
FORMS = {
    "softmax": lambda l: sympy.exp(l / T),
    "exp-sine": lambda l: sympy.exp(c * sympy.sin(l)),
    "square+1": lambda l: l**2 + 1,
}


@pytest.mark.parametrize("length", [2, 3])
@pytest.mark.parametrize("form", FORMS)
def test_sympy_jacobian_equals_lemma2_closed_form(form, length):
    F = FORMS[form]
    symbols, J = sympy_jacobian(F, length)
    values = [F(s) for s in symbols]
    slopes = [sympy.diff(v, s) for v, s in zip(values, symbols)]
    S = sum(values)
    for i in range(length):
        for k in range(length):
            closed = (slopes[i] / S if i == k else 0) - values[i] * slopes[k] / S**2
            assert sympy.simplify(J[i, k] - closed) == 0


def test_numeric_closed_form_matches_sympy_at_a_point():
    symbols, J = sympy_jacobian(FORMS["exp-sine"], 3)
    point = {symbols[0]: 0.3, symbols[1]: -1.1, symbols[2]: 2.0, c: 1.5}
    exact = np.array(J.subs(point).evalf(30).tolist(), dtype=float)
    closed = normaliser_jacobian(nz.exp_sine(c=1.5), np.array([0.3, -1.1, 2.0]))
    assert np.allclose(exact, closed, rtol=1e-12, atol=1e-15)
