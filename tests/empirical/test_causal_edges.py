"""Causal rows that see at most N keys are counted apart; heads with δ = 0 are outside Theorem 2's hypotheses."""

import numpy as np
import pytest

from empirical import algorithms
from setups import setup_of
from empirical.checks import Check, edge_rows, merge, tally

pytestmark = pytest.mark.empirical


def test_a_violation_on_a_row_that_sees_n_keys_is_counted_apart_not_in_the_rate():
    check = Check("theorem1.fixed.norm.normalised", "lhs", "rhs")
    lhs = np.zeros((1, 1, 2, 4))                     # [B, layer, head, R]
    lhs[0, 0, 0, 0] = 1.0                            # violated on row 0 (sees N = 3 keys) only
    values = {"lhs": lhs, "rhs": np.zeros_like(lhs)}
    counts = np.array([3, 4, 5, 6])
    one = tally(check, values, np.arange(2, 6), context={"n": 3}, counts=counts)
    assert (one["evaluated"], one["violations"]) == (6, 0)
    apart = one["outside_hypotheses"]["rows_at_most_n_keys"]
    assert (apart["entries"], apart["rows"], apart["violations"]) == (2, 1, 1)
    merged = merge([one, one])["theorem1.fixed.norm.normalised"]
    assert merged["outside_hypotheses"]["rows_at_most_n_keys"]["violations"] == 2 and merged["violations"] == 0


def test_without_counts_every_row_is_evaluated_so_the_violation_shows():
    check = Check("theorem1.fixed.norm.normalised", "lhs", "rhs")
    lhs = np.zeros((1, 1, 1, 2))
    lhs[..., 0] = 1.0
    one = tally(check, {"lhs": lhs, "rhs": np.zeros_like(lhs)}, np.arange(2), context={"n": 3})
    assert one["violations"] == 1 and one["outside_hypotheses"] == {}


def test_only_theorem1_fixed_statements_set_rows_apart():
    assert edge_rows("theorem1.fixed.sum.max-norm", np.array([2, 9]), {"n": 2}).tolist() == [True, False]
    assert edge_rows("corollary3.spectral", np.array([2, 9]), {"n": 2}) is None


def test_heads_with_repeated_values_have_delta_zero_and_get_no_theorem2_bound(tiny_gguf):
    # random ids from a 64-token vocabulary repeat within 32 tokens; layer 0 of a rotary model then repeats values
    setup = setup_of(tiny_gguf, text=None, windows=1, progress=False)
    result = algorithms.separability(setup, length=32, ns=(2,), tokens=8)
    outside = result["outside_hypotheses"]
    layer0 = {(h["layer"], h["head"]) for h in outside["heads"] if h["layer"] == 0}
    assert layer0 == {(0, head) for head in range(4)}
    lower = np.asarray(result["points"][0]["per_head"]["lower"]).reshape(2, 4)
    assert np.isnan(lower[0]).all()
    assert np.isfinite(lower[1][[h for h in range(4) if (1, h) not in {(x["layer"], x["head"]) for x in outside["heads"]}]]).all()
