"""``np.linalg`` on ball arrays (``ball_linalg.FUNCTIONS``, ``norm`` with every ``ord`` it has a form for) against
numpy and the exact value in mpmath (``ball_forms_check``'s contract), on generated matrices and vectors: ties and
repeated eigenvalues, singular and nearly singular matrices, rank one, zeros, signs, ``axis`` and ``keepdims``.

numpy's own error is bounded by backward-error analysis (LAPACK's ``getrf``/``syevd``/``geev``/``gesdd`` are
backward stable: the result is exact for ``A + E`` with ``‖E‖ ≤ p(n)·ε·‖A‖``; ``p(n) = 16n`` here), turned into a
forward bound with the exact quantities: ``Σ|adj(A)_ij|·‖E‖_max`` for ``det``, ``κ_k·‖E‖`` for the ``k``-th eigenvalue
(``κ_k`` from its left and right eigenvectors; 1 for a symmetric matrix), ``‖A⁻¹‖²·‖E‖`` for ``inv``,
(numpy's ``det`` is ``sign·exp(Σ log|u_ii|)``: an ulp of each logarithm more),
``‖A⁻¹‖·‖E‖·‖x‖`` for ``solve``, ``(n+2)·ε·‖x‖`` plus the squares' underflow for the 2-norm. Those bounds assume no
underflow or overflow inside LU, which numpy does not scale away: on extreme magnitudes (1e300, 1e-300,
subnormals) only the ball against the exact value is checked."""

import functools
import warnings
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import scipy.linalg
from ball_forms_check import BITS, EPS, TINY, check_all, elements, evaluate, examples, mp, on_balls, reals
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from theorems.arithmetic.ball_forms import forms
from theorems.arithmetic.ball_namespace import substitute
from theorems.arithmetic.precision import balls

FORMS = {form.name: form for form in forms() if form.family == "linalg"}
TESTED = set(FORMS)
MODERATE = 2.0 ** 200  # within [2^-200, 2^200] no LU step of a 3x3 matrix underflows or overflows


def _moderate(draw):
    return draw(st.one_of(st.sampled_from([0.0, 1.0, -1.0, 2.0, 0.5, -3.0, 1e-8, 1e8]), st.floats(-10, 10),
                          st.integers(-4, 4).map(float), st.floats(-1e30, 1e30).filter(lambda v: abs(v) > 1e-30)))


@st.composite
def matrices(draw, *, symmetric=False, extreme=False):
    """A square matrix up to 3x3: random entries (``extreme``: any double), or structured (repeated eigenvalues,
    equal rows, rank one, nearly singular, triangular)."""
    n = draw(st.integers(1, 3))
    entry = (lambda: draw(reals(finite=True))) if extreme else (lambda: _moderate(draw))
    kind = draw(st.sampled_from(["random", "repeated", "equal rows", "rank one", "nearly singular", "triangular"]))
    if kind == "random":
        a = np.array([[entry() for _ in range(n)] for _ in range(n)])
    elif kind == "repeated":  # c·I + d·(all ones): eigenvalues c (n-1 times) and c + n·d
        a = entry() * np.eye(n) + entry() * np.ones((n, n))
    elif kind == "equal rows":
        a = np.array([[entry() for _ in range(n)]] * n)
    elif kind == "rank one":
        with np.errstate(over="ignore"):  # an inf entry becomes ±1 below
            a = np.outer([entry() for _ in range(n)], [entry() for _ in range(n)])
    elif kind == "nearly singular":
        a = np.ones((n, n)) + np.diag([2.0 ** -52 * k for k in range(n)])
    else:
        a = np.triu([[entry() for _ in range(n)] for _ in range(n)])
    a = np.nan_to_num(a, nan=0.0, posinf=1.0, neginf=-1.0)
    with np.errstate(over="ignore"):
        mean = (a + a.T) / 2
    return mean if symmetric and np.all(np.isfinite(mean)) else a


def _mp_matrix(a):
    return mpmath.matrix([[mp(x) for x in row] for row in np.atleast_2d(a)])


def _norm_f(m):
    return mpmath.sqrt(mpmath.fsum(abs(m[i, j]) ** 2 for i in range(m.rows) for j in range(m.cols)))


