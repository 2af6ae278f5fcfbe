"""The proof engine's duals (``DUAL``'s operations, ``Dual``'s operators, ``DualArray``'s sound extrema) against the
function they stand for, on generated boxes (degenerate, around 0, around kinks and ties): the value enclosure holds
``f`` at the box's corners, its centre and random points of it; the centre ball holds ``f(c)`` and float64's
``f(c)`` within a few ulps; each gradient ball holds every slope ``(f(p + h·e_k) − f(p))/h`` between two points of
the box along coordinate ``k`` (the mean-value theorem: a slope is an average of ``∂_k f`` on the segment, so it lies
in any interval holding ``∂_k f`` there, also across a kink, where the enclosure is the hull of both sides). ``f``
and the slopes are computed by mpmath at ``ball_forms_check.BITS`` bits from exact points, so rounding can neither
fake a pass nor a failure. A claim of a comparison must hold at every sampled point. Where ``f`` is undefined at a
point of the box, the dual must not give a finite value enclosure."""

import itertools
import operator

import flint
import mpmath
import numpy as np
import pytest
from ball_forms_check import BITS, check, evaluate, examples, mp
from ball_forms_references import reference
from hypothesis import given
from hypothesis import strategies as st

from theorems.arithmetic import box_jet
from theorems.arithmetic.ball_forms import forms
from theorems.arithmetic.precision import ARB
from theorems.errors import TheoremsError

FORMS = {form.name: form for form in forms() if form.family == "dual"}
TESTED = set(FORMS)
POINT_BITS = 2400  # a point c + t·r of the box is exact at this precision (doubles span 2098 bits)
DECLINES = (TheoremsError, ZeroDivisionError, ValueError, OverflowError)  # what prove() bisects on

UNARY = {"DUAL.exp": "exp", "DUAL.log": "log", "DUAL.sqrt": "sqrt", "DUAL.tanh": "tanh", "DUAL.expm1": "expm1",
         "DUAL.sin": "sin", "DUAL.cos": "cos", "DUAL.abs": "absolute", "Dual.__neg__": "negative",
         "Dual.__pos__": "positive", "Dual.__abs__": "absolute"}
BINARY = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide", "pow": "power"}
COMPARE = {"lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge, "eq": operator.eq,
           "ne": operator.ne}
EXTREMA = {"np.maximum": max, "np.fmax": max, "np.minimum": min, "np.fmin": min}

CENTRES = st.one_of(st.sampled_from([0.0, 1.0, -1.0, 0.5, 2.0, 1e-8, -3.0, 10.0]), st.floats(-5, 5),
                    st.floats(-700, 700))
RADII = st.one_of(st.sampled_from([0.0, 0.0, 1e-10, 0.5, 1.0, 2.0]), st.floats(0, 3))


@st.composite
def boxes(draw, n: int):
    """``n`` (centre, radius) pairs and a few points of the box as fractions ``t ∈ [-1, 1]^n`` of its radii."""
    centres = [draw(CENTRES) for _ in range(n)]
    radii = [draw(RADII) for _ in range(n)]
    inner = draw(st.lists(st.tuples(*[st.floats(-1, 1)] * n), min_size=1, max_size=3))
    corners = list(itertools.product([-1.0, 1.0], repeat=n))
    return centres, radii, [tuple([0.0] * n)] + corners + inner


def _point(centres, radii, t) -> list:
    with mpmath.workprec(POINT_BITS):
        return [mp(c) + mp(s) * mp(r) for c, r, s in zip(centres, radii, t)]


def _on_box(centres, radii, build):
    """``build(coordinates)`` on the box at 128 bits (or what it raised)."""
    with ARB.precision(128), box_jet.on_box([(flint.arb(c), flint.arb(r)) for c, r in zip(centres, radii)]) as xs:
        try:
            return build(xs)
        except DECLINES as error:
            return error


