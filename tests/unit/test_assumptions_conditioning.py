"""What Assumption 2 does to Assumption 1: measured, for the docs and as a guard.

Under Assumption 1 alone ``E[x_jᵀx_k] = 0``. Conditioning on a minimum distance makes it negative
(for L = 2 exactly: the conditional law of the cosine is the Beta law cut at ``1 − δ²/(2M²)``).
"""

import numpy as np
import pytest
from scipy import integrate, stats

from theorems.maths.separability_sampling import sample_configurations


def _mean_cosine(length, dim, delta, samples=20000, seed=0):
    x, rate = sample_configurations(samples=samples, length=length, dim=dim, radius=1.0, min_distance=delta, seed=seed)
    gram = x @ np.swapaxes(x, -1, -2)
    return (gram.sum(axis=(-2, -1)) - length).mean() / (length * (length - 1)), rate


@pytest.mark.parametrize("dim, delta", [(2, 1.0), (3, 1.2), (8, 1.3)])
def test_two_points_match_the_truncated_law(dim, delta):
    """``t = x_1ᵀx_2/M²`` has density ∝ (1 − t²)^((d−3)/2); conditioning cuts it at 1 − δ²/2."""
    cut = 1 - delta ** 2 / 2
    law = stats.beta((dim - 1) / 2, (dim - 1) / 2, loc=-1, scale=2)
    exact = integrate.quad(lambda t: t * law.pdf(t), -1, cut)[0] / law.cdf(cut)
    measured, rate = _mean_cosine(2, dim, delta)
    assert measured == pytest.approx(exact, abs=0.02) and rate == pytest.approx(law.cdf(cut), abs=0.02)
    assert exact < -0.05


def test_without_assumption_2_the_mean_is_zero():
    measured, rate = _mean_cosine(4, 3, 0.0)
    assert rate == 1.0 and abs(measured) < 0.02
