"""One pass over the heads for Figs. 2a, 2b and 2c: ``d̃`` (both readings) and the estimate at every ``N``.

:func:`empirical.kernels.distance_grid` gives the sum reading of ``d̃`` and the random-selection main sum at
every ``N`` of a grid from one sort per (head, query); :func:`norm_reading` adds the norm reading
``‖Σ_{i∉I_N} α_i x_i − s‖ = ‖Σ_i α_i x_i − 2s‖`` (``theorems.maths.distance.distance(reading="norm")``) from the
same order. Fig. 2a reads ``N = 5``, Fig. 2b its ``N`` grid and Fig. 2c the half-octave grid, all from the
same blocks. A row that sees fewer than ``N`` keys is NaN at that ``N`` (left out of the token means).

>>> values = distances(heads, grid=(1, 5, 10), norm_ns=(5,), tokens=None, budget=1 << 25)   # doctest: +SKIP
>>> values["distance_sum"].shape                                      # doctest: +SKIP
(1, 6, 12, 512, 3)
"""

from __future__ import annotations

import numpy as np

from empirical.heads.extraction import Heads
from empirical.heads.rows import map_rows, valid_rows
from empirical.kernels import distance_grid


def norm_reading(alpha, x, ns, *, mask) -> np.ndarray:
    """``[H, C, len(ns)]``: ``‖Σ_i α_i x_i − 2·Σ_{j∈I_N} α_j x_j‖`` with ``I_N`` the top ``N`` (ties to the lower index)."""
    valid = np.broadcast_to(mask, alpha.shape)
    x_heads = x.reshape(x.shape[0], *x.shape[-2:])  # [H, L, d]
    weights = np.where(valid, alpha, 0.0)  # [H, C, L]
    order = np.argsort(np.where(valid, -alpha, np.inf), axis=-1, kind="stable")
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(alpha.shape[-1]), axis=-1)  # [H, C, L]
    counts = valid.sum(-1)  # [H, C]
    total = np.matmul(weights, x_heads)  # [H, C, d]
    out = np.full((*alpha.shape[:-1], len(ns)), np.nan)
    for k, n in enumerate(ns):  # a loop over the N grid, never over tokens
        s = np.matmul(weights * (rank < n), x_heads)  # [H, C, d]
        out[..., k] = np.where(counts >= n, np.linalg.norm(total - 2 * s, axis=-1), np.nan)
    return out


def distances(heads: Heads, *, grid, norm_ns, tokens: int | None, budget: int) -> dict[str, np.ndarray]:
    """``distance_sum``, ``estimate`` ``[B, layer, head, R, len(grid)]`` and ``distance_norm`` ``[..., len(norm_ns)]``."""
    def function(rows):
        out = distance_grid(rows.alpha, rows.x, grid, mask=rows.mask)
        out["distance_norm"] = norm_reading(rows.alpha, rows.x, norm_ns, mask=rows.mask)
        return out

    index = valid_rows(heads, min_keys=1, tokens=tokens)
    return map_rows(heads, function, index=index, budget=budget).values
