"""Ball's operators (``+ - * / **``, comparisons, ``-x``, ``abs``; the reflected forms with a plain number on the
left) and ``np.matmul`` on ball arrays, against float64 and the exact value (``ball_forms_check``'s contract).
A float met in ball arithmetic is a constant with one ulp of radius (docs/soundness.md), so a plain operand that
is not a short decimal makes the ball wider, never wrong."""

import math
from decimal import Decimal
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from ball_forms_check import BITS, EPS, check, check_all, evaluate, examples, kind, mp, on_balls, reals
from ball_forms_references import reference
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from theorems.arithmetic.ball_forms import forms
from theorems.arithmetic.precision import Ball, balls

OPERATORS = {form.name: form for form in forms() if form.family == "ball method" and form.name.startswith("Ball.__")}
MATMUL = {form.name: form for form in forms() if form.name == "np.matmul"}
TESTED = set(OPERATORS) | set(MATMUL)

UFUNC_OF = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide", "pow": "power",
            "neg": "negative", "pos": "positive", "abs": "absolute", "lt": "less", "le": "less_equal",
            "gt": "greater", "ge": "greater_equal", "eq": "equal", "ne": "not_equal"}


def _parts(name: str) -> tuple[str, bool]:
    """The reference's name and whether the operator is the reflected one (``Ball.__radd__``)."""
    dunder = name.split(".")[1].strip("_")
    reflected = dunder.startswith("r") and dunder[1:] in UFUNC_OF and dunder not in UFUNC_OF
    return UFUNC_OF[dunder[1:] if reflected else dunder], reflected


def _check_operator(name, a: float, b: float, plain):
    form = OPERATORS[name]
    ufunc, reflected = _parts(name)
    unary = ufunc in ("negative", "positive", "absolute")
    floats = evaluate(form.original, *((np.float64(a),) if unary else (np.float64(a), np.float64(b))))
    operand = plain(b)
    ball_value = on_balls(form.on_balls, *((balls(a),) if unary else (balls(a), operand)))
    if not unary and not Ball(operand).arb.is_exact() and kind(ball_value) == "nan":
        # a float constant that is no short decimal is a ball of one ulp (docs/soundness.md): around a subnormal it
        # reaches 0, around -1e300 it holds non-integers, so a quotient by it or a power of a negative base is
        # rightly nan; the exact operand (plain=_as_ball) is the case the contract is about
        return
    exact_args = (mp(a),) if unary else (mp(b), mp(a)) if reflected else (mp(a), mp(b))
    check(floats, ball_value, reference(ufunc)(*exact_args), what=f"{name}({a!r}, {b!r} as {plain.__name__})")


def _as_float(b):
    return float(b)


def _as_int(b):
    return int(b) if math.isfinite(b) and b == int(b) else float(b)  # an integer where b is one (exact, any size)


def _as_ball(b):
    return balls(float(b))


def _as_fraction(b):
    return Fraction(b) if math.isfinite(b) else float(b)  # the double's exact value (a Fraction has no infinity)


def _as_decimal(b):
    return Decimal(b)  # the double's exact value, as a decimal (infinities and nan too)


@pytest.mark.parametrize("name", sorted(OPERATORS))
@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(a=reals((0.1, 0.3, 64.0, 65.0)), b=reals((0.1, 0.3, 0.5, 64.0, 65.0, 100.0)),
       plain=st.sampled_from([_as_float, _as_int, _as_ball, _as_fraction, _as_decimal]), tie=st.booleans())
def test_operators(name, a, b, plain, tie):
    _check_operator(name, a, a if tie else b, plain)


@st.composite
def _products(draw):
    """Two arrays whose matrix product is defined: vectors and matrices, up to 3 by 3."""
    n, k, m = (draw(st.integers(1, 3)) for _ in range(3))
    left = draw(st.sampled_from([(k,), (n, k)]))
    right = draw(st.sampled_from([(k,), (k, m)]))
    elements = reals((0.1, 1e154), finite=True)
    return draw(hnp.arrays(np.float64, left, elements=elements)), draw(hnp.arrays(np.float64, right, elements=elements))


def _exact_product(a, b):
    """Every entry of ``a @ b`` (mpmath, exact inputs) and the float original's error bound ``k·ε·Σ|a_i b_i|``
    (a dot product of length ``k`` in any order), in the result's order."""
    a2, b2 = np.atleast_2d(a), b.reshape(len(b), -1)
    exact, errors = [], []
    with mpmath.workprec(BITS):
        for i in range(a2.shape[0]):
            for j in range(b2.shape[1]):
                terms = [mp(x) * mp(y) for x, y in zip(a2[i], b2[:, j])]
                exact.append(None if any(mpmath.isnan(t) for t in terms) else mpmath.fsum(terms))
                errors.append(len(terms) * EPS * float(mpmath.fsum(abs(t) for t in terms)))
    return exact, errors


@pytest.mark.parametrize("name", sorted(MATMUL))
@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples()
@given(pair=_products())
def test_matmul(name, pair):
    a, b = pair
    exact, errors = _exact_product(a, b)
    floats = evaluate(np.matmul, a, b)
    for call in (np.matmul, lambda x, y: x @ y, np.dot):
        check_all(floats, on_balls(call, balls(a), balls(b)), exact, what=f"{name}({a.tolist()}, {b.tolist()})",
                  errors=errors)


def test_a_reflected_operator_meets_a_ball_on_its_right():
    """``2 - x`` runs ``Ball.__rsub__``: the reflected operand order is the one tested above."""
    assert (2 - Ball(0.5)).arb.contains(1.5) and not (2 - Ball(0.5)).arb.contains(-1.5)
