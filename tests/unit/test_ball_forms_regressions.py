"""Every ball form the differential tests found wrong, at the instance that showed it, held to the same contract
(``ball_forms_check``) in the quick run; ``docs/soundness.md`` lists what each gave before its fix."""

import flint
import mpmath
import numpy as np
import pytest
import scipy.special
import test_ball_forms_linalg as linalg
import test_ball_forms_reductions as reductions
import test_ball_forms_scipy as special
from ball_forms_check import BITS, check, evaluate, mp, on_balls
from ball_forms_references import check_elementwise

from theorems.arithmetic import box_jet
from theorems.arithmetic.ball_forms import find
from theorems.arithmetic.precision import ARB, Ball, balls
from theorems.errors import TheoremsError

INF, NAN = np.inf, np.nan

ELEMENTWISE = [
    ("scipy.special.rel_entr", [0.2, 0.8, 1.0, 0.0, 0.0, -1.0, 0.5], [0.5, 0.5, 0.0, -1.0, INF, 1.0, NAN]),
    ("scipy.special.xlogy", [0.0, 0.0, 1.0], [NAN, -1.0, 0.0]),
    ("scipy.special.entr", [-1.0, 0.0, -INF]),
    ("scipy.special.logit", [1.0, 0.0, 2.0, 0.3, 0.65]),
    ("scipy.special.expit", [-1e300, -745.2, 1e300]),
    ("scipy.special.log_expit", [-1.157920892373162e77, 1e300, -1e-300]),
    ("np.logaddexp", [0.0, 1e300, -INF, -INF], [1e300, 0.0, -INF, 5e-324]),
    ("np.fmax", [0.0, NAN, NAN], [NAN, 0.0, NAN]),
    ("np.fmin", [0.0, NAN], [NAN, -1.0]),
    ("np.sin", [INF, -INF]), ("np.cos", [INF]), ("Ball.sin", [INF]), ("Ball.cos", [-INF]),
    ("np.sinh", [1e300, -2.9642774844752946e79]), ("np.cosh", [1e300]), ("Ball.sinh", [1e300]),
    ("Ball.cosh", [2.9642774844752946e79]),
    ("np.logical_and", [0.5, 0.0], [2.0, 3.0]), ("np.logical_or", [0.5, 0.0], [2.0, 0.0]),
    ("np.power", [-INF, -2.0, -1e300], [1e300, 101.0, 2.0]),
]


@pytest.mark.parametrize("entry", ELEMENTWISE, ids=lambda e: e[0])
def test_elementwise(entry):
    name, *arrays = entry
    check_elementwise(find(name), [np.array(a) for a in arrays])


def test_logical_and_counts_like_float64():
    """``np.sum(np.logical_and(x, y))`` counted the balls' values (Python's ``and`` returns an operand)."""
    x, y = np.array([0.5, 0.0, 2.0]), np.array([3.0, 1.0, 4.0])
    total = on_balls(lambda a, b: np.sum(np.logical_and(a, b)), balls(x), balls(y))
    assert total == np.sum(np.logical_and(x, y)) == 2


@pytest.mark.parametrize("name", ["np.maximum.reduce", "np.minimum.reduce", "np.add.reduce", "np.multiply.reduce"])
@pytest.mark.parametrize("axis", [0, (0, 1)])
def test_where_with_an_axis(name, axis):
    """A mask that is not symmetric: the reduction moved the axes, not the mask (np.max gave [7, 2] for [1, 5])."""
    array, where = np.array([[1.0, 5.0], [7.0, 2.0]]), np.array([[True, True], [False, True]])
    reductions._check(name, array, {"axis": axis, "initial": -10.0, "where": where})


@pytest.mark.parametrize("name", ["np.add.reduce", "np.multiply.reduce"])
def test_where_without_initial(name):
    """``np.sum(x, where=...)`` raised ValueError on balls (numpy's object loop has no identity)."""
    reductions._check(name, np.array([[1.0, 5.0], [7.0, 2.0]]), {"axis": 1, "where": np.array([[True, False], [True, True]])})


