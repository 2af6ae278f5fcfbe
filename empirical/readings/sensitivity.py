"""Algorithm 5's ``g(T, ε)`` under the readings ``perturb=`` (logits or query) and ``eps=`` (absolute or relative).

``g(T, ε) = ‖softmax((l + ε·w)/T) − softmax(l/T)‖₂ / ε`` per query row, with the direction ``w``:

- ``perturb=logits``: ``w = v``, a random unit vector over the visible keys, drawn exactly as Algorithm 5 draws it
  (:func:`empirical.kernels.direction_normals`: one per window, layer, head and token; the same seed gives the same
  ``g``: the baseline equals ``reproduce``'s Alg. 5);
- ``perturb=query``: the query vector moves by ``ε·u`` (``u`` a random unit vector of ``d_head``), so the
  logits move by ``ε·scale·K u`` (``scale`` the model's ``1/√d``, or 1 under ``logits=unscaled``).

``eps=relative`` multiplies ``ε`` by the row's logit norm ``‖l‖`` (over its visible keys) in the move and
in the quotient; a row with ``‖l‖ = 0`` has no relative scale and is NaN (left out of the token means).

>>> function = sensitivity_rows(heads, [0.1, 1.0], [1e-3], perturb="query", eps="absolute", seed=0)  # doctest: +SKIP
"""

from __future__ import annotations

import numpy as np

from empirical.heads.extraction import Heads
from theorems.errors import InvalidArgument
from empirical.kernels import direction_normals, unit_directions


def masked_softmax(z: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Softmax over the last axis, the keys where ``mask`` is False left out (weight 0)."""
    z = np.where(mask, z, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    weights = np.exp(z)
    return weights / weights.sum(axis=-1, keepdims=True)


def finite_difference(logits, direction, temperatures, epsilons, *, mask, size=None) -> np.ndarray:
    """``g [..., n_T, n_ε]`` for logits ``[..., L]`` moved along ``direction [..., L]`` by ``ε·size``."""
    t = np.asarray(temperatures, dtype=float)
    e = np.asarray(epsilons, dtype=float)
    size = np.ones(logits.shape[:-1] + (1,)) if size is None else size  # [..., 1]
    step = e[:, None] * size[..., None, :]  # [..., n_ε, 1]
    moved = logits[..., None, :] + step * direction[..., None, :]  # [..., n_ε, L]
    moved_mask = mask[..., None, :]
    out = []
    for temperature in t:
        base = masked_softmax(logits / temperature, mask)[..., None, :]  # [..., 1, L]
        shifted = masked_softmax(moved / temperature, moved_mask)  # [..., n_ε, L]
        out.append(np.linalg.norm(shifted - base, axis=-1) / step[..., 0])  # [..., n_ε]
    return np.stack(out, axis=-2)


def sensitivity_rows(heads: Heads, temperatures, epsilons, *, perturb: str, eps: str, seed: int):
    """A block function for :func:`empirical.heads.rows.map_rows`: ``{"g": [H, C, n_T, n_ε]}``.

    The random directions of ``perturb="logits"`` are ``reproduce``'s (one per window, layer, head and token:
    :func:`empirical.kernels.direction_normals`), so the baseline reproduces its ``g``; the query moves of
    ``perturb="query"`` are drawn per block from the block's seed (window, layer and first row).
    """
    if perturb not in ("logits", "query") or eps not in ("absolute", "relative"):
        raise InvalidArgument(f"perturb={perturb!r} must be 'logits' or 'query', eps={eps!r} 'absolute' or 'relative'")

    def function(rows) -> dict[str, np.ndarray]:
        block_seed = seed + 7919 * rows.window + 104729 * rows.layer + int(rows.index[0])
        mask = np.broadcast_to(rows.mask, rows.logits.shape)  # [H, C, L]
        if perturb == "logits":
            normals = direction_normals(seed, window=rows.window, layer=rows.layer, index=rows.index, seen=rows.seen,
                                        heads=rows.layer_heads, keep=rows.heads, length=rows.logits.shape[-1])
            direction = unit_directions(normals, rows.mask)  # [H, C, L]
        else:
            keys = heads.k[rows.window, rows.layer].double().numpy()  # [H, L, d]
            u = np.random.default_rng(block_seed).standard_normal((*rows.logits.shape[:2], keys.shape[-1]))
            u /= np.linalg.norm(u, axis=-1, keepdims=True)  # [H, C, d] unit query moves
            scale = float(heads.scaling[rows.layer])
            direction = np.where(mask, scale * np.matmul(u, np.swapaxes(keys, -1, -2)), 0.0)  # [H, C, L]
        size = None
        if eps == "relative":
            norm = np.linalg.norm(np.where(mask, rows.logits, 0.0), axis=-1, keepdims=True)  # [H, C, 1]
            size = np.where(norm > 0, norm, np.nan)
        return {"g": finite_difference(rows.logits, direction, temperatures, epsilons, mask=mask, size=size)}
    return function
