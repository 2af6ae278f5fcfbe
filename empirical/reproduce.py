"""``python -m empirical reproduce``: Algorithms 1-5 on one model and one text, with every output.

Writes ``DIR/results.json`` (every figure's data, per-head values, per-statement checks, the
model, the text, the versions, the timings), ``DIR/fig2a.png`` ... ``DIR/fig4.png`` and
``DIR/report.md``.

>>> run(model="minilm", text=WAR_AND_PEACE, out="out/minilm")     # doctest: +SKIP
"""

from __future__ import annotations

import json
import platform
import sys
import time
from pathlib import Path

import numpy as np
import scipy

from empirical import algorithms, cluster as engine
from empirical.checks import merge
from empirical.cluster import check_cluster, forget
from empirical.figures import draw_all
from empirical.heads import loading
from empirical.heads.device import resolve
from empirical.heads.extraction import EMBEDDINGS
from empirical.heads.loading import check_dtype, check_weights, load_model
from empirical.heads.offload import is_streamed
from empirical.heads.rows import check_backend, check_workers
from empirical.heads.stream import check_layers_per_block
from empirical.heads.text import windows as text_windows
from empirical.report import render
from empirical.runner import ALGORITHMS, jsonable, run_algorithms
from empirical.setup import Setup
from theorems.app import arguments as validation
from theorems.errors import InvalidArgument, InvalidArgumentType


def versions() -> dict[str, str]:
    # here, not at the top: `import empirical.reproduce` stays free of torch
    import torch
    import transformers
    return {"python": platform.python_version(), "torch": torch.__version__, "transformers": transformers.__version__,
            "numpy": np.__version__, "scipy": scipy.__version__}


OPTION_NAMES = {"which": "--algorithms", "lengths": "--lengths", "ns": "--ns", "critical_lengths": "--critical-lengths",
                "separability_ns": "--separability-ns", "temperatures": "--temperatures", "epsilons": "--epsilons",
                "critical_tokens": "--critical-tokens", "distance_tokens": "--distance-tokens",
                "separability_tokens": "--separability-tokens", "sensitivity_tokens": "--sensitivity-tokens"}
"""Each keyword of :func:`run_algorithms` and the command-line option that sets it (errors name the option)."""


def check_options(*, text, out, windows, embeddings, **options) -> None:
    """Every input that does not depend on the model, checked before the model is loaded.

    >>> check_options(text=None, out="o", windows=1, embeddings="values", which=(7,))
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: --algorithms=(7,) must be a non-empty subset of (1, 2, 3, 4, 5); 7 is not
    """
    unknown = set(options) - set(OPTION_NAMES)
    if unknown:
        raise InvalidArgumentType(f"unknown option(s) {sorted(unknown)}; expected some of {sorted(OPTION_NAMES)}")
    validation.check_output_path(out, name="--out", kind="directory")
    if text is not None:
        validation.check_text_file(text, name="--text")
    validation.check_integer(windows, name="--windows")
    if embeddings not in EMBEDDINGS:
        raise InvalidArgument(f"--embeddings={embeddings!r} must be one of {EMBEDDINGS}")
    for key, value in options.items():
        name = OPTION_NAMES[key]
        if key == "which":
            validation.check_subset(value, ALGORITHMS, name=name)
        elif key.endswith("_tokens"):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise InvalidArgument(f"{name}={value!r} must be a positive integer (or 0 on the command line: every token)")
        elif key in ("temperatures", "epsilons"):
            validation.check_finite_grid(value, name=name)
        elif value is not None:
            if not len(value):
                raise InvalidArgument(f"{name}={value!r} must not be empty")
            for item in value:
                validation.check_integer(item, name=name)


