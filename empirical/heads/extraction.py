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

EMBEDDINGS = ("values", "keys", "hidden")
"""Which vectors play the embeddings ``x_i``: the head's values (default), keys, or the layer's input."""

TOLERANCE = 1e-5
"""Largest accepted difference between the recomputed alpha and the model's own attentions."""


class ExtractionMismatch(RuntimeError):
    """alpha recomputed from q, k differs from the model's attentions: the architecture does more."""


@dataclasses.dataclass(frozen=True)
class Heads:
    """Every head of a model on a batch of windows. Shapes: ``B`` windows, ``L`` tokens."""

    q: torch.Tensor            # [B, layer, head, L, d_head]
    k: torch.Tensor            # [B, layer, head, L, d_head]
    v: torch.Tensor            # [B, layer, head, L, d_head]
    logits: torch.Tensor       # [B, layer, head, L, L]  scaled q.k + additive mask; -inf where masked
    alpha: torch.Tensor        # [B, layer, head, L, L]  softmax of logits (0 where masked)
    visible: torch.Tensor      # bool [B, L, L]          True = key visible to the query
    scaling: torch.Tensor      # [layer]                 the factor the model multiplies q.k by
    hidden: torch.Tensor       # [B, layer, L, d_model]  hidden state entering each layer
    attention_error: float     # max |alpha - the model's attentions|

    @property
    def causal(self) -> bool:
        """Whether some query cannot see some key (a causal mask)."""
        return bool((~self.visible).any())

    def embeddings(self, kind: str = "values") -> torch.Tensor:
        """The embeddings ``x_i`` as ``[B, layer, head, L, d]`` (see :data:`EMBEDDINGS`)."""
        if kind == "values":
            return self.v
        if kind == "keys":
            return self.k
        if kind == "hidden":
            batch, layers, length, width = self.hidden.shape
            return self.hidden[:, :, None].expand(batch, layers, self.q.shape[2], length, width)
        raise ValueError(f"embeddings={kind!r} must be one of {EMBEDDINGS}")

    def finite_logits(self) -> torch.Tensor:
        """The logits with masked entries set to 0, for functions that take a separate ``mask``."""
        return torch.where(self.visible[:, None, None], self.logits, torch.zeros((), dtype=self.logits.dtype))


def _attention_modules(model: torch.nn.Module) -> list:
    """The Python modules (files) whose ``eager_attention_forward`` this model's layers call."""
    found = {}
    for layer in model.modules():
        module = sys.modules.get(type(layer).__module__)
        if module is not None and callable(getattr(module, "eager_attention_forward", None)):
            found[module.__name__] = module
    return list(found.values())


@contextlib.contextmanager
def _capture(model: torch.nn.Module, calls: list):
    """Record the arguments of every eager attention call made inside the block."""
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
            calls.append(dict(query=query, key=key, value=value, mask=attention_mask, weights=weights,
                              scaling=query.shape[-1] ** -0.5 if scaling is None else float(scaling)))
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


def extract(loaded: LoadedModel, input_ids: torch.Tensor, *, tolerance: float = TOLERANCE) -> Heads:
    """Run the model once on ``input_ids`` (``[B, L]`` or ``[L]``) and read every head.

    Raises :class:`ExtractionMismatch` when the recomputed alpha differs from the model's own
    attentions by more than ``tolerance`` (an architecture with soft-capping, sinks, ...).
    """
    if not isinstance(loaded, LoadedModel):
        raise TypeError(f"loaded must be a LoadedModel (from empirical.heads.loading.load_model), not {type(loaded).__name__}")
    ids = torch.as_tensor(input_ids)
    ids = ids[None] if ids.ndim == 1 else ids
    if ids.ndim != 2 or ids.shape[1] < 1 or ids.dtype not in (torch.int64, torch.int32):
        raise ValueError(f"input_ids must be integer token ids of shape [B, L] or [L], got {tuple(ids.shape)} {ids.dtype}")
    if ids.shape[1] > loaded.max_length:
        raise ValueError(f"input_ids has L={ids.shape[1]} tokens; {loaded.name} accepts at most {loaded.max_length}")
    calls: list[dict] = []
    with torch.no_grad(), _capture(loaded.model, calls):
        output = loaded.model(input_ids=ids, output_attentions=True, output_hidden_states=True)
    attentions = getattr(output, "attentions", None)
    if not attentions:
        raise NoAttentionError(f"{loaded.name} returned no attentions with output_attentions=True")
    if len(calls) != len(attentions):
        raise NoAttentionError(
            f"{loaded.name}: {len(calls)} eager attention calls were recorded for {len(attentions)} attention "
            "maps (an attention path that bypasses eager_attention_forward, e.g. GPT-2's "
            "reorder_and_upcast_attn, or cross-attention); add an adapter in empirical/heads/extraction.py")
    heads = attentions[0].shape[1]
    length = ids.shape[1]
    hidden = torch.stack(list(output.hidden_states[:len(calls)]), dim=1)               # [B, layer, L, d_model]
    q = torch.stack([call["query"] for call in calls], dim=1)                          # [B, layer, head, L, d]
    k = torch.stack([_per_head(call["key"], heads) for call in calls], dim=1)          # [B, layer, head, L, d]
    v = torch.stack([_per_head(call["value"], heads) for call in calls], dim=1)        # [B, layer, head, L, d]
    scaling = torch.tensor([call["scaling"] for call in calls], dtype=q.dtype)          # [layer]
    additive = torch.stack([torch.zeros((), dtype=q.dtype).expand(ids.shape[0], 1, length, length)
                            if call["mask"] is None else call["mask"][..., -length:].expand(ids.shape[0], 1, length, length)
                            for call in calls], dim=1)                                   # [B, layer, 1, L, L]
    if additive.dtype == torch.bool:  # a boolean mask (True = attend) instead of an additive one
        additive = torch.where(additive, 0.0, float("-inf")).to(q.dtype)
    visible_all = additive > torch.finfo(q.dtype).min / 2                                # [B, layer, 1, L, L]
    visible = visible_all[:, 0, 0]                                                       # [B, L, L]
    if not bool((visible_all == visible[:, None, None]).all()):
        raise NoAttentionError(f"{loaded.name}: the layers use different masks (sliding windows?); not supported")
    # in place, layer by layer where it matters: at L = 1024 each [B, layer, head, L, L] array is 0.6 GB
    logits = torch.matmul(q, k.transpose(-1, -2))                                        # [B, layer, head, L, L]
    logits.mul_(scaling[None, :, None, None, None]).add_(additive)
    logits.masked_fill_(~visible[:, None, None], float("-inf"))
    alpha = torch.softmax(logits, dim=-1)
    error = max(float((alpha[:, layer] - attention).abs().max()) for layer, attention in enumerate(attentions))
    del output, attentions, calls
    if not error <= tolerance:
        raise ExtractionMismatch(
            f"{loaded.name}: alpha recomputed from q, k differs from the model's attentions by {error:.3g} > "
            f"{tolerance:g}: this architecture transforms the scores beyond scaling and masking")
    return Heads(q=q, k=k, v=v, logits=logits, alpha=alpha, visible=visible, scaling=scaling, hidden=hidden,
                 attention_error=error)
