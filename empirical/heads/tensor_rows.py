"""``map_rows`` on the torch backend: blocks of rows as float64 tensors on the heads' device, results gathered there.

A block's weights, logits and mask span only the keys its rows see (a causal block of early rows sees a prefix of
the window). On the CPU the heads of each block are split into ``workers`` groups, each evaluated with torch's own
threads set to one: every group sees the blocks in order (a row function may carry state from one block to the next,
as Theorem 1's running tables do), and no operation waits at a barrier for a descheduled thread (torch's intra-op
threads did, on a loaded machine, 4 to 20 times slower). With every head in memory on Linux each group but the
first runs in a forked process (:mod:`empirical.heads.forked_groups`: no GIL between the groups); otherwise each
group runs on its own thread. On another device one thread evaluates every head: the device is the parallel part.

>>> out = map_tensor_rows(heads, function, index, starts)          # doctest: +SKIP
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import functools
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch

from empirical.heads.block import Rows
from empirical.heads.extraction import Heads
from empirical.heads.forked_groups import can_fork, evaluate_in_processes
from empirical.torch_kernels import Keys

IN_FLIGHT = 2
"""Blocks submitted ahead per group of heads (the next is built while the last runs)."""


@dataclasses.dataclass(frozen=True)
class Block:
    """One block of rows of one (window, layer), to be cut into :class:`empirical.heads.rows.Rows` per group of heads."""

    window: int
    layer: int
    index: np.ndarray     # [C] query positions
    at: torch.Tensor      # [C] the same, on the device
    keys: int             # the keys some row of the block sees (a prefix of the window)
    seen: np.ndarray      # [C] per row, the keys up to its last visible one
    logits: torch.Tensor  # [H, L, L] float32 of the (window, layer), -inf where masked
    embeddings: Keys      # the embeddings [H, L, d] float64 of the (window, layer), transposed and squared once
    visible: torch.Tensor  # [L, L]
    layer_heads: int      # the heads of the layer
    held: slice           # the heads `logits` and `embeddings` hold, slice(start, stop) (H of them)

    def rows(self, heads: slice = slice(None)):
        """The block's :class:`empirical.heads.rows.Rows` for the heads ``heads`` (of the layer; among those held):
        float64 softmax of the float32 logits (as the numpy blocks compute it), logits 0 where masked, on the keys the
        block sees."""
        heads = _absolute(heads, self.layer_heads)
        local = slice(heads.start - self.held.start, heads.stop - self.held.start)
        mask = self.visible[self.at, :self.keys]  # [C, L']
        logits = self.logits[local][:, self.at, :self.keys].to(torch.float64)  # [h, C, L'], -inf where masked
        alpha = torch.softmax(logits, dim=-1)
        keys = self.embeddings.heads(local)
        return Rows(self.window, self.layer, self.index, alpha, logits.masked_fill_(~mask, 0.0), keys.whole[:, None],
                    mask, mask.sum(-1), self.visible.shape[-1], heads=heads, seen=self.seen,
                    layer_heads=self.layer_heads, keys=keys)


def _absolute(heads: slice, count: int) -> slice:
    """``heads`` of ``count`` as ``slice(start, stop)`` (``slice(None)``: every head)."""
    start, stop, _ = heads.indices(count)
    return slice(start, stop)


def last_seen(visible: torch.Tensor) -> torch.Tensor:
    """``[..., L]`` the index of the last visible key of each row of ``visible [..., L, L]`` (0 for a row that sees
    none)."""
    positions = torch.arange(visible.shape[-1], device=visible.device)
    return torch.where(visible, positions, 0).amax(-1)


def on_unit_sphere(x: torch.Tensor) -> torch.Tensor:
    """``x [..., d]`` float64 scaled to unit norm along its last axis (Algorithm 4); a zero row stays zero."""
    return x / x.norm(dim=-1, keepdim=True).clamp_min(torch.finfo(torch.float64).tiny)


def tensor_blocks(heads, index: np.ndarray, starts: list[int], *, embeddings: str = "values",
                  normalise: bool = False, held: slice = slice(None)) -> Iterator[Block]:
    """The blocks ``index[starts[b]:starts[b + 1]]`` of every (window, layer), layers in order (a
    :class:`empirical.heads.stream.HeadStream` extracts each block of layers once per pass), holding the heads ``held``
    (their logits alone are made)."""
    batch, layers, n_heads = heads.sizes[:3]
    held = _absolute(held, n_heads)
    rows_index = torch.from_numpy(np.ascontiguousarray(index)).to(heads.visible.device)
    for layer in range(layers):
        layer_logits = heads.layer_logits(layer, held)  # [B, H, L, L] float32, -inf where masked
        layer_x = heads.layer_embeddings(layer, embeddings)[:, held]  # [B, H, L, d]
        for window in range(batch):
            x = layer_x[window].to(torch.float64)  # [H, L, d]
            keys = Keys.of(on_unit_sphere(x) if normalise else x)
            visible = heads.visible[window]
            seen = last_seen(visible).cpu().numpy() + 1  # [L] per row, the keys up to its last visible one
            for start, stop in zip(starts[:-1], starts[1:]):
                rows = index[start:stop]
                yield Block(window, layer, rows, rows_index[start:stop], int(seen[rows].max()), seen[rows],
                            layer_logits[window], keys, visible, n_heads, held)
        del layer_logits, layer_x


def head_groups(heads: int, workers: int) -> list[slice]:
    """``heads`` cut into ``min(workers, heads)`` contiguous groups of sizes differing by at most one.

    >>> head_groups(12, 2), head_groups(3, 5)
    ([slice(0, 6, None), slice(6, 12, None)], [slice(0, 1, None), slice(1, 2, None), slice(2, 3, None)])
    """
    count = max(1, min(workers, heads))
    edges = np.linspace(0, heads, count + 1).round().astype(int)
    return [slice(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:])]


@contextlib.contextmanager
def _torch_threads(count: int):
    """torch's intra-op threads set to ``count`` inside the block, restored after."""
    previous = torch.get_num_threads()
    torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(previous)