def _at(f, point):
    # at POINT_BITS, so that an argument built from the point (x0 - x1) is exact; the references round at BITS
    with mpmath.workprec(POINT_BITS):
        try:
            value = f(point)
        except (ZeroDivisionError, ValueError, TypeError):
            return None
        return None if value is None or isinstance(value, mpmath.mpc) or mpmath.isnan(value) else value


def _overlaps(ball, r, scale) -> bool:
    if r is None or not mpmath.isfinite(r):
        return not ball.is_finite()
    if not ball.is_finite():
        return True  # an unbounded ball claims nothing
    with mpmath.workprec(BITS):
        mid, rad = _mp(ball.mid()), _mp(flint.arb(ball.rad()))
        slack = (abs(r) + mpmath.mpf(scale)) * mpmath.mpf(2) ** (40 - BITS)
        return mid - rad - slack <= r <= mid + rad + slack


def _mp(value) -> mpmath.mpf:
    man, exp = value.man_exp()
    return mpmath.mpf((int(man), int(exp)))


def _check_dual(name, result, f, centres, radii, points, original=None, kind=box_jet.Dual):
    """The value, centre and gradient of ``result`` (a Dual, or a ``kind``: the Taylor form has them too) against
    ``f`` on the box; a raise is a decline."""
    if isinstance(result, BaseException):
        return
    assert isinstance(result, kind), f"{name}: {result!r} is no {kind.__name__}"
    where = f"{name} on the box {list(zip(centres, radii))}"
    values = {t: _at(f, _point(centres, radii, t)) for t in points}
    if result.value.is_finite():
        assert all(v is not None and mpmath.isfinite(v) for v in values.values()), \
            f"{where}: value {result.value} is finite, f is undefined at a point: {values}"
    for t, v in values.items():
        assert _overlaps(result.value, v, 0.0), f"{where}: f{_point(centres, radii, t)} = {v} outside value {result.value}"
    centre = values[points[0]]
    if original is not None:
        check(evaluate(original, *centres), result.centre, centre, what=f"{where}: centre")
    elif centre is not None:
        assert _overlaps(result.centre, centre, 0.0), f"{where}: f(c) = {centre} outside centre {result.centre}"
    for k, g in enumerate(result.gradient):
        if radii[k] == 0:
            continue
        for t, u in itertools.combinations(points, 2):
            if t[:k] + t[k + 1:] != u[:k] + u[k + 1:] or t[k] == u[k]:
                continue  # a slope along coordinate k: the points differ in that coordinate only
            fa, fb = values[t], values[u]
            if fa is None or fb is None or not (mpmath.isfinite(fa) and mpmath.isfinite(fb)):
                continue
            with mpmath.workprec(BITS):
                h = (mp(u[k]) - mp(t[k])) * mp(radii[k])
                slope = (fb - fa) / h
                scale = (abs(fa) + abs(fb)) / abs(h)
            assert _overlaps(g, slope, scale), f"{where}: slope {mpmath.nstr(slope, 17)} along {k} outside gradient {g}"


def _slope_pairs(n, points):
    """Points that differ in one coordinate, so that slopes are taken: the box's centre moved along each axis."""
    extra = []
    for t in points[1:]:
        for k in range(n):
            moved = list(t)
            moved[k] = 0.0 if t[k] != 0 else 0.5
            extra.append(tuple(moved))
    return points + extra


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(box=boxes(2), sign=st.sampled_from([0.0, 1.0, -1.0]))
def test_unary(name, box, sign):
    """``f(x0 + s·x1)``: one coordinate (s = 0, where float64's f(c) is compared too) or two."""
    centres, radii, points = box
    n = 1 if sign == 0 else 2
    centres, radii, points = centres[:n], radii[:n], _slope_pairs(n, [t[:n] for t in points])
    exact = reference(UNARY[name])
    call = FORMS[name].on_balls
    result = _on_box(centres, radii, lambda xs: call(xs[0] + sign * xs[1]) if n == 2 else call(xs[0]))
    f = (lambda p: exact(p[0] + sign * p[1])) if n == 2 else (lambda p: exact(p[0]))
    original = FORMS[name].original
    _check_dual(name, _scalar(result), f, centres, radii, points,
                original=(lambda c: original(np.float64(c))) if n == 1 else None)


