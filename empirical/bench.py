"""``python -m empirical bench``: wall time and peak memory of each algorithm at the paper's grids.

The work is exactly that of ``python -m empirical reproduce``'s defaults: every query token of every
head, Algorithm 3 scanning every ``N`` of its grid (:func:`empirical.algorithms.critical_grid`). The
model is the GPT-2 124M architecture, ``GPT2Config()`` with random weights (the cost is the same as
the pretrained model's), saved once and loaded through :func:`empirical.heads.loading.load_model`. The
text is *War and Peace* through the GPT-2 tokenizer when ``../shared`` is there, random token ids
otherwise. Each algorithm runs in its own process (``spawn``) so that its peak resident memory
(``ru_maxrss``, which includes the ~0.5 GiB of torch and the model) is its own.

Beside each time the table states the work (query rows, ``N`` grid, windows), the paper's Table 1
time (10-core Apple M1 Pro) and a floor measured in the same process: the model's forward passes
for the same windows, plus the time to read once, at the bandwidth measured there, the bytes every
algorithm must read at least once (each head's logits ``[L, L]`` and embeddings ``[L, d]``), and a compute
floor (:mod:`empirical.compute_floor`: the least arithmetic each algorithm must do over the rates measured there).

>>> _duration(75.0), _duration(3 * 3600 + 60)
('1 min 15 s', '3 h 1 min')
"""

from __future__ import annotations

import json
import multiprocessing
import os
import platform
import resource
import tempfile
import time
from pathlib import Path

import numpy as np

from empirical import compute_floor
from empirical.grids import EPSILONS, PAPER_LENGTHS, PAPER_NS, SEPARABILITY_NS, TEMPERATURES, Grids
from empirical.heads.forked_groups import largest_child_growth
from theorems.errors import InvalidArgument, ModelRunFailed

PAPER_TABLE1 = {1: 24 * 60, 2: 37 * 60, 3: 17 * 3600 + 4 * 60, 4: 7 * 60, 5: 60}
"""The paper's Table 1 in seconds: Alg. 1 24 min, Alg. 2 37 min, Alg. 3 17 h 4 min, Alg. 4 7 min, Alg. 5 1 min."""

BEFORE = {1: 21.9, 2: 25.6, 3: 35.4, 4: 24.7, 5: 44.3}
"""Seconds per algorithm before the torch kernels of issue 39 (the numpy path, idle machine, 2026-11-23: the first
table of ``docs/benchmarks.md``)."""
TARGET_SECONDS, TARGET_GIB, TARGET_FLOOR_RATIO = 90, 3.0, 4
"""Issue 39's goal for the paper-grid run on two idle cores: all five algorithms in 90 s (and issue 23's 3 GiB), each
within 4x of the larger of its two floors (memory: forward passes + one read of the tables; compute)."""

NAMES = {1: "distance vs L", 2: "distance vs N", 3: "critical-N scan", 4: "separability", 5: "gradient sensitivity"}

BYTES_PER_ENTRY = 4
"""The heads are stored in float32 (the model's own precision)."""


def grids(scale: str = "paper") -> dict:
    """The grid keywords (:class:`empirical.grids.Grids`) of ``scale`` (``paper`` or ``small``).

    ``paper`` is exactly ``reproduce``'s defaults: the paper's grids, every token, every ``N`` of the grid.

    >>> Grids(**grids("small")).lengths
    (32, 64, 128)
    """
    every = dict(distance_tokens=None, critical_tokens=None, separability_tokens=None, sensitivity_tokens=None)
    if scale == "paper":
        return dict(lengths=PAPER_LENGTHS, ns=PAPER_NS, separability_ns=SEPARABILITY_NS, temperatures=TEMPERATURES,
                    epsilons=EPSILONS, **every)
    if scale == "small":
        return dict(lengths=(32, 64, 128), ns=(1, 5, 10, 20, 100), separability_ns=(1, 2, 4, 8, 16, 32),
                    temperatures=TEMPERATURES, epsilons=EPSILONS, **every)
    raise InvalidArgument(f"scale={scale!r} must be 'paper' or 'small'")


def _lengths_of(number: int, grids: Grids, longest: int) -> list[int]:
    return list(grids.lengths) if number in (1, 3) else [longest]


