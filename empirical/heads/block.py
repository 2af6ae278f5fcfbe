"""One block of query rows, as both backends of :func:`empirical.heads.rows.map_rows` fill it, and a pass's results.

:class:`Rows` holds every head (or a group of heads) of one layer of one window for some query rows: numpy arrays on
the numpy backend, float64 tensors on the heads' device on the torch backend. :class:`RowMap` gathers a pass.
"""

from __future__ import annotations

import dataclasses

import numpy as np


@dataclasses.dataclass(frozen=True)
class Rows:
    """One block: every head of one layer of one window, query rows ``index``.

    numpy arrays (backend ``numpy``) or float64 tensors on the heads' device (backend ``torch``; there ``L`` is the
    keys some row of the block sees, a causal block's prefix of the window, and ``length`` the window's).
    """

    window: int
    layer: int
    index: np.ndarray        # [C] query positions (numpy in both backends)
    alpha: np.ndarray        # [H, C, L] float64 softmax of the float64 logits
    logits: np.ndarray       # [H, C, L] float64, 0 where masked
    x: np.ndarray            # [H, 1, L, d] float64
    mask: np.ndarray         # bool [C, L] True = key visible
    counts: np.ndarray       # [C] visible keys per row
    length: int = 0          # the window's keys
    heads: slice = dataclasses.field(default_factory=lambda: slice(None))  # which heads: a group of them on a thread
    seen: np.ndarray | None = None  # [C] numpy, per row, the keys up to its last visible one
    layer_heads: int = 0     # the layer's heads (all of them, whatever ``heads`` holds)
    keys: object = None      # torch: the heads' embeddings of the whole window with what every block reads of them,
                             # made once per (window, layer) (:class:`empirical.torch_kernels.Keys`); numpy: None


@dataclasses.dataclass(frozen=True)
class RowMap:
    """Results ``[B, layer, head, R, ...]`` for the query rows ``index`` (``R`` of them)."""

    index: np.ndarray
    values: dict[str, np.ndarray]
