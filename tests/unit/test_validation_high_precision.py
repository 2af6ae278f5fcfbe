"""Validation never changes a high-precision evaluation: object arrays of mpmath numbers or python-flint
balls pass the checks untouched and give the same results as before the checks existed."""

import flint
import mpmath
import numpy as np
import pytest

from theorems.arithmetic.precision import MP, lift
from theorems.arithmetic.validation import check_logits, check_weights
from theorems.maths import normalisers as nz
from theorems.maths.separability import xi_squared


def test_a_normaliser_computes_in_mpmath_as_before():
    logits = np.array([0.25, -1.5, 3.0])
    with MP.precision():
        weights = nz.softmax(temperature=0.5)(lift(logits), xp=MP)
        exact = [mpmath.exp(2 * l) / sum(mpmath.exp(2 * m) for m in lift(logits)) for l in lift(logits)]
        assert all(abs(w - e) < mpmath.mpf(10) ** -45 for w, e in zip(weights, exact))
    assert weights.dtype == object


def test_flint_balls_pass_the_array_checks_unchanged():
    balls = np.array([flint.arb(1) / 3, flint.arb(2) / 3], dtype=object)
    assert check_logits(balls) is balls


def test_xi_squared_in_mpmath_and_flint_matches_float64():
    selected = np.array([0.5, 0.3])
    floats = xi_squared(selected, M=1.5, delta=0.25)
    with MP.precision():
        mp = xi_squared(lift(selected), M=mpmath.mpf(1.5), delta=mpmath.mpf(0.25))
    arb = xi_squared(np.array([flint.arb(0.5), flint.arb(0.3)], dtype=object), M=flint.arb(1.5), delta=flint.arb(0.25))
    assert np.allclose([float(v) for v in mp], floats, rtol=1e-15)
    assert np.allclose([float(v) for v in arb], floats, rtol=1e-15)


def test_weights_in_an_object_array_are_checked_in_their_float_view():
    with MP.precision():
        weights = lift(np.array([0.25, 0.75]))
    assert check_weights(weights).tolist() == [0.25, 0.75]
    with pytest.raises(ValueError, match="sums to 2.0"):
        check_weights(lift(np.array([1.0, 1.0])))