def _backward(a) -> float:
    """``p(n)·(ε·‖A‖_F + TINY)``: the size of the backward error of a LAPACK factorisation of ``a`` (``‖A‖_F`` bounded
    by ``n²·max|a_ij|``, which does not underflow where the norm's squares would; TINY for gradual underflow)."""
    return 16 * len(a) * (EPS * float(np.max(np.abs(a), initial=0.0)) * np.size(a) + TINY)


def _guarded(function):
    """``function`` at BITS bits; ``(None, None)`` where mpmath cannot compute it (no value, no bound)."""

    @functools.wraps(function)
    def call(*args):
        with mpmath.workprec(BITS):
            try:
                return function(*args)
            except ZeroDivisionError:
                return None, None

    return call


def _fractions(a) -> list[list[Fraction]]:
    return [[Fraction(float(x)) for x in row] for row in np.atleast_2d(a)]


def _det_exact(m: list) -> Fraction:
    """The determinant of a small matrix of fractions, by cofactors along the first row (exact)."""
    if len(m) == 1:
        return m[0][0]
    return sum(((-1) ** j * m[0][j] * _det_exact([row[:j] + row[j + 1:] for row in m[1:]]) for j in range(len(m))),
               Fraction(0))


def _adjugate(m: list) -> list[list[Fraction]]:
    n = len(m)
    if n == 1:
        return [[Fraction(1)]]
    return [[(-1) ** (i + j) * _det_exact([row[:i] + row[i + 1:] for k, row in enumerate(m) if k != j])
             for j in range(n)] for i in range(n)]


def _mpf(x: Fraction) -> mpmath.mpf:
    with mpmath.workprec(BITS):
        return mpmath.mpf(x.numerator) / x.denominator


def _float(x) -> float:
    try:
        return float(x)
    except OverflowError:
        return np.inf


def _length(values) -> float:
    """The Euclidean length of fractions, as a float (inf past the double range)."""
    return _float(mpmath.sqrt(_mpf(sum((v * v for v in values), Fraction(0)))))


def _det(a):
    """The exact determinant; numpy's error: the LU's backward error through the adjugate, plus its own way of
    forming the product, ``sign·exp(Σ log|u_ii|)`` (an ulp of each logarithm becomes a relative error of the result)."""
    m = _fractions(a)
    adjugate = _adjugate(m)
    size = _float(sum(abs(x) for row in adjugate for x in row))
    value = _det_exact(m)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", scipy.linalg.LinAlgWarning)  # a singular matrix's LU is still its LU
        diagonal = np.abs(np.diag(scipy.linalg.lu_factor(a, check_finite=False)[0])) if np.all(np.isfinite(a)) else []
        logs = float(np.sum(np.abs(np.log(diagonal[diagonal > 0])))) if len(diagonal) else np.inf
    product = (2 * logs + len(a) + 2) * EPS * abs(_float(value))
    return [_mpf(value)], [2 * size * 16 * len(a) * EPS * float(np.max(np.abs(a))) + product]


def _inv(a):
    m = _fractions(a)
    det = _det_exact(m)
    if det == 0:
        return None, None
    inverse = [[x / det for x in row] for row in _adjugate(m)]
    size = _length(x for row in inverse for x in row)
    step = _backward(a) * size
    bound = np.inf if not step < 0.5 else _backward(a) * size * size / (1 - step)
    return [_mpf(x) for row in inverse for x in row], [bound] * len(a) ** 2


def _solve(a, b):
    m = _fractions(a)
    det = _det_exact(m)
    if det == 0:
        return None, None
    inverse = [[x / det for x in row] for row in _adjugate(m)]
    x = [sum((inverse[i][j] * Fraction(float(b[j])) for j in range(len(b))), Fraction(0)) for i in range(len(b))]
    size = _length(v for row in inverse for v in row)
    step = _backward(a) * size
    bound = np.inf if not step < 0.5 else size * (_backward(a) * _length(x) + 16 * EPS * _length(
        [Fraction(float(v)) for v in b])) / (1 - step)
    return [_mpf(v) for v in x], [bound] * len(b)


@_guarded
def _eigvalsh(a):
    lower = np.tril(a) + np.tril(a, -1).T  # numpy reads the lower triangle
    values = sorted(mpmath.eigsy(_mp_matrix(lower), eigvals_only=True))
    return values, [_backward(lower)] * len(values)


