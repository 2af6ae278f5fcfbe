"""``python -m empirical reproduce``: Algorithms 1-5 on one model and one text, with every output.

Writes ``DIR/results.json`` (every figure's data, per-head values, per-statement checks, the
model, the text, the versions, the timings), ``DIR/fig2a.png`` ... ``DIR/fig4.png`` and
``DIR/report.md``. The options are one :class:`empirical.spec.RunSpec`, checked once when it is made.

>>> run(model="minilm", text=WAR_AND_PEACE, out="out/minilm")     # doctest: +SKIP
>>> execute(RunSpec.from_options(model="minilm", text=WAR_AND_PEACE, out="out/minilm"))     # doctest: +SKIP
"""

from __future__ import annotations

import json
import platform
import sys
import time
from pathlib import Path

import numpy as np
import scipy

from empirical import cluster as engine
from empirical.checks import merge
from empirical.cluster import forget
from empirical.figures import draw_all
from empirical.heads import loading
from empirical.heads.offload import is_streamed
from empirical.heads.text import windows as text_windows
from empirical.report import render
from empirical.runner import jsonable, run_algorithms
from empirical.setup import Setup
from empirical.spec import RunSpec
from theorems.arithmetic.validation import check_work
from theorems.errors import InvalidArgument, InvalidArgumentType


def versions() -> dict[str, str]:
    # here, not at the top: `import empirical.reproduce` stays free of torch
    import torch
    import transformers
    return {"python": platform.python_version(), "torch": torch.__version__, "transformers": transformers.__version__,
            "numpy": np.__version__, "scipy": scipy.__version__}


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
    check_work(windows * heads * longest ** 2, limit=ATTENTION_ENTRIES,
               what=f"attention weights [--windows {windows} × {heads} heads × L {longest} × L {longest}]",
               way_out="lower --windows or --lengths")


def check_before_loading(spec: RunSpec) -> None:
    """What needs the model's config or tokenizer but not its weights, checked before the weights load: the grids
    against the model's positions, and the text against ``--windows`` × the longest length in tokens. Done for a
    local folder (``minilm`` included) or a model in the Hugging Face cache; a GGUF model gets its tokenizer only
    from its conversion, so it is checked after loading, as before."""
    # here, not at the top: `import empirical.reproduce` stays free of transformers
    from transformers import AutoConfig, AutoTokenizer

    name, path = spec.model.name, Path(spec.model.name).expanduser()
    if name.lower() == loading.CAUSAL_MODEL or (path.exists() and loading.gguf_file(path) is not None):
        return
    source = str(loading.minilm_path()) if name.lower() == loading.OFFLINE_MODEL else name
    try:
        config = AutoConfig.from_pretrained(source, local_files_only=True)
        vocabulary = (AutoTokenizer.from_pretrained(spec.model.tokenizer or source, local_files_only=True)
                      if spec.text else None)
    except Exception:  # noqa: BLE001 - not readable without the hub or the weights: loading says why
        return
    max_length = getattr(config, "max_position_embeddings", None) or getattr(config, "n_positions", None) or 1 << 20
    longest = max(spec.grids.for_model(max_length).lengths)
    heads = (getattr(config, "num_hidden_layers", None) or 1) * (getattr(config, "num_attention_heads", None) or 1)
    check_memory(windows=spec.windows, heads=heads, longest=longest)  # before the text is cut into windows
    if vocabulary is not None and len(vocabulary) > 1:
        text_windows(spec.text, tokenizer=vocabulary, length=longest, count=spec.windows)  # raises: too few tokens


def run(**options) -> dict:
    """:func:`execute` the spec of keyword options (:meth:`empirical.spec.RunSpec.from_options`: ``model``,
    ``text``, ``out``, ``windows``, ``dtype``, ``lengths``, ...), every one checked before the model loads."""
    return execute(RunSpec.from_options(**options))


def execute(spec: RunSpec) -> dict:
    """Load the spec's model, run its algorithms, write results.json, the figures and report.md into ``spec.out``.

    The grids are checked against the model before any forward pass. ``spec.cluster`` (``"local"`` or a Dask
    scheduler address) runs every pass over the rows as tasks by (window, block of ``layers_per_block`` layers) on
    its workers, the driver making no forward pass (:mod:`empirical.cluster`): the same ``results.json``, resumable
    after an interruption, and the task graph with its times in ``cluster-graph.json``. ``layers_per_block`` bounds
    how many layers' vectors are held at once: the same numbers, one forward pass per block of layers and pass over
    them. ``workers`` blocks of rows run at once on a pool of threads. ``dtype`` is the weights' precision (the heads
    are read back in float32) and ``weights`` where they live (``memory``; ``disk``: streamed a layer at a time;
    ``auto``: disk above 2 GiB). ``backend`` is where the quantities are computed in float64: ``torch`` on ``device``,
    ``numpy`` on the CPU (the reference); ``results.json`` records it under ``settings``.
    """
    if spec.out is None:
        raise InvalidArgumentType("--out=None must be a path: the folder results.json, the figures and report.md go to")
    check_before_loading(spec)
    setup = Setup.from_spec(spec)
    loaded, out = setup.loaded, spec.out
    if setup.device.type != "cpu" and is_streamed(loaded.model):
        raise InvalidArgument(f"--device={spec.device!r}: weights streamed from disk (--weights disk, or auto for a "
                              "model above 2 GiB) run the forward pass on the CPU; pass --weights memory to use the GPU")
    grids = spec.grids.for_model(loaded.max_length)  # not given: the paper's lengths that fit (MiniLM stops at 512)
    check_memory(windows=spec.windows, heads=loaded.n_layers * loaded.n_heads, longest=max(grids.lengths))
    out.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    finished: dict = {}
    try:
        if spec.cluster is None:
            results, timings = run_algorithms(setup, grids, partial=finished)
        else:
            results, timings = engine.run(spec, grids=grids, setup=setup)
    except BaseException:
        if finished:  # an hour of work is not thrown away because the last algorithm failed
            (out / "results.partial.json").write_text(json.dumps(jsonable(finished), indent=1))
            print(f"note: the finished algorithms' results are in {out / 'results.partial.json'}", file=sys.stderr)
        raise
    checks = merge([c for part in results.values() for c in part.get("checks", {}).values()])
    text = spec.text
    results.update({
        "model": loaded.describe(),
        "text": {"path": text if text else None,
                 "description": (f"`{Path(text).name}`, consecutive windows from its first chapter" if text
                                 else "random token ids")},
        "settings": spec.settings(grids),
        "versions": versions(), "timings": timings, "checks": checks,
        "seconds": time.perf_counter() - began,
    })
    results = jsonable(results)
    (out / "results.json").write_text(json.dumps(results, indent=1))
    if spec.cluster is not None:
        forget(out)  # results.json now holds every task
    results["figures"] = draw_all(results, out)
    (out / "report.md").write_text(render(results))
    return results
