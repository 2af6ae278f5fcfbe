"""``JET``: the checker's backend ``xp`` (the :class:`~theorems.arithmetic.backend.Backend` protocol) over
:class:`~theorems.checker.jet.Jet` values, and :class:`JetArray`, the instance arrays whose ``np.maximum``,
``np.minimum`` (so ``np.max``) are the sound jet ``max``.

A side written once against ``xp`` runs here unchanged: numpy's ``+ - * / **``, ``sum``, ``cumsum``, ``outer``,
``diag``, ``where``, ``concatenate`` and the ufuncs ``exp log sqrt tanh expm1 sin cos abs`` work on jet arrays;
``np.linalg`` and ``scipy.special`` do not (the box is then rejected, naming the function).

>>> from fractions import Fraction
>>> from theorems.checker.jet import Box, on_box
>>> with on_box(Box([Fraction(0)] * 2, [Fraction(1)] * 2)) as (x, y):
...     n = JET.norm(np.array([x + 3, y + 4], dtype=object))
>>> 5 <= n.lo and n.hi < 6.41          # exact: [5, √(4² + 5²)] = [5, 6.403...]
True
"""

from __future__ import annotations

import contextlib
from types import SimpleNamespace

import flint
import numpy as np

from theorems.checker.jet import (BITS, Jet, NotHomogeneous, hull_zero, make_jet, jet, maximum, maximum_of, minimum,
                                  still)
from theorems.errors import InvalidArgument, NoBallForm


class JetArray(np.ndarray):
    """An object array of jets whose ``np.maximum``/``np.minimum`` reductions are sound (undecided ties give the
    hull, where numpy's own ``max`` would compare and raise)."""

    def __getitem__(self, key):
        # one element is a new object, as float64's ``l[0]`` is a new scalar: ``l[0] is l[0]`` reads False here too
        item = super().__getitem__(key)
        return item.fresh() if isinstance(item, Jet) else item

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        ufunc = _SOUND.get(ufunc, ufunc)
        inputs = tuple(x.view(np.ndarray) if isinstance(x, JetArray) else x for x in inputs)
        if "out" in kwargs:
            kwargs["out"] = tuple(x.view(np.ndarray) if isinstance(x, JetArray) else x for x in kwargs["out"])
        if method == "reduce" and ufunc in _SOUND.values():
            axis, keepdims = kwargs.get("axis", 0), kwargs.get("keepdims", False)
            array = np.asarray(inputs[0], dtype=object)
            if kwargs.get("where", True) is not True or kwargs.get("out") not in (None, (None,)):
                raise NoBallForm("np.max/np.min with where= or out= on the checker's jets")
            extra = [kwargs["initial"]] if "initial" in kwargs else []  # numpy's initial: one more element
            result = _reduce(array, axis, maximum_of if ufunc is _SOUND[np.maximum] else _minimum_of, extra)
            if keepdims:
                result = np.asarray(result, dtype=object)
                result = result.reshape((1,) * array.ndim) if axis is None else np.expand_dims(result, axis)
            return as_jet_array(result)
        return as_jet_array(getattr(ufunc, method)(*inputs, **kwargs))


_SOUND = {np.maximum: np.frompyfunc(maximum, 2, 1), np.minimum: np.frompyfunc(minimum, 2, 1)}
_SOUND[np.fmax], _SOUND[np.fmin] = _SOUND[np.maximum], _SOUND[np.minimum]


def as_jet_array(value):
    """Object arrays (also inside tuples) as :class:`JetArray`; anything else unchanged."""
    if isinstance(value, tuple):
        return tuple(as_jet_array(v) for v in value)
    if isinstance(value, np.ndarray) and value.dtype == object and value.ndim and not isinstance(value, JetArray):
        return value.view(JetArray)
    return value


def _elementwise(name: str):
    ufunc = np.frompyfunc(lambda x: getattr(jet(x), name)(), 1, 1)

    def apply(x):
        result = ufunc(np.asarray(x, dtype=object) if isinstance(x, np.ndarray) else x)
        return as_jet_array(result)
    apply.__name__ = name
    return apply


def jet_max(values, axis=None):
    """``max`` over all values or along ``axis``, sound where undecided."""
    return as_jet_array(_reduce(np.asarray(values, dtype=object), axis, maximum_of))


def _reduce(array, axis, reduce, extra=()):
    """``reduce`` (a function of a list) over all entries, or along ``axis``, each list with ``extra`` added."""
    if axis is None:
        return reduce(list(array.ravel()) + list(extra))
    moved = np.moveaxis(array, axis, -1)
    rows = [reduce(list(row) + list(extra)) for row in moved.reshape(-1, moved.shape[-1])]
    return np.array(rows, dtype=object).reshape(moved.shape[:-1])


def _minimum_of(values):
    return -maximum_of([-jet(v) for v in values])


def norm(vector, axis=-1):
    """``‖x‖₂`` along ``axis``. Where ``‖x‖ > 0`` on the box it is ``√(Σ x_i²)`` (smooth); where the box may reach
    ``x = 0`` (a kink), the 1-Lipschitz bound: ``|∂_k ‖x‖| = |Σ w_i ∂_k x_i| ≤ √(Σ_i (∂_k x_i)²)`` for the unit
    vector ``w``, so each ``∂_k`` gets ``[−b_k, b_k]`` and no second derivative."""
    vector = np.asarray(vector, dtype=object)
    if vector.ndim <= 1:
        return _norm(list(vector.ravel()))
    moved = np.moveaxis(vector, axis, -1)
    rows = [_norm(list(row)) for row in moved.reshape(-1, moved.shape[-1])]
    return as_jet_array(np.array(rows, dtype=object).reshape(moved.shape[:-1]))


