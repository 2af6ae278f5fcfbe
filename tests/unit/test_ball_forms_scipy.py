"""scipy.special on balls against scipy itself and the exact value (``ball_forms_check``'s contract): its ufuncs
(``expit log_expit logit xlogy entr rel_entr``) on generated arrays and every pair of domain edges (zeros of
either argument, negatives, 0 and 1 for ``logit``, infinities, nan), and its Python functions (``softmax``,
``log_softmax``, ``logsumexp`` with ``axis``, ``keepdims`` and ``b``) on generated arrays with ties and
``-inf`` entries."""

import mpmath
import numpy as np
import pytest
import scipy.special
from ball_forms_check import BITS, EPS, NON_FINITE, arguments, check_all, evaluate, examples, mp, on_balls, reals
from ball_forms_references import check_elementwise
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from theorems.arithmetic.ball_forms import forms
from theorems.arithmetic.precision import balls

UFUNCS = {form.name: form for form in forms() if form.family == "ufunc" and form.name.startswith("scipy.special.")}
FUNCTIONS = {form.name: form for form in forms() if form.family == "scipy"}
TESTED = set(UFUNCS) | set(FUNCTIONS)

EDGES = (0.0, -0.0, 1.0, -1.0, 0.5, 0.2, 0.8, 2.0, 5e-324, 1e-300, 1e300, -1e-300, 1 - 2.0 ** -53, 2.0 ** -53,
         0.3, 0.65, 40.0, -40.0, 750.0, -750.0) + NON_FINITE


@pytest.mark.parametrize("name", sorted(UFUNCS))
@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(data=st.data())
def test_ufuncs_on_generated_inputs(name, data):
    form = UFUNCS[name]
    check_elementwise(form, data.draw(arguments(form.original.nin, EDGES)))


@pytest.mark.parametrize("name", sorted(UFUNCS))
def test_ufuncs_on_edges(name):
    form, edges = UFUNCS[name], np.array(EDGES)
    check_elementwise(form, [edges] if form.original.nin == 1 else [edges[:, None], edges[None, :]])


def test_the_reported_kl_divergence():
    """The issue's instance: ``rel_entr(p, u).sum()`` is KL(p‖u) > 0 (the ball form had x·log(y/x): -0.1927)."""
    p, u = np.array([0.2, 0.8]), np.array([0.5, 0.5])
    exact = sum(mp(a) * mpmath.log(mp(a) / mp(b)) for a, b in zip(p, u))
    kl = on_balls(lambda x, y: scipy.special.rel_entr(x, y).sum(), balls(p), balls(u))
    assert kl.arb.contains(kl.arb.mid()) and kl.lower <= float(exact) <= kl.upper and kl.lower > 0.19


def _exact(name, values, b=None):
    """The exact results along one slice (a list) and the float original's error bound for each: scipy shifts by
    the maximum ``m`` and sums ``b·exp(x - m)``, so its error is a few ε of ``|m|`` plus a few ε per term times
    the sum's condition number ``Σ|b·e^(x-m)| / |Σ b·e^(x-m)|`` (in the logarithm)."""
    count = 1 if name == "scipy.special.logsumexp" else len(values)
    with mpmath.workprec(BITS):
        x = [mp(v) for v in values]
        w = [mpmath.mpf(1)] * len(x) if b is None else [mp(v) for v in b]
        if any(mpmath.isnan(v) for v in x + w):
            return [None] * count, [0.0] * count
        counted = [v for v, c in zip(x, w) if c != 0]  # a zero weight's entry adds nothing, however large
        top = max(counted, default=-mpmath.inf)
        if top == -mpmath.inf:  # every term is 0: the sum is 0, its logarithm -inf; softmax is 0/0
            return ([-mpmath.inf] if count == 1 and name == "scipy.special.logsumexp" else [None] * count), [0.0] * count
        if not mpmath.isfinite(top):
            return [None] * count, [0.0] * count  # inf - inf
        terms = [c * mpmath.exp(v - top) for v, c in zip(x, w)]
        total = mpmath.fsum(terms)
        condition = mpmath.fsum(abs(t) for t in terms) / abs(total) if total != 0 else mpmath.inf
        error = 8 * EPS * (abs(float(top)) + len(x) * float(condition))
        lse = None if total < 0 else top + (mpmath.log(total) if total > 0 else -mpmath.inf)
        if name == "scipy.special.logsumexp":
            return [lse], [error]
        if lse is None or total == 0:
            return [None] * count, [error] * count
        # relative to the shifted values (v - top is exact): v - lse itself would lose the digits of a large top
        results = [mpmath.exp(v - top) / total if name == "scipy.special.softmax" else (v - top) - mpmath.log(total)
                   for v in x]
        return results, [error] * len(x)


@st.composite
def _calls(draw):
    """An array (``hypothesis.extra.numpy``), an axis (or None), keepdims, weights; ties and -inf entries often."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=2, max_side=3))
    elements = st.one_of(st.floats(-30, 30), st.sampled_from([0.0, 1.0, -1.0, 1e-300, -np.inf, 700.0, -700.0]),
                         reals(finite=True))
    array = draw(hnp.arrays(np.float64, shape, elements=elements))
    axis = draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1)))
    weights = draw(st.one_of(st.none(), hnp.arrays(np.float64, shape, elements=st.sampled_from([0.0, 1.0, 0.5, 2.0, -1.0]))))
    return array, axis, draw(st.booleans()), weights


def _slices(array, axis) -> tuple[np.ndarray, list]:
    """``array`` with the reduced axis last (flattened when ``axis`` is None), and the index of every slice."""
    moved = array.reshape(1, -1) if axis is None else np.moveaxis(array, axis, -1)
    return moved, list(np.ndindex(moved.shape[:-1]))


def _check_function(name, array, axis, keepdims, weights):
    form = FUNCTIONS[name]
    kwargs = {"axis": axis}
    if name == "scipy.special.logsumexp":
        kwargs.update(keepdims=keepdims, b=weights)
    floats = evaluate(lambda a: form.original(a, **kwargs), array)
    ball_values = on_balls(lambda a: form.on_balls(a, **kwargs), balls(array))
    moved, where = _slices(array, axis)
    moved_weights = None if weights is None or "b" not in kwargs else _slices(weights, axis)[0]
    found = [_exact(name, moved[at], None if moved_weights is None else moved_weights[at]) for at in where]
    if name == "scipy.special.logsumexp":  # one value per slice, in the result's order
        exact, errors = [r for rs, _ in found for r in rs], [e for _, es in found for e in es]
    else:  # one value per element: put each slice back where it came from
        exact, errors = np.empty(moved.shape, dtype=object), np.empty(moved.shape)
        for at, (rs, es) in zip(where, found):
            exact[at], errors[at] = rs, es
        restore = (lambda m: m.reshape(array.shape)) if axis is None else (lambda m: np.moveaxis(m, -1, axis))
        exact, errors = list(restore(exact).ravel()), list(restore(errors).ravel())
    check_all(floats, ball_values, exact, what=f"{name}({array.tolist()}, {kwargs})", errors=errors)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(call=_calls())
def test_functions_on_generated_arrays(name, call):
    _check_function(name, *call)
