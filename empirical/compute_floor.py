"""A compute floor for ``bench``: the least arithmetic each algorithm must do, over rates measured in the process.

The memory floor of :mod:`empirical.bench` (forward passes + one read of the per-head tables) ignores that
the algorithms do ``O(H·L²)`` work per grid point. This floor counts, from the shapes of the work alone
(``k`` = the keys a query row sees: ``t + 1`` for row ``t`` of a causal model, ``L`` for an encoder;
``d`` = the head's width; ``H`` = every head of every layer, times the windows), three kinds of operation:

- ``matmul`` flops: Alg. 1-3: the weighted sum ``T = Σ_i α_i x_i`` of a row and ``x_i·T`` of each of its keys (the
  random main sum), ``2·k·d`` each, once per row and ``L``; and at each ``N`` the product ``x_i·s_N`` of every key
  outside ``I_N`` (its distance ``‖α_i x_i − s_N‖``), ``2·(k − N)·d``; Alg. 4: ``x_i·s`` for every key at each
  ``N``, ``2·k·d`` per row and ``N`` (the ``[H, L, d] @ [H, d, C]`` products), and each head's Gram matrix for
  ``δ``, ``L²·d`` (half of ``2·L²·d``: it is symmetric);
- ``exp``: one softmax of each row in float64, ``k`` (Alg. 1-4: once per row and ``L``; Alg. 5: the base
  softmax at each ``T``, ``k``, and the moved logits at each ``(T, ε)``, ``k``);
- ``element`` operations: Alg. 1-3: ordering a row's weights for its grid of ``N``, ``k`` per ``N`` or
  ``k·⌈log₂ k⌉`` once (a sort), whichever is less, the running sum of the selected vectors up to the
  largest ``N``, ``min(k, N_max)·d`` once per row (every ``N``'s top-``N`` sum is a prefix of it), and at each
  ``N`` a root per key outside ``I_N`` (``d̃``), ``k − N``, and per key (the random main sum), ``k``; Alg. 4:
  the top-``N`` sum, ``N·d``, the distance of every key, ``k``, and the selection, ``k``, per row and ``N``;
  Alg. 5: the four Jacobian norms, ``k`` each, and each finite difference's norm, ``k``, per row and ``T``
  (``ε``).

Rows enter as the algorithms take them (Alg. 1-3: at least ``N`` keys; Alg. 4: at least ``N + 1``). The
floor's seconds are each count over its rate measured in the same process (:func:`rates`): float64
matrix products (numpy's BLAS, its own threads), and element-wise multiplies and ``exp`` on cache-sized
blocks on ``workers`` threads at once. Everything else the algorithms do (the fixed bound's ``d_1``
table, the spectral norm's secular solve, sorting for every ``N`` at once, the KS tests) is left out:
this is a lower bound, not a model of the code.

>>> counts = work(5, Grids(temperatures=(1.0,), epsilons=(0.1,)), lengths=[4], heads=1, d=2, causal=True)
>>> counts["exp"], counts["element"]   # 1+2+3+4 keys: 10 exps at T, 10 at (T, ε); 4 norms + 1 difference
(20.0, 50.0)
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from empirical.grids import Grids

KINDS = ("matmul", "exp", "element")


def _keys(length: int, causal: bool) -> np.ndarray:
    """Visible keys per query row at ``length``."""
    return np.arange(1, length + 1, dtype=float) if causal else np.full(length, float(length))


def _distance_work(keys: np.ndarray, ns, d: int) -> dict:
    """Alg. 1-3 at one ``L``: per row one softmax, one weighted sum and its product with each key, the order of its
    weights for the ``N`` it sees (a selection per ``N`` or one sort), the running sum of the selected vectors, and at
    each ``N`` the product with ``s_N`` and the root of each key outside ``I_N`` and a root per key (the random main
    sum)."""
    keys = keys[keys >= min(ns)]
    grid = np.asarray(ns)
    taking = keys[:, None] >= grid  # [R, G] the N of the grid each row takes part in
    sees = taking.sum(-1)
    outside = ((keys[:, None] - grid) * taking).sum(-1)  # Σ_N (k − N): the keys outside I_N, every N
    ordering = np.minimum(keys * sees, keys * np.ceil(np.log2(np.maximum(keys, 2))))
    largest = grid.max()
    return {"matmul": 2 * d * (2 * keys.sum() + outside.sum()), "exp": keys.sum(),
            "element": ordering.sum() + d * np.minimum(keys, largest).sum() + outside.sum() + (keys * sees).sum()}


def work(number: int, grids: Grids, *, lengths, heads: int, d: int, causal: bool, windows: int = 1) -> dict:
    """The operations of Algorithm ``number`` (``matmul`` flops, ``exp`` and ``element`` operations), every head.

    ``grids`` are the run's (:class:`empirical.grids.Grids`); ``lengths`` the ``L`` it runs at.
    """
    # here, not at the top: `import empirical.compute_floor` stays free of torch
    from empirical.algorithms import critical_grid

    total = dict.fromkeys(KINDS, 0.0)
    for length in lengths:
        keys = _keys(length, causal)
        if number == 1:
            part = _distance_work(keys, (5,), d)
        elif number == 2:
            part = _distance_work(keys, [n for n in grids.ns if n < length], d)
        elif number == 3:
            part = _distance_work(keys, critical_grid(length), d)
        elif number == 4:
            ns = [n for n in grids.separability_ns if n < length]
            part = {"matmul": length * length * d, "exp": keys[keys >= min(ns) + 1].sum(), "element": 0.0}
            for n in ns:
                seen = keys[keys >= n + 1]
                part["matmul"] += 2 * d * seen.sum()
                part["element"] += 2 * seen.sum() + n * d * seen.size
        else:
            t, e = len(grids.temperatures), len(grids.epsilons)
            part = {"matmul": 0.0, "exp": t * (1 + e) * keys.sum(), "element": t * (4 + e) * keys.sum()}
        for kind in KINDS:
            total[kind] += float(part[kind]) * heads * windows
    return total


def _best(seconds, repeats: int = 3) -> float:
    return min(seconds() for _ in range(repeats))


def rates(*, workers: int = 1) -> dict:
    """Operations per second, measured now: float64 ``[12, 1024, 64] @ [12, 64, 1024]`` products (BLAS threads as
    configured), and ``multiply`` and ``exp`` passes over ``[12, 40, 1024]`` float64 blocks, one per thread on
    ``workers`` threads at once (the best of three)."""
    generator = np.random.default_rng(0)
    a, b = generator.standard_normal((12, 1024, 64)), generator.standard_normal((12, 64, 1024))
    a @ b  # warm up the BLAS threads

    def product() -> float:
        began = time.perf_counter()
        a @ b
        return time.perf_counter() - began

    blocks = [generator.standard_normal((12, 40, 1024)) for _ in range(workers)]
    scratch = [np.empty_like(block) for block in blocks]
    passes = 20

    def pooled(operation) -> float:
        def one(k: int) -> None:
            for _ in range(passes):
                operation(blocks[k], scratch[k])
        began = time.perf_counter()
        list(pool.map(one, range(workers)))
        return time.perf_counter() - began

    with ThreadPoolExecutor(max_workers=workers) as pool:
        multiply = _best(lambda: pooled(lambda x, out: np.multiply(x, 0.5, out=out)))
        exp = _best(lambda: pooled(lambda x, out: np.exp(x, out=out)))
    entries = workers * passes * blocks[0].size
    return {"matmul": 2 * a.shape[0] * a.shape[1] * a.shape[2] * b.shape[2] / _best(product),
            "element": entries / multiply, "exp": entries / exp, "workers": workers}


def floor(counts: dict, measured: dict) -> dict:
    """Seconds of each kind of operation at its measured rate, and their sum."""
    seconds = {kind: counts[kind] / measured[kind] for kind in KINDS}
    return {"counts": counts, "rates": measured, "by_kind": seconds, "seconds": sum(seconds.values())}
