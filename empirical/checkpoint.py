"""``python -m empirical checkpoint``: a random-weight checkpoint with a large model's architecture, built here.

The paper's authors follow up on 7B models; their weights cannot be downloaded on an offline machine, but
their *cost* (memory, time, disk) only depends on the architecture. ``--like llama-2-7b`` writes a
``LlamaForCausalLM`` with LLaMA-2-7B's shapes (32 layers, 32 heads, ``d_model`` 4096, intermediate 11008, bfloat16,
about 13.5 GB with the GPT-2 vocabulary) as sharded safetensors with a ``model.safetensors.index.json``, one
shard per decoder layer plus one for the embedding and one for the head, so a streamed load
(:mod:`empirical.heads.offload`) reads one layer's file at a time.

Nothing holds the model: the names and shapes come from the model built on the ``meta`` device (no storage),
each tensor is drawn from its own seeded generator (``seed`` and the tensor's index: the same bytes on every
run and machine) in row chunks, and each shard is written before the next is drawn, so the peak memory is one
shard (a 7B decoder layer: 0.4 GB). The tokenizer (the GPT-2 one from ``../shared/data/gpt2-tokenizer`` by
default) is saved beside the weights and its vocabulary sets the embedding size. The target is refused before
anything is written when its disk lacks the bytes.

>>> write(like="llama-2-7b", out="/work/tmp/llama-7b-random", layers=2)     # doctest: +SKIP
PosixPath('/work/tmp/llama-7b-random')
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import torch
from tqdm import tqdm

from empirical.heads.text import GPT2_TOKENIZER
from theorems.errors import InvalidArgument, ModelUnavailableError

LIKE = {
    "llama-2-7b": dict(model_type="llama", hidden_size=4096, intermediate_size=11008, num_hidden_layers=32,
                       num_attention_heads=32, num_key_value_heads=32, max_position_embeddings=4096,
                       rms_norm_eps=1e-5, rope_theta=10000.0, initializer_range=0.02, tie_word_embeddings=False,
                       hidden_act="silu", architectures=["LlamaForCausalLM"]),
}
"""The architectures ``--like`` reproduces (LLaMA-2-7B's ``config.json``, less its vocabulary: the tokenizer's)."""

DTYPE = torch.bfloat16
"""The dtype LLaMA-2-7B is distributed in."""

CHUNK = 1 << 24
"""Entries drawn at once (64 MiB of float32): what drawing a tensor adds to the shard being written."""

SPARE = 64 << 20
"""Bytes kept free beyond the checkpoint when checking the disk (the config, the tokenizer, the file system)."""


def default_tokenizer() -> Path:
    """The GPT-2 tokenizer of ``../shared/data`` (next to the repository)."""
    return GPT2_TOKENIZER


def _tokenizer(path) -> object:
    # here, not at the top: `import empirical.checkpoint` stays free of transformers
    from transformers import AutoTokenizer, GPT2TokenizerFast

    folder = Path(path).expanduser()
    if not folder.is_dir():
        raise ModelUnavailableError(f"--tokenizer={str(path)!r} is not a directory holding a tokenizer (the default is "
                                    "the GPT-2 one of ../shared/data/gpt2-tokenizer: vocab.json and merges.txt); "
                                    "pass --tokenizer DIR")
    if (folder / "vocab.json").is_file() and (folder / "merges.txt").is_file():
        return GPT2TokenizerFast.from_pretrained(str(folder))
    try:
        return AutoTokenizer.from_pretrained(str(folder), local_files_only=True)
    except (OSError, ValueError, TypeError) as error:
        raise ModelUnavailableError(f"--tokenizer={str(path)!r}: no tokenizer can be read there ({error})") from None


def config(*, like: str, layers: int | None, vocabulary: int, bos: int | None = None, eos: int | None = None):
    """The ``transformers`` config of ``like`` with ``layers`` decoder layers and ``vocabulary`` tokens.

    >>> config(like="llama-2-7b", layers=2, vocabulary=50257).num_hidden_layers
    2
    """
    # here, not at the top: `import empirical.checkpoint` stays free of transformers
    from transformers import AutoConfig

    if like not in LIKE:
        raise InvalidArgument(f"--like={like!r} must be one of {sorted(LIKE)}")
    if layers is not None and (isinstance(layers, bool) or not isinstance(layers, int) or layers < 1):
        raise InvalidArgument(f"--layers={layers!r} must be a positive integer")
    settings = dict(LIKE[like])
    kind = settings.pop("model_type")
    if layers is not None:
        settings["num_hidden_layers"] = layers
    made = AutoConfig.for_model(kind, vocab_size=vocabulary, bos_token_id=bos, eos_token_id=eos, **settings)
    made.dtype = DTYPE
    return made


def layout(made) -> list[tuple[str, tuple[int, ...]]]:
    """Every tensor of the causal LM of config ``made``, ``(name, shape)`` in the model's order, built on ``meta``."""
    # here, not at the top: `import empirical.checkpoint` stays free of transformers
    from transformers import AutoModelForCausalLM

    with torch.device("meta"):
        model = AutoModelForCausalLM.from_config(made, dtype=DTYPE)
    return [(name, tuple(tensor.shape)) for name, tensor in model.state_dict().items()]


