"""Every interval form holds the exact value: the second enclosure of the cross-check (``theorems/arithmetic/
interval.py``, ``interval_linalg.py``) is trusted by nothing but these tests.

Contract, for one input (doubles, or intervals ``[a, b]`` between two doubles): the interval the form returns at 128
bits, when finite, holds the exact value computed by mpmath at 400 bits from the function's definition — at the
point, or at both ends and the middle of the input interval. Declining (any error, an unbounded interval) is
allowed: it only means "no second enclosure", which the cross-check reads as agreement. A comparison is decided
only when it holds for every number of both intervals.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import scipy.special
from hypothesis import given, settings
from hypothesis import strategies as st

from theorems.arithmetic.interval import (IV, SCIPY_FORMS, Interval, NoEnclosure, at_points, interval_bits, intervals,
                                          points_taken)
from theorems.errors import Undecided

REFERENCE_BITS = 400
EDGES = (0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -3.0, 1e-8, 5e-324, -5e-324, 2.2250738585072014e-308, 1e-300, -1e-300,
         1e300, -1e300, 1 - 2.0 ** -53, 1 + 2.0 ** -52, math.pi / 2, 709.78, -745.1, 36.7, 0.9999999, -0.9999999)
REALS = st.one_of(st.sampled_from(EDGES), st.floats(allow_nan=False, allow_infinity=False),
                  st.floats(-50, 50, allow_nan=False))
SETTINGS = settings(max_examples=60, deadline=None)


def _mp(function, *args):
    """``function`` at exact ``args`` at 400 bits (``None`` where undefined or not real)."""
    with mpmath.workprec(REFERENCE_BITS):
        try:
            value = function(*(mpmath.mpf(a) if isinstance(a, float) else a for a in args))
        except (ValueError, ZeroDivisionError, OverflowError):
            return None
        return value if isinstance(value, mpmath.mpf) and mpmath.isfinite(value) else None


def _holds(enclosure, exact, scale=0) -> bool:
    """Whether a finite ``enclosure`` holds ``exact`` (mpmath at 400 bits: within 2^-380 of it, relative to it or
    to ``scale``, the size the reference's own error is relative to: ``‖A‖`` for an eigenvalue)."""
    if exact is None or not isinstance(enclosure, Interval) or not enclosure.is_finite():
        return True
    low, high = (mpmath.mp.make_mpf(end) for end in enclosure.raw_ends())
    with mpmath.workprec(REFERENCE_BITS):
        slack = (abs(exact) + abs(mpmath.mpf(scale))) * mpmath.mpf(2) ** -380
        return low - slack <= exact <= high + slack


def _rational(value: Fraction):
    with mpmath.workprec(REFERENCE_BITS):
        return mpmath.mpf(value.numerator) / value.denominator


def _form(call):
    """``call()`` at 128 bits; ``None`` where it declines."""
    with interval_bits(128), np.errstate(all="ignore"):
        try:
            return call()
        except Exception:  # noqa: BLE001 - declining is allowed (no second enclosure)
            return None


def _around(a: float, b: float) -> Interval:
    low, high = min(a, b), max(a, b)
    return Interval.of(low).hull(Interval.of(high))


UNARY = {  # the numpy or scipy ufunc, mpmath's definition
    np.exp: mpmath.exp, np.expm1: mpmath.expm1, np.log: mpmath.log, np.log1p: mpmath.log1p,
    np.log2: lambda x: mpmath.log(x, 2), np.log10: mpmath.log10, np.sqrt: mpmath.sqrt, np.sin: mpmath.sin,
    np.cos: mpmath.cos, np.tan: mpmath.tan, np.tanh: mpmath.tanh, np.sinh: mpmath.sinh, np.cosh: mpmath.cosh,
    np.arctan: mpmath.atan, np.arcsin: mpmath.asin, np.arccos: mpmath.acos, np.arcsinh: mpmath.asinh,
    np.arccosh: mpmath.acosh, np.arctanh: mpmath.atanh, np.square: lambda x: x * x, np.abs: abs,
    np.negative: lambda x: -x, np.reciprocal: lambda x: 1 / x, np.floor: mpmath.floor, np.ceil: mpmath.ceil,
    np.sign: mpmath.sign,
    scipy.special.expit: lambda x: 1 / (1 + mpmath.exp(-x)),
    scipy.special.log_expit: lambda x: -mpmath.log1p(mpmath.exp(-x)),
    scipy.special.logit: lambda x: mpmath.log(x / (1 - x)) if 0 < x < 1 else None,
    scipy.special.entr: lambda x: -x * mpmath.log(x) if x > 0 else (0 if x == 0 else None),
    scipy.special.erf: mpmath.erf, scipy.special.erfc: mpmath.erfc,
}
BINARY = {
    np.add: lambda a, b: a + b, np.subtract: lambda a, b: a - b, np.multiply: lambda a, b: a * b,
    np.divide: lambda a, b: a / b, np.maximum: max, np.minimum: min, np.fmax: max, np.fmin: min,
    np.logaddexp: lambda a, b: max(a, b) + mpmath.log1p(mpmath.exp(-abs(a - b))), np.hypot: mpmath.hypot,
    np.power: lambda a, b: a ** b if a > 0 or b == int(b) else None,
    scipy.special.xlogy: lambda x, y: 0 if x == 0 else x * mpmath.log(y),
    scipy.special.rel_entr: lambda x, y: (x * mpmath.log(x / y) if x > 0 and y > 0 else 0 if x == 0 and y >= 0
                                          else None),
}


def _name(ufunc) -> str:
    return getattr(ufunc, "__name__", str(ufunc))


@pytest.mark.parametrize("ufunc", list(UNARY), ids=_name)
@SETTINGS
@given(x=REALS)
def test_a_unary_form_holds_the_exact_value_at_a_point(ufunc, x):
    assert _holds(_form(lambda: ufunc(Interval.of(x))), _mp(UNARY[ufunc], x))


@pytest.mark.parametrize("ufunc", list(UNARY), ids=_name)
@SETTINGS
@given(a=st.floats(-40, 40), b=st.floats(-40, 40))
def test_a_unary_form_holds_the_exact_values_across_an_interval(ufunc, a, b):
    enclosure = _form(lambda: ufunc(_around(a, b)))
    low, high = min(a, b), max(a, b)
    for point in (low, high, (low + high) / 2):
        assert _holds(enclosure, _mp(UNARY[ufunc], point))


@pytest.mark.parametrize("ufunc", list(BINARY), ids=_name)
@SETTINGS
@given(x=REALS, y=REALS)
def test_a_binary_form_holds_the_exact_value(ufunc, x, y):
    assert _holds(_form(lambda: ufunc(Interval.of(x), Interval.of(y))), _mp(BINARY[ufunc], x, y))
    assert _holds(_form(lambda: ufunc(intervals(np.array([x])), y)[0]), _mp(BINARY[ufunc], x, y))


@SETTINGS
@given(x=REALS, n=st.integers(-4, 5))
def test_an_integer_power_of_an_interval_around_zero_is_the_power_of_every_point(x, n):
    enclosure = _form(lambda: _around(-abs(x), abs(x) / 2) ** n)
    for point in (-abs(x), abs(x) / 2, 0.0):
        assert _holds(enclosure, _mp(lambda v: v ** n if v != 0 or n >= 0 else None, point))


VECTORS = st.lists(st.one_of(st.floats(-30, 30), st.sampled_from((0.0, 1e-300, -1e-300, 700.0))), min_size=1,
                   max_size=6)


def _mp_logsumexp(values, weights=None):
    weights = weights or [1] * len(values)
    top = max(v for v, w in zip(values, weights) if w) if any(weights) else None
    total = mpmath.fsum(w * mpmath.exp(v - top) for v, w in zip(values, weights)) if top is not None else 0
    return top + mpmath.log(total) if total > 0 else None  # shifted by the top: exact where it is the only term


@SETTINGS
@given(values=VECTORS)
def test_scipys_python_functions_hold_the_exact_values(values):
    x = np.array(values)
    with mpmath.workprec(REFERENCE_BITS):
        exact = [mpmath.mpf(v) for v in values]
        lse = _mp_logsumexp(exact)
        soft = [mpmath.exp(v - lse) for v in exact]
        log_soft = [v - lse for v in exact]
    for form, reference in (("softmax", soft), ("log_softmax", log_soft)):
        enclosed = _form(lambda form=form: SCIPY_FORMS[form](intervals(x)))
        for k in range(len(values)):
            assert enclosed is None or _holds(enclosed[k], reference[k])
    assert _holds(_form(lambda: SCIPY_FORMS["logsumexp"](intervals(x))), lse)
    weights = [0.0] + [2.0] * (len(values) - 1)
    with mpmath.workprec(REFERENCE_BITS):
        weighted = _mp_logsumexp(exact, weights)
    assert _holds(_form(lambda: SCIPY_FORMS["logsumexp"](intervals(x), b=np.array(weights))), weighted)


def test_logsumexp_along_an_axis_keeps_numpys_shapes():
    x = intervals(np.array([[0.0, 1.0], [2.0, 3.0]]))
    with interval_bits(128):
        assert np.shape(SCIPY_FORMS["logsumexp"](x, axis=1)) == (2,)
        assert np.shape(SCIPY_FORMS["logsumexp"](x, axis=0, keepdims=True)) == (1, 2)
        assert SCIPY_FORMS["logsumexp"](x, axis=1)[1].contains(Fraction(0)) is False


MATRICES = st.integers(1, 4).flatmap(lambda n: st.lists(st.lists(st.floats(-5, 5), min_size=n, max_size=n),
                                                        min_size=n, max_size=n))


def _mp_matrix(rows):
    return mpmath.matrix([[mpmath.mpf(v) for v in row] for row in rows])


@SETTINGS
@given(rows=MATRICES)
def test_eigenvalues_of_a_symmetric_matrix_hold_the_exact_ones(rows):
    a = np.array(rows)
    symmetric = np.tril(a) + np.tril(a, -1).T  # what numpy reads (UPLO='L')
    with mpmath.workprec(REFERENCE_BITS):
        exact = sorted(mpmath.eigsy(_mp_matrix(symmetric.tolist()), eigvals_only=True))
    enclosed = _form(lambda: np.linalg.eigvalsh(intervals(a)))
    assert enclosed is not None and len(enclosed) == len(exact)
    for value, reference in zip(enclosed, exact):  # Jacobi's error is relative to ‖A‖, not to each eigenvalue
        assert _holds(value, reference, scale=np.abs(a).sum()) and value.is_finite()


@pytest.mark.parametrize("matrix", [np.eye(3), np.ones((3, 3)), np.diag([2.0, 2.0, 1.0]),
                                    np.array([[1.0, 1e-20], [1e-20, 1.0]]), np.zeros((2, 2))],
                         ids=["identity", "rank one", "double eigenvalue", "nearly double", "zero"])
def test_repeated_eigenvalues_are_enclosed_tightly(matrix):
    with mpmath.workprec(REFERENCE_BITS):
        exact = sorted(mpmath.eigsy(_mp_matrix(matrix.tolist()), eigvals_only=True))
    enclosed = _form(lambda: np.linalg.eigvalsh(intervals(matrix)))
    for value, reference in zip(enclosed, exact):
        assert _holds(value, reference) and value.upper - value.lower < 1e-15 * (1 + abs(float(reference)))


ORDS = (None, 1, 2, np.inf, -np.inf, 0, 3, 0.5)
MATRIX_ORDS = (None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf)


@SETTINGS
@given(rows=MATRICES)
def test_norms_hold_the_exact_values(rows):
    a = np.array(rows)
    with mpmath.workprec(REFERENCE_BITS):
        m = _mp_matrix(rows)
        singular = sorted((mpmath.sqrt(max(e, 0)) for e in mpmath.eigsy(m.T * m, eigvals_only=True)), reverse=True)
        flat = [mpmath.mpf(v) for v in a.ravel()]
        vector = {None: mpmath.sqrt(mpmath.fsum(v * v for v in flat)), 1: mpmath.fsum(abs(v) for v in flat),
                  2: mpmath.sqrt(mpmath.fsum(v * v for v in flat)), np.inf: max(abs(v) for v in flat),
                  -np.inf: min(abs(v) for v in flat), 0: mpmath.mpf(sum(1 for v in flat if v != 0)),
                  3: mpmath.fsum(abs(v) ** 3 for v in flat) ** (mpmath.mpf(1) / 3),
                  0.5: mpmath.fsum(abs(v) ** mpmath.mpf(0.5) for v in flat) ** 2}
        rows_sums = [mpmath.fsum(abs(v) for v in row) for row in _rows(m)]
        column_sums = [mpmath.fsum(abs(v) for v in row) for row in _rows(m.T)]
        matrix = {None: vector[2], "fro": vector[2], "nuc": mpmath.fsum(singular), 1: max(column_sums),
                  -1: min(column_sums), 2: singular[0], -2: singular[-1], np.inf: max(rows_sums),
                  -np.inf: min(rows_sums)}
    for order in ORDS:
        assert _holds(_form(lambda: np.linalg.norm(intervals(a.ravel()), order)), vector[order])
    for order in MATRIX_ORDS:
        assert _holds(_form(lambda: np.linalg.norm(intervals(a), order)), matrix[order])
    values = _form(lambda: np.linalg.svd(intervals(a), compute_uv=False))
    assert values is not None and all(_holds(v, s) for v, s in zip(values, singular))


def _rows(m):
    return [[m[i, j] for j in range(m.cols)] for i in range(m.rows)]


@SETTINGS
@given(rows=MATRICES)
def test_det_solve_and_inv_hold_the_exact_rationals(rows):
    a = np.array(rows)
    exact = [[Fraction(v) for v in row] for row in rows]
    determinant = _fraction_det(exact)
    assert _holds(_form(lambda: np.linalg.det(intervals(a))), _rational(determinant))
    if determinant == 0:
        return
    b = np.arange(1.0, len(rows) + 1)
    solution = _fraction_solve(exact, [Fraction(v) for v in b])
    enclosed = _form(lambda: np.linalg.solve(intervals(a), b))
    inverse = _form(lambda: np.linalg.inv(intervals(a)))
    for k, x in enumerate(solution):
        assert enclosed is None or _holds(enclosed[k], _rational(x))
    first_column = _fraction_solve(exact, [Fraction(int(k == 0)) for k in range(len(rows))])
    for k, x in enumerate(first_column):
        assert inverse is None or _holds(inverse[k, 0], _rational(x))


def _fraction_det(m):
    n = len(m)
    if n == 1:
        return m[0][0]
    return sum((-1) ** j * m[0][j] * _fraction_det([row[:j] + row[j + 1:] for row in m[1:]]) for j in range(n))


def _fraction_solve(m, b):
    n = len(m)
    d = _fraction_det(m)
    return [_fraction_det([row[:k] + [b[i]] + row[k + 1:] for i, row in enumerate(m)]) / d for k in range(n)]


@SETTINGS
@given(a=st.floats(-10, 10), b=st.floats(-10, 10), c=st.floats(-10, 10), d=st.floats(-10, 10))
def test_a_comparison_is_decided_only_when_it_holds_for_every_point(a, b, c, d):
    x, y = _around(a, b), _around(c, d)
    points_x, points_y = (min(a, b), max(a, b)), (min(c, d), max(c, d))
    for symbol, compare in (("<", lambda p, q: p < q), ("<=", lambda p, q: p <= q), (">", lambda p, q: p > q),
                            (">=", lambda p, q: p >= q), ("==", lambda p, q: p == q), ("!=", lambda p, q: p != q)):
        try:
            decided = compare(x, y)
        except Undecided:
            continue
        assert all(compare(p, q) == decided for p in points_x for q in points_y), symbol


def test_logical_operations_give_truth_values_not_operands():
    # numpy's object loop of logical_and returns an operand (Python's `and`): summed, 7 where float64 gives 2
    with interval_bits(128):
        x, y = intervals(np.array([0.5, 0.0, 2.0])), intervals(np.array([3.0, 1.0, 4.0]))
        assert np.sum(np.logical_and(x, y)) == 2 and np.sum(np.logical_or(x, y)) == 3
        assert np.logical_xor(x, y).tolist() == [False, True, False]


def test_float_of_a_wide_interval_refuses_and_at_points_takes_the_midpoint():
    with interval_bits(128):
        third = Interval.of(1) / 3
        with pytest.raises(NoEnclosure):
            float(third)
        with pytest.raises(NoEnclosure):
            math.exp(third)
        assert float(Interval.of(0.1)) == 0.1  # one exact double: fine, as for an instance value
        with at_points():
            assert float(third) == pytest.approx(1 / 3) and (third < third) is False
            assert points_taken() == ("float()", "the comparison <")


@pytest.mark.parametrize("constant, exact", [(Fraction(1, 3), Fraction(1, 3)), (Decimal("0.1"), Fraction(1, 10)),
                                             (np.float32(0.1), Fraction(float(np.float32(0.1)))),
                                             (np.longdouble(1) / 3, Fraction(*(np.longdouble(1) / 3).as_integer_ratio())),
                                             (10 ** 30, Fraction(10 ** 30))], ids=str)
def test_constants_are_taken_exactly(constant, exact):
    with interval_bits(128):
        product = Interval.of(3) * constant
        assert product.contains(3 * exact) and (product - 3 * exact).contains(0)
    low, high = (mpmath.mp.make_mpf(end) for end in product.raw_ends())
    with mpmath.workprec(REFERENCE_BITS):
        assert high - low <= abs(_rational(3 * exact)) * mpmath.mpf(2) ** -120


def test_the_backend_runs_a_side_written_with_xp():
    with interval_bits(128):
        x = intervals(np.array([1.0, -2.0, 0.5]))
        norm, top, tanh = IV.norm(x), IV.max(x), IV.tanh(x)
    assert norm.contains(Fraction(21, 4) ** 0) is False and _holds(norm, _mp(mpmath.sqrt, 5.25))
    assert top.contains(1) and top.is_point() and _holds(tanh[1], _mp(mpmath.tanh, -2.0))
