"""Forms users write, on balls, against float64 and the exact value (``ball_forms_check``'s contract): exact rationals
(``Fraction``, ``Decimal``) in every operator position, ``.item()`` and 0-d arrays, ``np.ma`` masked arrays (masked
entries excluded as numpy does), ``np.vectorize``, ``heapq`` (decided comparisons, or ``Undecided``), scipy.special's
``entr``/``xlogy`` on what ``np.einsum`` and ``softmax`` return, ``np.hypot`` on a lone ball and a plain object
array. Each side is run the way the engine runs it on balls (``ball_namespace.on_balls``)."""

import heapq
import operator
from decimal import Decimal
from fractions import Fraction

import flint
import mpmath
import numpy as np
import pytest
import scipy.special
from ball_forms_check import BITS, check, check_all, elements, evaluate, mp
from hypothesis import given
from hypothesis import strategies as st

from theorems.arithmetic.ball_namespace import on_balls
from theorems.arithmetic.precision import ARB, Ball, Undecided, balls

X = np.array([0.3, -1.25, 2.0, 0.3])
ARITHMETIC = (operator.add, operator.sub, operator.mul, operator.truediv, operator.pow)
COMPARISONS = (operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne)
RATIONALS = (Fraction(1, 8), Fraction(-7, 3), Fraction(3), Decimal("0.125"), Decimal("0.1"), Decimal("-2.5"))


def _exact(value) -> mpmath.mpf:
    """A Fraction or Decimal as the exact rational it is (``Decimal("0.1")`` is 1/10), at BITS bits."""
    numerator, denominator = value.as_integer_ratio()
    with mpmath.workprec(BITS):
        return mpmath.mpf(numerator) / denominator


def _on_balls(side, *args):
    with ARB.precision(128):
        return evaluate(on_balls(side), *args)


@pytest.mark.parametrize("rational", RATIONALS, ids=str)
@pytest.mark.parametrize("operation", ARITHMETIC, ids=lambda f: f.__name__)
def test_rationals_in_every_arithmetic_position(rational, operation):
    """``Fraction(1, 8) * ball``, ``ball * Decimal("0.125")``, on balls and on ball arrays, either side: the ball holds
    the exact rational result (before: "unsupported operand type(s) for *: 'Fraction' and 'Ball'"). float64's
    side is the same with the double nearest the rational (a Decimal does not mix with floats)."""
    x = X if operation is not operator.pow else np.abs(X)
    for left in (True, False):
        if operation is operator.pow and left and rational < 0:
            continue  # a negative base to a fractional power: complex
        side = (lambda a: operation(rational, a)) if left else (lambda a: operation(a, rational))
        near = float(rational)
        floats = np.array([operation(near, v) if left else operation(v, near) for v in x])
        ball_values = _on_balls(side, balls(x))
        with mpmath.workprec(BITS):
            exact = [(operation(_exact(rational), mp(v)) if left else operation(mp(v), _exact(rational)))
                     for v in x]
        what = f"{operation.__name__} with {rational!r} on the {'left' if left else 'right'}"
        # float64's constant is the rational rounded: one ulp of it, carried through the operation
        errors = [4 * abs(float(e)) * 2.0 ** -52 * (1 + abs(float(mp(v) * mpmath.log(abs(mp(v))))) if v else 1)
                  for e, v in zip(exact, x)]
        check_all(floats, ball_values, exact, what=what, errors=errors, scale=100.0)
        assert not isinstance(ball_values, BaseException), ball_values
        for k, v in enumerate(x):  # a lone ball too
            lone = _on_balls(side, balls(float(v)))
            assert isinstance(lone, Ball), lone
            check(floats[k], lone, exact[k], what=f"{what}, one ball", error=errors[k], scale=100.0)


@pytest.mark.parametrize("rational", RATIONALS, ids=str)
@pytest.mark.parametrize("compare", COMPARISONS, ids=lambda f: f.__name__)
def test_rationals_in_every_comparison_position(rational, compare):
    for v in (*X, float(_exact(rational))):  # the last: a double equal to the rational when it is one
        exact = compare(_exact(rational), mp(v))
        for side, expected in ((lambda a: compare(rational, a), exact), (lambda a: compare(a, rational),
                                                                         compare(mp(v), _exact(rational)))):
            with ARB.precision(128):
                try:
                    found = side(balls(v))
                except Undecided:
                    continue  # not decided: allowed (Decimal("0.1") against its nearest double, at 128 bits)
            assert found == expected, (rational, v, compare)


def test_a_decimal_means_its_decimal_value():
    """``Decimal("0.1")`` is 1/10 exactly (to the working precision), not the double 0.1000000000000000055…."""
    with ARB.precision(256):
        tenth = balls(3.0) * Decimal("0.1")
        assert tenth.arb.overlaps(flint.arb(flint.fmpq(3, 10))) and not tenth.arb.contains(3 * flint.arb(0.1))
        assert float(tenth.arb.rad()) < 1e-70  # the decimal itself, not a double's ulp
        assert (balls(4.0) * Decimal("0.25")).arb.is_exact()  # dyadic: an exact ball
        assert (balls(1.0) + Decimal("Infinity")).arb == flint.arb.pos_inf()


def test_item_and_zero_d_arrays():
    """A ball's ``.item()`` is the ball (``np.float64(x).item()`` is ``x``); 0-d ball arrays read the same (before:
    "'Ball' object has no attribute 'item'")."""
    x = X[:3]
    with mpmath.workprec(BITS):
        total = mpmath.fsum(mp(v) for v in x)
    cases = ((lambda a: np.sum(a).item(), total), (lambda a: np.squeeze(a[1:2]).item(), mp(x[1])),
             (lambda a: a[2].item(), mp(x[2])), (lambda a: np.linalg.eigvalsh(np.diag(a))[1].item(), mp(sorted(x)[1])),
             (lambda a: float(np.asarray(a[2]).item()), mp(x[2])))
    for side, exact in cases:
        floats, ball_value = evaluate(side, x), _on_balls(side, balls(x))
        assert isinstance(ball_value, (Ball, float)), ball_value
        check(floats, ball_value, exact, what="item()")