def _work(number: int, summary: dict, heads: int, windows: int) -> dict:
    """What an algorithm computed: query rows (head x token, x N or T where it scans a grid), in words too."""
    points = summary.get("points", [])
    if number == 1:
        rows = sum(p["tokens"] for p in points) * heads
        text = f"L = {', '.join(str(p['length']) for p in points)}; N = {summary['n']}"
    elif number == 2:
        rows = sum(p["tokens"] for p in points) * heads
        text = f"L = {summary['length']}; N = {', '.join(str(p['n']) for p in points)}"
    elif number == 3:
        rows = sum(e["tokens"] for p in points for e in p["evaluated"]) * heads
        text = "; ".join(f"L = {p['length']}: {len(p['grid'])} N" for p in points) + " (half octaves below L)"
    elif number == 4:
        rows = sum(p["tokens"] for p in points) * heads
        text = f"L = {summary['length']}; N = {', '.join(str(p['n']) for p in points)}"
    else:
        rows = summary["tokens"] * heads * len(summary["temperatures"])
        text = (f"L = {summary['length']}; {len(summary['temperatures'])} T x {len(summary['epsilons'])} eps")
    return {"rows": int(rows * windows), "grid": text, "windows": windows,
            "tokens": "every query token of every head"}


def _bandwidth() -> float:
    """Bytes per second of one pass over a 256 MiB float32 array (a sum), measured now."""
    array = np.ones(1 << 26, dtype=np.float32)
    array.sum()  # fault the pages in before timing
    began = time.perf_counter()
    for _ in range(3):
        array.sum()
    return 3 * array.nbytes / (time.perf_counter() - began)


def _floor(setup, lengths: list[int]) -> dict:
    """The forward passes for the windows of ``lengths`` and the bytes the heads hold there, in seconds."""
    # here, not at the top: `import empirical.bench` stays free of torch
    import torch

    from empirical.heads.device import place, synchronize

    model = setup.loaded.model if setup.device.type == "cpu" else place(setup.loaded.model, setup.device)
    with torch.no_grad():  # a first pass pays for lazy initialisation: not part of the floor
        model(input_ids=place(setup.token_ids(min(lengths)), setup.device))
    forward, entries = 0.0, 0
    for length in lengths:
        ids = place(setup.token_ids(length), setup.device)
        passes = []
        for _ in range(2):  # the faster of two: the first pass at a new shape also pays for allocation
            synchronize(setup.device)
            began = time.perf_counter()
            with torch.no_grad():
                model(input_ids=ids)
            synchronize(setup.device)
            passes.append(time.perf_counter() - began)
        forward += min(passes)
        config = setup.loaded.model.config
        heads = setup.loaded.n_layers * int(getattr(config, "num_attention_heads", getattr(config, "n_head", 0)))
        width = int(getattr(config, "hidden_size", getattr(config, "n_embd", 0))) // max(1, heads // setup.loaded.n_layers)
        entries += setup.windows * heads * (length * length + length * width)  # logits + embeddings
    read = entries * BYTES_PER_ENTRY
    bandwidth = _bandwidth()
    return {"forward_seconds": forward, "bytes": read, "bandwidth": bandwidth,
            "read_seconds": read / bandwidth, "seconds": forward + read / bandwidth}


