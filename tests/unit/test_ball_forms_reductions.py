"""Reductions on ball arrays (``np.sum np.prod np.cumsum np.cumprod np.max np.min np.mean`` and the ufunc methods
behind them) against float64 and the exact value (``ball_forms_check``'s contract), with ``axis`` (one, several,
None, negative), ``keepdims``, ``initial`` and ``where``, on generated arrays holding ties, zeros, signs, huge and
tiny magnitudes, infinities and nan.

The exact value is numpy's own reduction of an object array of mpmath numbers at 4000 bits (any sum or product of
up to 27 doubles is exact there), so ``axis``/``where``/``initial`` mean what numpy says they mean. The float
original's error: ``(n-1)·ε·Σ|x|`` for a sum of ``n`` terms in any order, ``n·ε·|Π x|`` plus ``n`` underflows (each
at most the smallest subnormal, times the factors after it) for a product, none for an extremum."""

import mpmath
import numpy as np
import pytest
from ball_forms_check import EPS, TINY, check_all, evaluate, examples, mp, on_balls, reals
from ball_forms_references import reference
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from theorems.arithmetic.ball_forms import forms
from theorems.arithmetic.precision import balls

FORMS = {form.name: form for form in forms() if form.family == "reduction"}
TESTED = set(FORMS)
EXACT_BITS = 4000
ALIASES = {"np.add.reduce": (np.sum,), "np.add.accumulate": (np.cumsum,), "np.multiply.reduce": (np.prod,),
           "np.multiply.accumulate": (np.cumprod,), "np.maximum.reduce": (np.max, np.amax),
           "np.minimum.reduce": (np.min, np.amin)}
"""The numpy functions users call that are these reductions (``np.sum`` is ``np.add.reduce``)."""


def _combine(name: str, a, b):
    """``a`` and ``b`` combined by the ufunc ``name``, in mpmath at EXACT_BITS (nan where undefined)."""
    with mpmath.workprec(EXACT_BITS):
        if name in ("fmax", "fmin", "maximum", "minimum"):
            value = reference(name)(a, b)
        else:
            value = None if mpmath.isnan(a) or mpmath.isnan(b) else a + b if name == "add" else a * b
            value = None if value is None or mpmath.isnan(value) else value
    return mpmath.nan if value is None else value


def _fold(name: str, values: list, start=None):
    """The reduction of ``values`` (mpmath numbers) from ``start`` (numpy's ``initial``), or ``None`` for none."""
    if start is None and not values:
        return None
    total = start if start is not None else values[0]
    for v in values if start is not None else values[1:]:
        total = _combine(name, total, v)
    return total


