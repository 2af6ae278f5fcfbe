"""Bad input to the distance API fails early with a message naming the argument."""

import numpy as np
import pytest

from theorems.maths import distance as D

ALPHA, X = np.full(4, 0.25), np.eye(4)[:, :2]


@pytest.mark.parametrize("call, error, message", [
    (lambda: D.distance(ALPHA, X, 0), ValueError, "n=0"),
    (lambda: D.distance(ALPHA, X, 5), ValueError, "n=5"),
    (lambda: D.distance(ALPHA, X, 2.0), TypeError, "n=2.0"),
    (lambda: D.distance(ALPHA, X[:3], 2), ValueError, "x must have shape"),
    (lambda: D.distance(ALPHA, X, 2, reading="max"), ValueError, "reading"),
    (lambda: D.fixed_bound(ALPHA, X, 2, center="mean"), ValueError, "center"),
    (lambda: D.distance(np.array([0.5, np.nan, 0.25, 0.25]), X, 2), ValueError, "alpha must be finite"),
    (lambda: D.distance(ALPHA, X, 2, mask=np.array([1, 1, 0, 0])), TypeError, "mask must be boolean"),
    (lambda: D.distance(np.array([0.5, 0.5, 0, 0]), X, 3, mask=np.array([True, True, False, False])), ValueError, "n=3"),
    (lambda: D.top_n(ALPHA, 2, mask=np.zeros(4, bool)), ValueError, "without any valid key"),
    (lambda: D.distance(np.full((2, 4), 0.25), np.zeros((3, 4, 2)), 1), ValueError, "do not broadcast"),
])
def test_bad_input_is_named(call, error, message):
    with pytest.raises(error, match=message):
        call()