def _shard_of(name: str) -> str:
    """Which shard holds ``name``: its decoder layer (``layers.7``), else the embedding or the rest."""
    parts = name.split(".")
    if "layers" in parts:
        at = parts.index("layers")
        return f"layer{int(parts[at + 1]):05d}"
    return "embedding" if "embed" in name else "rest"


def shards(tensors: list[tuple[str, tuple[int, ...]]]) -> dict[str, list[tuple[str, tuple[int, ...]]]]:
    """The tensors grouped into shards named ``model-0000k-of-0000n.safetensors``, in order."""
    groups: dict[str, list] = {}
    for name, shape in tensors:
        groups.setdefault(_shard_of(name), []).append((name, shape))
    total = len(groups)
    return {f"model-{i:05d}-of-{total:05d}.safetensors": group for i, group in enumerate(groups.values(), start=1)}


def total_bytes(tensors) -> int:
    size = torch.finfo(DTYPE).bits // 8
    return sum(size * _numel(shape) for _, shape in tensors)


def _numel(shape) -> int:
    count = 1
    for side in shape:
        count *= side
    return count


def draw(name: str, shape: tuple[int, ...], *, seed: int, index: int, scale: float) -> torch.Tensor:
    """One tensor: norms' weights are 1, biases 0, matrices ``N(0, scale²)`` from generator ``(seed, index)``."""
    if name.endswith("norm.weight") or name.endswith("layernorm.weight"):
        return torch.ones(shape, dtype=DTYPE)
    if name.endswith(".bias") or len(shape) < 2:
        return torch.zeros(shape, dtype=DTYPE)
    generator = torch.Generator().manual_seed(seed * 1_000_003 + index)
    tensor = torch.empty(shape, dtype=DTYPE)
    flat = tensor.view(-1)
    for start in range(0, flat.numel(), CHUNK):  # float32 draws, a chunk at a time, rounded to bfloat16
        stop = min(start + CHUNK, flat.numel())
        flat[start:stop] = torch.randn(stop - start, generator=generator).mul_(scale)
    return tensor


def check_target(out, needed: int) -> Path:
    """``out`` is absent or an empty directory, and its disk has ``needed`` bytes free (checked before writing)."""
    target = Path(out).expanduser()
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise InvalidArgument(f"--out={str(out)!r} exists and is not an empty directory; name a new directory")
    existing = target
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise InvalidArgument(f"--out={str(out)!r}: {existing} is a file, not a directory")
    free = shutil.disk_usage(existing).free
    if free < needed + SPARE:
        raise InvalidArgument(f"--out={str(out)!r}: the checkpoint needs {needed / 2**30:.1f} GiB (+{SPARE >> 20} MiB) "
                              f"but {existing} has {free / 2**30:.1f} GiB free; pick another disk or fewer --layers")
    return target


def write(*, like: str = "llama-2-7b", out, layers: int | None = None, seed: int = 0, tokenizer=None,
          progress: bool = False) -> Path:
    """Write the random checkpoint to ``out`` shard by shard; returns ``out``. Arguments are checked first."""
    # here, not at the top: `import empirical.checkpoint` stays free of safetensors
    from safetensors.torch import save_file

    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidArgument(f"--seed={seed!r} must be a non-negative integer")
    vocabulary = _tokenizer(default_tokenizer() if tokenizer is None else tokenizer)
    made = config(like=like, layers=layers, vocabulary=len(vocabulary),
                  bos=vocabulary.bos_token_id, eos=vocabulary.eos_token_id)
    tensors = layout(made)
    needed = total_bytes(tensors)
    target = check_target(out, needed)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.with_name(f".{target.name}.partial")
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir()
    order = {name: index for index, (name, _) in enumerate(tensors)}
    weight_map = {}
    try:
        grouped = shards(tensors)
        for file, group in tqdm(grouped.items(), desc="shards", unit="shard", disable=not progress):
            save_file({name: draw(name, shape, seed=seed, index=order[name], scale=made.initializer_range)
                       for name, shape in group}, staging / file, metadata={"format": "pt"})
            weight_map.update({name: file for name, _ in group})
        index = {"metadata": {"total_size": needed}, "weight_map": weight_map}
        (staging / "model.safetensors.index.json").write_text(json.dumps(index, indent=1))
        made.save_pretrained(staging)
        vocabulary.save_pretrained(staging)
        if target.exists():
            target.rmdir()  # empty, checked above
        staging.rename(target)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return target
