"""Each head's slice of the attention output projection ``W_O``, and the head's output contributions.

A multi-head attention layer returns ``Σ_h Σ_i α_hi v_hi W_O^h + b``: ``W_O^h`` (``[d_head, d_model]``) is
the rows of the output projection that read head ``h``'s values. ``v_i W_O^h`` is what token ``i``
contributes to the layer's output through head ``h``, before its weight ``α_i`` (the reading ``x=output`` of
:mod:`empirical.readings`). Where the projection lives depends on the architecture; the table
:data:`OUTPUT_PROJECTIONS` names it per ``model_type`` (checked from the config alone, before a model loads).

>>> w_o = output_projections(load_model("minilm"))      # doctest: +SKIP
>>> w_o.shape                                           # doctest: +SKIP
torch.Size([6, 12, 32, 384])
"""

from __future__ import annotations

import re

import torch

from empirical.heads.extraction import Heads
from empirical.heads.loading import LoadedModel
from theorems.errors import InvalidArgument, InvalidArgumentType, NoOutputProjectionError

OUTPUT_PROJECTIONS = {
    "bert": r"layer\.(\d+)\.attention\.output\.dense",
    "gpt2": r"h\.(\d+)\.attn\.c_proj",
    "llama": r"layers\.(\d+)\.self_attn\.o_proj",
    "mistral": r"layers\.(\d+)\.self_attn\.o_proj",
    "qwen2": r"layers\.(\d+)\.self_attn\.o_proj",
}
"""``model_type`` -> the module names of the attention output projections (group 1 = the layer)."""


def output_projections(loaded: LoadedModel) -> torch.Tensor:
    """``W_O`` per layer and head as ``[layer, head, d_head, d_model]`` (``x @ W_O[l, h]`` is head ``h``'s part).

    GPT-2's ``Conv1D`` stores ``[in, out]``, ``nn.Linear`` ``[out, in]``; both come back as ``[in, out]``.
    """
    if not isinstance(loaded, LoadedModel):
        raise InvalidArgumentType(f"loaded must be a LoadedModel, not {type(loaded).__name__}")
    model_type = loaded.model.config.model_type
    if model_type not in OUTPUT_PROJECTIONS:
        raise NoOutputProjectionError(f"{loaded.name} ({model_type}) exposes no known attention output projection "
                                      f"W_O; known for model types {sorted(OUTPUT_PROJECTIONS)}")
    pattern = re.compile(OUTPUT_PROJECTIONS[model_type] + "$")
    found: dict[int, torch.Tensor] = {}
    for name, module in loaded.model.named_modules():
        match = pattern.search(name)
        if match is None:
            continue
        weight = module.weight.detach()
        found[int(match.group(1))] = weight if type(module).__name__ == "Conv1D" else weight.T  # [in, out]
    if sorted(found) != list(range(loaded.n_layers)):
        raise NoOutputProjectionError(f"{loaded.name}: found output projections for layers {sorted(found)}, "
                                      f"expected 0..{loaded.n_layers - 1}")
    stacked = torch.stack([found[layer] for layer in range(loaded.n_layers)])  # [layer, H·d_head, d_model]
    layers, width, d_model = stacked.shape
    if width != loaded.n_heads * loaded.d_head:
        raise NoOutputProjectionError(f"{loaded.name}: W_O reads {width} inputs, not heads x d_head = "
                                      f"{loaded.n_heads} x {loaded.d_head}")
    return stacked.reshape(layers, loaded.n_heads, loaded.d_head, d_model)


def output_contributions(heads: Heads, projections: torch.Tensor) -> torch.Tensor:
    """``v_i W_O^h`` for every window, layer, head and token: ``[B, layer, head, L, d_model]``."""
    if projections.shape[:3] != (heads.v.shape[1], heads.v.shape[2], heads.v.shape[-1]):
        raise InvalidArgument(f"projections {tuple(projections.shape)} do not match the heads' values "
                         f"{tuple(heads.v.shape)} ([layer, head, d_head, d_model] expected)")
    return torch.einsum("blhid,lhde->blhie", heads.v, projections.to(heads.v.dtype))
