"""The torch backend's device path, run on the CPU device: the code a GPU runs (no GPU is lent to these tests).

On a GPU the torch backend evaluates every head of a block on one thread, selects the top ``N`` with torch's own
sort and runs torch's operations where the CPU runs its fused loops (``empirical.fused_kernels``); on the CPU it cuts
the heads into groups and selects with numpy's. Here the CPU runs the GPU's choices (one group, torch's selection,
torch's operations) and the tests require the same results as the CPU's groups and selection on the same operations
(the fused loops' own agreement is within rounding: ``test_backends.py``, ``test_fused_kernels.py``), and that a pass
over the rows moves no block of the heads off the device: the only tensors brought to numpy are the pass's gathered
results.
"""

import json

import numpy as np
import pytest
import torch

from empirical import algorithms, torch_kernels
from empirical.setup import Setup
from setups import setup_of

pytestmark = pytest.mark.empirical


def _run(setup, run_every_algorithm):
    return json.dumps(run_every_algorithm(setup), sort_keys=True, default=str)


def test_the_device_path_gives_the_cpu_path_results(tiny_gpt2, run_every_algorithm, monkeypatch):
    monkeypatch.setattr(torch_kernels, "FUSED_LOOPS", False)  # torch's operations in both
    cpu = _run(setup_of(tiny_gpt2, text=None, windows=2, progress=False, backend="torch", workers=2), run_every_algorithm)
    monkeypatch.setattr(torch_kernels, "SELECTION_ON_NUMPY", False)  # torch.topk/torch.sort, as on a GPU
    device = _run(setup_of(tiny_gpt2, text=None, windows=2, progress=False, backend="torch", workers=1),
                  run_every_algorithm)  # one thread for every head, as on a GPU
    assert device == cpu  # bitwise: each head's arithmetic is the same whichever group or thread holds it


def test_the_torch_selection_equals_numpy_s_on_ties(monkeypatch):
    rng = np.random.default_rng(4)
    alpha = torch.from_numpy(np.round(rng.dirichlet(np.ones(64), size=(3, 9)), 2))  # many exact ties
    valid = torch.ones(1, 9, 64, dtype=torch.bool)
    for k in (3, 40):  # a partial selection (topk) and a full sort
        numpy_order = torch_kernels.selection_order(alpha, valid, k)
        monkeypatch.setattr(torch_kernels, "SELECTION_ON_NUMPY", False)
        assert torch.equal(torch_kernels.selection_order(alpha, valid, k), numpy_order)  # bitwise: indices of the same weights
        monkeypatch.undo()


def test_a_pass_over_the_rows_moves_no_block_of_heads_off_the_device(tiny_gpt2, run_every_algorithm, monkeypatch):
    """Every block-sized tensor brought to numpy (``Tensor.numpy``, ``Tensor.tolist``) during the algorithms is one of
    the passes' gathered results (one per result array and pass): nothing per block. (On the CPU these are free; on
    a GPU each is a transfer after a ``.cpu()``, which is what the count stands for.)"""
    monkeypatch.setattr(torch_kernels, "SELECTION_ON_NUMPY", False)
    monkeypatch.setattr(torch_kernels, "FUSED_LOOPS", False)
    setup = setup_of(tiny_gpt2, text=None, windows=2, progress=False, backend="torch", workers=1)
    smallest_block = 4 * 2 * 2  # heads x rows x keys: the smallest block of the tiny model
    moved, gathered = [], []
    for name in ("numpy", "tolist"):
        original = getattr(torch.Tensor, name)

        def counting(self, *arguments, original=original, **keywords):
            if self.numel() >= smallest_block and torch.is_floating_point(self):
                moved.append(tuple(self.shape))
            return original(self, *arguments, **keywords)
        monkeypatch.setattr(torch.Tensor, name, counting)
    map_rows = Setup.map_rows

    def recording(self, heads, function, **keywords):
        mapped = map_rows(self, heads, function, **keywords)
        gathered.extend(value.shape for value in mapped.values.values())
        return mapped
    monkeypatch.setattr(Setup, "map_rows", recording)
    run_every_algorithm(setup)
    results = [shape for shape in moved if len(shape) >= 4 and shape[:3] == (2, 2, 4)]  # [B, layer, head, R, ...]
    assert sorted(results) == sorted(tuple(shape) for shape in gathered) and gathered
    others = [shape for shape in moved if shape not in results]
    # beside the results: the heads' logits read back by the mpmath confirmers of a violation (one row at a time)
    assert all(np.prod(shape) <= 24 * 24 for shape in others), others
