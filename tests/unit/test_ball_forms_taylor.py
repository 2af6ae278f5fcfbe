"""The second-order Taylor forms (``TAYLOR``'s operations, ``Taylor``'s operators, ``TaylorArray``'s sound extrema)
against the function they stand for, on generated boxes (degenerate, around 0, around kinks and ties), with mpmath
at ``ball_forms_check.BITS`` bits from exact points:

- ``value``, ``centre`` and ``gradient`` as for the duals (``test_ball_forms_duals._check_dual``: the value holds
  ``f`` at the centre, the corners and random points, the centre holds ``f(c)``, each gradient ball every slope
  between two points along a coordinate);
- ``slope[k]`` holds ``∂_k f(c)`` (``mpmath.diff`` at ``BITS`` bits; skipped where ``f`` has no derivative at
  ``c``: its one-sided derivatives differ, as at a kink on a degenerate box);
- ``hessian[k][k]`` holds every second difference ``(f(p + 2h·e_k) − 2f(p + h·e_k) + f(p))/h²`` with ``p`` and
  ``p + 2h·e_k`` in the box (it equals ``∂_kk f`` at a point of the segment), and ``hessian[k][l]`` (``k ≠ l``) every
  mixed difference ``(f(p + h·e_k + h'·e_l) − f(p + h·e_k) − f(p + h'·e_l) + f(p))/(h·h')`` with the rectangle in the
  box (it equals ``∂_kl f`` at a point of the rectangle);
- Taylor's remainder: ``f(c + h) − f(c)`` lies in ``slope·h + ½hᵀ·hessian·h`` (interval arithmetic) for each
  sampled point ``c + h`` of the box.

A raise (``NotSmooth``, ``Undecided``, any ``TheoremsError``, ``ZeroDivisionError``, ``ValueError``,
``OverflowError``) is a decline, allowed; a finite enclosure where ``f`` is undefined at a point of the box is a
failure. Wrong second derivatives (``exp'' = 0``, ``tanh''`` with its sign flipped) fail these checks on fixed boxes:
the checks have teeth."""

import itertools

import flint
import mpmath
import numpy as np
import pytest
from ball_forms_check import BITS, check, examples, mp
from ball_forms_references import reference
from hypothesis import given
from hypothesis import strategies as st
from test_ball_forms_duals import (COMPARE, DECLINES, EXTREMA, POINT_BITS, UNARY, _at, _check_claim, _check_dual,
                                   _exact, _mp, _operator_parts, _overlaps, _scalar, _slope_pairs, boxes)

from theorems.arithmetic import box_jet
from theorems.arithmetic.ball_forms import forms, replaced
from theorems.arithmetic.precision import ARB

FORMS = {form.name: form for form in forms() if form.family == "taylor"}
TESTED = set(FORMS)

TAYLOR_UNARY = {name.replace("DUAL.", "TAYLOR.").replace("Dual.", "Taylor."): ufunc for name, ufunc in UNARY.items()}
STEPS = (100, 160, 220, 280, 340)
SLOPE_BITS = 300
"""``slope[k]`` is checked against central differences ``(f(c + h·e_k) − f(c − h·e_k))/2h`` (``mpmath.diff``) at
``h = 2^-j·max(1, |c_k|)`` for ``j`` in ``STEPS``, taking the first two consecutive estimates that agree to 100
bits (none: the check is skipped, as where ``f`` varies on a scale below ``2^-340``, ``tanh(x/y)`` at
``y = 10⁻¹⁰⁴``). The tolerance is twice their difference (the truncation ``h²·f⁽³⁾/6`` shrinks by ``2^-120`` from
one step to the next, so the finer one is that close), plus the references' rounding through the quotient
(``2^(10-BITS)·(|f(c)| + |∂_k f|)/h``), plus ``2^-SLOPE_BITS`` of the scale; the balls are 128-bit, so a wrong
slope still shows, far above it."""


def _on_box(centres, radii, build):
    """``build(coordinates)`` on the box at 128 bits, as Taylor forms (or what it raised)."""
    with ARB.precision(128), box_jet.on_box([(flint.arb(c), flint.arb(r)) for c, r in zip(centres, radii)], order=2) as xs:
        try:
            return build(xs)
        except DECLINES as error:
            return error


