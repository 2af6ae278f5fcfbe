"""Algorithms 1-5 on the tiny random GPT-2 (random token ids): shapes, plumbing, bounds that hold."""

import numpy as np
import pytest
import torch

from empirical import algorithms
from setups import setup_of

pytestmark = pytest.mark.empirical


@pytest.fixture(scope="module")
def setup(tiny_gpt2):
    return setup_of(tiny_gpt2, text=None, windows=2, progress=False, budget=4 * 32 * 8 * 5)


def test_distance_point_equals_the_theory_functions_on_one_head_and_token(setup):
    from theorems.maths.distance import distance, fixed_bound, random_main_sum

    point = algorithms.distance_point(setup, length=32, n=3)
    heads = setup.heads(32)
    # the per-head token mean of one head, recomputed row by row from the model's tensors
    window_rows = [(w, t) for w in range(2) for t in range(2, 32)]
    alpha = torch.stack([heads.alpha[w, 1, 2, t] for w, t in window_rows]).double().numpy()  # [R, L]
    mask = torch.stack([heads.visible[w, t] for w, t in window_rows]).numpy()
    x = torch.stack([heads.v[w, 1, 2] for w, _ in window_rows]).double().numpy()  # [R, L, d]
    head = 1 * 4 + 2
    assert np.isclose(point["per_head"]["distance_sum"][head], distance(alpha, x, 3, mask=mask).mean())
    assert np.isclose(point["per_head"]["bound_normalised"][head], fixed_bound(alpha, x, 3, mask=mask).mean())
    assert np.isclose(point["per_head"]["estimate"][head], random_main_sum(alpha, x, 3, mask=mask).mean())
    assert point["tokens"] == 30  # causal: rows 0 and 1 see fewer than N = 3 keys


def test_algorithm1_theorem1_sum_reading_holds_on_every_head_and_token(setup):
    result = algorithms.distance_vs_length(setup, lengths=(8, 16, 32), n=5)
    assert [p["length"] for p in result["points"]] == [8, 16, 32]
    for reading in ("sum.normalised", "sum.max-norm"):
        check = result["checks"][f"theorem1.fixed.{reading}"]
        # causal: rows 0..3 see fewer than N = 5 keys (never evaluated); row 4 sees exactly N (counted apart)
        assert check["evaluated"] == 2 * 8 * (3 + 11 + 27) and check["violations"] == 0
        assert check["outside_hypotheses"]["rows_at_most_n_keys"]["entries"] == 2 * 8 * 3


def test_algorithm2_skips_n_that_do_not_fit_and_distance_vanishes_at_n_equal_l(setup):
    result = algorithms.distance_vs_n(setup, length=16, ns=(1, 5, 15, 100))
    assert [p["n"] for p in result["points"]] == [1, 5, 15]
    last = result["points"][-1]
    assert last["tokens"] == 2  # causal rows 14 and 15 see at least 15 keys


def test_algorithm3_finds_a_critical_n_at_both_levels(setup):
    result = algorithms.critical_n(setup, lengths=(16,), tokens=8)
    point = result["points"][0]
    for level in ("0.01", "0.05"):
        critical = point["critical_n"][level]
        assert critical is None or 1 <= critical <= 16
        if critical:
            p = {e["n"]: e["p_value"] for e in point["evaluated"]}
            assert p[critical] >= float(level)
            assert critical == 1 or p.get(critical - 1, 0.0) < float(level)


def test_algorithm4_fractions_lie_in_0_1_and_radius_is_positive(setup):
    result = algorithms.separability(setup, length=32, ns=(1, 4, 8))
    for point in result["points"]:
        assert 0 <= point["stats"]["fraction"]["min" if False else "median"] <= 1
        assert point["stats"]["radius"]["median"] > 0
    assert 0 <= result["delta"]["min"] <= 2


def test_algorithm5_corrected_corollary3_holds_and_the_paper_bound_is_counted(setup):
    result = algorithms.sensitivity(setup, length=16, temperatures=(0.01, 0.1, 1.0, 10.0))
    assert np.asarray(result["g_max_over_heads"]).shape == (4, 3)
    for statement, check in result["checks"].items():
        if statement.endswith(".corrected"):
            assert check["violations"] == 0, statement
    assert result["checks"]["corollary3.spectral"]["evaluated"] == 2 * 8 * 16 * 4


def test_setup_refuses_lengths_that_the_model_cannot_take(setup):
    with pytest.raises(ValueError, match="at most 64"):
        setup.lengths((128, 256))