def _norm(entries) -> Jet:
    entries = [jet(x) for x in entries]
    if len(entries) == 1:
        return abs(entries[0])
    squares = sum((x * x for x in entries[1:]), entries[0] * entries[0])
    if squares.lo > 0:
        return squares.sqrt()
    degree = squares.deg if squares.deg is None else squares.deg / 2
    value = (flint.arb(0), squares.hi.sqrt().upper())
    centre = squares.c.nonnegative_part().sqrt()
    bound = [_root_sum_squares([x.g[k] for x in entries]) for k in range(len(entries[0].g))]
    bound_c = [_root_sum_squares([x.d[k] for x in entries]) for k in range(len(entries[0].d))]
    shift = [still(x, "a norm") for x in entries][0]
    return make_jet(centre, bound_c, value, tuple(bound), None, degree, shift)


def _root_sum_squares(values):
    """``[−b, b]`` with ``b ≥ √(Σ v²)`` for every choice in the balls ``values``."""
    total = flint.arb(0)
    for v in values:
        top = v.abs_upper()
        total += top * top
    return hull_zero(total.sqrt())


def spectral_norm(matrix) -> Jet:
    """``‖A‖₂`` of a matrix of jets. Its value on the box (and at the point ``C``) encloses ``σ₁`` of every matrix
    in the balls by Weyl's inequality around a float matrix ``M``: ``|σ₁(A) − σ₁(M)| ≤ ‖A − M‖_F``, with
    ``σ₁(M)`` bounded below by ``‖Mv‖/‖v‖`` (``v`` float64's top singular vector) and above by a ``t`` for which
    ``t²I − MᵀM`` has positive leading minors in arb (positive definite). Its gradient: ``‖·‖₂`` is 1-Lipschitz,
    so ``|∂_k ‖A‖₂| ≤ ‖∂_k A‖₂ ≤ ‖∂_k A‖_F``; no second derivative."""
    entries = [[jet(x) for x in row] for row in np.asarray(matrix, dtype=object)]
    if not entries or not entries[0]:
        raise InvalidArgument(f"spectral_norm needs a non-empty matrix, got {np.shape(matrix)}")
    degrees = {x.deg for row in entries for x in row if not x.v.is_zero()} or {entries[0][0].deg}  # 0: any degree
    if len(degrees) > 1:
        raise NotHomogeneous(f"a spectral norm of entries of degrees {sorted(degrees)}")
    value = _sigma_one([[x.v for x in row] for row in entries])
    centre = _sigma_one([[x.c for x in row] for row in entries])
    n = len(entries[0][0].g)
    flat = [x for row in entries for x in row]
    bound = tuple(_root_sum_squares([x.g[k] for x in flat]) for k in range(n))
    bound_c = tuple(_root_sum_squares([x.d[k] for x in flat]) for k in range(n))
    shift = [still(x, "a spectral norm") for x in flat][0]
    return make_jet(centre, bound_c, (value.lower(), value.upper()), bound, None, degrees.pop(), shift)


def _sigma_one(balls):
    """An arb ball holding the largest singular value of every matrix in ``balls``."""
    mid = np.array([[float(x.mid()) for x in row] for row in balls])
    if not np.all(np.isfinite(mid)) or not all(x.is_finite() for row in balls for x in row):
        return flint.arb(0).union(flint.arb("inf"))
    spread = flint.arb(0)
    for row, mrow in zip(balls, mid):
        for x, m in zip(row, mrow):
            top = (x - flint.arb(float(m))).abs_upper()
            spread += top * top
    spread = spread.sqrt().upper()
    _, singular, vt = np.linalg.svd(mid)
    M = flint.arb_mat(mid.tolist())
    v = flint.arb_mat([[float(x)] for x in vt[0]])
    image = M * v
    low = _vector_norm(image) / _vector_norm(v)
    top = float(singular[0]) * (1 + 2.0 ** -40) + 2.0 ** -80
    gram = M.transpose() * M
    for _ in range(60):
        if _positive_definite(flint.arb(top) ** 2, gram):
            break
        top = 2 * top + 2.0 ** -80
    else:
        return flint.arb(0).union(flint.arb("inf"))
    return (low - spread).nonnegative_part().union(flint.arb(top) + spread)


def _vector_norm(column):
    total = flint.arb(0)
    for i in range(column.nrows()):
        total += column[i, 0] * column[i, 0]
    return total.sqrt()


def _positive_definite(t2, gram) -> bool:
    """Whether ``t²I − gram`` (symmetric) is certainly positive definite: every leading minor ``> 0`` (Sylvester)."""
    n = gram.nrows()
    shifted = [[(t2 if i == j else 0) - gram[i, j] for j in range(n)] for i in range(n)]
    return all(flint.arb_mat([row[:k] for row in shifted[:k]]).det() > 0 for k in range(1, n + 1))


class _JetSpace(SimpleNamespace):
    @property
    def pi(self) -> Jet:
        return jet(flint.arb.pi())


JET = _JetSpace(
    name="jet", exp=_elementwise("exp"), log=_elementwise("log"), sqrt=_elementwise("sqrt"),
    tanh=_elementwise("tanh"), expm1=_elementwise("expm1"), sin=_elementwise("sin"), cos=_elementwise("cos"),
    abs=np.abs, norm=norm, max=jet_max, spectral_norm=spectral_norm, number=lambda value: jet(value),
    precision=lambda *args: contextlib.nullcontext(BITS),
)
"""The checker's ``xp``: jets on the current box (``checker.jet.on_box``)."""
