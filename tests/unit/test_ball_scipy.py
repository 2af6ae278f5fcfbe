"""scipy.special's softmax, log_softmax, logsumexp, expit, xlogy on balls enclose mpmath's values; a
special function without ball form raises NoBallForm naming it; float inputs go to scipy unchanged."""

import mpmath
import numpy as np
import pytest
import scipy.special

from theorems.arithmetic.precision import ARB, NoBallForm, balls

L = np.array([-1.5, 0.25, 2.0, 0.0])


def _close(ball, exact) -> bool:
    return ball.lower <= float(exact) <= ball.upper and float(ball.arb.rad()) < 1e-12


def _mp_logsumexp():
    return mpmath.log(sum(mpmath.exp(mpmath.mpf(x)) for x in L))


def test_softmax_family_in_balls():
    with mpmath.workdps(50), ARB.precision(128):
        lse = _mp_logsumexp()
        assert _close(scipy.special.logsumexp(balls(L)), lse)
        for p, x in zip(scipy.special.softmax(balls(L)), L):
            assert _close(p, mpmath.exp(mpmath.mpf(x) - lse))
        for q, x in zip(scipy.special.log_softmax(balls(L)), L):
            assert _close(q, mpmath.mpf(x) - lse)
        for s, x in zip(scipy.special.expit(balls(L)), L):
            assert _close(s, 1 / (1 + mpmath.exp(-mpmath.mpf(x))))


def test_float_inputs_are_unchanged():
    assert scipy.special.logsumexp(L) == pytest.approx(float(_mp_logsumexp()), rel=1e-15)
    assert isinstance(scipy.special.softmax(L), np.ndarray) and scipy.special.softmax(L).dtype == float


def test_special_function_without_ball_form_is_named():
    with pytest.raises(NoBallForm, match="scipy.special.erf"):
        scipy.special.erf(balls(L))
