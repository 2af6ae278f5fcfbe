"""The ball backend ``ARB`` (what a side written against ``xp`` runs when certified) against ``F64`` and the exact
value (``ball_forms_check``'s contract), operation by operation: the elementwise ones on generated arrays with
domain edges, ``max`` and ``norm`` with ``axis``, ``spectral_norm`` on matrices with repeated singular values
(where its ``‖Jv‖/‖v‖ … min(‖J‖_F, √(‖J‖₁‖J‖∞))`` hull is all it claims), ``number`` on decimals."""

import mpmath
import numpy as np
import pytest
from ball_forms_check import BITS, EPS, TINY, check_all, evaluate, examples, mp, on_balls, reals
from ball_forms_references import reference
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from theorems.arithmetic.ball_forms import forms
from theorems.arithmetic.precision import ARB, balls

FORMS = {form.name: form for form in forms() if form.family == "backend"}
TESTED = set(FORMS)
ELEMENTWISE = {"ARB.exp": "exp", "ARB.log": "log", "ARB.sqrt": "sqrt", "ARB.tanh": "tanh", "ARB.expm1": "expm1",
               "ARB.sin": "sin", "ARB.cos": "cos", "ARB.abs": "absolute"}


@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(x=hnp.arrays(np.float64, st.integers(1, 4), elements=reals((0.0, 1.0, -1.0, 710.0, -745.2, 1e22))))
def test_elementwise(name, x):
    form = FORMS[name]
    exact = [reference(ELEMENTWISE[name])(mp(v)) for v in x]
    check_all(evaluate(form.original, x), on_balls(form.on_balls, balls(x)), exact, what=name,
              inputs=[(v,) for v in x])


@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(x=hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, max_side=3), elements=reals()),
       data=st.data())
def test_max(x, data):
    """``xp.max(values, axis)``: every element, ties and nan included (numpy's max is nan where one is)."""
    axis = data.draw(st.one_of(st.none(), st.integers(0, x.ndim - 1)))
    form = FORMS["ARB.max"]
    moved = x.reshape(1, -1) if axis is None else np.moveaxis(x, axis, -1)
    exact = [None if np.any(np.isnan(moved[at])) else mp(np.max(moved[at])) for at in np.ndindex(moved.shape[:-1])]
    check_all(evaluate(lambda a: form.original(a, axis=axis), x), on_balls(lambda a: form.on_balls(a, axis=axis),
                                                                         balls(x)), exact, what=f"ARB.max({x.tolist()}, axis={axis})")


@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(x=hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=2, max_side=3), elements=reals(finite=True)),
       data=st.data())
def test_norm(x, data):
    """``xp.norm(vector, axis)``: ``√Σx²`` along the axis; float64's error (n+2)·ε·‖x‖ plus the squares'
    underflow √(n·TINY) (and inf where the squares overflow: the ball holds the exact value)."""
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    form = FORMS["ARB.norm"]
    moved = np.moveaxis(x, axis, -1)
    with mpmath.workprec(BITS):
        exact = [mpmath.sqrt(mpmath.fsum(mp(v) ** 2 for v in moved[at])) for at in np.ndindex(moved.shape[:-1])]
    n = moved.shape[-1]
    errors = [(n + 2) * EPS * float(r) + 2 * np.sqrt(n * TINY) for r in exact]
    check_all(evaluate(lambda a: form.original(a, axis=axis), x), on_balls(lambda a: form.on_balls(a, axis=axis),
                                                                         balls(x)), exact, what=f"ARB.norm({x.tolist()}, axis={axis})", errors=errors)


STRUCTURED = [np.eye(3), 2.5 * np.eye(2), np.ones((2, 3)), np.array([[1.0, 0.0], [0.0, -1.0]]), np.zeros((2, 2)),
              np.array([[3.0, 4.0]]), np.array([[0.0, 1.0], [1.0, 0.0]]), np.array([[1e-300, 0.0], [0.0, 1e-300]])]


@pytest.mark.parametrize("matrix", STRUCTURED, ids=lambda m: str(m.tolist()))
def test_spectral_norm_on_repeated_singular_values(matrix):
    _check_spectral(matrix)


@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(matrix=hnp.arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(1, 3)),
                         elements=st.one_of(st.floats(-10, 10), st.sampled_from([0.0, 1.0, -1.0]))))
def test_spectral_norm(matrix):
    _check_spectral(matrix)


def _check_spectral(matrix):
    form = FORMS["ARB.spectral_norm"]
    with mpmath.workprec(BITS):
        singular = mpmath.svd_r(mpmath.matrix([[mp(v) for v in row] for row in matrix]), compute_uv=False)
        exact = max(singular[i] for i in range(len(singular)))
    error = 16 * max(matrix.shape) * EPS * float(np.linalg.norm(matrix))  # LAPACK's SVD is backward stable
    check_all(evaluate(form.original, matrix), on_balls(form.on_balls, balls(matrix)), [exact],
              what=f"ARB.spectral_norm({matrix.tolist()})", errors=[error], scale=float(np.linalg.norm(matrix)))


@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(x=reals((0.1, 0.2, 1 / 3, 2.0 ** 0.5, 1e-310)))
def test_number(x):
    """``xp.number(0.1)`` is a constant: a ball that holds the double (and the decimal it was written as)."""
    form = FORMS["ARB.number"]
    check_all(evaluate(form.original, x), on_balls(form.on_balls, x), [None if np.isnan(x) else mp(x)],
              what=f"ARB.number({x!r})")


def test_pi_is_a_ball_of_pi():
    """``xp.pi`` (a property, not an operation: not in the registry) holds π at the working precision."""
    with mpmath.workprec(BITS):
        exact = +mpmath.pi
    check_all(np.pi, on_balls(lambda: ARB.pi), [exact], what="ARB.pi")