@_guarded
def _eigvals(a):
    """The exact eigenvalues in numpy's order (the nearest to each of numpy's), each with ``κ_k·p(n)·ε·‖A‖``;
    ``None`` for a complex one."""
    values, left, right = mpmath.eig(_mp_matrix(a), left=True, right=True)
    approx = np.linalg.eigvals(a)
    exact, bounds = [], []
    for w in approx:
        k = min(range(len(values)), key=lambda j: abs(values[j] - complex(w)))
        y, x = left[k, :], right[:, k]
        overlap = abs(mpmath.fsum(y[j] * x[j] for j in range(len(values))))
        condition = _norm_f(y) * _norm_f(x) / overlap if overlap > 0 else mpmath.inf
        real = abs(mpmath.im(values[k])) <= mpmath.mpf(2) ** (40 - BITS) * (1 + abs(values[k]))
        exact.append(mpmath.re(values[k]) if real else None)
        bounds.append(_float(condition) * _backward(a))
    return exact, bounds


def _exact_norm(x, ord, axis, keepdims):
    """Exact norms (mpmath) and numpy's error for each, in the result's order, from numpy's documented reading of
    ``axis``: None is the whole array (flattened for ``ord=None``, else a vector or a matrix), an int the vectors
    along it, a pair the matrices with rows along its first axis and columns along its second."""
    array = np.asarray(x)
    if axis is None and (ord is None or array.ndim == 1):
        return _listed([_vector(array.ravel(), ord)])
    if axis is None or not np.isscalar(axis):
        rows, columns = (0, 1) if axis is None else axis
        moved = np.moveaxis(array, (rows, columns), (-2, -1))
        return _listed([_matrix(moved[at], ord) for at in np.ndindex(moved.shape[:-2])])
    moved = np.moveaxis(array, axis, -1)
    return _listed([_vector(moved[at], ord) for at in np.ndindex(moved.shape[:-1])])


def _listed(pairs) -> tuple[list, list]:
    return [p[0] for p in pairs], [p[1] for p in pairs]


def _vector(v, ord):
    with mpmath.workprec(BITS):
        x, n = [abs(mp(t)) for t in v], len(v)
        if ord in (None, 2):
            value = mpmath.sqrt(mpmath.fsum(t * t for t in x))
            return value, (n + 2) * EPS * float(value) + 2 * np.sqrt(n * TINY)  # the squares' underflow: √(n·TINY)
        if ord == 1:
            value = mpmath.fsum(x)
            return value, n * EPS * float(value)
        if ord in (np.inf, -np.inf):
            return (max(x) if ord > 0 else min(x)), 0.0
        total = mpmath.fsum(t ** ord for t in x)
        value = total ** (1 / mpmath.mpf(ord))
        # pow within an ulp, the sum within (n-1)ε, 1/p rounded: relative (n+2)ε/p + 2ε|ln S|/p; underflows of |x|^p
        relative = (n + 2) * EPS / ord + 2 * EPS * (abs(float(mpmath.log(total))) if total > 0 else 0.0) / ord + 2 * EPS
        floor = float((n * TINY) ** (1 / mpmath.mpf(ord)) + (n * TINY) / ord * (total + n * TINY) ** (1 / mpmath.mpf(ord) - 1)
                      if total > 0 else (n * TINY) ** (1 / mpmath.mpf(ord)))
        return value, relative * float(value) + floor


def _matrix(a, ord):
    with mpmath.workprec(BITS):
        m, n = _mp_matrix(a), a.shape[0] * a.shape[1]
        if ord in (None, "fro"):
            return _vector(a.ravel(), 2)
        if ord in (1, -1, np.inf, -np.inf):
            sums = [mpmath.fsum(abs(m[i, j]) for i in range(m.rows)) for j in range(m.cols)] if ord in (1, -1) else \
                [mpmath.fsum(abs(m[i, j]) for j in range(m.cols)) for i in range(m.rows)]
            value = max(sums) if ord > 0 else min(sums)
            return value, n * EPS * float(max(sums))
        singular = mpmath.svd_r(m, compute_uv=False)
        value = max(singular[i] for i in range(len(singular)))
        return value, 16 * max(a.shape) * EPS * float(_norm_f(m))