def map_tensor_rows(heads, function: Callable, index: np.ndarray, starts: list[int], *, embeddings: str = "values",
                    normalise: bool = False, progress=None, workers: int = 1) -> dict[str, np.ndarray]:
    """``function`` on every block of every (window, layer) as tensors; the results ``[B, layer, head, R, ...]``
    gathered on the heads' device and returned as numpy arrays once (one transfer per pass).

    On the CPU with ``workers > 1`` each block's heads are cut into groups (:func:`head_groups`): with every head in
    memory on Linux each group but the first runs in a forked process (:mod:`empirical.heads.forked_groups`), else
    each group on its own thread in block order; ``function`` must then be safe to call from several threads on
    different heads.
    """
    n_heads = heads.sizes[2]
    groups = head_groups(n_heads, workers) if heads.visible.device.type == "cpu" else [slice(None)]
    every = functools.partial(tensor_blocks, heads, index, starts, embeddings=embeddings, normalise=normalise)

    def run_group(group: slice, first: bool) -> dict[str, np.ndarray]:
        """The whole pass for the heads ``group`` alone (``first``: the one that advances the progress bar)."""
        gathered = _Gathered(heads, index, group)
        for block in every(held=group):
            gathered.store(block, slice(None), function(block.rows(group)))
            if first and progress is not None:
                progress.update(1)
        return gathered.numpy()

    if len(groups) == 1:
        return run_group(groups[0], True)
    if isinstance(heads, Heads) and can_fork():
        with _torch_threads(1):
            parts = evaluate_in_processes(run_group, groups)
        return {key: np.concatenate([part[key] for part in parts], axis=2) for key in parts[0]}
    gathered = _Gathered(heads, index, slice(None))
    _on_threads(every(), function, groups, gathered.store, progress)
    return gathered.numpy()


class _Gathered:
    """A pass's results ``[B, layer, head, R, ...]`` for the heads ``group``, filled block by block on the heads'
    device (NaN where no block wrote)."""

    def __init__(self, heads, index: np.ndarray, group: slice) -> None:
        self.batch, self.layers, n_heads = heads.sizes[:3]
        self.heads = len(range(n_heads)[group])
        self.index = index
        self.out: dict[str, torch.Tensor] = {}

    def store(self, block: Block, group: slice, result: dict) -> None:
        positions = torch.as_tensor(np.searchsorted(self.index, block.index))
        for key, value in result.items():
            if key not in self.out:
                dtype = value.dtype if value.is_floating_point() else torch.float64
                self.out[key] = torch.full((self.batch, self.layers, self.heads, len(self.index), *value.shape[2:]),
                                           float("nan"), dtype=dtype, device=value.device)
            self.out[key][block.window, block.layer, group][:, positions.to(value.device)] = value

    def numpy(self) -> dict[str, np.ndarray]:
        return {key: value.cpu().numpy() for key, value in self.out.items()}


def _on_threads(every: Iterator[Block], function: Callable, groups: list[slice], store, progress) -> None:
    """Each group of heads on its own thread, the blocks in order; results stored in the calling thread."""
    pending: collections.deque = collections.deque()
    executors = [ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"heads-{g}") for g in range(len(groups))]

    def finish_oldest() -> None:
        block, futures = pending.popleft()
        for group, future in zip(groups, futures):
            store(block, group, future.result())
        if progress is not None:
            progress.update(1)

    try:
        with _torch_threads(1):
            for block in every:
                pending.append((block, [executor.submit(lambda b=block, g=group: function(b.rows(g)))
                                        for executor, group in zip(executors, groups)]))
                while len(pending) > IN_FLIGHT:
                    finish_oldest()
            while pending:
                finish_oldest()
    finally:
        for _, futures in pending:  # an error in one block: the others are not started
            for future in futures:
                future.cancel()
        for executor in executors:
            executor.shutdown(wait=True)
