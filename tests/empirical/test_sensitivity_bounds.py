"""Algorithm 5's checks read each Corollary 3 statement's right side from the closed form the statement calls."""

import numpy as np
import pytest

from empirical.corollary3 import sensitivity_checks, statement_bounds
from theorems import STATEMENTS
from theorems.arithmetic.precision import F64
from theorems.maths import corollary3_bounds as forms

pytestmark = pytest.mark.empirical

T_GRID = (0.01, 0.1, 1 / (4 * np.sqrt(2)), 1.0, 10.0)  # both sides of the paper's √2 cap
E_GRID = (1e-3, 0.1, 10.0)


@pytest.mark.parametrize("check", sensitivity_checks(), ids=lambda check: check.statement)
def test_the_bound_on_the_grid_is_the_statements_rhs_at_every_point(check):
    got = statement_bounds(check, T_GRID, E_GRID)
    rhs = STATEMENTS[check.statement].rhs
    instance = {"logits": np.array([0.3, -1.0, 2.0]), "v": np.array([1.0, -1.0, 0.0])}
    for a, t in enumerate(T_GRID):
        for b, e in enumerate(E_GRID if "epsilon" in check.extra else E_GRID[:1]):
            expected = float(rhs(instance | {"T": t, "eps": e}, F64))
            assert (got[a, b] if "epsilon" in check.extra else got[a]) == expected, (check.statement, t, e)


def test_the_closed_forms_have_the_papers_and_the_proven_values():
    assert forms.paper_bound(1.0) == 0.25 and forms.paper_bound(0.01) == np.sqrt(2)  # the √2 cap
    assert forms.half_over_t(0.25) == 2.0 and forms.quarter_over_t(0.25) == 1.0
    assert forms.root2_over_4t(1.0) == pytest.approx(np.sqrt(2) / 4, rel=1e-15)
    assert forms.finite_difference_bound(1.0, 1e-8) == pytest.approx(0.5, rel=1e-12)  # 1/(2T) as ε -> 0
    assert forms.finite_difference_bound(1.0, 100.0) == pytest.approx(np.sqrt(2) / 100, rel=1e-9)  # √2/ε
    from theorems.maths.gradient_sensitivity import sup_finite_difference

    # Not bitwise: numpy may run tanh's vectorised loop on the array and its scalar loop on each float (1 ulp
    # apart at most); the four roundings around it add 4 ulp more.
    np.testing.assert_allclose(sup_finite_difference(np.array([0.5, 2.0]), 0.1),
                               [forms.finite_difference_bound(0.5, 0.1), forms.finite_difference_bound(2.0, 0.1)],
                               rtol=8 * np.finfo(float).eps, atol=0)


def test_the_right_sides_in_high_precision_are_the_same_closed_forms():
    from theorems.arithmetic.precision import MP

    for statement_id, form in (("corollary3.row.corrected", forms.root2_over_4t),
                               ("corollary3.spectral", forms.paper_bound)):
        instance = {"logits": np.array([0.0, 1.0]), "T": 0.3}
        with MP.precision():
            assert STATEMENTS[statement_id].rhs(instance, MP) == form(0.3, xp=MP)
