"""Shared plumbing of the vectorised quantities: numpy or torch in, the same kind out; the mask of
valid keys; the top-``n`` selection. ``alpha [..., L]``, leading dimensions are heads, queries, ...

>>> import numpy as np
>>> from theorems.arithmetic.validation import check_mask
>>> valid = check_mask(None, (2, 3))
>>> top_n_order(np.array([[0.2, 0.4, 0.4], [0.5, 0.1, 0.4]]), valid, 2).tolist()
[[1, 2], [0, 2]]
"""

from __future__ import annotations

import numpy as np

from theorems.arithmetic.tensors import is_torch  # noqa: F401  (also importable from here, as before)
from theorems.arithmetic.validation import check_array, check_top_n
from theorems.errors import InvalidArgument, InvalidArgumentType


def _check_selection(alpha, valid, n) -> tuple[np.ndarray, np.ndarray, int]:
    """Finite real scores ``[..., L]``, a boolean ``valid`` broadcastable to them, ``n`` in 1..L."""
    alpha = check_array(alpha, name="alpha")
    valid = np.asarray(valid)
    if valid.dtype != bool:
        raise InvalidArgumentType(f"valid must be a boolean array (True = key present), got dtype {valid.dtype}")
    try:
        valid = np.broadcast_to(valid, alpha.shape)
    except ValueError:
        raise InvalidArgument(f"valid of shape {valid.shape} does not broadcast to alpha's shape {alpha.shape}") from None
    return alpha, valid, check_top_n(n, alpha.shape[-1])


def to_numpy(value, *, name: str | None = None) -> np.ndarray:
    """A float64 numpy view of a numpy array or torch tensor; with ``name``, checked finite."""
    if is_torch(value):
        value = value.detach().to(device="cpu").double().numpy()
    return check_array(value, name=name) if name is not None else np.asarray(value, dtype=float)


def like(result, *inputs):
    """``result`` as a torch tensor (on the first tensor input's device) when any input is a tensor."""
    for value in inputs:
        if is_torch(value):
            import torch
            return torch.as_tensor(np.ascontiguousarray(result), device=value.device)
    return result


def check_n(n, valid: np.ndarray) -> int:
    """``n`` in ``1..(the least number of valid keys in a row)``."""
    least = int(valid.sum(axis=-1).min()) if valid.size else valid.shape[-1]
    if least < 1:
        raise InvalidArgument("mask leaves a row without any valid key (a row of mask is all False)")
    return check_top_n(n, least, name="n")


def top_n_mask(alpha: np.ndarray, valid: np.ndarray, n: int) -> np.ndarray:
    """Boolean ``[..., L]``: the top-``n`` valid keys, ties to the lower index. ``O(L)`` per row.

    ``alpha`` is any finite score (weights of any mass, logits): only its order matters.
    """
    alpha, valid, n = _check_selection(alpha, valid, n)
    key = np.where(valid, alpha, -np.inf)  # [..., L]
    nth = -np.partition(-key, n - 1, axis=-1)[..., n - 1:n]  # [..., 1] the n-th largest value
    above = key > nth  # [..., L] certainly selected
    missing = n - above.sum(axis=-1, keepdims=True)  # [..., 1] how many ties at nth to take
    tied = key == nth
    return above | (tied & (np.cumsum(tied, axis=-1) <= missing))  # lower indices first


def top_n_order(alpha: np.ndarray, valid: np.ndarray, n: int) -> np.ndarray:
    """Indices ``[..., n]`` of the top-``n`` valid keys, by descending weight, ties to the lower index."""
    alpha, valid, n = _check_selection(alpha, valid, n)
    chosen = top_n_mask(alpha, valid, n)  # [..., L], exactly n True per row
    index = np.nonzero(chosen.reshape(-1, chosen.shape[-1]))[1].reshape(*chosen.shape[:-1], n)  # ascending
    order = np.argsort(-np.take_along_axis(alpha, index, axis=-1), axis=-1, kind="stable")
    return np.take_along_axis(index, order, axis=-1)