def _check(name, args, kwargs, exact, errors, *, extreme):
    form = FORMS[name]
    floats = evaluate(lambda *a: form.original(*a, **kwargs), *args)
    ball_values = on_balls(lambda *a: form.on_balls(*a, **kwargs), *[balls(np.asarray(a, dtype=float)) for a in args])
    if exact is None:  # undefined (a singular matrix): no value for any element
        exact, errors = [None] * len(elements(floats if not isinstance(floats, BaseException) else ball_values)), None
    # mpmath's own accuracy at BITS bits is relative to how sensitive the result is: the forward bound over ε
    size = mp(np.max(np.abs(args[0]), initial=0.0)) * np.size(args[0])  # ≥ ‖A‖_F, in mpmath: no underflow
    scale = max([e / EPS for e in errors or [] if np.isfinite(e)], default=0.0) + size
    errors = [np.inf] * len(exact) if extreme or errors is None else errors
    check_all(floats, ball_values, exact, what=f"{name}{tuple(np.asarray(a).tolist() for a in args)} {kwargs}",
              errors=errors, scale=scale)


SQUARE = {"np.linalg.det": _det, "np.linalg.inv": _inv, "np.linalg.eigvalsh": _eigvalsh,
          "np.linalg.eigvals": _eigvals}


@pytest.mark.parametrize("name", sorted(SQUARE))
@pytest.mark.parametrize("extreme", [False, True], ids=["moderate", "extreme"])
@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(data=st.data())
def test_square_matrix_functions(name, extreme, data):
    a = data.draw(matrices(symmetric=name == "np.linalg.eigvalsh", extreme=extreme))
    exact, errors = SQUARE[name](a) if not extreme or np.all(np.isfinite(a)) else (None, None)
    _check(name, [a], {}, exact, errors, extreme=extreme)


@pytest.mark.parametrize("extreme", [False, True], ids=["moderate", "extreme"])
@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(data=st.data())
def test_solve(extreme, data):
    a = data.draw(matrices(extreme=extreme))
    b = data.draw(hnp.arrays(np.float64, len(a), elements=reals(finite=True) if extreme else st.floats(-10, 10)))
    exact, errors = _solve(a, b)
    _check("np.linalg.solve", [a, b], {}, exact, errors, extreme=extreme)


NORMS = sorted(name for name in FORMS if name.startswith("np.linalg.norm"))


@st.composite
def _norm_calls(draw, name):
    """An array, ``ord`` (``p``: a real in (0, 8]), ``axis`` and ``keepdims`` that the entry ``name`` serves."""
    ord = FORMS[name].key
    if ord == "p":
        ord = draw(st.one_of(st.sampled_from([0.5, 3.0, 1.5]), st.floats(0.25, 8)))
    elif isinstance(ord, str):
        ord = "fro" if ord == "fro" else ord
    if "vector" in name:
        shape = draw(st.sampled_from([(3,), (1,), (2, 3), (3, 2, 2)]))
        array = draw(hnp.arrays(np.float64, shape, elements=reals(finite=True)))
        axis = draw(st.sampled_from([None] if len(shape) == 1 else list(range(-len(shape), len(shape)))))
        if axis is None and len(shape) > 1:
            axis = 0
    else:
        if draw(st.booleans()):
            array, axis = draw(matrices(extreme=draw(st.booleans()))), None
        else:
            array = draw(hnp.arrays(np.float64, (2, 2, 3), elements=st.floats(-10, 10)))
            axis = draw(st.sampled_from([(0, 1), (1, 2), (2, 0), (-1, -2)]))
    return array, ({} if FORMS[name].key is None and draw(st.booleans()) else {"ord": ord}), axis, draw(st.booleans())


@pytest.mark.parametrize("name", NORMS)
@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(data=st.data())
def test_norms(name, data):
    array, ord_kwargs, axis, keepdims = data.draw(_norm_calls(name))
    ord = ord_kwargs.get("ord")
    kwargs = {**({"ord": ord} if "ord" in ord_kwargs else {}), "axis": axis, "keepdims": keepdims}
    form = FORMS[name]
    # the "p" entry and the ord=None one run numpy's norm with ord passed explicitly (or left out)
    original = functools.partial(np.linalg.norm, **kwargs)
    on = functools.partial(substitute(np.linalg.norm), **kwargs)  # what a side's np.linalg.norm is on balls
    exact, errors = _exact_norm(array, ord, axis, keepdims)
    extreme = not np.all(np.abs(array[array != 0]) <= MODERATE) or not np.all(np.abs(array[array != 0]) >= 1 / MODERATE)
    floats = evaluate(original, array)
    check_all(floats, on_balls(on, balls(array)), exact, what=f"{form.name}({array.tolist()}, {kwargs})",
              errors=[np.inf] * len(exact) if extreme else errors)


