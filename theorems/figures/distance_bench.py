"""Benchmark of the distance API (:mod:`theorems.maths.distance`) at GPT-2 scale.

``python -m theorems.figures.distance_bench --bench`` times every function on ``[144 heads, 1024 queries,
1024 keys, d = 64]``, ``N = 5``, causal mask, in chunks of ``--chunk-heads`` heads so that memory stays
far below 8 GiB, and prints seconds per function and the peak resident memory of the process.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from theorems.arithmetic.validation import check_integer, check_seed, check_work
from theorems.figures.arguments import cli_integer
from theorems.maths.distance import distance, fixed_bound, jensen_gap_bound, random_main_sum, top_n


def benchmark(*, heads: int = 144, queries: int = 1024, keys: int = 1024, dim: int = 64, n: int = 5,
              chunk_heads: int = 4, seed: int = 0, causal: bool = True) -> dict[str, Any]:
    """Seconds and peak memory of the API on ``[heads, queries, keys, dim]``, in chunks of heads.

    Weights are softmax of Gaussian logits under a causal mask (every query sees at least ``n``
    keys: the first ``n − 1`` queries see ``n`` keys), values are Gaussian ``[heads, keys, dim]``.
    """
    import resource
    for name, value in (("heads", heads), ("queries", queries), ("keys", keys), ("dim", dim)):
        check_integer(value, name=name)
    n = check_integer(n, name="n", max_value=keys)
    chunk_heads = check_integer(chunk_heads, name="chunk_heads", max_value=heads)
    check_seed(seed)
    check_work(chunk_heads * queries * keys * max(dim, n), what=f"one chunk [chunk_heads={chunk_heads}, "
               f"queries={queries}, keys={keys}, max(dim, n)={max(dim, n)}]", way_out="lower chunk_heads")
    rng = np.random.default_rng(seed)
    seconds = {name: 0.0 for name in ("distance.sum", "distance.norm", "fixed_bound", "random_main_sum",
                                      "jensen_gap_bound", "top_n")}
    positions = np.arange(keys)
    mask = positions[None, :] <= np.maximum(np.arange(queries), n - 1)[:, None]  # [Q, L] causal
    for start in range(0, heads, chunk_heads):
        h = min(chunk_heads, heads - start)
        logits = rng.standard_normal((h, queries, keys))
        logits = np.where(mask, logits, -np.inf)
        alpha = np.exp(logits - logits.max(axis=-1, keepdims=True))
        alpha /= alpha.sum(axis=-1, keepdims=True)  # [h, Q, L]
        x = rng.standard_normal((h, 1, keys, dim))  # [h, 1, L, d] values shared by the queries
        for name, call in (("distance.sum", lambda: distance(alpha, x, n, mask=mask)),
                           ("distance.norm", lambda: distance(alpha, x, n, reading="norm", mask=mask)),
                           ("fixed_bound", lambda: fixed_bound(alpha, x, n, mask=mask)),
                           ("random_main_sum", lambda: random_main_sum(alpha, x, n, mask=mask)),
                           ("jensen_gap_bound", lambda: jensen_gap_bound(alpha, x, n, mask=mask)),
                           ("top_n", lambda: top_n(alpha, n, mask=mask))):
            began = time.perf_counter()
            call()
            seconds[name] += time.perf_counter() - began
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20  # kB -> GiB on Linux
    return {"shape": [heads, queries, keys, dim], "n": n, "chunk_heads": chunk_heads,
            "seconds": {k: round(v, 2) for k, v in seconds.items()},
            "total_seconds": round(sum(seconds.values()), 2), "peak_rss_gib": round(peak, 2)}


def main(argv: list[str] | None = None) -> int:
    import argparse
    import json
    parser = argparse.ArgumentParser(prog="python -m theorems.figures.distance_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--bench", action="store_true", help="time the API on [heads, queries, keys, dim]")
    parser.add_argument("--heads", type=cli_integer(), default=144)
    parser.add_argument("--queries", type=cli_integer(), default=1024)
    parser.add_argument("--keys", type=cli_integer(), default=1024)
    parser.add_argument("--dim", type=cli_integer(), default=64)
    parser.add_argument("--n", type=cli_integer(), default=5)
    parser.add_argument("--chunk-heads", type=cli_integer(), default=4)
    args = parser.parse_args(argv)
    if args.n > args.keys:
        parser.error(f"argument --n: {args.n} must be <= --keys {args.keys}")
    if args.chunk_heads > args.heads:
        parser.error(f"argument --chunk-heads: {args.chunk_heads} must be <= --heads {args.heads}")
    if not args.bench:
        parser.print_help()
        return 0
    print(json.dumps(benchmark(heads=args.heads, queries=args.queries, keys=args.keys, dim=args.dim, n=args.n,
                               chunk_heads=args.chunk_heads), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
