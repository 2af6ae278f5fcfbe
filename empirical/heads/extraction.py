"""Per layer and head: q, k, v, the logits with the model's own scaling and mask, and alpha.

How the tensors are read (the one architecture-specific place of the package): every attention
module of transformers 5.x (GPT-2, BERT, and the other models written against the attention
interface) calls its module-level ``eager_attention_forward(module, query, key, value,
attention_mask, scaling=...)`` when loaded with ``attn_implementation="eager"``. During one forward
pass :func:`extract` wraps that function in every module the model uses, records the arguments, and
restores it. From them it recomputes

    logits = scaling * q k^T + additive_mask     # [B, layer, head, L, L], -inf where masked
    alpha  = softmax(logits)                      # [B, layer, head, L, L]

and compares ``alpha`` with the attentions the model itself returns (``Heads.attention_error``).
Causal models (GPT-2) give row ``t`` exactly ``t + 1`` visible keys; encoders (BERT, MiniLM) show
every query all ``L`` keys. Which vectors serve as the embeddings ``x_i`` of the theory is an
option of :meth:`Heads.embeddings`: ``"values"`` (the default, as in the paper's experiments),
``"keys"``, or ``"hidden"`` (the hidden state entering the layer, shared by its heads).

>>> heads = extract(load_model("minilm"), ids)     # doctest: +SKIP
>>> heads.alpha.shape                                # doctest: +SKIP
torch.Size([1, 6, 12, L, L])
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys

import torch

from empirical.heads.loading import LoadedModel, NoAttentionError
from empirical.heads.offload import decoder_layers
from theorems.errors import ExtractionMismatch, InvalidArgument, InvalidArgumentType

EMBEDDINGS = ("values", "keys", "hidden")
"""Which vectors play the embeddings ``x_i``: the head's values (default), keys, or the layer's input."""

TOLERANCE = 1e-5
"""Largest accepted difference between the recomputed alpha and the model's own attentions (float32 weights)."""

LOW_PRECISION_ULPS = 4
"""With bfloat16 or float16 weights the model rounds its logits and its attention weights to that precision, so
the accepted difference is this many of its ulps at 1 (bfloat16: 0.031; float16: 0.0039); the recomputation itself
is done in float32 from the model's own ``q, k``."""


def tolerance_for(dtype: torch.dtype) -> float:
    """:data:`TOLERANCE` for float32 (and wider) forward passes, :data:`LOW_PRECISION_ULPS` ulps for narrower ones.

    >>> tolerance_for(torch.float32), tolerance_for(torch.bfloat16)
    (1e-05, 0.03125)
    """
    if torch.finfo(dtype).bits >= 32:
        return TOLERANCE
    return LOW_PRECISION_ULPS * torch.finfo(dtype).eps