def _scalar(result):
    return result[()] if isinstance(result, np.ndarray) and result.ndim == 0 else result


OPERATORS = sorted(name for name in FORMS if name.startswith("Dual.__") and name not in UNARY)


def _operator_parts(name):
    dunder = name.split(".")[1].strip("_")
    if dunder in COMPARE:
        return dunder, False
    reflected = dunder.startswith("r") and dunder[1:] in BINARY
    return (dunder[1:] if reflected else dunder), reflected


@pytest.mark.parametrize("name", OPERATORS)
@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(box=boxes(2), shape=st.sampled_from(["two coordinates", "same dual", "constant"]),
       constant=st.sampled_from([0.5, 2.0, -1.0, 3, 0, -2, 0.1]))
def test_operators(name, box, shape, constant):
    """``x0 ∘ x1``, ``x0 ∘ x0`` (the very same dual: a square is nonnegative) and ``x0 ∘ b`` (``b ∘ x0`` for a
    reflected operator: a plain number on the left)."""
    centres, radii, points = box
    op, reflected = _operator_parts(name)
    function = FORMS[name].on_balls  # operator.add, or the same with its operands swapped for __radd__
    if shape == "two coordinates" and not reflected:
        build, f, n = (lambda xs: function(xs[0], xs[1])), (lambda p: _exact(op, p[0], p[1])), 2
    elif shape == "same dual" and not reflected:
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
        _check_dual(name, result, f, centres, radii, points)


def _exact(op, a, b):
    if op in COMPARE:
        return COMPARE[op](a, b)
    return reference(BINARY[op])(a, b)


def _check_claim(name, result, f, centres, radii, points):
    """A comparison on a box is a claim about every point of it: certain, or Undecided."""
    if isinstance(result, BaseException):
        return
    assert isinstance(result, bool), f"{name}: {result!r} is no truth value"
    for t in points:
        p = _point(centres, radii, t)
        with mpmath.workprec(BITS):
            holds = f(p)
        assert holds == result, f"{name} claims {result} on the box {list(zip(centres, radii))}, but at {p} it is {holds}"


@pytest.mark.parametrize("name", sorted(n for n in FORMS if n.startswith("DualArray")))
@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(box=boxes(2), constant=st.sampled_from([0.0, 1.0, -0.5]))
def test_extrema_of_dual_arrays(name, box, constant):
    """``np.maximum(a, b)`` elementwise (ties: an element against itself) and its reduction ``np.max``."""
    centres, radii, points = box
    points = _slope_pairs(2, points)
    ufunc, choose = FORMS[name].on_balls, EXTREMA[name.split()[1]]
    pairs = [(lambda xs: xs[0], lambda xs: xs[1], lambda p: choose(p[0], p[1])),
             (lambda xs: xs[0], lambda xs: xs[0], lambda p: p[0]),
             (lambda xs: xs[1], lambda xs: constant, lambda p: choose(p[1], mp(constant)))]
    for left, right, f in pairs:
        result = _on_box(centres, radii, lambda xs: ufunc(np.array([left(xs)], dtype=object).view(box_jet.DualArray),
                                                          np.array([box_jet.as_jet(right(xs))], dtype=object))[0])
        _check_dual(name, result, f, centres, radii, points)
    result = _on_box(centres, radii, lambda xs: ufunc.reduce(
        np.array([xs[0], xs[1], box_jet.as_jet(constant)], dtype=object).view(box_jet.DualArray)))
    _check_dual(f"{name}.reduce", result, lambda p: choose(choose(p[0], p[1]), mp(constant)), centres, radii, points)