class _Values:
    """``f`` at the point ``c + t·r`` of the box for exact fractions ``t`` (mpf, midpoints too), cached."""

    def __init__(self, f, centres, radii):
        self.f, self.centres, self.radii, self.cache = f, centres, radii, {}

    def point(self, t) -> list:
        with mpmath.workprec(POINT_BITS):
            return [mp(c) + mpmath.mpf(s) * mp(r) for c, r, s in zip(self.centres, self.radii, t)]

    def __call__(self, t):
        with mpmath.workprec(POINT_BITS):  # a midpoint of two fractions keeps its bits
            key = tuple(mpmath.mpf(s) for s in t)
        if key not in self.cache:
            value = _at(self.f, self.point(key))
            self.cache[key] = value if value is not None and mpmath.isfinite(value) else None
        return self.cache[key]


def _check_taylor(name, result, f, centres, radii, points, original=None):
    """All the enclosures of ``result`` (a Taylor) against ``f`` on the box; a raise is a decline."""
    if isinstance(result, BaseException):
        return
    _check_dual(name, result, f, centres, radii, points, original, kind=box_jet.Taylor)
    values = _Values(f, centres, radii)
    where = f"{name} on the box {list(zip(centres, radii))}"
    _check_slope(where, result, values)
    _check_hessian(where, result, values, points)
    _check_remainder(where, result, values, points)


def _check_slope(where, result, values):
    n = len(values.centres)
    c = values.point((0,) * n)
    fc = values((0,) * n)
    if fc is None:
        return
    for k, s in enumerate(result.slope):
        if not s.is_finite():
            continue
        converged = _converged_derivative(values.f, c, k, fc)
        if converged is None:
            continue
        derivative, tolerance, h = converged
        if _holds(s, derivative, tolerance):
            continue
        left, right = _derivative(values.f, c, k, -1, h), _derivative(values.f, c, k, 1, h)
        with mpmath.workprec(BITS):
            kink = left is None or right is None or abs(left - right) > (abs(fc) + abs(left) + abs(right)) * 2.0 ** -60
        if kink:
            continue  # no derivative at c (a kink at the centre of a degenerate box): the slope claims nothing
        raise AssertionError(f"{where}: d_{k} f(c) = {mpmath.nstr(derivative, 20)} outside slope {s}")


def _converged_derivative(f, c, k, fc):
    """``(∂_k f(c), its tolerance, the step)`` from the first two agreeing central differences; ``None`` if none."""
    with mpmath.workprec(BITS):
        steps = [mpmath.ldexp(max(mpmath.mpf(1), abs(c[k])), -j) for j in STEPS]
    previous = None
    for h in steps:
        estimate = _derivative(f, c, k, 0, h)
        if estimate is None:
            return None
        if previous is not None:
            with mpmath.workprec(BITS):
                scale = abs(fc) + abs(estimate)
                if abs(previous - estimate) <= scale * mpmath.mpf(2) ** -100:
                    tolerance = (2 * abs(previous - estimate) + scale * mpmath.ldexp(1, 10 - BITS) / h
                                 + scale * mpmath.mpf(2) ** -SLOPE_BITS)
                    return estimate, tolerance, h
        previous = estimate
    return None


def _derivative(f, c, k, direction, h):
    """``∂_k f(c)`` by ``mpmath.diff`` with step ``h`` (one-sided for ``direction`` ±1), ``None`` where ``f`` is
    undefined near ``c``."""
    def along(x):
        value = f(c[:k] + [x] + c[k + 1:])
        if value is None or isinstance(value, mpmath.mpc) or not mpmath.isfinite(value):
            raise ValueError("undefined")
        return value

    with mpmath.workprec(BITS):
        try:
            value = mpmath.diff(along, c[k], h=h, direction=direction)
        except (ValueError, ZeroDivisionError, TypeError):
            return None
        return value if mpmath.isfinite(value) else None


def _holds(ball, r, tolerance) -> bool:
    if not ball.is_finite():
        return True
    with mpmath.workprec(POINT_BITS):
        mid, rad = _mp(ball.mid()), _mp(flint.arb(ball.rad()))
        return mid - rad - tolerance <= r <= mid + rad + tolerance


def _pairs(points):
    """Pairs of distinct sampled points (the first six: the centre, corners and random points of the box)."""
    unique = list(dict.fromkeys(points))[:6]  # the centre, corners, a random point: 15 pairs at most
    return list(itertools.combinations(unique, 2))