@dataclasses.dataclass(frozen=True)
class Heads:
    """Every head of some layers of a model on a batch of windows. Shapes: ``B`` windows, ``L`` tokens.

    Only the vectors are stored (``q, k, v`` and the hidden states: linear in ``L``); the ``[L, L]``
    tables are rebuilt one layer at a time by :meth:`layer_logits` and :meth:`layer_alpha`, so a
    consumer that walks the layers holds one layer's tables at once. :attr:`logits` and
    :attr:`alpha` still give every layer at once (``[B, layer, head, L, L]``, built on each access).
    """

    q: torch.Tensor            # [B, layer, head, L, d_head]
    k: torch.Tensor            # [B, layer, head, L, d_head]
    v: torch.Tensor            # [B, layer, head, L, d_head]
    visible: torch.Tensor      # bool [B, L, L]          True = key visible to the query
    scaling: torch.Tensor      # [layer]                 the factor the model multiplies q.k by
    hidden: torch.Tensor       # [B, layer, L, d_model]  hidden state entering each layer
    attention_error: float     # max |alpha - the model's attentions|
    bias: torch.Tensor | None = None  # [B, 1 or layer, L, L] the model's additive mask where it is not 0 on visible keys
    leaving: torch.Tensor | None = None  # [B, L, d_model] in the model's dtype: the output of the last layer run
                                         # (only from extract(..., pipeline=True): the next block's input)

    @property
    def causal(self) -> bool:
        """Whether some query cannot see some key (a causal mask)."""
        return bool((~self.visible).any())

    @property
    def sizes(self) -> tuple[int, int, int, int]:
        """``(B, layers, heads, L)``."""
        return tuple(self.q.shape[:4])

    def embedding_width(self, kind: str = "values") -> int:
        """The trailing size ``d`` of :meth:`embeddings` (``d_head``, or ``d_model`` for ``"hidden"``)."""
        return self.layer_embeddings(0, kind).shape[-1]

    def embeddings(self, kind: str = "values") -> torch.Tensor:
        """The embeddings ``x_i`` as ``[B, layer, head, L, d]`` (see :data:`EMBEDDINGS`)."""
        if kind == "values":
            return self.v
        if kind == "keys":
            return self.k
        if kind == "hidden":
            batch, layers, length, width = self.hidden.shape
            return self.hidden[:, :, None].expand(batch, layers, self.q.shape[2], length, width)
        raise InvalidArgument(f"embeddings={kind!r} must be one of {EMBEDDINGS}")

    def layer_embeddings(self, layer: int, kind: str = "values") -> torch.Tensor:
        """The embeddings of one layer, ``[B, head, L, d]``."""
        return self.embeddings(kind)[:, layer]

    def layer_logits(self, layer: int, heads: slice = slice(None)) -> torch.Tensor:
        """``scaling · q kᵀ + additive mask`` of one layer, ``[B, head, L, L]``, ``-inf`` where masked (only the heads
        ``heads``: a group evaluated by its own process makes no other head's table)."""
        logits = torch.matmul(self.q[:, layer, heads], self.k[:, layer, heads].transpose(-1, -2))  # [B, head, L, L]
        logits.mul_(self.scaling[layer])
        if self.bias is not None:
            logits.add_(self.bias[:, min(layer, self.bias.shape[1] - 1)][:, None])
        return logits.masked_fill_(~self.visible[:, None], float("-inf"))

    def layer_alpha(self, layer: int) -> torch.Tensor:
        """``softmax`` of :meth:`layer_logits`: ``[B, head, L, L]``, 0 where masked."""
        return torch.softmax(self.layer_logits(layer), dim=-1)

    @property
    def logits(self) -> torch.Tensor:
        """Every layer's logits ``[B, layer, head, L, L]`` (built on each access: 0.6 GB for GPT-2 at L = 1024)."""
        return torch.stack([self.layer_logits(layer) for layer in range(self.sizes[1])], dim=1)

    @property
    def alpha(self) -> torch.Tensor:
        """Every layer's weights ``[B, layer, head, L, L]`` (built on each access)."""
        return torch.stack([self.layer_alpha(layer) for layer in range(self.sizes[1])], dim=1)

    def finite_logits(self) -> torch.Tensor:
        """The logits with masked entries set to 0, for functions that take a separate ``mask``."""
        return torch.where(self.visible[:, None, None], self.logits, torch.zeros((), dtype=self.q.dtype))


def _attention_modules(model: torch.nn.Module) -> list:
    """The Python modules (files) whose ``eager_attention_forward`` this model's layers call."""
    found = {}
    for layer in model.modules():
        module = sys.modules.get(type(layer).__module__)
        if module is not None and callable(getattr(module, "eager_attention_forward", None)):
            found[module.__name__] = module
    return list(found.values())


@contextlib.contextmanager
def _capture(model: torch.nn.Module, calls: list, keep):
    """Record the arguments of every eager attention call made inside the block.

    ``keep(i)`` says whether the ``i``-th call (layer ``i``) is kept; the model's own weights are
    compared with the weights recomputed from the call's ``q, k`` and mask as they pass (the largest
    difference is recorded), then dropped: no layer's ``[L, L]`` table outlives its call.
    """
    modules = _attention_modules(model)
    if not modules:
        raise NoAttentionError(
            f"{type(model).__name__} does not route its attention through an `eager_attention_forward` "
            "function (transformers' attention interface), so q, k, v cannot be read; add an adapter for "
            "this architecture in empirical/heads/extraction.py")
    originals = {module: module.eager_attention_forward for module in modules}

    def wrapper_for(original):
        def recording(module, query, key, value, attention_mask, *args, scaling=None, **kwargs):
            output, weights = original(module, query, key, value, attention_mask, *args, scaling=scaling, **kwargs)
            call = dict(query=query, key=key, value=value, mask=attention_mask,
                        scaling=query.shape[-1] ** -0.5 if scaling is None else float(scaling))
            kept = keep(len(calls))
            error = None if weights is None else _weights_error(call, weights) if kept else 0.0
            calls.append({**call, "error": error} if kept else {"error": error})  # a layer not kept: nothing held
            return output, weights
        return recording

    try:
        for module, original in originals.items():
            module.eager_attention_forward = wrapper_for(original)
        yield
    finally:
        for module, original in originals.items():
            module.eager_attention_forward = original