def _causal(a):
    """Row ``i`` of ``a`` tiled ``n`` times, masked above the diagonal (a causal mask)."""
    n = len(a)
    return np.ma.masked_array(np.tile(a, (n, 1)), mask=np.triu(np.ones((n, n), dtype=bool), 1))


MASKED = {
    "causal sums": (lambda a: _causal(a).sum(axis=-1),
                    lambda v: [mpmath.fsum(v[:i + 1]) for i in range(len(v))]),
    "causal means": (lambda a: _causal(a).mean(axis=-1),
                     lambda v: [mpmath.fsum(v[:i + 1]) / (i + 1) for i in range(len(v))]),
    "np.ma.exp, then a sum": (lambda a: np.ma.exp(np.ma.masked_array(a, mask=[0, 1, 0, 1])).sum(),
                              lambda v: [mpmath.exp(v[0]) + mpmath.exp(v[2])]),
    "np.ma.log of positives": (lambda a: np.ma.log(np.ma.masked_array(np.abs(a), mask=[1, 0, 0, 0])).sum(),
                               lambda v: [mpmath.fsum(mpmath.log(abs(t)) for t in v[1:])]),
}


@pytest.mark.parametrize("name", sorted(MASKED))
def test_masked_arrays_exclude_masked_entries(name):
    side, reference = MASKED[name]
    floats, ball_values = evaluate(side, X), _on_balls(side, balls(X))
    with mpmath.workprec(BITS):
        exact = reference([mp(v) for v in X])
    check_all(np.ma.getdata(floats), np.ma.getdata(ball_values), exact, what=name, scale=10.0)
    assert not isinstance(ball_values, BaseException) and all(isinstance(b, Ball) for b in elements(
        np.ma.getdata(ball_values))), ball_values


def test_vectorize_runs_the_python_function_on_each_ball():
    side = np.vectorize(lambda v: v * v - 3 * v if v > 0 else -v)
    floats, ball_values = evaluate(side, X), _on_balls(side, balls(X))
    with mpmath.workprec(BITS):
        exact = [mp(v) * mp(v) - 3 * mp(v) if v > 0 else -mp(v) for v in X]
    check_all(floats, ball_values, exact, what="np.vectorize")
    assert not isinstance(ball_values, BaseException)
    with ARB.precision(128), pytest.raises(Exception, match="float"):  # otypes=[float]: a ball never becomes a float
        np.vectorize(np.exp, otypes=[float])(balls(X))


def test_heapq_decides_or_raises_undecided():
    floats = heapq.nlargest(2, X)  # an exact tie (0.3 twice) is decided between exact balls
    with ARB.precision(128):
        found = heapq.nlargest(2, balls(X))
        assert [float(b) for b in found] == floats
        heap = []
        for b in balls(X):
            heapq.heappush(heap, b)
        assert [float(heapq.heappop(heap)) for _ in range(len(X))] == sorted(X)
        overlapping = [balls(1.0) / 3, Ball(flint.arb(1) / 3)]  # one number, two balls: not ordered
        with pytest.raises(Undecided):
            heapq.nsmallest(1, overlapping + [balls(2.0)])


@given(logits=st.lists(st.floats(-20, 20), min_size=2, max_size=5), heads=st.integers(1, 3))
def test_entr_and_xlogy_of_what_einsum_and_softmax_return(logits, heads):
    """``entr(np.einsum("hl->l", P) / H)`` and ``xlogy(p, p)`` of ``softmax``'s output (the issue's sides): ``einsum``
    of a ball array is a ball array again (numpy's own einsum returned a plain object array, on which scipy's ufuncs
    have no loop)."""
    l = np.array(logits)
    sides = {"entr of einsum": lambda a: scipy.special.entr(np.einsum("hl->l", np.tile(
                 scipy.special.softmax(a), (heads, 1))) / heads).sum(),
             "xlogy of softmax": lambda a: -scipy.special.xlogy(scipy.special.softmax(a), scipy.special.softmax(a)).sum()}
    with mpmath.workprec(BITS):
        weights = [mpmath.exp(mp(v)) for v in l]
        p = [w / mpmath.fsum(weights) for w in weights]
        entropy = -mpmath.fsum(q * mpmath.log(q) for q in p if q > 0)
    for name, side in sides.items():
        floats, ball_value = evaluate(side, l), _on_balls(side, balls(l))
        check(floats, ball_value, entropy, what=f"{name}({l.tolist()})", error=16 * len(l) * 2.0 ** -52, scale=10.0)
        assert isinstance(ball_value, Ball), ball_value
    with ARB.precision(128):
        assert type(np.einsum("hl->l", np.tile(balls(l), (heads, 1)))).__name__ == "BallArray"


def test_hypot_of_a_lone_ball_and_of_a_plain_object_array():
    a, b = 3.0, 4.0
    with mpmath.workprec(BITS):
        exact = mpmath.mpf(5)
    for side in (lambda x, y: np.hypot(x, y), lambda x, y: np.hypot(np.array([x], dtype=object), np.array([y], dtype=object))[0]):
        check(np.hypot(a, b), _on_balls(side, balls(a), balls(b)), exact, what="np.hypot")
        assert isinstance(_on_balls(side, balls(a), balls(b)), Ball)
