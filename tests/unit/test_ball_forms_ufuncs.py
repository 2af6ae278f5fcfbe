"""Every numpy ufunc that runs on ball arrays (``ballarray._SOUND`` and ``_NATIVE``), and every method of ``Ball``
numpy's object loops call on a plain object array of balls, against its float64 original and the exact value
(``ball_forms_check``'s contract): generated arrays (``hypothesis.extra.numpy``, broadcast shapes), exact ties,
zeros, signs, subnormals, huge and tiny magnitudes, infinities and nan, and each function's domain edges."""

import numpy as np
import pytest
from ball_forms_check import EDGES, NON_FINITE, arguments, examples
from ball_forms_references import check_elementwise
from hypothesis import given
from hypothesis import strategies as st

from theorems.arithmetic.ball_forms import forms

FORMS = {form.name: form for form in forms() if form.family in ("ufunc", "object loop", "ball method")
         and isinstance(form.original, np.ufunc) and not form.name.startswith("scipy.") and form.name != "np.matmul"}
TESTED = set(FORMS)

DOMAIN_EDGES = {"log": (0.0, 1.0), "log1p": (-1.0, -1 + 2.0 ** -53, -1 - 2.0 ** -52, 1e-20),
                "log2": (0.0, 8.0), "log10": (0.0, 100.0), "sqrt": (0.0, 4.0), "arcsin": (1.0, -1.0, 1 + 2.0 ** -52),
                "arccos": (1.0, -1.0, -1 - 2.0 ** -52), "exp": (709.7, 709.8, -745.2, -708.4), "expm1": (1e-20, -1e-20),
                "power": (0.5, -0.5, 1 / 3, 64.0, 65.0, -65.0, 100.0), "tan": (np.pi, 1e22), "sin": (np.pi, 1e22)}


def _check(name, arrays):
    check_elementwise(FORMS[name], arrays)


@pytest.mark.parametrize("name", sorted(FORMS))
@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(data=st.data())
def test_generated_inputs(name, data):
    ufunc = FORMS[name].original
    _check(name, data.draw(arguments(ufunc.nin, DOMAIN_EDGES.get(ufunc.__name__, ()))))


@pytest.mark.parametrize("name", sorted(FORMS))
def test_edges(name):
    """Every edge (and every pair of a smaller set of edges) at once: deterministic, whatever Hypothesis draws."""
    ufunc = FORMS[name].original
    values = np.array(EDGES + NON_FINITE + DOMAIN_EDGES.get(ufunc.__name__, ()))
    few = np.array((0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -3.0, 5e-324, 1e300, -1e-300, np.inf, -np.inf, np.nan)
                   + DOMAIN_EDGES.get(ufunc.__name__, ()))
    if ufunc.nin == 1:
        _check(name, [values])
    elif ufunc.nin == 2:
        _check(name, [few[:, None], few[None, :]])
    else:  # np.clip's ufunc: x between bounds in either order
        _check(name, [few[:, None, None], few[None, ::2, None], few[None, None, ::3]])
