"""The sampler of Assumption 1 is uniform on the sphere: one coordinate follows its known law.

For ``x`` uniform on ``S^{d−1}(M)``, ``(x_1/M + 1)/2 ~ Beta((d−1)/2, (d−1)/2)`` (d ≥ 2; the
arcsine law for d = 2). A Kolmogorov–Smirnov test on seeded samples must accept it, and must
reject the clustered law used to probe Assumption 1, so the test can fail.
"""

import numpy as np
import pytest
from scipy import stats

from theorems.maths.separability_sampling import sample_configurations

SAMPLES = 4000


def _first_coordinate(dim, law, radius=2.0, seed=0):
    x, _ = sample_configurations(samples=SAMPLES, length=2, dim=dim, radius=radius, seed=seed, law=law)
    return (x[:, :, 0].ravel() / radius + 1) / 2                              # [2·S] in [0, 1]


@pytest.mark.parametrize("dim", [2, 3, 5, 16])
def test_one_coordinate_follows_the_beta_law(dim):
    law = stats.beta((dim - 1) / 2, (dim - 1) / 2)
    assert stats.kstest(_first_coordinate(dim, "uniform"), law.cdf).pvalue > 1e-3


@pytest.mark.parametrize("dim", [2, 5])
def test_the_clustered_probe_is_rejected(dim):
    law = stats.beta((dim - 1) / 2, (dim - 1) / 2)
    assert stats.kstest(_first_coordinate(dim, "clustered"), law.cdf).pvalue < 1e-6


def test_points_lie_on_the_sphere_and_the_seed_reproduces_them():
    x, _ = sample_configurations(samples=50, length=3, dim=4, radius=2.5, min_distance=1.0, seed=3)
    again, _ = sample_configurations(samples=50, length=3, dim=4, radius=2.5, min_distance=1.0, seed=3)
    np.testing.assert_allclose(np.linalg.norm(x, axis=-1), 2.5)
    np.testing.assert_array_equal(x, again)  # bitwise: the same seed must replay the same computation
