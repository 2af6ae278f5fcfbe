"""Every layer of a model, extracted a block of layers at a time: memory bounded whatever the depth.

:class:`HeadStream` answers the per-layer questions of :class:`empirical.heads.extraction.Heads`
(``sizes``, ``visible``, ``layer_logits``, ``layer_embeddings``, ...) for a model whose layers do not
fit in memory together: it holds one block of ``per_block`` layers, and a question about a layer
outside it drops the block and extracts the next (one forward pass, which records only that block's
``q, k, v``). Consumers walk the layers in order (:func:`empirical.heads.rows.blocks`), so one pass
over the model costs ``ceil(layers / per_block)`` forward passes and holds one block's vectors plus
one layer's ``[B, H, L, L]`` tables. With ``pipeline=True`` a block that follows the one held runs only its own
layers on that block's output (``extract(..., pipeline=True, entering=...)``): a pass over the model costs one
forward pass in all, with the same tensors.

>>> stream = HeadStream(lambda layers: extract(loaded, ids, layers=layers), layers=30, per_block=4)  # doctest: +SKIP
>>> stream.layer_logits(17).shape     # extracts layers 16..19                                       # doctest: +SKIP
torch.Size([1, 9, L, L])
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from empirical.heads.extraction import Heads
from theorems.errors import InvalidArgument, InvalidArgumentType

STREAM_BYTES = 1 << 30
"""Bytes of float32 vectors (``q, k, v`` per head and the hidden state) one block of layers may hold."""


def layers_per_block(*, batch: int, length: int, heads: int, d_head: int, d_model: int, layers: int,
                     budget: int = STREAM_BYTES) -> int:
    """How many layers' vectors fit ``budget`` bytes: ``B·L·(3·H·d_head + d_model)·4`` bytes per layer.

    >>> layers_per_block(batch=1, length=1024, heads=12, d_head=64, d_model=768, layers=12)   # GPT-2: all
    12
    >>> layers_per_block(batch=1, length=4096, heads=32, d_head=128, d_model=4096, layers=32)  # a 7B model
    4
    """
    for name, value in (("batch", batch), ("length", length), ("heads", heads), ("d_head", d_head),
                        ("d_model", d_model), ("layers", layers), ("budget", budget)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InvalidArgument(f"{name}={value!r} must be a positive integer")
    per_layer = batch * length * (3 * heads * d_head + d_model) * 4
    return max(1, min(layers, budget // per_layer))


def check_layers_per_block(value, *, name: str = "layers_per_block") -> int | None:
    """``value`` as layers per block: a positive integer, or None (as many layers as fit :data:`STREAM_BYTES`);
    else InvalidArgument naming ``name`` (``--layers-per-block`` on the command line).

    >>> check_layers_per_block(None), check_layers_per_block(2)
    (None, 2)
    >>> check_layers_per_block(0)
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: layers_per_block=0 must be a positive integer (or None: as many as fit STREAM_BYTES)
    """
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise InvalidArgument(f"{name}={value!r} must be a positive integer (or None: as many as fit STREAM_BYTES)")
    return value


class HeadStream:
    """The heads of ``layers`` layers, extracted ``per_block`` layers at a time by ``extract_block(range)``."""

    def __init__(self, extract_block: Callable[..., Heads], *, layers: int, per_block: int, pipeline: bool = False):
        if not callable(extract_block):
            raise InvalidArgumentType(f"extract_block must be callable (range -> Heads), not {type(extract_block).__name__}")
        for name, value in (("layers", layers), ("per_block", per_block)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidArgument(f"{name}={value!r} must be a positive integer")
        self._extract_block, self.layers, self.per_block = extract_block, layers, per_block
        self.pipeline = pipeline  # extract_block(range, pipeline=True, entering=...): one forward pass per pass
        self._start, self._block = None, None
        self.extractions = 0  # forward passes so far (what streaming costs in time)
        self.attention_error = 0.0  # the largest over the blocks extracted so far

    def _holding(self, layer: int) -> tuple[Heads, int]:
        """The block that holds ``layer`` (extracted now if it is not the current one), and its index there."""
        if isinstance(layer, bool) or not isinstance(layer, int) or not 0 <= layer < self.layers:
            raise InvalidArgument(f"layer={layer!r} must be an integer in [0, {self.layers})")
        start = layer - layer % self.per_block
        if start != self._start:
            block = range(start, min(start + self.per_block, self.layers))
            entering = None if self._block is None else self._block.leaving
            follows = self._start is not None and self._start + self.per_block == start and entering is not None
            self._block = None  # free the previous block before the next forward pass
            if self.pipeline and (start == 0 or follows):  # the next block runs on the previous one's output only
                self._block = self._extract_block(block, pipeline=True, entering=entering if start else None)
            else:
                self._block = self._extract_block(block)
            self._start = start
            self.extractions += 1
            self.attention_error = max(self.attention_error, self._block.attention_error)
        return self._block, layer - start

    @property
    def sizes(self) -> tuple[int, int, int, int]:
        """``(B, layers, heads, L)`` of the whole model."""
        batch, _, heads, length = self._holding(self._start or 0)[0].sizes
        return batch, self.layers, heads, length

    @property
    def visible(self) -> torch.Tensor:
        return self._holding(self._start or 0)[0].visible

    @property
    def causal(self) -> bool:
        return self._holding(self._start or 0)[0].causal

    def embedding_width(self, kind: str = "values") -> int:
        return self._holding(self._start or 0)[0].embedding_width(kind)

    def layer_embeddings(self, layer: int, kind: str = "values") -> torch.Tensor:
        block, inside = self._holding(layer)
        return block.layer_embeddings(inside, kind)

    def layer_logits(self, layer: int, heads: slice = slice(None)) -> torch.Tensor:
        block, inside = self._holding(layer)
        return block.layer_logits(inside, heads)

    def layer_alpha(self, layer: int) -> torch.Tensor:
        block, inside = self._holding(layer)
        return block.layer_alpha(inside)