def _check_hessian(where, result, values, points):
    n = len(values.centres)
    for t, u in _pairs(points):
        for k in range(n):
            with mpmath.workprec(POINT_BITS):
                h = (mp(u[k]) - mp(t[k])) / 2 * mp(values.radii[k])
                middle = list(t)
                middle[k] = (mp(t[k]) + mp(u[k])) / 2
            if h == 0 or not result.hessian[k][k].is_finite():
                continue
            end = list(t)
            end[k] = u[k]
            fa, fm, fb = values(t), values(middle), values(end)
            if None in (fa, fm, fb):
                continue
            with mpmath.workprec(POINT_BITS):
                second = (fb - 2 * fm + fa) / (h * h)
                scale = (abs(fa) + 2 * abs(fm) + abs(fb)) / (h * h)
            assert _overlaps(result.hessian[k][k], second, scale), \
                f"{where}: second difference {mpmath.nstr(second, 17)} along {k} outside hessian[{k}][{k}] " \
                f"{result.hessian[k][k]} (from {t} by {mpmath.nstr(2 * h, 17)})"
        for k, l in itertools.permutations(range(n), 2):
            with mpmath.workprec(POINT_BITS):
                h, g = (mp(u[k]) - mp(t[k])) * mp(values.radii[k]), (mp(u[l]) - mp(t[l])) * mp(values.radii[l])
            if h == 0 or g == 0 or not result.hessian[k][l].is_finite():
                continue
            corners = []
            for a, b in ((t[k], t[l]), (u[k], t[l]), (t[k], u[l]), (u[k], u[l])):
                corner = list(t)
                corner[k], corner[l] = a, b
                corners.append(values(corner))
            if None in corners:
                continue
            f00, f10, f01, f11 = corners
            with mpmath.workprec(POINT_BITS):
                mixed = (f11 - f10 - f01 + f00) / (h * g)
                scale = sum(abs(v) for v in corners) / abs(h * g)
            assert _overlaps(result.hessian[k][l], mixed, scale), \
                f"{where}: mixed difference {mpmath.nstr(mixed, 17)} outside hessian[{k}][{l}] {result.hessian[k][l]}"


def _interval(ball):
    with mpmath.workprec(POINT_BITS):
        mid, rad = _mp(ball.mid()), _mp(flint.arb(ball.rad()))
        return mid - rad, mid + rad


def _times(interval, x):
    a, b = interval[0] * x, interval[1] * x
    return min(a, b), max(a, b)


def _check_remainder(where, result, values, points):
    """``f(c + h) − f(c) ∈ slope·h + ½ Σ_kl hessian[k][l]·h_k·h_l`` (Taylor with the Lagrange remainder)."""
    n = len(values.centres)
    balls = [*result.slope, *(h for row in result.hessian for h in row)]
    fc = values((0,) * n)
    if fc is None or not all(b.is_finite() for b in balls):
        return
    for t in dict.fromkeys(points):
        ft = values(t)
        if ft is None or not any(t):
            continue
        with mpmath.workprec(POINT_BITS):
            h = [mp(s) * mp(r) for s, r in zip(t, values.radii)]
            low, high = mpmath.mpf(0), mpmath.mpf(0)
            terms = [_times(_interval(s), x) for s, x in zip(result.slope, h)]
            terms += [_times(_interval(result.hessian[k][l]), h[k] * h[l] / 2) for k in range(n) for l in range(n)]
            for a, b in terms:
                low, high = low + a, high + b
            difference = ft - fc
            slack = (abs(ft) + abs(fc) + sum(abs(a) + abs(b) for a, b in terms)) * mpmath.mpf(2) ** (40 - BITS)
            holds = low - slack <= difference <= high + slack
        assert holds, f"{where}: f(c + h) − f(c) = {mpmath.nstr(difference, 17)} at t = {t} outside the Taylor " \
                      f"remainder form [{mpmath.nstr(low, 17)}, {mpmath.nstr(high, 17)}]"


@pytest.mark.parametrize("name", sorted(TAYLOR_UNARY))
@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the fixed boxes below
@examples()
@given(box=boxes(2), sign=st.sampled_from([0.0, 1.0, -1.0]))
def test_unary(name, box, sign):
    """``f(x0 + s·x1)``: one coordinate (s = 0, where float64's f(c) is compared too) or two."""
    centres, radii, points = box
    n = 1 if sign == 0 else 2
    centres, radii, points = centres[:n], radii[:n], _slope_pairs(n, [t[:n] for t in points])
    exact = reference(TAYLOR_UNARY[name])
    call = FORMS[name].on_balls
    result = _on_box(centres, radii, lambda xs: call(xs[0] + sign * xs[1]) if n == 2 else call(xs[0]))
    f = (lambda p: exact(p[0] + sign * p[1])) if n == 2 else (lambda p: exact(p[0]))
    original = FORMS[name].original
    _check_taylor(name, _scalar(result), f, centres, radii, points,
                  original=(lambda c: original(np.float64(c))) if n == 1 else None)


