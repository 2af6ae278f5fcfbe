"""The heads as a reading sees them: which vectors are ``x_i``, which logits, which keys and query rows.

:func:`derive` turns the heads of one forward pass into the heads of a reading, so that every reading
of a window shares its extraction. The result is an ordinary :class:`~empirical.heads.extraction.Heads`
whose ``v`` holds the reading's ``x_i`` (read it with ``embeddings="values"``) and whose query rows are
the reading's (``queries=last`` leaves one row: row indices then count within the kept rows; every row
keeps the keys it sees, so causal rows keep their own key counts).

>>> derived = derive(heads, parse("x=keys+sink=dropped"))   # doctest: +SKIP
>>> torch.equal(derived.v, heads.k[..., 1:, :])              # doctest: +SKIP
True
"""

from __future__ import annotations

import dataclasses
import math

import torch

from empirical.heads.extraction import Heads
from empirical.heads.projections import output_contributions
from empirical.readings.grid import Reading
from theorems.errors import InvalidArgument, InvalidArgumentType


def _embeddings(heads: Heads, kind: str, projections: torch.Tensor | None) -> torch.Tensor:
    if kind == "values":
        return heads.v
    if kind == "keys":
        return heads.k
    if kind == "residual":
        return heads.embeddings("hidden")
    if kind == "output":
        if projections is None:
            raise InvalidArgument("reading x=output needs the model's output projections W_O (projections=...)")
        return output_contributions(heads, projections)
    raise InvalidArgument(f"x={kind!r} is not a reading of x_i")


def context_rows(visible: torch.Tensor) -> torch.Tensor:
    """Query rows that see at least half of the window's keys in every window (``queries=context``)."""
    keys = visible.shape[-1]
    return torch.nonzero(visible.sum(-1).min(0).values >= math.ceil(keys / 2)).flatten()


def derive(heads: Heads, reading: Reading, *, projections: torch.Tensor | None = None) -> Heads:
    """The heads under ``reading`` (only its heads axes: ``x``, ``logits``, ``sink``, ``queries``)."""
    if not isinstance(heads, Heads):
        raise InvalidArgumentType(f"heads must be Heads (from empirical.heads.extraction.extract), not {type(heads).__name__}")
    x = _embeddings(heads, reading.get("x"), projections)
    q, k, visible, hidden, scaling, bias = heads.q, heads.k, heads.visible, heads.hidden, heads.scaling, heads.bias
    if reading.get("logits") == "unscaled":  # the heads rebuild logits as scaling · q kᵀ: scaling 1 is unscaled
        scaling = torch.ones_like(scaling)
    if reading.get("sink") == "dropped":  # the first token leaves as key and as query; softmax over the rest
        q, k, x, hidden, visible = q[..., 1:, :], k[..., 1:, :], x[..., 1:, :], hidden[:, :, 1:], visible[:, 1:, 1:]
        bias = None if bias is None else bias[..., 1:, 1:]
    rows = None
    if reading.get("queries") == "last":
        rows = torch.tensor([visible.shape[1] - 1])
    elif reading.get("queries") == "context":
        rows = context_rows(visible)
        if not len(rows):
            raise InvalidArgument(f"reading {reading.name!r}: no query row sees half of the {visible.shape[-1]} keys")
    if rows is not None:
        q, visible = q[..., rows, :], visible[:, rows]
        bias = None if bias is None else bias[..., rows, :]
    return dataclasses.replace(heads, q=q, k=k, v=x, visible=visible, scaling=scaling, hidden=hidden, bias=bias)
