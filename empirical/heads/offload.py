"""Weights streamed from disk: each layer's weights are read when the forward pass reaches it and freed after.

A 7B model in float32 needs 28 GB before the first token; streamed, a forward pass holds the resident parts
(the embedding, the final norm) and one layer's weights at a time, whatever the depth. Nothing here is a new
loader: the model is built on the ``meta`` device by accelerate's ``init_empty_weights`` (no storage; buffers
such as rotary frequencies stay real), and every decoder layer gets accelerate's ``AlignDevicesHook`` with
``offload=True`` over an ``OffloadedWeightsLoader`` whose index points at the tensors of the checkpoint's own
safetensors files (read with ``safetensors.safe_open``, one tensor at a time): the hook loads the layer's
weights before its forward and puts them back on ``meta`` after. ``set_module_tensor_to_device`` casts each
tensor to the model's dtype as it loads (bfloat16 on disk, float32 in the forward pass: the same exact cast
``from_pretrained`` makes), so a streamed model computes the same bits as one loaded whole.

Works for any folder with ``model.safetensors`` or sharded safetensors and an index (a converted GGUF model's
cache included); ``*.bin`` checkpoints cannot be read a tensor at a time.

>>> model = streamed_model(Path("/tmp/llama-7b"), config, dtype=torch.bfloat16)     # doctest: +SKIP
>>> decoder_layers(model)[0]                                                        # doctest: +SKIP
'layers'
"""

from __future__ import annotations

import json
from pathlib import Path

import torch

from theorems.errors import ModelUnavailableError, NoAttentionError

INDEX = "model.safetensors.index.json"
SINGLE = "model.safetensors"


def tensor_files(folder: Path) -> dict[str, Path] | None:
    """Each tensor name of the checkpoint in ``folder`` and the safetensors file holding it; ``None`` without any."""
    # here, not at the top: `import empirical.heads.offload` stays free of safetensors
    from safetensors import safe_open

    folder = Path(folder)
    if (folder / INDEX).is_file():
        weight_map = json.loads((folder / INDEX).read_text())["weight_map"]
        return {name: folder / file for name, file in weight_map.items()}
    if (folder / SINGLE).is_file():
        with safe_open(folder / SINGLE, framework="pt") as handle:
            return {name: folder / SINGLE for name in handle.keys()}
    return None


def checkpoint_bytes(folder: Path, dtype: torch.dtype) -> int | None:
    """Bytes of the checkpoint's weights once cast to ``dtype`` (read from the safetensors headers), or ``None``."""
    # here, not at the top: `import empirical.heads.offload` stays free of safetensors
    from safetensors import safe_open

    files = tensor_files(folder)
    if files is None:
        return None
    total = 0
    for file in sorted(set(files.values())):
        with safe_open(file, framework="pt") as handle:
            for name in handle.keys():
                shape = handle.get_slice(name).get_shape()
                count = 1
                for side in shape:
                    count *= side
                total += count
    return total * torch.finfo(dtype).bits // 8


def decoder_layers(model: torch.nn.Module) -> tuple[str, torch.nn.ModuleList]:
    """The model's stack of layers: the ``ModuleList`` of ``num_hidden_layers`` modules, and its name."""
    count = getattr(model.config, "num_hidden_layers", None)
    for name, module in model.named_modules():
        if isinstance(module, torch.nn.ModuleList) and len(module) == count:
            return name, module
    raise NoAttentionError(f"{type(model).__name__}: no list of {count} layers found, so its weights cannot be streamed "
                           "a layer at a time; load it with --weights memory")


def _weights_index(model: torch.nn.Module, files: dict[str, Path]) -> dict[str, dict]:
    """accelerate's offload index: each of the model's tensors -> its file and its name there (maybe prefixed)."""
    prefix = getattr(model, "base_model_prefix", "") or ""
    index = {}
    for name in model.state_dict():
        stored = name if name in files else f"{prefix}.{name}" if f"{prefix}.{name}" in files else None
        if stored is None:
            raise ModelUnavailableError(f"the checkpoint holds no tensor {name!r} (nor {prefix}.{name!r}) that "
                                        f"{type(model).__name__} needs; is it a checkpoint of this architecture?")
        index[name] = {"safetensors_file": str(files[stored]), "weight_name": stored}
    return index


def streamed_model(folder: Path, config, *, dtype: torch.dtype) -> torch.nn.Module:
    """``AutoModel`` of ``config`` in ``dtype`` whose layers read their weights from ``folder`` as the forward
    reaches them (the rest is loaded now); eager attention, evaluation mode."""
    # here, not at the top: `import empirical.heads.offload` stays free of accelerate
    from accelerate import init_empty_weights
    from accelerate.hooks import AlignDevicesHook, add_hook_to_module
    from accelerate.utils import OffloadedWeightsLoader, PrefixedDataset, set_module_tensor_to_device
    from transformers import AutoModel

    files = tensor_files(folder)
    if files is None:
        raise ModelUnavailableError(f"--weights disk: {folder} holds no safetensors weights (model.safetensors or "
                                    f"{INDEX}); *.bin checkpoints cannot be streamed, use --weights memory")
    with init_empty_weights():
        model = AutoModel.from_config(config, attn_implementation="eager", dtype=dtype)
    loader = OffloadedWeightsLoader(index=_weights_index(model, files))
    stack, layers = decoder_layers(model)
    streamed = f"{stack}."
    for name in model.state_dict():
        if not name.startswith(streamed):
            set_module_tensor_to_device(model, name, "cpu", value=loader[name])  # resident: embedding, final norm
    for number, layer in enumerate(layers):
        add_hook_to_module(layer, AlignDevicesHook(execution_device="cpu", offload=True, io_same_device=False,
                                                   weights_map=PrefixedDataset(loader, f"{stack}.{number}."),
                                                   place_submodules=True))
    return model.eval()


def is_streamed(model: torch.nn.Module) -> bool:
    """Whether ``model``'s layers read their weights from disk (:func:`streamed_model`)."""
    try:
        return hasattr(decoder_layers(model)[1][0], "_hf_hook")
    except NoAttentionError:
        return False