def test_eigvals_in_numpys_order():
    """numpy's eigvals returns LAPACK's order, not a sorted one: element k of the balls is numpy's element k."""
    a = np.array([[3.0, 2.0], [0.0, 1.0]])  # numpy: [3, 1]
    exact, errors = _eigvals(a)
    _check("np.linalg.eigvals", [a], {}, exact, errors, extreme=False)


def _softmax_jacobian(l, t, xp_exp):
    """``diag p − ppᵀ`` for ``p = softmax(l/t)``, with ``xp_exp`` the exponential of the arithmetic used."""
    weights = [xp_exp(x / t) for x in l]
    total = sum(weights[1:], weights[0])
    p = [w / total for w in weights]
    return [[(p[i] if i == j else 0) - p[i] * p[j] for j in range(len(p))] for i in range(len(p))]


def _check_repeated(l, t):
    """``eigvalsh`` of the softmax Jacobian at logits with repeated values: its eigenvalues repeat exactly (each
    repeated weight ``p_a`` is one, ``m − 1`` times), the balls of its entries have radii (``exp`` is not exact), and
    arb cannot isolate them: the enclosures come from Ostrowski's and Weyl's inequalities and must hold the exact
    eigenvalues (mpmath at BITS bits) and be narrow enough to decide against them."""
    l = np.asarray(l, dtype=float)
    floats = evaluate(lambda m: np.linalg.eigvalsh(m), np.array(_softmax_jacobian(l, t, np.exp)))
    ball_values = on_balls(lambda x, s: substitute(np.linalg.eigvalsh)(
        np.array(_softmax_jacobian(x, s, np.exp), dtype=object)), balls(l), balls(t))
    with mpmath.workprec(BITS):
        exact = sorted(mpmath.eigsy(mpmath.matrix(_softmax_jacobian([mp(x) for x in l], mp(t), mpmath.exp)),
                                    eigvals_only=True))
    check_all(floats, ball_values, exact, what=f"eigvalsh(diag p − ppᵀ) at l = {l.tolist()}, T = {t}",
              errors=[16 * len(l) * EPS] * len(l), scale=1.0)  # mpmath's Jacobi is accurate relative to ‖M‖ ≤ 1
    assert not isinstance(ball_values, BaseException), ball_values  # enclosed, not declined (Undecided before)
    assert all(b.arb.rad() < 1e-30 for b in elements(ball_values)), ball_values  # decides a 1e-27 eigenvalue


@pytest.mark.slow  # Hypothesis; the quick run keeps the instance below
@examples()
@given(l=st.lists(st.sampled_from([-3.0, 0.0, 1.5, 3.0]), min_size=2, max_size=6),
       t=st.sampled_from([0.1, 0.5, 1.0, 3.0]))
def test_eigvalsh_with_repeated_eigenvalues_of_balls(l, t):
    _check_repeated(l, t)


def test_eigvalsh_at_a_double_eigenvalue():
    """λ₂(diag p − ppᵀ) at l = (−3, −3, −3, 3, 3, 3), T = 0.1 is ``min p`` = 2.9e-27, twice: "undecided at 1024 bits
    (eigenvalues not isolated)" before; float64's LAPACK is 1e-17 off."""
    _check_repeated([-3.0, -3.0, -3.0, 3.0, 3.0, 3.0], 0.1)


def test_eigvalsh_of_a_scaled_matrix_with_a_repeated_eigenvalue():
    """``(c·I + d·J)/3`` (``J`` all ones): eigenvalues ``c/3`` (``n − 1`` times) and ``(c + n·d)/3``, with entries
    that are balls (a third is no double)."""
    for c, d, n in ((1.0, 0.5, 3), (2.0, -1.0, 4), (0.0, 1e-8, 5)):
        a = c * np.eye(n) + d * np.ones((n, n))
        ball_values = on_balls(lambda m: np.linalg.eigvalsh(m / Fraction(3)), balls(a))
        with mpmath.workprec(BITS):
            exact = sorted([mp(c) / 3] * (n - 1) + [(mp(c) + n * mp(d)) / 3])
        check_all(evaluate(np.linalg.eigvalsh, a / 3), ball_values, exact, what=f"eigvalsh(({c}·I + {d}·J)/3)",
                  errors=[_backward(a)] * n, scale=float(np.abs(a).sum()))
        assert not isinstance(ball_values, BaseException) and all(b.arb.rad() < 1e-30 for b in elements(ball_values))
