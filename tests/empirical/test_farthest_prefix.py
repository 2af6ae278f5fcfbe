"""Theorem 1's running top-2 (``torch_kernels.FarthestPrefix``) read block by block against the numpy table
(``kernels.farthest_table``, the reference), exactly: integer embeddings make every ``T[j, i]`` exact whatever the
order of the products' sums, and tie everywhere, so the rules for ties (the later index wins) are what is tested."""

import numpy as np
import pytest
import torch

from empirical import kernels, torch_kernels

pytestmark = pytest.mark.empirical


def _reference(x: np.ndarray, index: np.ndarray, columns: np.ndarray) -> tuple[np.ndarray, ...]:
    table = kernels.farthest_table(x)
    h = np.arange(x.shape[0])[:, None, None]
    at = columns[None, :, None]
    return tuple(table[name][h, index, at] for name in ("first", "first_at", "second", "second_at"))


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("fused", [True, False], ids=["fused loops", "torch operations"])
def test_prefix_read_block_by_block_equals_the_table(seed, fused, monkeypatch):
    monkeypatch.setattr(torch_kernels, "FUSED_LOOPS", fused)  # the CPU's path, and a GPU's
    monkeypatch.setattr(torch_kernels, "SWEEP_ENTRIES", 3 * 57 * 7)  # chunks of 7 columns: a block spans several
    rng = np.random.default_rng(seed)
    x = rng.integers(-2, 3, size=(3, 57, 4)).astype(float)  # [H, L, d]: many equal T[j, i]
    x[:, 30:40] = x[:, :1]  # repeated keys: equal rows of the table
    prefix = torch_kernels.FarthestPrefix(torch.from_numpy(x))
    # causal blocks of uneven sizes, then a block asked again from its start (the sweep restarts), then rows that
    # all see every key (an encoder's) and rows out of column order
    blocks = [np.arange(0, 5), np.arange(5, 6), np.arange(6, 31), np.arange(31, 57), np.arange(20, 30),
              np.full(4, 56), np.array([12, 3, 12, 40])]
    for columns in blocks:
        index = np.minimum(rng.integers(0, 57, size=(3, len(columns), 6)), columns[None, :, None])  # keys seen
        got = prefix.lookup(torch.from_numpy(index), torch.from_numpy(columns))
        for name, mine, expected in zip(("first", "first_at", "second", "second_at"), got,
                                        _reference(x, index, columns)):
            # bitwise: integer embeddings make every T[j, i] exact in both, so the two agree to the last bit
            assert np.array_equal(mine.numpy(), expected), (name, columns)