OPERATORS = sorted(name for name in FORMS if name.startswith("Taylor.__") and name not in TAYLOR_UNARY)


@pytest.mark.parametrize("name", OPERATORS)
@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the fixed boxes below
@examples()
@given(box=boxes(2), shape=st.sampled_from(["two coordinates", "same Taylor", "constant"]),
       constant=st.sampled_from([0.5, 2.0, -1.0, 3, 0, -2, 0.1]))
def test_operators(name, box, shape, constant):
    """``x0 ∘ x1``, ``x0 ∘ x0`` (the very same form: a square is nonnegative) and ``x0 ∘ b`` (``b ∘ x0`` for a
    reflected operator: a plain number on the left)."""
    centres, radii, points = box
    op, reflected = _operator_parts(name)
    function = FORMS[name].on_balls
    if shape == "two coordinates" and not reflected:
        build, f, n = (lambda xs: function(xs[0], xs[1])), (lambda p: _exact(op, p[0], p[1])), 2
    elif shape == "same Taylor" and not reflected:
        build, f, n = (lambda xs: function(xs[0], xs[0])), (lambda p: _exact(op, p[0], p[0])), 1
    else:
        b = constant
        build = lambda xs: function(xs[0], b)  # noqa: E731 - reflected: b ∘ x0
        f, n = ((lambda p: _exact(op, mp(b), p[0])) if reflected else (lambda p: _exact(op, p[0], mp(b)))), 1
    centres, radii, points = centres[:n], radii[:n], _slope_pairs(n, [t[:n] for t in points])
    result = _on_box(centres, radii, build)
    if op in COMPARE:
        _check_claim(name, result, f, centres, radii, points)
    else:
        _check_taylor(name, result, f, centres, radii, points)


@pytest.mark.parametrize("name", sorted(n for n in FORMS if n.startswith("TaylorArray")))
@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the fixed boxes below
@examples()
@given(box=boxes(2), constant=st.sampled_from([0.0, 1.0, -0.5]))
def test_extrema_of_taylor_arrays(name, box, constant):
    """``np.maximum(a, b)`` elementwise (ties: an element against itself) and its reduction ``np.max``: decided
    on the box, or ``NotSmooth`` (a kink inside)."""
    centres, radii, points = box
    points = _slope_pairs(2, points)
    ufunc, choose = FORMS[name].on_balls, EXTREMA[name.split()[1]]
    pairs = [(lambda xs: xs[0], lambda xs: xs[1], lambda p: choose(p[0], p[1])),
             (lambda xs: xs[0], lambda xs: xs[0], lambda p: p[0]),
             (lambda xs: xs[1], lambda xs: constant, lambda p: choose(p[1], mp(constant)))]
    for left, right, f in pairs:
        result = _on_box(centres, radii, lambda xs: ufunc(np.array([left(xs)], dtype=object).view(box_jet.TaylorArray),
                                                          np.array([box_jet.as_jet(right(xs), box_jet.Taylor)], dtype=object))[0])
        _check_taylor(name, result, f, centres, radii, points)
    result = _on_box(centres, radii, lambda xs: ufunc.reduce(
        np.array([xs[0], xs[1], box_jet.as_jet(constant, box_jet.Taylor)], dtype=object).view(box_jet.TaylorArray)))
    _check_taylor(f"{name}.reduce", result, lambda p: choose(choose(p[0], p[1]), mp(constant)), centres, radii, points)


@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the fixed boxes below
@examples()
@given(box=boxes(2))
def test_max(box):
    """``xp.max`` of ``[x0, x1, x0 - x1]`` (ties where x1 = 0 or x0 = x1: NotSmooth unless decided)."""
    centres, radii, points = box
    result = _on_box(centres, radii, lambda xs: FORMS["TAYLOR.max"].on_balls(
        np.array([xs[0], xs[1], xs[0] - xs[1]], dtype=object)))
    _check_taylor("TAYLOR.max", result, lambda p: max(p[0], p[1], p[0] - p[1]), centres, radii, _slope_pairs(2, points))


