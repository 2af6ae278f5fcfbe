"""The fast kernels of empirical.kernels agree with the reference quantity functions, row by row."""

import numpy as np
import pytest

from empirical import kernels
from theorems.maths import distance as reference
from theorems.maths import separability as reference_sep

pytestmark = pytest.mark.empirical


def _block(*, heads=3, rows=40, length=40, dim=5, causal=True, seed=0, repeat=False):
    """alpha [H, C, L] (softmax of random logits, masked), x [H, 1, L, d], mask [C, L]."""
    rng = np.random.default_rng(seed)
    mask = np.tril(np.ones((length, length), dtype=bool))[-rows:] if causal else np.ones((rows, length), dtype=bool)
    logits = np.where(mask, rng.normal(scale=3.0, size=(heads, rows, length)), -np.inf)
    alpha = np.exp(logits - logits.max(-1, keepdims=True))
    alpha /= alpha.sum(-1, keepdims=True)
    x = rng.normal(size=(heads, 1, length, dim))
    if repeat:  # repeated embeddings and tied weights: the tie rules must agree
        x[:, :, 1::2] = x[:, :, ::2][:, :, : length // 2]
        alpha = np.round(alpha, 2)
        alpha /= alpha.sum(-1, keepdims=True)  # still weights; equal entries stay equal
    return alpha, x, mask


# bitwise (_COUNTS): N_s/N is an integer count over n, one rounded division on each side. The count compares
# distances with the radius, the closest of them (a tie by construction: measured gap 0.0); the kernel recomputes
# every distance near the radius the reference's way (kernels.separability_block), so both count the same ties.
_COUNTS = "integer counts, ties recomputed the reference's way"


def _naive_rows(function, alpha, x, mask):
    """The reference evaluated one (head, row) at a time: the naive per-token loop."""
    return np.array([[function(alpha[h, c][mask[c]], x[h, 0][mask[c]]) for c in range(alpha.shape[1])]
                     for h in range(alpha.shape[0])])


@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("center", ["normalised", "max-norm"])
@pytest.mark.parametrize("n", [1, 3, 10])
def test_fixed_bound_agrees_with_the_per_token_reference(causal, center, n):
    alpha, x, mask = _block(causal=causal, seed=n)
    keep = mask.sum(-1) >= n
    alpha, mask = alpha[:, keep], mask[keep]
    fast = kernels.fixed_bound(alpha, x, n, center=center, mask=mask)
    naive = _naive_rows(lambda a, v: reference.fixed_bound(a, v, n, center=center), alpha, x, mask)
    np.testing.assert_allclose(fast, naive, rtol=1e-10, atol=1e-12)


def test_fixed_bound_agrees_on_repeated_embeddings_and_tied_weights():
    alpha, x, mask = _block(repeat=True, seed=7)
    keep = mask.sum(-1) >= 4
    fast = kernels.fixed_bound(alpha[:, keep], x, 4, mask=mask[keep])
    np.testing.assert_allclose(fast, reference.fixed_bound(alpha[:, keep], x, 4, mask=mask[keep]), rtol=1e-10)


@pytest.mark.parametrize("n", [1, 2, 8])
def test_separability_block_agrees_with_the_per_token_reference(n):
    alpha, x, mask = _block(seed=10 + n)
    keep = mask.sum(-1) >= n + 1
    alpha, mask = alpha[:, keep], mask[keep]
    x = x / np.linalg.norm(x, axis=-1, keepdims=True)
    delta = np.array([[0.1], [0.2], [0.05]])
    fast = kernels.separability_block(alpha, x, n, delta=delta, mask=mask)
    radius = _naive_rows(lambda a, v: reference_sep.default_radius(a, v, n), alpha, x, mask)
    np.testing.assert_allclose(fast["radius"], radius, rtol=1e-9)
    count = _naive_rows(lambda a, v: reference_sep.separable_count(a, v, n, reference_sep.default_radius(a, v, n)),
                        alpha, x, mask)
    np.testing.assert_array_equal(fast["fraction"], count / n)  # bitwise: see _COUNTS
    for h in range(alpha.shape[0]):
        lower = reference_sep.separability_lower_bound(alpha[h], n, radius[h], M=1.0, delta=delta[h, 0], mask=mask)
        np.testing.assert_allclose(fast["lower"][h], lower, rtol=1e-9)
        for key, exponent in (("upper_2M2", "2M^2"), ("upper_16M2", "16M^2")):
            upper = reference_sep.separability_upper_bound(alpha[h], n, radius[h], M=1.0, delta=delta[h, 0],
                                                           exponent=exponent, mask=mask)
            np.testing.assert_allclose(fast[key][h], upper, rtol=1e-9)


@pytest.mark.parametrize("causal", [True, False])
def test_distance_grid_agrees_with_the_per_token_reference_at_every_n(causal):
    alpha, x, mask = _block(causal=causal, seed=3, rows=20)
    ns = (1, 2, 5, 19, 30)
    fast = kernels.distance_grid(alpha, x, ns, mask=mask, norm=True)
    for k, n in enumerate(ns):
        fits = mask.sum(-1) >= n
        assert np.all(np.isnan(fast["distance_sum"][:, ~fits, k])) and np.all(np.isnan(fast["distance_norm"][:, ~fits, k]))
        a, m = alpha[:, fits], mask[fits]
        np.testing.assert_allclose(fast["distance_sum"][:, fits, k],
                                   _naive_rows(lambda u, v: reference.distance(u, v, n), a, x, m), rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(fast["estimate"][:, fits, k],
                                   _naive_rows(lambda u, v: reference.random_main_sum(u, v, n), a, x, m),
                                   rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(fast["distance_norm"][:, fits, k],
                                   _naive_rows(lambda u, v: reference.distance(u, v, n, reading="norm"), a, x, m),
                                   rtol=1e-12, atol=1e-14)


def test_distance_grid_breaks_ties_like_the_reference():
    alpha, x, mask = _block(repeat=True, seed=5)
    fast = kernels.distance_grid(alpha, x, (3,), mask=mask)
    fits = mask.sum(-1) >= 3
    np.testing.assert_allclose(fast["distance_sum"][:, fits, 0],
                               reference.distance(alpha[:, fits], x, 3, mask=mask[fits]), rtol=1e-9, atol=1e-12)


def test_the_scan_reports_every_rejection_after_the_first_non_rejecting_n():
    from empirical.algorithms import ks_scan

    scan = ks_scan((1, 2, 4, 8, 16), [0.001, 0.2, 0.003, 0.5, 0.6], 0.01)
    assert scan == {"first": 2, "stable": 8, "rejections_after_first": [4], "monotone": False}
    assert ks_scan((1, 2, 4), [0.001, 0.2, 0.3], 0.01)["monotone"] is True
    assert ks_scan((1, 2), [0.001, 0.002], 0.01)["first"] is None


def test_algorithm3_scans_the_whole_grid_and_agrees_with_the_distance_point(tiny_gpt2):
    from empirical import algorithms
    from setups import setup_of

    setup = setup_of(tiny_gpt2, text=None, windows=1, progress=False)
    result = algorithms.critical_n(setup, lengths=(32,))
    point = result["points"][0]
    assert point["grid"] == list(algorithms.critical_grid(32)) == [e["n"] for e in point["evaluated"]]
    for entry in point["evaluated"][:3]:  # the per-head means at one N equal Algorithms 1-2's
        reference = algorithms.distance_point(setup, length=32, n=entry["n"], checks=False,
                                              quantities=("distance_sum", "estimate"))
        assert np.isclose(entry["distance_mean"], np.nanmean(reference["per_head"]["distance_sum"]), rtol=1e-12)
        assert np.isclose(entry["estimate_mean"], np.nanmean(reference["per_head"]["estimate"]), rtol=1e-12)


def test_algorithm2_in_one_pass_equals_one_pass_per_n(tiny_gpt2):
    from empirical import algorithms
    from setups import setup_of

    setup = setup_of(tiny_gpt2, text=None, windows=2, progress=False, budget=4 * 32 * 8 * 5)
    together = algorithms.distance_points(setup, length=32, ns=(1, 3, 20))
    for point in together:  # causal rows: fewer rows at larger N
        alone = algorithms.distance_point(setup, length=32, n=point["n"])
        assert point["tokens"] == alone["tokens"]
        for key, values in alone["per_head"].items():
            np.testing.assert_allclose(point["per_head"][key], values, rtol=1e-13)
        assert [c["violations"] for c in point["checks"]] == [c["violations"] for c in alone["checks"]]
        assert [c["evaluated"] for c in point["checks"]] == [c["evaluated"] for c in alone["checks"]]


def _early_rows(seed: int, rows: int = 12):
    """The first ``rows`` causal rows of a 40-key block: most keys are seen by no row (the kernels drop them)."""
    alpha, x, mask = _block(seed=seed)
    assert kernels.seen_keys(mask[:rows]) == rows < mask.shape[-1]
    return alpha[:, :rows], x, mask[:rows]


@pytest.mark.parametrize("n", [1, 4])
def test_the_kernels_agree_with_the_reference_on_a_block_of_early_causal_rows(n):
    alpha, x, mask = _early_rows(seed=20 + n)
    keep = mask.sum(-1) >= n + 1
    alpha, mask = alpha[:, keep], mask[keep]
    for center in ("normalised", "max-norm"):
        naive = _naive_rows(lambda a, v: reference.fixed_bound(a, v, n, center=center), alpha, x, mask)
        np.testing.assert_allclose(kernels.fixed_bound(alpha, x, n, center=center, mask=mask), naive, rtol=1e-10)
    grid = kernels.distance_grid(alpha, x, (n,), mask=mask, norm=True)
    np.testing.assert_allclose(grid["distance_norm"][..., 0],
                               _naive_rows(lambda u, v: reference.distance(u, v, n, reading="norm"), alpha, x, mask),
                               rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(grid["distance_sum"][..., 0],
                               _naive_rows(lambda u, v: reference.distance(u, v, n), alpha, x, mask), rtol=1e-9)
    np.testing.assert_allclose(grid["estimate"][..., 0],
                               _naive_rows(lambda u, v: reference.random_main_sum(u, v, n), alpha, x, mask), rtol=1e-9)
    unit = x / np.linalg.norm(x, axis=-1, keepdims=True)
    fast = kernels.separability_block(alpha, unit, n, delta=np.array([[0.1], [0.2], [0.05]]), mask=mask)
    radius = _naive_rows(lambda a, v: reference_sep.default_radius(a, v, n), alpha, unit, mask)
    np.testing.assert_allclose(fast["radius"], radius, rtol=1e-9)
    count = _naive_rows(lambda a, v: reference_sep.separable_count(a, v, n, reference_sep.default_radius(a, v, n)),
                        alpha, unit, mask)
    np.testing.assert_array_equal(fast["fraction"], count / n)  # bitwise: see _COUNTS


def test_seen_keys_covers_a_scattered_mask():
    mask = np.zeros((3, 10), dtype=bool)
    mask[0, 2], mask[2, 6] = True, True
    assert kernels.seen_keys(mask) == 7
    assert kernels.seen_keys(np.ones((2, 5), dtype=bool)) == 5


@pytest.mark.parametrize("n", [1, 4])
def test_separability_block_counts_like_the_reference_on_repeated_embeddings_and_tied_weights(n):
    alpha, x, mask = _block(repeat=True, seed=n)
    keep = mask.sum(-1) >= n + 1
    alpha, mask = alpha[:, keep], mask[keep]
    x = x / np.linalg.norm(x, axis=-1, keepdims=True)
    fast = kernels.separability_block(alpha, x, n, delta=np.array([[0.1], [0.2], [0.05]]), mask=mask)
    count = _naive_rows(lambda a, v: reference_sep.separable_count(a, v, n, reference_sep.default_radius(a, v, n)),
                        alpha, x, mask)
    np.testing.assert_array_equal(fast["fraction"], count / n)  # bitwise: see _COUNTS
    radius = _naive_rows(lambda a, v: reference_sep.default_radius(a, v, n), alpha, x, mask)
    np.testing.assert_allclose(fast["radius"], radius, rtol=1e-9)


def test_algorithms_1_and_2_keep_the_order_of_their_quantities_in_the_results(tiny_gpt2):
    from empirical import algorithms
    from setups import setup_of

    setup = setup_of(tiny_gpt2, text=None, windows=1, progress=False)
    order = list(algorithms.DISTANCE_QUANTITIES)
    assert list(algorithms.distance_point(setup, length=32, n=3, checks=False)["per_head"]) == order
    for point in algorithms.distance_points(setup, length=32, ns=(1, 3)):
        assert list(point["per_head"]) == list(point["stats"]) == order
