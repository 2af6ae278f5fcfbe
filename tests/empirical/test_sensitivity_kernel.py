"""Algorithm 5's kernel (one softmax per T, trimmed keys) against the reference functions, block by block."""

import numpy as np
import pytest

from empirical.kernels import sensitivity_block
from theorems.maths.gradient_sensitivity import finite_difference_sensitivity, softmax_jacobian_norms

pytestmark = pytest.mark.empirical

TEMPERATURES = (0.01, 0.3, 1.0, 10.0)
EPSILONS = (1e-3, 0.1, 10.0)


def _block(kind: str, seed: int):
    rng = np.random.default_rng(seed)
    heads, rows, length = 3, 7, 19
    logits = rng.normal(size=(heads, rows, length)) * (30.0 if kind == "peaked" else 2.0)
    if kind == "causal-prefix":  # early causal rows: most keys unseen by every row of the block
        mask = np.tril(np.ones((rows, length), bool), 2)
    elif kind == "full":
        mask = np.ones((rows, length), bool)
    else:
        mask = rng.random((rows, length)) < 0.6
        mask[:, 0] = True
    return np.where(mask, logits, 0.0), mask


@pytest.mark.parametrize("kind", ["causal-prefix", "full", "scattered", "peaked"])
@pytest.mark.parametrize("seed", [0, 1])
def test_the_kernel_gives_the_references_numbers(kind, seed):
    logits, mask = _block(kind, seed)
    got = sensitivity_block(logits, TEMPERATURES, EPSILONS, seed=11 + seed, mask=mask)
    norms = softmax_jacobian_norms(logits, TEMPERATURES, mask=mask)
    for key, value in norms.items():
        np.testing.assert_allclose(got[f"jacobian_{key}"], value, rtol=1e-13, atol=0, err_msg=key)
    g = finite_difference_sensitivity(logits, TEMPERATURES, EPSILONS, seed=11 + seed, mask=mask)
    assert got["g"].shape == g.shape == (3, 7, len(TEMPERATURES), len(EPSILONS))
    # g = ‖softmax(moved) − softmax(l)‖/ε: both softmaxes are exact to a few ulps of 1 per key, so the
    # difference (and so g) is the reference's own to √L·8ε_mach/ε absolute, whatever the order of the sums
    rounding = np.sqrt(logits.shape[-1]) * 8 * np.finfo(float).eps / np.asarray(EPSILONS)
    assert np.all(np.abs(got["g"] - g) <= 1e-12 * np.abs(g) + rounding), np.max(np.abs(got["g"] - g) / rounding)


def test_another_seed_moves_g_and_not_the_norms():
    logits, mask = _block("full", 0)
    first = sensitivity_block(logits, TEMPERATURES, EPSILONS, seed=1, mask=mask)
    second = sensitivity_block(logits, TEMPERATURES, EPSILONS, seed=2, mask=mask)
    assert not np.allclose(first["g"], second["g"])
    # bitwise: the norms never read the seed, so both runs are one computation on the same logits
    assert np.array_equal(first["jacobian_spectral"], second["jacobian_spectral"])


@pytest.mark.parametrize("arguments, message", [
    (dict(temperatures=(0.0,)), "temperatures"),
    (dict(epsilons=(-1.0,)), "epsilons"),
    (dict(mask=np.zeros((7, 19), bool)), "at least one valid key"),
])
def test_bad_arguments_are_named(arguments, message):
    logits, mask = _block("full", 0)
    options = dict(temperatures=TEMPERATURES, epsilons=EPSILONS, mask=mask) | arguments
    with pytest.raises(ValueError, match=message):
        sensitivity_block(logits, options.pop("temperatures"), options.pop("epsilons"), **options)
