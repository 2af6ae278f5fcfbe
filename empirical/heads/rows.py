"""Evaluate a per-query function on every head and token, in memory-bounded chunks.

The theory functions (``theorems.maths.distance``, ``theorems.maths.separability``, ...) are vectorised over
leading dimensions: here they receive, for one window and one layer, every head at once and a block
of query rows, ``alpha [H, C, L]`` with the head's embeddings ``x [H, 1, L, d]`` shared by its
queries and the causal ``mask [C, L]``. The block size ``C`` keeps ``H·C·L·width`` under a budget of
array entries, so an ``L = 1024`` GPT-2 layer never materialises ``[H, L, L, d]`` at once. The loops
run over windows, layers and blocks of rows, never over single tokens.

>>> out = map_rows(heads, lambda rows: {"mass": rows.alpha.sum(-1)})   # doctest: +SKIP
>>> out.values["mass"].shape                                            # doctest: +SKIP
(B, layers, heads, R)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

import numpy as np
import torch

from empirical.heads.extraction import Heads

BUDGET = 1 << 25
"""Entries (float64) of the largest ``[H, C, L, width]`` work array one block may create (256 MiB)."""


@dataclasses.dataclass(frozen=True)
class Rows:
    """One block: every head of one layer of one window, query rows ``index``."""

    window: int
    layer: int
    index: np.ndarray        # [C] query positions
    alpha: np.ndarray        # [H, C, L] float64 softmax of the float64 logits
    logits: np.ndarray       # [H, C, L] float64, 0 where masked
    x: np.ndarray            # [H, 1, L, d] float64
    mask: np.ndarray         # bool [C, L] True = key visible
    counts: np.ndarray       # [C] visible keys per row


@dataclasses.dataclass(frozen=True)
class RowMap:
    """Results ``[B, layer, head, R, ...]`` for the query rows ``index`` (``R`` of them)."""

    index: np.ndarray
    values: dict[str, np.ndarray]


def valid_rows(heads: Heads, *, min_keys: int = 1, max_keys: int | None = None, tokens: int | None = None) -> np.ndarray:
    """Query rows with at least ``min_keys`` (and at most ``max_keys``) visible keys in every window.

    ``tokens`` keeps that many of them, evenly spaced (a subsample for the costly searches).
    """
    counts = heads.visible.sum(-1).min(0).values.numpy()  # [L] fewest visible keys over windows
    ok = counts >= min_keys
    if max_keys is not None:
        ok &= counts <= max_keys
    index = np.flatnonzero(ok)
    if tokens is not None and len(index) > tokens:
        index = index[np.unique(np.linspace(0, len(index) - 1, tokens).round().astype(int))]
    return index


def blocks(heads: Heads, index: np.ndarray, *, embeddings: str = "values", width: int | None = None,
           budget: int = BUDGET, normalise: bool = False) -> Iterator[Rows]:
    """The blocks of rows ``index``, layer by layer and window by window, as float64 numpy arrays.

    ``width`` is the largest trailing size a function creates per (query, key) pair (``d`` by
    default); ``normalise`` puts every embedding on the unit sphere (Algorithm 4). One layer's
    ``[B, H, L, L]`` logits exist at a time (:meth:`Heads.layer_logits`); layers come in order, so a
    :class:`empirical.heads.stream.HeadStream` extracts each block of layers once per pass.
    """
    batch, layers, n_heads, length = heads.sizes
    dim = heads.embedding_width(embeddings)
    per_row = n_heads * length * max(width or dim, dim)
    step = max(1, budget // per_row)
    for layer in range(layers):
        layer_logits = heads.layer_logits(layer)  # [B, H, L, L] float32, -inf where masked
        layer_x = heads.layer_embeddings(layer, embeddings)  # [B, H, L, d]
        for window in range(batch):
            visible = heads.visible[window].numpy()  # [L, L]
            x = layer_x[window].to(torch.float64)  # [H, L, d]
            if normalise:
                x = x / x.norm(dim=-1, keepdim=True).clamp_min(torch.finfo(torch.float64).tiny)
            x = x.numpy()[:, None]  # [H, 1, L, d]
            for start in range(0, len(index), step):
                rows = index[start:start + step]
                logits = layer_logits[window][:, rows].to(torch.float64)  # [H, C, L], -inf where masked
                # alpha again in float64 from the same logits: the model's float32 weights sum to 1 only
                # to ~1e-7, enough to fake a violation where a bound is tight (N = L: both sides 0)
                alpha = torch.softmax(logits, dim=-1).numpy()  # [H, C, L]
                mask = visible[rows]  # [C, L]
                logits = torch.where(torch.from_numpy(mask), logits, 0.0).numpy()  # finite: masked keys -> 0
                yield Rows(window, layer, rows, alpha, logits, x, mask, mask.sum(-1))
        del layer_logits, layer_x


def map_rows(heads: Heads, function: Callable[[Rows], dict[str, np.ndarray]], *, index: np.ndarray | None = None,
             embeddings: str = "values", width: int | None = None, budget: int = BUDGET, normalise: bool = False,
             progress=None) -> RowMap:
    """Apply ``function`` (``Rows`` -> dict of ``[H, C, ...]`` arrays) to every block; stack the results.

    ``progress`` is an optional tqdm bar advanced by one per block.
    """
    index = valid_rows(heads) if index is None else np.asarray(index)
    batch, layers, n_heads = heads.sizes[:3]
    out: dict[str, np.ndarray] = {}
    for rows in blocks(heads, index, embeddings=embeddings, width=width, budget=budget, normalise=normalise):
        result = function(rows)
        positions = np.searchsorted(index, rows.index)
        for key, value in result.items():
            value = np.asarray(value)
            if key not in out:
                out[key] = np.full((batch, layers, n_heads, len(index), *value.shape[2:]), np.nan, dtype=value.dtype
                                   if value.dtype.kind == "f" else float)
            out[key][rows.window, rows.layer][:, positions] = value
        if progress is not None:
            progress.update(1)
    return RowMap(index, out)


def count_blocks(heads: Heads, index: np.ndarray, *, embeddings: str = "values", width: int | None = None,
                 budget: int = BUDGET) -> int:
    """How many blocks :func:`map_rows` will evaluate (for a progress bar's total)."""
    batch, layers, n_heads, length = heads.sizes
    dim = heads.embedding_width(embeddings)
    step = max(1, budget // (n_heads * length * max(width or dim, dim)))
    return batch * layers * -(-len(index) // step)