@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the fixed boxes below
@examples()
@given(box=boxes(2), which=st.sampled_from(["one", "two", "three"]))
def test_norm(box, which):
    """``xp.norm`` of ``[x0]``, ``[x0, x1]`` and ``[x0 - x1, x0·x1, 1 + x0]`` (a box reaching 0: NotSmooth)."""
    centres, radii, points = box
    vectors = {"one": (lambda xs: [xs[0]], lambda p: [p[0]]), "two": (lambda xs: [xs[0], xs[1]], lambda p: [p[0], p[1]]),
               "three": (lambda xs: [xs[0] - xs[1], xs[0] * xs[1], 1 + xs[0]],
                         lambda p: [p[0] - p[1], p[0] * p[1], 1 + p[0]])}
    build, entries = vectors[which]
    result = _on_box(centres, radii, lambda xs: FORMS["TAYLOR.norm"].on_balls(np.array(build(xs), dtype=object)))
    f = lambda p: mpmath.sqrt(mpmath.fsum(v * v for v in entries(p)))  # noqa: E731
    _check_taylor("TAYLOR.norm", _scalar(result), f, centres, radii, _slope_pairs(2, points))


@examples()
@given(box=boxes(2))
def test_spectral_norm_declines(box):
    """``xp.spectral_norm`` has no second-order rule: it declines (``NotSmooth``) on every box, never a form."""
    centres, radii, _ = box
    result = _on_box(centres, radii, lambda xs: FORMS["TAYLOR.spectral_norm"].on_balls(
        np.array([[xs[0], 1], [xs[1], 2]], dtype=object)))
    assert isinstance(result, box_jet.NotSmooth), result


@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the fixed boxes below
@examples()
@given(x=st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([0.1, 1 / 3, 2, -5])))
def test_number(x):
    """``xp.number(x)``: a constant on the box (its slope, gradient and Hessian are 0), holding the number."""
    result = _on_box([0.0], [1.0], lambda xs: FORMS["TAYLOR.number"].on_balls(x))
    assert all(g.is_zero() for g in (*result.slope, *result.gradient, *result.hessian[0]))
    check(FORMS["TAYLOR.number"].original(x), result.value, mp(x), what=f"TAYLOR.number({x!r})")
    check(FORMS["TAYLOR.number"].original(x), result.centre, mp(x), what=f"TAYLOR.number({x!r}) centre")


def _softmax_weight(xp, x, y):
    return xp.exp(x) / (xp.exp(x) + xp.exp(y))


def _tanh_ratio(xp, x, y):
    return xp.tanh(x / y) * xp.exp(-x * y)


def _log_norm(xp, x, y):
    return xp.log(1 + x * x) - xp.sqrt(x * x + y * y + 1) * xp.cos(x - y) + xp.expm1(y / 4) ** 2


def _vertex(xp, x, y):
    return xp.exp(x) - x + xp.cos(y) - 1  # ∇ = 0 at (0, 0): a convex and a concave vertex, bounded at the vertex


def _powers(xp, x, y):
    return (x - y) ** 2 - (x + 0.5) ** 3 + (3 + xp.cos(x)) ** -2 + (1 + x * x + y * y) ** -1


COMPOSITES = {"softmax weight": _softmax_weight, "tanh ratio": _tanh_ratio, "log norm": _log_norm,
              "vertex": _vertex, "powers": _powers}
"""Two-coordinate quantities: chains of the forms above, so the Hessian's cross terms are exercised, and the
value's bound at a vertex of the quadratic (``∇f(c) ≈ 0``)."""


def _composite_reference(function):
    def f(p):
        return function(mpmath, p[0], p[1])

    return f


def _composite_forms(function):
    return lambda xs: _scalar(function(box_jet.TAYLOR, xs[0], xs[1]))


@pytest.mark.parametrize("name", COMPOSITES)
@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the fixed boxes below
@examples()
@given(box=boxes(2))
def test_composites(name, box):
    centres, radii, points = box
    function = COMPOSITES[name]
    result = _on_box(centres, radii, _composite_forms(function))
    _check_taylor(name, result, _composite_reference(function), centres, radii, _slope_pairs(2, points))


SMALL_BOXES = [([0.5, 0.75], [0.25, 0.5]), ([1.0, 2.0], [0.5, 0.125]), ([-1.0, -0.75], [1.0, 0.0]),
               ([0.0, 1.0], [0.0, 0.5])]
