"""Blocks of rows: every head and token is visited once, blocks respect the memory budget."""

import numpy as np
import pytest
import torch

from empirical.heads.extraction import extract
from empirical.heads.rows import blocks, count_blocks, map_rows, valid_rows

pytestmark = pytest.mark.empirical


@pytest.fixture(scope="module")
def heads(tiny_gpt2):
    return extract(tiny_gpt2, torch.randint(0, 50257, (2, 20), generator=torch.Generator().manual_seed(2)))


def test_causal_valid_rows_need_enough_keys(heads):
    assert valid_rows(heads, min_keys=5).tolist() == list(range(4, 20))
    assert valid_rows(heads, min_keys=1, max_keys=3).tolist() == [0, 1, 2]
    assert len(valid_rows(heads, min_keys=1, tokens=5)) == 5


def test_map_rows_visits_every_window_layer_head_and_token_once(heads):
    index = valid_rows(heads, min_keys=1)
    budget = 4 * 20 * 8 * 3  # three query rows per block
    assert count_blocks(heads, index, budget=budget) == 2 * 2 * 7
    mapped = map_rows(heads, lambda rows: {"mass": rows.alpha.sum(-1), "row": np.broadcast_to(rows.index, rows.alpha.shape[:2])},
                      index=index, budget=budget)
    assert mapped.values["mass"].shape == (2, 2, 4, 20)
    assert np.allclose(mapped.values["mass"], 1.0)
    assert (mapped.values["row"] == np.arange(20)).all()


def test_blocks_carry_float64_rows_and_the_causal_mask(heads):
    rows = next(blocks(heads, np.array([3, 7]), budget=10 ** 9))
    assert rows.alpha.dtype == np.float64 and rows.alpha.shape == (4, 2, 20) and rows.x.shape == (4, 1, 20, 8)
    assert rows.mask.sum(-1).tolist() == [4, 8] and rows.counts.tolist() == [4, 8]
    assert np.isfinite(rows.logits).all()


def test_normalised_blocks_put_embeddings_on_the_unit_sphere(heads):
    rows = next(blocks(heads, np.array([5]), normalise=True))
    assert np.allclose(np.linalg.norm(rows.x, axis=-1), 1.0)
