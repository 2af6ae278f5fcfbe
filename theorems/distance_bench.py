"""Benchmark of the distance API (:mod:`theorems.distance`) at GPT-2 scale.

``python -m theorems.distance_bench --bench`` times every function on ``[144 heads, 1024 queries,
1024 keys, d = 64]``, ``N = 5``, causal mask, in chunks of ``--chunk-heads`` heads so that memory stays
far below 8 GiB, and prints seconds per function and the peak resident memory of the process.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from theorems.distance import distance, fixed_bound, jensen_gap_bound, random_main_sum, top_n


def benchmark(*, heads: int = 144, queries: int = 1024, keys: int = 1024, dim: int = 64, n: int = 5,
              chunk_heads: int = 4, seed: int = 0, causal: bool = True) -> dict[str, Any]:
    """Seconds and peak memory of the API on ``[heads, queries, keys, dim]``, in chunks of heads.

    Weights are softmax of Gaussian logits under a causal mask (every query sees at least ``n``
    keys: the first ``n − 1`` queries see ``n`` keys), values are Gaussian ``[heads, keys, dim]``.
    """
    import resource
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
    parser = argparse.ArgumentParser(prog="python -m theorems.distance_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--bench", action="store_true", help="time the API on [heads, queries, keys, dim]")
    parser.add_argument("--heads", type=int, default=144)
    parser.add_argument("--queries", type=int, default=1024)
    parser.add_argument("--keys", type=int, default=1024)
    parser.add_argument("--dim", type=int, default=64)
    parser.add_argument("--n", type=int, default=5)
    parser.add_argument("--chunk-heads", type=int, default=4)
    args = parser.parse_args(argv)
    if not args.bench:
        parser.print_help()
        return 0
    print(json.dumps(benchmark(heads=args.heads, queries=args.queries, keys=args.keys, dim=args.dim, n=args.n,
                               chunk_heads=args.chunk_heads), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
