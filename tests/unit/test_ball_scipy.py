"""scipy.special's softmax, log_softmax, logsumexp, expit, xlogy on balls (as a side evaluated on balls calls them)
enclose mpmath's values; a special function without ball form raises NoBallForm naming it; float inputs go to scipy
unchanged."""

import mpmath
import numpy as np
import pytest
import scipy.special

from theorems.arithmetic.ball_namespace import on_balls
from theorems.arithmetic.precision import ARB, NoBallForm, balls

L = np.array([-1.5, 0.25, 2.0, 0.0])


def _close(ball, exact) -> bool:
    return ball.lower <= float(exact) <= ball.upper and float(ball.arb.rad()) < 1e-12


def _mp_logsumexp():
    return mpmath.log(sum(mpmath.exp(mpmath.mpf(x)) for x in L))


def test_softmax_family_in_balls():
    with mpmath.workdps(50), ARB.precision(128):
        lse = _mp_logsumexp()
        assert _close(on_balls(lambda l: scipy.special.logsumexp(l))(balls(L)), lse)
        for p, x in zip(on_balls(lambda l: scipy.special.softmax(l))(balls(L)), L):
            assert _close(p, mpmath.exp(mpmath.mpf(x) - lse))
        for q, x in zip(on_balls(lambda l: scipy.special.log_softmax(l))(balls(L)), L):
            assert _close(q, mpmath.mpf(x) - lse)
        for s, x in zip(scipy.special.expit(balls(L)), L):
            assert _close(s, 1 / (1 + mpmath.exp(-mpmath.mpf(x))))


def test_float_inputs_are_unchanged():
    for logsumexp in (scipy.special.logsumexp, on_balls(lambda l: scipy.special.logsumexp(l))):
        assert logsumexp(L) == pytest.approx(float(_mp_logsumexp()), rel=1e-15)
    for softmax in (scipy.special.softmax, on_balls(lambda l: scipy.special.softmax(l))):
        assert isinstance(softmax(L), np.ndarray) and softmax(L).dtype == float


def test_special_function_without_ball_form_is_named():
    with pytest.raises(NoBallForm, match="scipy.special.erf"):
        scipy.special.erf(balls(L))
    with pytest.raises(NoBallForm, match="scipy.special.erf"):  # a plain object array of balls, on a side's path
        on_balls(lambda l: scipy.special.erf(l))(np.array(list(balls(L)), dtype=object))