@st.composite
def _calls(draw, method: str):
    """An array (up to 3-D) and keyword arguments numpy's ``reduce``/``accumulate`` take."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=3))
    array = draw(hnp.arrays(np.float64, shape, elements=reals((1e154, 1e-160, 1e308))))
    ndim = array.ndim
    if method == "accumulate":
        return array, {"axis": draw(st.integers(-ndim, ndim - 1))}
    axes = st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True).map(tuple)
    kwargs = {"axis": draw(st.one_of(st.none(), st.integers(-ndim, ndim - 1), axes)), "keepdims": draw(st.booleans())}
    if draw(st.booleans()):
        kwargs["initial"] = draw(st.sampled_from([0.0, -1.0, 2.0, -np.inf, 1e300]))
    if draw(st.booleans()):
        kwargs["where"] = draw(hnp.arrays(np.bool_, draw(hnp.broadcastable_shapes(shape, max_dims=ndim))))
    return array, kwargs


def _reference(name, method, array, kwargs):
    """The exact results in the result's order: each output element folds the input elements numpy's ``axis``,
    ``where`` and ``initial`` say it reduces (an index set built here, not numpy's reduction)."""
    ufunc_name = name.split(".")[1]
    lifted = np.array([mp(v) for v in array.ravel()], dtype=object).reshape(array.shape)
    if method == "accumulate":
        moved = np.moveaxis(lifted, kwargs["axis"], -1)
        result = np.empty(moved.shape, dtype=object)
        for at in np.ndindex(moved.shape[:-1]):
            for k in range(moved.shape[-1]):
                result[at + (k,)] = _fold(ufunc_name, list(moved[at][: k + 1]))
        return _undefined_as_none(np.moveaxis(result, -1, kwargs["axis"]).ravel())
    axis = kwargs.get("axis")
    axes = tuple(range(array.ndim)) if axis is None else tuple(a % array.ndim for a in np.atleast_1d(axis))
    where = np.broadcast_to(kwargs.get("where", True), array.shape)
    start = mp(kwargs["initial"]) if "initial" in kwargs else {"add": mpmath.mpf(0), "multiply": mpmath.mpf(1)}.get(
        ufunc_name) if "where" in kwargs else None
    kept = [a for a in range(array.ndim) if a not in axes]
    results = []
    for out in np.ndindex(*[array.shape[a] for a in kept]):
        chosen = [lifted[at] for at in np.ndindex(array.shape) if where[at] and all(at[a] == o for a, o in zip(kept, out))]
        results.append(_fold(ufunc_name, chosen, start))
    return _undefined_as_none(results)


def _undefined_as_none(values) -> list:
    return [None if v is None or mpmath.isnan(v) else v for v in values]


def _errors(name, method, array, kwargs, count):
    """The float original's error for each result: the bound of the module's docstring, from numpy's own
    reduction of |x| (sums) or of max(1, |x|) (products' underflow factor), in float64 (its own rounding is far
    below the slack of the factor n + 1 where n - 1 would do; inf where it overflows or meets an infinite initial)."""
    ufunc_name = name.split(".")[1]
    if ufunc_name not in ("add", "multiply"):
        return [0.0] * count
    n = array.size + 1
    magnitude = np.abs(np.nan_to_num(array, nan=0.0, posinf=0.0, neginf=0.0))
    grow = np.maximum(magnitude, 1.0) if ufunc_name == "multiply" else magnitude
    plain = {k: v for k, v in kwargs.items() if k != "initial"}
    with np.errstate(all="ignore"):
        total = getattr(np.add if ufunc_name == "add" else np.multiply, method)(grow, **plain)
        total = np.ravel(total) * (abs(kwargs.get("initial", 1.0)) if ufunc_name == "multiply" else 1.0) + (
            abs(kwargs.get("initial", 0.0)) if ufunc_name == "add" and np.isfinite(kwargs.get("initial", 0.0)) else 0.0)
    total = np.where(np.isnan(total), np.inf, total)
    if ufunc_name == "add":
        return list(n * EPS * total)
    return list(n * TINY * total)  # the relative n·ε part is added by check_all's caller per element below


def _check(name, array, kwargs):
    form, method = FORMS[name], name.rsplit(".", 1)[1]
    floats = evaluate(lambda a: form.original(a, **kwargs), array)
    exact = [] if isinstance(floats, BaseException) else _reference(name, method, array, kwargs)
    count = len(exact) if exact else 1
    errors = _errors(name, method, array, kwargs, count) if exact else [0.0]
    if exact and name.startswith("np.multiply"):
        errors = [e + array.size * EPS * (abs(float(r)) if r is not None and mpmath.isfinite(r) else 0.0)
                  for e, r in zip(errors, exact)]
    if isinstance(floats, BaseException):
        exact = [None]
    for call in (form.on_balls, *ALIASES.get(name, ())):
        ball_values = on_balls(lambda a: call(a, **kwargs), balls(array))
        check_all(floats, ball_values, exact, what=f"{name} via {getattr(call, '__name__', call)}({array.tolist()}, "
                                                   f"{kwargs})", errors=errors)


@pytest.mark.parametrize("name", sorted(FORMS))
@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(data=st.data())
def test_generated(name, data):
    _check(name, *data.draw(_calls(name.rsplit(".", 1)[1])))


@pytest.mark.parametrize("axis", [0, 1, (0, 1), None])
def test_where_follows_the_axis(axis):
    """A mask that is not symmetric under the reduction's move of axes (the ball path reshapes the array)."""
    array = np.array([[1.0, 5.0, -2.0], [7.0, 2.0, 0.5]])
    where = np.array([[True, True, False], [False, True, True]])
    for name in ("np.maximum.reduce", "np.minimum.reduce", "np.add.reduce", "np.multiply.reduce"):
        _check(name, array, {"axis": axis, "initial": -10.0, "where": where})
        if name in ("np.add.reduce", "np.multiply.reduce"):
            _check(name, array, {"axis": axis, "where": where})


@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(data=st.data())
def test_mean(data):
    """``np.mean`` (a sum, then a division by the count numpy takes, ``where`` included)."""
    array, kwargs = data.draw(_calls("reduce"))
    kwargs.pop("initial", None)
    floats = evaluate(lambda a: np.mean(a, **kwargs), array)
    if isinstance(floats, BaseException):
        exact, errors = [None], None
    else:
        sums = _reference("np.add.reduce", "reduce", array, kwargs)
        counts = np.ravel(np.sum(np.broadcast_to(kwargs.get("where", True), array.shape), axis=kwargs.get("axis"),
                                 keepdims=kwargs.get("keepdims", False)))
        with mpmath.workprec(EXACT_BITS):
            exact = [None if s is None or c == 0 else s / int(c) for s, c in zip(sums, counts)]
        errors = [e / max(int(c), 1) for e, c in zip(_errors("np.add.reduce", "reduce", array, kwargs, len(sums)), counts)]
    check_all(floats, on_balls(lambda a: np.mean(a, **kwargs), balls(array)), exact,
              what=f"np.mean({array.tolist()}, {kwargs})", errors=errors)