def _cpu_seconds() -> float:
    """CPU seconds of this process's threads and of its children that have ended (the groups of heads forked by
    :mod:`empirical.heads.forked_groups`)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def _peak_gib() -> float:
    """This process's peak resident memory plus the most a forked group of heads added to the pages it shared with
    this process (:func:`empirical.heads.forked_groups.largest_child_growth`): an upper bound, the two peaks need not
    coincide; in GiB."""
    kilobytes = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss + largest_child_growth()
    return kilobytes / 2 ** 20  # kB -> GiB (Linux)


def _child(spec, number: int, queue) -> None:
    """Algorithm ``number`` of ``spec`` (a :class:`empirical.spec.RunSpec`) in this fresh process: its record, with
    the floors measured here, onto ``queue``."""
    # here, not at the top: `import empirical.bench` stays free of torch
    import torch

    from empirical.allocator import retain_freed_memory
    from empirical.heads.offload import is_streamed
    from empirical.runner import run_algorithms
    from empirical.setup import Setup

    retain_freed_memory()  # as `python -m empirical` does: the blocks reuse freed pages
    torch.set_num_threads(os.cpu_count() or 1)
    setup = Setup.from_spec(spec)
    loaded, grids = setup.loaded, spec.grids
    lengths = _lengths_of(number, grids, max(setup.lengths(grids.lengths)))
    floor = _floor(setup, lengths)
    load = [os.getloadavg()[0]]  # the machine's load beside the time: a loaded machine's times say little
    began, cpu_began = time.perf_counter(), _cpu_seconds()
    results, _ = run_algorithms(setup, grids.only(number))
    seconds, cpu_seconds = time.perf_counter() - began, _cpu_seconds() - cpu_began
    load.append(os.getloadavg()[0])
    peak = _peak_gib()
    summary = next(iter(results.values()))
    heads = loaded.n_layers * int(loaded.model.config.num_attention_heads)
    counts = compute_floor.work(number, grids, lengths=lengths, heads=heads, d=loaded.d_head, causal=loaded.causal,
                                windows=setup.windows)
    compute = compute_floor.floor(counts, compute_floor.rates(workers=setup.workers))  # after the run: its memory
    extra = {}
    if number == 3:
        extra = {str(p["length"]): {"critical_n": p["critical_n"], "stable_n": p["stable_n"],
                                    "p_value_falls_at": p["non_monotone"]["p_value_falls_at"]}
                 for p in summary["points"]}
    queue.put({"algorithm": number, "seconds": seconds, "tokens": setup.windows * sum(lengths), "backend": spec.backend,
               "model": loaded.describe(), "dtype": spec.model.dtype, "streamed": is_streamed(loaded.model),
               "cpu_seconds": cpu_seconds, "peak_gib": peak, "floor": floor, "compute_floor": compute,
               "workers": setup.workers, "load": load, "work": _work(number, summary, heads, setup.windows),
               "extra": extra})


def run(*, spec, scale: str = "paper", log=None, random_weights: bool = False) -> list[dict]:
    """Time each algorithm of ``spec`` (a :class:`empirical.spec.RunSpec`) in a fresh process; returns one record per
    algorithm (each also printed as JSON).

    ``random_weights`` first writes the GPT-2 124M architecture with random weights (``GPT2Config()``) into the
    folder ``spec.model`` names; ``log`` (a path) receives each record as one JSON line as soon as it is measured.
    """
    # here, not at the top: `import empirical.bench` stays free of torch
    import torch
    from transformers import GPT2Config, GPT2Model

    if random_weights:
        torch.manual_seed(0)
        GPT2Model(GPT2Config()).save_pretrained(spec.model.name)  # GPT-2 124M architecture, random weights
    context = multiprocessing.get_context("spawn")
    records = []
    for number in spec.grids.which:
        queue = context.Queue()
        process = context.Process(target=_child, args=(spec, number, queue))
        process.start()
        record = None
        while record is None:
            try:
                record = queue.get(timeout=5)
            except Exception:  # queue.Empty: is the child still alive?
                if not process.is_alive():
                    raise ModelRunFailed(f"the benchmark of Alg. {number} died (exit code {process.exitcode})") from None
        process.join()
        record.update(name=NAMES[number], paper_seconds=PAPER_TABLE1[number], before_seconds=BEFORE[number],
                      text="War and Peace (GPT-2 tokenizer)" if spec.text else "random token ids", device=spec.device,
                      date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
        records.append(record)
        print(json.dumps(record), flush=True)
        if log is not None:
            with open(log, "a") as handle:
                handle.write(json.dumps(record) + "\n")
    return records


def _duration(seconds: float) -> str:
    if seconds >= 3600:
        return f"{int(seconds // 3600)} h {int(seconds % 3600 // 60)} min"
    if seconds >= 60:
        return f"{int(seconds // 60)} min {int(seconds % 60)} s"
    return f"{seconds:.1f} s"


def _compute_text(record: dict) -> str:
    """The compute floor's cell and its ratio (``? | ?`` for a record without one)."""
    compute = record.get("compute_floor")
    if not compute:
        return "? | ?"
    by_kind = compute["by_kind"]
    seconds = compute["seconds"]
    shown = _duration(seconds) if seconds >= 10 else f"{seconds:.2f} s"
    return (f"{shown} ({by_kind['matmul']:.2f} + {by_kind['exp']:.2f} + "
            f"{by_kind['element']:.2f} s; {compute['rates']['workers']} threads) | "
            f"{record['seconds'] / compute['seconds']:.0f}×")