def _per_head(tensor: torch.Tensor, heads: int) -> torch.Tensor:
    # Grouped-query attention stores fewer key/value heads; each serves heads // kv_heads query heads.
    return tensor if tensor.shape[1] == heads else tensor.repeat_interleave(heads // tensor.shape[1], dim=1)


def _additive(call: dict, batch: int, length: int, dtype) -> torch.Tensor:
    """The call's mask as an additive ``[B, 1, L, L]`` (0 or a bias where visible, ``-inf``/min where not)."""
    mask = call["mask"]
    if mask is None:
        return torch.zeros((), dtype=dtype).expand(batch, 1, length, length)
    mask = mask[..., -length:].expand(batch, 1, length, length)
    if mask.dtype == torch.bool:  # a boolean mask (True = attend) instead of an additive one
        mask = torch.where(mask, 0.0, float("-inf")).to(dtype)
    elif mask.dtype != dtype:  # a bfloat16/float16 mask: its own "min" is the masked value, -inf in float32
        mask = torch.where(mask > torch.finfo(mask.dtype).min / 2, mask.to(dtype), float("-inf"))
    return mask


def _weights_error(call: dict, weights: torch.Tensor) -> float:
    """``max |softmax(scaling · q kᵀ + mask) − weights|`` for one call, with the model's own mask."""
    query = _wide(call["query"])
    heads, length = query.shape[1], query.shape[2]
    additive = _additive(call, query.shape[0], length, query.dtype)
    logits = torch.matmul(query, _per_head(_wide(call["key"]), heads).transpose(-1, -2)).mul_(call["scaling"])
    logits.add_(additive).masked_fill_(~(additive > torch.finfo(query.dtype).min / 2), float("-inf"))
    low, high = torch.aminmax(torch.softmax(logits, dim=-1).sub_(weights))  # one pass, no |·| table (a NaN stays)
    return float(torch.maximum(high, -low))


def _wide(tensor: torch.Tensor) -> torch.Tensor:
    """``tensor`` in float32 when the forward pass ran narrower (the heads are always read in float32 or wider)."""
    return tensor if torch.finfo(tensor.dtype).bits >= 32 else tensor.float()


def _layer_range(layers, total: int) -> range:
    if layers is None:
        return range(total)
    if not isinstance(layers, range) or layers.step != 1 or not 0 <= layers.start < layers.stop <= total:
        raise InvalidArgument(f"layers={layers!r} must be a non-empty range(start, stop) within the model's {total} layers")
    return layers


@contextlib.contextmanager
def _only(model: torch.nn.Module, layers: range, entering: torch.Tensor | None, entered: list, leaving: list):
    """Inside the block the model's stack holds only ``layers``; the first is fed ``entering`` (when given) instead
    of what the embedding computed, the hidden state entering each is appended to ``entered`` and the output of the
    last to ``leaving``. The layers outside are never called, so a streamed model never reads their weights.
    (``entered`` is read here, not from ``output_hidden_states``: transformers installs its recording hooks on the
    layers the model holds at its first call, which may be another block's.)"""
    name, stack = decoder_layers(model)
    parent, _, attribute = name.rpartition(".")
    holder = model.get_submodule(parent) if parent else model
    kept = list(stack)[layers.start:layers.stop]

    def feed(module, args, kwargs):
        if args:
            return (entering, *args[1:]), kwargs
        return args, {**kwargs, "hidden_states": entering}

    def record(module, args, kwargs):
        entered.append(args[0] if args else kwargs["hidden_states"])

    def catch(module, args, output):
        leaving.append(output[0] if isinstance(output, tuple) else output)
    handles = [kept[-1].register_forward_hook(catch)]
    if entering is not None:
        handles.append(kept[0].register_forward_pre_hook(feed, with_kwargs=True))
    handles += [layer.register_forward_pre_hook(record, with_kwargs=True) for layer in kept]  # after feed
    setattr(holder, attribute, torch.nn.ModuleList(kept))
    try:
        yield
    finally:
        setattr(holder, attribute, stack)
        for handle in handles:
            handle.remove()


def extract(loaded: LoadedModel, input_ids: torch.Tensor, *, tolerance: float | None = None,
            layers: range | None = None, pipeline: bool = False, entering: torch.Tensor | None = None) -> Heads:
    """Run the model once on ``input_ids`` (``[B, L]`` or ``[L]``) and read the heads of ``layers`` (default: all).

    Only the vectors of the chosen layers are kept (see :class:`Heads`); the model's attentions are
    checked layer by layer during the pass and never held together. Raises
    :class:`ExtractionMismatch` when the recomputed alpha differs from the model's own attentions by
    more than ``tolerance`` (default :func:`tolerance_for` the model's dtype: an architecture with soft-capping,
    sinks, ...). A bfloat16 or float16 model's vectors are read back in float32.

    ``pipeline=True`` runs only ``layers`` (a block of a pipeline over the layers, :mod:`empirical.cluster`): the
    first is fed ``entering``, the previous block's :attr:`Heads.leaving` (required unless the block starts at
    layer 0), and the result's ``leaving`` is this block's output, the next block's input: the same tensors as in
    one forward pass over every layer.

    >>> extract(load_model("minilm"), ids, layers=range(2, 4)).sizes    # doctest: +SKIP
    (1, 2, 12, L)
    """
    if not isinstance(loaded, LoadedModel):
        raise InvalidArgumentType(f"loaded must be a LoadedModel (from empirical.heads.loading.load_model), not {type(loaded).__name__}")
    ids = torch.as_tensor(input_ids)
    ids = ids[None] if ids.ndim == 1 else ids
    if ids.ndim != 2 or ids.shape[1] < 1 or ids.dtype not in (torch.int64, torch.int32):
        raise InvalidArgument(f"input_ids must be integer token ids of shape [B, L] or [L], got {tuple(ids.shape)} {ids.dtype}")
    if ids.shape[1] > loaded.max_length:
        raise InvalidArgument(f"input_ids has L={ids.shape[1]} tokens; {loaded.name} accepts at most {loaded.max_length}")
    chosen = _layer_range(layers, loaded.n_layers)
    if pipeline and (entering is None) != (chosen.start == 0):
        raise InvalidArgument(f"entering must be given exactly when a pipeline block starts after layer 0 (layers={chosen})")
    calls: list[dict] = []
    entered, leaving = [], []
    run = chosen if pipeline else range(loaded.n_layers)  # the layers the forward pass runs
    running = _only(loaded.model, chosen, entering, entered, leaving) if pipeline else contextlib.nullcontext()
    with torch.no_grad(), running, _capture(loaded.model, calls, keep=lambda i: i < len(run) and run[i] in chosen):
        output = loaded.model(input_ids=ids, output_hidden_states=not pipeline)
    if any(call["error"] is None for call in calls):
        raise NoAttentionError(f"{loaded.name} returned no attention weights from its eager attention")
    if len(calls) != len(run):
        raise NoAttentionError(
            f"{loaded.name}: {len(calls)} eager attention calls were recorded for {len(run)} layers "
            "(an attention path that bypasses eager_attention_forward, e.g. GPT-2's "
            "reorder_and_upcast_attn, or cross-attention); add an adapter in empirical/heads/extraction.py")
    kept = calls[chosen.start - run.start:chosen.stop - run.start]
    heads = kept[0]["query"].shape[1]
    batch, length = ids.shape
    entered = entered if pipeline else list(output.hidden_states[chosen.start:chosen.stop])
    hidden = _wide(torch.stack(entered, dim=1))                                        # [B, layer, L, d_model]
    q = _wide(torch.stack([call["query"] for call in kept], dim=1))                    # [B, layer, head, L, d]
    k = _wide(torch.stack([_per_head(call["key"], heads) for call in kept], dim=1))    # [B, layer, head, L, d]
    v = _wide(torch.stack([_per_head(call["value"], heads) for call in kept], dim=1))  # [B, layer, head, L, d]
    scaling = torch.tensor([call["scaling"] for call in kept], dtype=q.dtype)           # [layer]
    additive = [_additive(call, batch, length, q.dtype) for call in kept]               # each [B, 1, L, L]
    visible = additive[0][:, 0] > torch.finfo(q.dtype).min / 2                          # [B, L, L]
    if any(not bool((mask[:, 0] > torch.finfo(q.dtype).min / 2).eq(visible).all()) for mask in additive[1:]):
        raise NoAttentionError(f"{loaded.name}: the layers use different masks (sliding windows?); not supported")
    bias = _bias(additive, visible)
    error = max(call["error"] for call in calls)
    tolerance = tolerance_for(kept[0]["query"].dtype) if tolerance is None else tolerance
    del output, calls, kept, entered
    if not error <= tolerance:
        raise ExtractionMismatch(
            f"{loaded.name}: alpha recomputed from q, k differs from the model's attentions by {error:.3g} > "
            f"{tolerance:g}: this architecture transforms the scores beyond scaling and masking")
    return Heads(q=q, k=k, v=v, visible=visible, scaling=scaling, hidden=hidden, attention_error=error, bias=bias,
                 leaving=leaving[0] if pipeline else None)


def _bias(additive: list[torch.Tensor], visible: torch.Tensor) -> torch.Tensor | None:
    """The additive mask on visible keys: ``None`` where it is 0 everywhere (adding 0 changes no bit)."""
    values = [torch.where(visible[:, None], mask, torch.zeros((), dtype=mask.dtype)) for mask in additive]
    if all(not bool(value.any()) for value in values):
        return None
    if all(torch.equal(value, values[0]) for value in values[1:]):
        return values[0].contiguous()  # [B, 1, L, L], shared by every layer
    return torch.cat(values, dim=1)  # [B, layer, L, L]
