"""``python -m empirical bench``: wall time and peak memory of each algorithm at the paper's grids.

The model is the GPT-2 124M architecture, ``GPT2Config()`` with random weights (the cost is the
same as the pretrained model's), saved once and loaded through :func:`empirical.loading.load_model`.
The text is *War and Peace* through the GPT-2 tokenizer when ``../shared`` is there, random token
ids otherwise. Each algorithm runs in its own process (``spawn``) so that its peak resident memory
(``ru_maxrss``, which includes the ~0.5 GiB of torch and the model) is its own.

Results go to ``docs/benchmarks.md`` beside the paper's Table 1 (10-core Apple M1 Pro).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import platform
import resource
import tempfile
import time

PAPER_TABLE1 = {1: 24 * 60, 2: 37 * 60, 3: 17 * 3600 + 4 * 60, 4: 7 * 60, 5: 60}
"""The paper's Table 1 in seconds: Alg. 1 24 min, Alg. 2 37 min, Alg. 3 17 h 4 min, Alg. 4 7 min, Alg. 5 1 min."""

TOKENS = dict(distance_tokens=256, critical_tokens=64, separability_tokens=64, sensitivity_tokens=256)
"""Query tokens per head, evenly spaced, at every (L, N): what fits the 15-minute budget on 2 cores."""

NAMES = {1: "distance vs L", 2: "distance vs N", 3: "critical-N search", 4: "separability", 5: "gradient sensitivity"}


def grids(scale: str = "paper") -> dict:
    """The options of :func:`empirical.reproduce.run_algorithms` for ``scale`` (``paper`` or ``small``)."""
    from empirical import algorithms
    if scale == "paper":
        return dict(lengths=algorithms.PAPER_LENGTHS, ns=algorithms.PAPER_NS, separability_ns=algorithms.SEPARABILITY_NS,
                    temperatures=algorithms.TEMPERATURES, **TOKENS)
    if scale == "small":
        return dict(lengths=(32, 64, 128), ns=(1, 5, 10, 20, 100), separability_ns=(1, 2, 4, 8, 16, 32),
                    temperatures=algorithms.TEMPERATURES, **TOKENS)
    raise ValueError(f"scale={scale!r} must be 'paper' or 'small'")


def _child(model_dir: str, tokenizer: str | None, text: str | None, number: int, scale: str, queue) -> None:
    import torch

    from empirical.algorithms import Setup
    from empirical.loading import load_model
    from empirical.reproduce import run_algorithms

    torch.set_num_threads(os.cpu_count() or 1)
    loaded = load_model(model_dir, offline=True, tokenizer=tokenizer)
    setup = Setup(loaded, text=text, progress=False)
    began = time.perf_counter()
    results, _ = run_algorithms(setup, which=(number,), **grids(scale))
    seconds = time.perf_counter() - began
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20  # kB -> GiB (Linux)
    summary = next(iter(results.values()))
    extra = {}
    if number == 3:
        extra = {str(p["length"]): p["critical_n"] for p in summary["points"]}
    queue.put({"algorithm": number, "seconds": seconds, "peak_gib": peak, "extra": extra})


def run(*, scale: str = "paper", algorithms=(1, 2, 3, 4, 5), text=None, tokenizer=None) -> list[dict]:
    """Time each algorithm in a fresh process; returns one record per algorithm."""
    import torch
    from transformers import GPT2Config, GPT2Model

    from empirical.text import GPT2_TOKENIZER, WAR_AND_PEACE

    if text is None and WAR_AND_PEACE.is_file() and GPT2_TOKENIZER.is_dir():
        text, tokenizer = str(WAR_AND_PEACE), str(GPT2_TOKENIZER)
    context = multiprocessing.get_context("spawn")
    records = []
    with tempfile.TemporaryDirectory() as model_dir:
        torch.manual_seed(0)
        GPT2Model(GPT2Config()).save_pretrained(model_dir)  # GPT-2 124M architecture, random weights
        for number in algorithms:
            queue = context.Queue()
            process = context.Process(target=_child, args=(model_dir, tokenizer, text, number, scale, queue))
            process.start()
            record = None
            while record is None:
                try:
                    record = queue.get(timeout=5)
                except Exception:  # queue.Empty: is the child still alive?
                    if not process.is_alive():
                        raise RuntimeError(f"the benchmark of Alg. {number} died (exit code {process.exitcode})") from None
            process.join()
            record["name"] = NAMES[number]
            record["paper_seconds"] = PAPER_TABLE1[number]
            records.append(record)
            print(json.dumps(record), flush=True)
    for record in records:
        record["text"] = "War and Peace (GPT-2 tokenizer)" if text else "random token ids"
    return records


def _duration(seconds: float) -> str:
    if seconds >= 3600:
        return f"{int(seconds // 3600)} h {int(seconds % 3600 // 60)} min"
    if seconds >= 60:
        return f"{int(seconds // 60)} min {int(seconds % 60)} s"
    return f"{seconds:.1f} s"


def markdown(records: list[dict], *, scale: str) -> str:
    """The table of ``docs/benchmarks.md``."""
    import torch
    import transformers

    total = sum(r["seconds"] for r in records)
    paper_total = sum(r["paper_seconds"] for r in records)
    lines = [
        "| algorithm | this machine (2 cores, CPU) | peak memory | paper, Table 1 (10-core M1 Pro) | paper / ours |",
        "|---|---|---|---|---|",
    ]
    for r in records:
        lines.append(f"| Alg. {r['algorithm']}: {r['name']} | {_duration(r['seconds'])} | {r['peak_gib']:.2f} GiB | "
                     f"{_duration(r['paper_seconds'])} | {r['paper_seconds'] / r['seconds']:.0f}× |")
    lines.append(f"| **all** | **{_duration(total)}** | **{max(r['peak_gib'] for r in records):.2f} GiB** | "
                 f"**{_duration(paper_total)}** | **{paper_total / total:.0f}×** |")
    machine = (f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, torch {torch.__version__}, "
               f"transformers {transformers.__version__}; grid `{scale}`; text: {records[0].get('text', '?')}")
    ratios = ", ".join(f"Alg. {r['algorithm']} {r['paper_seconds'] / r['seconds']:.0f}×" for r in records)
    target = "within" if total <= 15 * 60 and max(r["peak_gib"] for r in records) <= 8 else "outside"
    closing = (f"Closing note: the paper's times over ours are {ratios}; all five together "
               f"{paper_total / total:.0f}× ({_duration(total)} here against {_duration(paper_total)}), "
               f"{target} the target of 15 minutes and 8 GiB on this machine.")
    return "\n".join(lines) + f"\n\nMeasured on {machine}.\n\n{closing}\n"