def check_grids(max_length: int, *, lengths=algorithms.PAPER_LENGTHS, ns=algorithms.PAPER_NS, critical_lengths=None,
                separability_ns=algorithms.SEPARABILITY_NS, which=ALGORITHMS, **_) -> None:
    """The grids against the model: every ``L`` within its positions, every ``N < L`` where an algorithm uses it."""
    what = f"the model's {max_length} positions"
    validation.check_at_most(lengths, max_length, name="--lengths", what=what)
    validation.check_at_most(critical_lengths or (), max_length, name="--critical-lengths", what=what)
    longest = max(lengths)
    if 1 in which:
        validation.check_below((5,), min(lengths), name="Alg. 1's N",
                               what=f"every --lengths value (the shortest is {min(lengths)})")
    if 2 in which:
        validation.check_below(ns, longest, name="--ns", what=f"the longest --lengths value L = {longest}")
    if 4 in which:
        validation.check_below(separability_ns, longest, name="--separability-ns",
                               what=f"the longest --lengths value L = {longest}")


ATTENTION_ENTRIES = 1 << 29
"""The most attention weights (windows × heads × L × L) one run holds at once: SmolLM2's 270 heads at L = 1024
(2.8·10⁸) took 10.4 GiB, so this is about 20 GiB."""


def check_memory(*, windows: int, heads: int, longest: int) -> None:
    """Refuse ``--windows`` × ``--lengths`` whose attention weights cannot be held, before they are computed.

    >>> check_memory(windows=10**6, heads=1, longest=1024)
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: attention weights [--windows 1000000 × 1 heads × L 1024 × L 1024] would need 1048576000000 entries, more than the limit 536870912; lower --windows or --lengths
    """
    validation.check_work(windows * heads * longest ** 2, limit=ATTENTION_ENTRIES,
                          what=f"attention weights [--windows {windows} × {heads} heads × L {longest} × L {longest}]",
                          way_out="lower --windows or --lengths")


def check_before_loading(model, *, text, windows: int, offline, tokenizer, options: dict) -> None:
    """What needs the model's config or tokenizer but not its weights, checked before the weights load: the grids
    against the model's positions, and the text against ``--windows`` × the longest length in tokens. Done for a
    local folder (``minilm`` included) or a model in the Hugging Face cache; a GGUF model gets its tokenizer only
    from its conversion, so it is checked after loading, as before."""
    # here, not at the top: `import empirical.reproduce` stays free of transformers
    from transformers import AutoConfig, AutoTokenizer

    loading.check_tokenizer(tokenizer)
    name, path = str(model), Path(str(model)).expanduser()
    if name.lower() == loading.CAUSAL_MODEL or (path.exists() and loading.gguf_file(path) is not None):
        return
    source = str(loading.minilm_path()) if name.lower() == loading.OFFLINE_MODEL else name
    try:
        config = AutoConfig.from_pretrained(source, local_files_only=True)
        vocabulary = AutoTokenizer.from_pretrained(tokenizer or source, local_files_only=True) if text else None
    except Exception:  # noqa: BLE001 - not readable without the hub or the weights: load_model says why
        return
    max_length = getattr(config, "max_position_embeddings", None) or getattr(config, "n_positions", None) or 1 << 20
    lengths = options.get("lengths") or tuple(n for n in algorithms.PAPER_LENGTHS if n <= max_length)
    check_grids(max_length, **{**options, "lengths": lengths})
    heads = (getattr(config, "num_hidden_layers", None) or 1) * (getattr(config, "num_attention_heads", None) or 1)
    check_memory(windows=windows, heads=heads, longest=max(lengths))  # before the text is cut into windows
    if vocabulary is not None and len(vocabulary) > 1:
        text_windows(text, tokenizer=vocabulary, length=max(lengths), count=windows)  # raises: too few tokens