def larger_floor(record: dict) -> float | None:
    """The larger of a record's memory floor and compute floor, in seconds (``None`` without either)."""
    floors = [part["seconds"] for part in (record.get("floor"), record.get("compute_floor")) if part]
    return max(floors) if floors else None


def markdown(records: list[dict], *, scale: str) -> str:
    """The table of a run: work, time, load, before, paper, ratios, peak memory, both floors and the larger one."""
    # here, not at the top: `import empirical.bench` stays free of torch
    import torch
    import transformers

    total = sum(r["seconds"] for r in records)
    paper_total = sum(r["paper_seconds"] for r in records)
    lines = [
        "| algorithm | work (query rows; grid; windows) | time here | load (start → end) | before | peak memory "
        "| paper, Table 1 | paper / ours | floor (forward + read) | ours / floor | compute floor (matmul + exp + "
        "element) | ours / compute floor | ours / larger floor |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in records:
        work, floor = r.get("work"), r.get("floor")
        work_text = f"{work['rows']:,}; {work['grid']}; {work['windows']}" if work else "?"
        floor_text = (f"{_duration(floor['seconds'])} ({_duration(floor['forward_seconds'])} + "
                      f"{floor['bytes'] / 2 ** 30:.2f} GiB at {floor['bandwidth'] / 2 ** 30:.1f} GiB/s)") if floor else "?"
        before = r.get("before_seconds") if scale == "paper" else None
        load = " → ".join(f"{value:.1f}" for value in r.get("load", [])) or "?"
        larger = larger_floor(r)
        larger_text = f"{r['seconds'] / larger:.1f}×" if larger else "?"
        lines.append(f"| Alg. {r['algorithm']}: {r['name']} | {work_text} | {_duration(r['seconds'])} | {load} | "
                     f"{_duration(before) if before else 'n/a'} | {r['peak_gib']:.2f} GiB | {_duration(r['paper_seconds'])} | "
                     f"{r['paper_seconds'] / r['seconds']:.0f}× | {floor_text} | "
                     f"{(r['seconds'] / floor['seconds']) if floor else float('nan'):.0f}× | {_compute_text(r)} | "
                     f"{larger_text} |")
    lines.append(f"| **all** | | **{_duration(total)}** | | | **{max(r['peak_gib'] for r in records):.2f} GiB** | "
                 f"**{_duration(paper_total)}** | **{paper_total / total:.0f}×** | | | | | |")
    machine = (f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, torch {torch.__version__}, "
               f"transformers {transformers.__version__}; device {records[0].get('device', 'cpu')}; backend "
               f"{records[0].get('backend', 'numpy')}; grid `{scale}`; "
               f"text: {records[0].get('text', '?')}; {records[0].get('date', '')}")
    target = "within" if total <= TARGET_SECONDS and max(r["peak_gib"] for r in records) <= TARGET_GIB else "outside"
    far = [f"Alg. {r['algorithm']}" for r in records
           if larger_floor(r) and r["seconds"] > TARGET_FLOOR_RATIO * larger_floor(r)]
    closing = (f"All {len(records)} together: {_duration(total)} here against {_duration(paper_total)} in the paper "
               f"({paper_total / total:.0f}×), {target} the target of {_duration(TARGET_SECONDS)} and {TARGET_GIB:g} GiB; "
               + (f"above {TARGET_FLOOR_RATIO}× the larger of its floors: {', '.join(far)}." if far
                  else f"every algorithm within {TARGET_FLOOR_RATIO}× the larger of its floors."))
    return "\n".join(lines) + f"\n\nMeasured on {machine}.\n\n{closing}\n"


def check_output(path) -> Path:
    """``--out`` must be a writable file path (not a directory), checked before any computation."""
    try:
        from theorems.arithmetic.files import check_output_path  # the project's one output-path check (issue 10)
    except ImportError:
        check_output_path = None
    if check_output_path is not None:
        return check_output_path(path, name="--out", kind="file")
    path = Path(path)
    if path.is_dir():
        raise InvalidArgument(f"--out='{path}' is a directory; it must be the path of the Markdown file to write")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path.parent):
            pass
    except OSError as error:
        raise InvalidArgument(f"--out='{path}' cannot be written: {error.strerror or error}") from None
    if path.exists() and not os.access(path, os.W_OK):
        raise InvalidArgument(f"--out='{path}' cannot be written: permission denied")
    return path