def test_mean_with_an_empty_row():
    array, where = np.array([[0.0], [0.0]]), np.array([[True], [False]])
    floats = evaluate(lambda a: np.mean(a, axis=1, where=where), array)
    means = on_balls(lambda a: np.mean(a, axis=1, where=where), balls(array))
    assert floats[0] == 0 and np.isnan(floats[1])
    assert means[0].arb.is_zero() and means[1].arb.is_nan()


def test_the_largest_double_as_a_constant():
    """``1.7976931348623157e308`` in a side's code became ``[± inf]`` (numpy's spacing of it is inf)."""
    for value in (1.7976931348623157e308, np.float64(1.7976931348623157e308), np.float32(3.4028235e38)):
        ball = Ball(value).arb
        assert ball.is_finite() and ball.contains(flint.arb(float(value))) and ball.rad() < abs(float(value)) * 1e-6


def test_eigvals_in_numpys_order():
    a = np.array([[1.0, 1.0], [1.0, 1.0]])  # numpy: [2, 0]; the balls were [0, 2]
    linalg._check("np.linalg.eigvals", [a], {}, *linalg._eigvals(a), extreme=False)


def test_eigvals_float64_cannot_tell_apart_are_declined():
    """Eigenvalues 0 and -5.2e-17 of a matrix of norm 3.4e18: numpy's 512.0 stands for neither more than the other,
    so the balls have no order to match it (found by the differential test: the balls took one, the truth the other)."""
    a = np.array([[1.0, -745.1, 0.0], [4567512132862823.0, -3.4032532901960893e18, 0.0], [0.0, -0.0, 0.0]])
    linalg._check("np.linalg.eigvals", [a], {}, *linalg._eigvals(a), extreme=True)
    with ARB.precision(1024), pytest.raises(TheoremsError, match="order"):  # isolated there, not at 128 bits
        np.linalg.eigvals(balls(a))


def test_norm_keepdims_keeps_every_axis():
    a = np.array([[3.0, 4.0], [0.0, 0.0]])
    assert np.shape(on_balls(lambda m: np.linalg.norm(m, keepdims=True), balls(a))) == (1, 1)


@pytest.mark.parametrize("array, weights", [(np.array([-np.inf, -np.inf]), None),
                                            (np.array([-8.98846567431158e307, 0.5]), np.array([1.0, 0.0]))])
def test_logsumexp_without_a_finite_shift(array, weights):
    special._check_function("scipy.special.logsumexp", array, None, False, weights)


def test_the_reported_kl_identity():
    """``KL(p‖u) = log L − H(p)`` with ``rel_entr`` and ``entr`` (issue 28; ``p`` sums to 1 exactly in binary, so
    the identity is exact): the left side's ball was the negative of the right one's."""
    p, u = np.array([0.5, 0.25, 0.125, 0.125]), np.full(4, 0.25)
    with ARB.precision(128):
        lhs = np.sum(scipy.special.rel_entr(balls(p), balls(u)))
        rhs = np.log(balls(4.0)) - np.sum(scipy.special.entr(balls(p)))
    with mpmath.workprec(BITS):
        exact = mpmath.fsum(mp(a) * mpmath.log(mp(a) / mp(b)) for a, b in zip(p, u))
    check(float(np.sum(scipy.special.rel_entr(p, u))), lhs, exact, what="sum(rel_entr(p, u))")
    assert lhs.arb.overlaps(rhs.arb) and lhs.lower > 0.17


def test_dual_equality_is_decided_on_the_box():
    """``x == 0`` on the box [-1, 1] was Python's identity, False; ``0·x == 0`` was False too."""
    with ARB.precision(128), box_jet.on_box([(flint.arb(0), flint.arb(1))]) as (x,):
        with pytest.raises(TheoremsError):
            bool(x == 0)
        assert (0 * x == 0) is True