FIXED_POINTS = [(0.0, 0.0), (1.0, 1.0), (-1.0, 1.0), (1.0, -1.0), (-1.0, -1.0), (0.5, -0.25), (-0.75, 0.5)]


@pytest.mark.parametrize("name", COMPOSITES)
@pytest.mark.parametrize("box", range(len(SMALL_BOXES)))
def test_composites_on_fixed_boxes(name, box):
    """The composites on a few fixed boxes (the quick run's check, without Hypothesis)."""
    centres, radii = SMALL_BOXES[box]
    function = COMPOSITES[name]
    result = _on_box(centres, radii, _composite_forms(function))
    assert isinstance(result, box_jet.Taylor), result
    _check_taylor(name, result, _composite_reference(function), centres, radii, _slope_pairs(2, FIXED_POINTS))


# too-narrow variants are caught -----------------------------------------------------------------------------------

WRONG_EXP = box_jet.elementwise(box_jet.Unary(flint.arb.exp, lambda x, fx: fx, lambda x, fx: 0 * fx, increasing=True),
                                 box_jet.Taylor)
"""``exp`` with ``exp'' = 0``: its Hessian claims ``exp`` is affine on the box."""

WRONG_TANH = box_jet.elementwise(box_jet.Unary(flint.arb.tanh, lambda x, fx: 1 - fx * fx,
                                                lambda x, fx: 2 * fx * (1 - fx * fx), increasing=True), box_jet.Taylor)
"""``tanh`` with the sign of ``tanh''`` flipped: convex where it is concave."""

WRONG = {"TAYLOR.exp": (WRONG_EXP, mpmath.exp, [0.5], [0.5]), "TAYLOR.tanh": (WRONG_TANH, mpmath.tanh, [1.0], [0.5])}


@pytest.mark.parametrize("name", WRONG)
@pytest.mark.parametrize("part", ["hessian", "remainder", "all"])
def test_a_wrong_second_derivative_is_caught(name, part):
    wrong, exact, centres, radii = WRONG[name]
    points = [(0.0,), (-1.0,), (1.0,), (0.5,), (-0.25,)]

    def run():
        result = _on_box(centres, radii, lambda xs: _scalar(FORMS[name].on_balls(xs[0])))
        assert isinstance(result, box_jet.Taylor), result
        values = _Values(lambda p: exact(p[0]), centres, radii)
        where = f"{name} on {centres} ± {radii}"
        if part == "hessian":
            _check_hessian(where, result, values, points)
        elif part == "remainder":
            _check_remainder(where, result, values, points)
        else:
            _check_taylor(name, result, lambda p: exact(p[0]), centres, radii, points)

    run()  # the real form passes
    with replaced(name, wrong), pytest.raises(AssertionError, match="outside"):
        run()


def test_a_product_without_its_cross_term_is_caught(monkeypatch):
    """``∇²(uv)`` without ``∇u∇vᵀ + ∇v∇uᵀ``: ``x·y``'s mixed second derivative 1 claimed 0."""
    multiply = box_jet.Taylor.__mul__

    def narrow(u, v):
        product = multiply(u, v)
        if isinstance(v, box_jet.Taylor):
            n = len(product.gradient)
            product.hessian = tuple(tuple(u.hessian[k][l] * v.value + u.value * v.hessian[k][l] for l in range(n))
                                    for k in range(n))
        return product

    centres, radii = [0.5, -0.25], [0.25, 0.5]
    f = lambda p: p[0] * p[1]  # noqa: E731
    _check_taylor("x*y", _on_box(centres, radii, lambda xs: xs[0] * xs[1]), f, centres, radii, FIXED_POINTS)
    monkeypatch.setattr(box_jet.Taylor, "__mul__", narrow)
    result = _on_box(centres, radii, lambda xs: xs[0] * xs[1])
    with pytest.raises(AssertionError, match="mixed difference"):
        _check_hessian("x*y", result, _Values(f, centres, radii), FIXED_POINTS)


def test_a_slope_claimed_at_a_corner_is_caught():
    """``slope`` holding ``∂f`` at a corner instead of the centre: the slope check sees it."""
    centres, radii = [0.5], [0.5]
    result = _on_box(centres, radii, lambda xs: box_jet.UNARY["exp"](xs[0]))
    result.slope = (flint.arb(1).exp(),)
    with pytest.raises(AssertionError, match="outside slope"):
        _check_slope("exp", result, _Values(lambda p: mpmath.exp(p[0]), centres, radii))