def run(*, model: str, text, out, windows: int = 1, embeddings: str = "values", offline: bool | None = None,
        tokenizer: str | None = None, progress: bool = True, device: str = "cpu", cluster: str | None = None,
        layers_per_block: int | None = None, workers: int | None = None, dtype: str = "float32",
        weights: str = "auto", backend: str = "torch", **options) -> dict:
    """Load ``model``, run the algorithms on ``text``, write results.json, the figures and report.md.

    Every option is checked before the model loads, and the grids against the model before any forward pass.
    ``cluster`` (``"local"`` or a Dask scheduler address) runs every pass over the rows as tasks by (window, block of
    ``layers_per_block`` layers) on its workers, the driver making no forward pass (:mod:`empirical.cluster`): the
    same ``results.json``, resumable after an interruption, and the task graph with its times in
    ``cluster-graph.json``.
    ``layers_per_block`` bounds how many layers' vectors are held at once (:class:`empirical.setup.Setup`):
    the same numbers, one forward pass per block of layers and pass over them. ``workers`` blocks of rows run at
    once on a pool of threads (default: the cores available; on a cluster, each worker's own threads).
    ``dtype`` is the weights' precision (``float32``, ``bfloat16``, ``float16``; the heads are read back in float32)
    and ``weights`` where they live (``memory``; ``disk``: streamed a layer at a time; ``auto``: disk above 2 GiB).
    ``backend`` is where the quantities are computed in float64: ``torch`` on ``device`` (the heads stay where the
    forward pass left them), ``numpy`` on the CPU (the reference); ``results.json`` records it under ``settings``.
    """
    check_layers_per_block(layers_per_block, name="--layers-per-block")
    check_workers(workers, name="--workers")
    check_backend(backend, name="--backend")
    check_dtype(dtype)
    check_weights(weights)
    check_options(text=text, out=out, windows=windows, embeddings=embeddings, **options)
    check_cluster(cluster)
    resolve(device)  # before the model is loaded
    check_before_loading(model, text=text, windows=windows, offline=offline, tokenizer=tokenizer, options=options)
    out = Path(out)
    loaded = load_model(model, offline=offline, tokenizer=tokenizer, dtype=dtype, weights=weights)
    if resolve(device).type != "cpu" and is_streamed(loaded.model):
        raise InvalidArgument(f"--device={device!r}: weights streamed from disk (--weights disk, or auto for a model "
                              "above 2 GiB) run the forward pass on the CPU; pass --weights memory to use the GPU")
    if options.get("lengths") is None:  # not given: the paper's lengths that fit the model (MiniLM stops at 512)
        options["lengths"] = tuple(n for n in algorithms.PAPER_LENGTHS if n <= loaded.max_length)
    check_grids(loaded.max_length, **options)
    check_memory(windows=windows, heads=loaded.n_layers * loaded.n_heads, longest=max(options["lengths"]))
    out.mkdir(parents=True, exist_ok=True)
    setup = Setup(loaded, text=text, windows=windows, embeddings=embeddings, progress=progress, device=device,
                  layers_per_block=layers_per_block, workers=workers, backend=backend)
    began = time.perf_counter()
    finished: dict = {}
    try:
        if cluster is None:
            results, timings = run_algorithms(setup, partial=finished, **options)
        else:
            spec = {"model": model, "text": None if text is None else str(text), "windows": windows,
                    "embeddings": embeddings, "offline": offline, "tokenizer": tokenizer, "device": device,
                    "layers_per_block": layers_per_block, "workers": workers, "dtype": dtype, "weights": weights,
                    "backend": backend}
            results, timings = engine.run(cluster=cluster, spec=spec, options=options, out=out, progress=progress,
                                           setup=setup)
    except BaseException:
        if finished:  # an hour of work is not thrown away because the last algorithm failed
            (out / "results.partial.json").write_text(json.dumps(jsonable(finished), indent=1))
            print(f"note: the finished algorithms' results are in {out / 'results.partial.json'}", file=sys.stderr)
        raise
    checks = merge([c for part in results.values() for c in part.get("checks", {}).values()])
    results.update({
        "model": loaded.describe(),
        "text": {"path": str(text) if text else None,
                 "description": (f"`{Path(text).name}`, consecutive windows from its first chapter" if text
                                 else "random token ids")},
        "settings": {"windows": windows, "embeddings": embeddings, **{k: v for k, v in options.items()},
                     **({} if dtype == "float32" else {"dtype": dtype}), "backend": backend},
        "versions": versions(), "timings": timings, "checks": checks,
        "seconds": time.perf_counter() - began,
    })
    results = jsonable(results)
    (out / "results.json").write_text(json.dumps(results, indent=1))
    if cluster is not None:
        forget(out)  # results.json now holds every task
    results["figures"] = draw_all(results, out)
    (out / "report.md").write_text(render(results))
    return results