@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(box=boxes(2))
def test_max(box):
    """``xp.max`` of ``[x0, x1, x0 - x1]`` (ties where x1 = 0 or x0 = x1)."""
    centres, radii, points = box
    result = _on_box(centres, radii, lambda xs: FORMS["DUAL.max"].on_balls(np.array([xs[0], xs[1], xs[0] - xs[1]],
                                                                                    dtype=object)))
    _check_dual("DUAL.max", result, lambda p: max(p[0], p[1], p[0] - p[1]), centres, radii, _slope_pairs(2, points))


@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(box=boxes(2), which=st.sampled_from(["one", "two", "three"]))
def test_norm(box, which):
    """``xp.norm`` of ``[x0]``, ``[x0, x1]`` and ``[x0 - x1, x0·x1, 1 + x0]`` (a box reaching the kink at 0 too)."""
    centres, radii, points = box
    vectors = {"one": (lambda xs: [xs[0]], lambda p: [p[0]]), "two": (lambda xs: [xs[0], xs[1]], lambda p: [p[0], p[1]]),
               "three": (lambda xs: [xs[0] - xs[1], xs[0] * xs[1], 1 + xs[0]],
                         lambda p: [p[0] - p[1], p[0] * p[1], 1 + p[0]])}
    build, entries = vectors[which]
    result = _on_box(centres, radii, lambda xs: FORMS["DUAL.norm"].on_balls(np.array(build(xs), dtype=object)))
    f = lambda p: mpmath.sqrt(mpmath.fsum(v * v for v in entries(p)))  # noqa: E731
    _check_dual("DUAL.norm", _scalar(result), f, centres, radii, _slope_pairs(2, points))


@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(box=boxes(2), matrices=st.lists(st.lists(st.sampled_from([0.0, 1.0, -1.0, 0.5, 2.0]), min_size=4, max_size=4),
                                       min_size=3, max_size=3))
def test_spectral_norm(box, matrices):
    """``xp.spectral_norm(A0 + x0·A1 + x1·A2)`` (2×2: repeated singular values and zero matrices included)."""
    centres, radii, points = box
    a0, a1, a2 = (np.array(m).reshape(2, 2) for m in matrices)
    result = _on_box(centres, radii, lambda xs: FORMS["DUAL.spectral_norm"].on_balls(
        np.array([[a0[i, j] + xs[0] * a1[i, j] + xs[1] * a2[i, j] for j in range(2)] for i in range(2)], dtype=object)))

    def f(p):
        m = mpmath.matrix([[mp(a0[i, j]) + p[0] * mp(a1[i, j]) + p[1] * mp(a2[i, j]) for j in range(2)] for i in range(2)])
        singular = mpmath.svd_r(m, compute_uv=False)
        return max(singular[i] for i in range(2))

    _check_dual("DUAL.spectral_norm", result, f, centres, radii, _slope_pairs(2, points))


def test_equality_is_a_claim_about_the_box():
    """``x == 0`` on a box holding 0 is undecided (it was Python's identity: False), ``0·x == 0`` holds everywhere."""
    with ARB.precision(128), box_jet.on_box([(flint.arb(0), flint.arb(1))]) as (x,):
        with pytest.raises(TheoremsError):
            bool(x == 0)
        assert (0 * x == 0) is True and (x + 3 != 0) is True and (x == x) is True


@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(x=st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([0.1, 1 / 3, 2, -5])))
def test_number(x):
    """``xp.number(x)``: a constant on the box (its gradient is 0), holding the number."""
    result = _on_box([0.0], [1.0], lambda xs: FORMS["DUAL.number"].on_balls(x))
    assert all(g.is_zero() for g in result.gradient)
    check(FORMS["DUAL.number"].original(x), result.value, mp(x), what=f"DUAL.number({x!r})")