HEADER = """# Benchmark run: Algorithms 1-5 at the paper's grids ({scale})

`python -m empirical bench`: the GPT-2 124M architecture (`GPT2Config()`, 144 heads, random weights),
every query token of every head, Algorithm 3 scanning every `N` of its grid; each algorithm in a fresh
process. See `docs/benchmarks.md` for what the columns mean.

"""


def main(*, scale: str = "paper", out, model: str | None = None, lengths=None, **options) -> str:
    """Check every option, run, write the Markdown table to ``out`` and the records to ``out`` with ``.jsonl``.

    ``model`` (a local folder, e.g. ``python -m empirical checkpoint``'s) replaces the random GPT-2; ``lengths``
    replaces the scale's lengths (Alg. 2, 4 and 5 run at the longest); ``options`` are the other keywords of
    :meth:`empirical.spec.RunSpec.from_options` (``which``, ``device``, ``workers``, ``dtype``, ``weights``,
    ``backend``). The text is *War and Peace* through the GPT-2 tokenizer when ``../shared`` is there (a model folder
    with its own tokenizer reads it with that), random token ids otherwise.
    """
    # here, not at the top: `import empirical.bench` stays free of torch
    from empirical.heads.loading import resolve as resolve_model
    from empirical.heads.text import GPT2_TOKENIZER, WAR_AND_PEACE
    from empirical.spec import RunSpec

    scaled = grids(scale) if lengths is None else {**grids(scale), "lengths": lengths}
    if model is not None:
        model = resolve_model(model)
        if not Path(model).is_dir():
            raise InvalidArgument(f"--model={model!r} must be a local model folder (config.json and weights), e.g. "
                                  "one written by `python -m empirical checkpoint`")
    text, tokenizer = (str(WAR_AND_PEACE), str(GPT2_TOKENIZER)) if WAR_AND_PEACE.is_file() and GPT2_TOKENIZER.is_dir() \
        else (None, None)
    if model is not None and any((Path(model) / name).is_file() for name in ("tokenizer.json", "tokenizer_config.json")):
        tokenizer = None  # its own tokenizer
    with tempfile.TemporaryDirectory() as scratch:  # the random GPT-2's folder, written only once all is checked
        spec = RunSpec.from_options(model=model or scratch, offline=True, tokenizer=tokenizer, text=text,
                                    progress=False, **scaled, **options)
        out = check_output(out)
        log = out.with_suffix(".jsonl")
        check_output(log)
        log.write_text("")
        records = run(spec=spec, scale=scale, log=log, random_weights=model is None)
    header = HEADER if model is None else MODEL_HEADER
    report = header.format(scale=scale, model=model, dtype=spec.model.dtype) + markdown(records, scale=scale)
    if model is not None:
        report += forward_table(records)
    out.write_text(report)
    return report


MODEL_HEADER = """# Benchmark run: Algorithms 1-5 on `{model}` ({scale} grid, {dtype} weights)

`python -m empirical bench --model`: every query token of every head; each algorithm in a fresh process, its peak
resident memory its own (the model, streamed or not, included). See `docs/benchmarks.md` for the columns.

"""


def forward_table(records: list[dict]) -> str:
    """Per token: each algorithm's time against the model's forward passes alone on the same windows."""
    lines = ["", "| algorithm | tokens (windows × lengths) | forward passes alone | per token: forward | per token: "
             "algorithm | algorithm / forward |", "|---|---|---|---|---|---|"]
    for r in (r for r in records if r.get("floor")):
        forward, tokens = r["floor"]["forward_seconds"], r.get("tokens") or 1
        lines.append(f"| Alg. {r['algorithm']} | {tokens:,} | {_duration(forward)} | {1e3 * forward / tokens:.2f} ms | "
                     f"{1e3 * r['seconds'] / tokens:.1f} ms | {r['seconds'] / forward:.1f}× |")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------------------------
# How the cost grows: time against L and against the number of heads


SCALING_LENGTHS = (32, 64, 128, 256, 512, 1024)
SCALING_LAYERS = (1, 2, 4)
"""GPT-2 layers of 12 heads: 12, 24 and 48 heads."""


def _unit_work(setup, number: int, length: int) -> None:
    """One point of each algorithm at ``length``, every token: the unit whose cost the scaling law fits."""
    # here, not at the top: `import empirical.bench` stays free of torch
    from empirical import algorithms

    if number in (1, 2):
        algorithms.distance_point(setup, length=length, n=5, checks=False)
    elif number == 3:
        algorithms.critical_n(setup, lengths=(length,))
    elif number == 4:
        algorithms.separability(setup, length=length, ns=(8,))
    else:
        algorithms.sensitivity(setup, length=length, temperatures=(0.01, 0.1, 1.0, 10.0))


def scaling(*, lengths=SCALING_LENGTHS, layers=SCALING_LAYERS, head_length: int = 256, algorithms=(1, 3, 4, 5)) -> dict:
    """Seconds per unit of work (see :func:`_unit_work`) against ``L`` (12 heads) and against heads (at ``head_length``).

    The forward pass is excluded (the heads are extracted first). Returns the times and the fitted
    exponents ``time ∝ L^a`` (over ``L ≥ 128``) and ``time ∝ heads^b``.
    """
    # here, not at the top: `import empirical.bench` stays free of torch
    import torch
    from transformers import GPT2Config, GPT2Model

    from empirical.heads.text import GPT2_TOKENIZER, WAR_AND_PEACE
    from empirical.setup import Setup
    from empirical.spec import RunSpec

    text = str(WAR_AND_PEACE) if WAR_AND_PEACE.is_file() else None
    tokenizer = str(GPT2_TOKENIZER) if text else None
    out = {"length": {}, "heads": {}, "head_length": head_length}
    for n_layer in sorted(set(layers) | {1}):
        with tempfile.TemporaryDirectory() as model_dir:
            torch.manual_seed(0)
            GPT2Model(GPT2Config(n_layer=n_layer)).save_pretrained(model_dir)
            setup = Setup.from_spec(RunSpec.from_options(model=model_dir, offline=True, tokenizer=tokenizer, text=text,
                                                         progress=False))
            todo = [(number, length) for number in algorithms for length in lengths] if n_layer == 1 else []
            todo += [(number, head_length) for number in algorithms] if n_layer in layers else []
            for number, length in todo:
                setup.heads(length)  # the forward pass, outside the timing
                began = time.perf_counter()
                _unit_work(setup, number, length)
                seconds = time.perf_counter() - began
                if n_layer == 1 and length in lengths:
                    out["length"].setdefault(str(number), {})[str(length)] = seconds
                if n_layer in layers and length == head_length:
                    out["heads"].setdefault(str(number), {})[str(12 * n_layer)] = seconds
                print(json.dumps({"algorithm": number, "heads": 12 * n_layer, "length": length, "seconds": seconds}),
                      flush=True)
    fits = {}
    for number in map(str, algorithms):
        ls = [int(k) for k in out["length"][number] if int(k) >= 128]
        a = np.polyfit(np.log(ls), np.log([out["length"][number][str(k)] for k in ls]), 1)[0]
        hs = [int(k) for k in out["heads"][number]]
        b = np.polyfit(np.log(hs), np.log([out["heads"][number][str(k)] for k in hs]), 1)[0] if len(hs) > 1 else None
        fits[number] = {"length_exponent": float(a), "heads_exponent": None if b is None else float(b)}
    out["exponents"] = fits
    return out


if __name__ == "__main__":  # python -m empirical.bench scaling OUT.json
    import sys

    if len(sys.argv) != 3 or sys.argv[1] != "scaling":
        raise SystemExit("usage: python -m empirical.bench scaling OUT.json")
    target = check_output(sys.argv[2])
    result = scaling()
    target.write_text(json.dumps(result, indent=1))
    print(json.dumps(result["exponents"], indent=1))
