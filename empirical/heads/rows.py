"""Evaluate a per-query function on every head and token, in memory-bounded chunks.

Two backends: ``numpy`` (the reference: each block's arrays are float64 numpy on the CPU) and ``torch`` (each
block's tensors are float64 on the device the heads are on, and the results gather there until the pass is over:
one transfer per pass, not per block).

The theory functions (``theorems.maths.distance``, ``theorems.maths.separability``, ...) are vectorised over
leading dimensions: here they receive, for one window and one layer, every head at once and a block
of query rows, ``alpha [H, C, L]`` with the head's embeddings ``x [H, 1, L, d]`` shared by its
queries and the causal ``mask [C, L]``. The block size ``C`` keeps ``H·C·L·width`` under a budget of
array entries, so an ``L = 1024`` GPT-2 layer never materialises ``[H, L, L, d]`` at once. The loops
run over windows, layers and blocks of rows, never over single tokens.

>>> out = map_rows(heads, lambda rows: {"mass": rows.alpha.sum(-1)})   # doctest: +SKIP
>>> out.values["mass"].shape                                            # doctest: +SKIP
(B, layers, heads, R)
"""

from __future__ import annotations

import collections
import contextlib
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch

from empirical.heads.block import RowMap, Rows
from empirical.heads.extraction import Heads
from empirical.heads.tensor_rows import last_seen, map_tensor_rows, on_unit_sphere, tensor_blocks
from theorems.errors import InvalidArgument

BUDGET = 1 << 25
"""Entries (float64) of the largest ``[H, C, L, width]`` work array one block may create (256 MiB)."""
TORCH_BUDGET = 1 << 20
"""The same for the torch backend: its kernels batch a grid of ``N`` (or ``T``) into one operation, so a block's
arrays are ``width`` times its ``[H, C, L]``; blocks of 8 MiB keep each operation's arrays near a core's cache (with
the heads in two groups, each group's arrays half of that: the fastest of 2^18 to 2^21 on Algorithms 2-5, the GPT-2
architecture at the paper's grids, 2026-11-27)."""
BACKENDS = ("torch", "numpy")
"""Where the algorithms' quantities run: ``torch`` (float64 on the heads' device; the default) or ``numpy`` (float64
on the CPU: the reference)."""


def check_backend(backend, *, name: str = "backend") -> str:
    """``backend`` if it is one of :data:`BACKENDS`, else InvalidArgument naming ``name``.

    >>> check_backend("numpy")
    'numpy'
    """
    if backend not in BACKENDS:
        raise InvalidArgument(f"{name}={backend!r} must be one of {BACKENDS}")
    return backend


def valid_rows(heads: Heads, *, min_keys: int = 1, max_keys: int | None = None, tokens: int | None = None) -> np.ndarray:
    """Query rows with at least ``min_keys`` (and at most ``max_keys``) visible keys in every window.

    ``tokens`` keeps that many of them, evenly spaced (a subsample for the costly searches).
    """
    counts = heads.visible.sum(-1).min(0).values.cpu().numpy()  # [L] fewest visible keys over windows
    ok = counts >= min_keys
    if max_keys is not None:
        ok &= counts <= max_keys
    index = np.flatnonzero(ok)
    if tokens is not None and len(index) > tokens:
        index = index[np.unique(np.linspace(0, len(index) - 1, tokens).round().astype(int))]
    return index


def blocks(heads: Heads, index: np.ndarray, *, embeddings: str = "values", width: int | None = None,
           budget: int = BUDGET, normalise: bool = False, backend: str = "numpy") -> Iterator[Rows]:
    """The blocks of rows ``index``, layer by layer and window by window, as float64 arrays of ``backend``.

    ``width`` is the largest trailing size a function creates per (query, key) pair (numpy: ``d`` at least; torch:
    the grid an operation batches, 1 by default); ``normalise`` puts every embedding on the unit sphere
    (Algorithm 4). One layer's ``[B, H, L, L]`` logits exist at a time (:meth:`Heads.layer_logits`); layers come
    in order, so a :class:`empirical.heads.stream.HeadStream` extracts each block of layers once per pass.
    """
    batch, layers, n_heads, length = heads.sizes
    starts = _block_starts(heads, index, embeddings=embeddings, width=width, budget=budget, backend=backend)
    if backend == "torch":
        for block in tensor_blocks(heads, index, starts, embeddings=embeddings, normalise=normalise):
            yield block.rows()
        return
    for layer in range(layers):
        layer_logits = heads.layer_logits(layer)  # [B, H, L, L] float32, -inf where masked
        layer_x = heads.layer_embeddings(layer, embeddings)  # [B, H, L, d]
        for window in range(batch):
            x = layer_x[window].to(torch.float64)  # [H, L, d]
            if normalise:
                x = on_unit_sphere(x)
            visible = heads.visible[window].cpu().numpy()  # [L, L]
            x = x.cpu().numpy()[:, None]  # [H, 1, L, d]
            for start, stop in zip(starts[:-1], starts[1:]):
                rows = index[start:stop]
                logits = layer_logits[window][:, rows].cpu().to(torch.float64)  # [H, C, L], -inf where masked
                # alpha again in float64 from the same logits: the model's float32 weights sum to 1 only
                # to ~1e-7, enough to fake a violation where a bound is tight (N = L: both sides 0)
                alpha = torch.softmax(logits, dim=-1).numpy()  # [H, C, L]
                mask = visible[rows]  # [C, L]
                logits = torch.where(torch.from_numpy(mask), logits, 0.0).numpy()  # finite: masked keys -> 0
                seen = length - np.argmax(mask[:, ::-1], axis=-1)  # [C] the keys up to the last visible one
                yield Rows(window, layer, rows, alpha, logits, x, mask, mask.sum(-1), length, seen=seen,
                           layer_heads=n_heads)
        del layer_logits, layer_x


def _block_starts(heads: Heads, index: np.ndarray, *, embeddings: str, width: int | None, budget: int,
                  backend: str) -> list[int]:
    """Where each block of ``index`` starts (and, last, ``len(index)``).

    numpy: ``budget // (H·L·max(width, d))`` rows per block. torch: as many rows as keep ``C·L'·H·width`` within
    ``budget``, ``L'`` the keys the block's rows see (a causal block of early rows sees few: more of them fit).
    """
    _, _, n_heads, length = heads.sizes
    if backend != "torch":
        dim = heads.embedding_width(embeddings)
        step = max(1, budget // (n_heads * length * max(width or dim, dim)))
        return list(range(0, len(index), step)) + [len(index)]
    seen = last_seen(heads.visible).amax(0).cpu().numpy()[index] + 1  # [R] keys each row sees in some window
    capacity = max(1, budget // (n_heads * (width or 1)))  # entries C·L' one block may hold
    starts, start, widest = [0], 0, 0
    for position, keys in enumerate(seen):
        widest = max(widest, int(keys))
        if position > start and (position - start + 1) * widest > capacity:
            starts.append(position)
            start, widest = position, int(keys)
    return starts + [len(index)] if len(index) else [0]


def default_workers() -> int:
    """The cores this process may run on (``os.sched_getaffinity``; ``os.cpu_count`` where it is missing).

    >>> default_workers() >= 1
    True
    """
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def check_workers(workers, *, name: str = "workers") -> int:
    """``workers`` as a positive integer (``None``: :func:`default_workers`), or InvalidArgument naming ``name``.

    >>> check_workers(None) == default_workers(), check_workers(2)
    (True, 2)
    """
    if workers is None:
        return default_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidArgument(f"{name}={workers!r} must be a positive integer (default: the cores available)")
    return workers


def _one_thread_per_library():
    """BLAS and OpenMP at one thread each while the pool's threads run (no oversubscription); a no-op where
    ``threadpoolctl`` is not installed (then set ``OPENBLAS_NUM_THREADS=1`` / ``OMP_NUM_THREADS=1`` yourself)."""
    try:
        # here, not at the top: an optional dependency (its ImportError is handled)
        from threadpoolctl import threadpool_limits
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(limits=1)


def _evaluated(blocks: Iterator[Rows], function: Callable[[Rows], dict], workers: int):
    """``(rows, function(rows))`` for every block, in the blocks' order.

    With ``workers > 1`` the blocks of one (window, layer) run on a pool of threads (numpy and torch release
    the GIL in their array work), at most ``workers`` blocks at once, so the memory held is ``workers``
    blocks' arrays; every block of a (window, layer) finishes before the next (window, layer) starts, so a
    row function's table of the current layer (Algorithms 1-2) is never rebuilt by a late block. Both paths
    run BLAS on one thread (a matrix product split over two threads may round its last bit differently, and
    on a loaded machine BLAS's spinning threads cost more than they save on a block's small products): the
    work per block is then the same code on the same arrays, and the results the same bits.
    """
    if workers == 1:
        with _one_thread_per_library():  # the same BLAS as the pool's threads: the same bits for every `workers`
            for rows in blocks:
                yield rows, function(rows)
        return
    pending: collections.deque = collections.deque()
    with _one_thread_per_library(), ThreadPoolExecutor(max_workers=workers, thread_name_prefix="map_rows") as pool:
        try:
            for rows in blocks:
                if pending and (pending[-1][0].window, pending[-1][0].layer) != (rows.window, rows.layer):
                    while pending:  # a new layer or window: the previous one's blocks finish first
                        done, future = pending.popleft()
                        yield done, future.result()
                pending.append((rows, pool.submit(function, rows)))
                while len(pending) >= workers:  # the next block is built (main thread) while the others run
                    done, future = pending.popleft()
                    yield done, future.result()
            while pending:
                done, future = pending.popleft()
                yield done, future.result()
        finally:
            for _, future in pending:  # an error in one block: the others are not started
                future.cancel()


def map_rows(heads: Heads, function: Callable[[Rows], dict[str, np.ndarray]], *, index: np.ndarray | None = None,
             embeddings: str = "values", width: int | None = None, budget: int = BUDGET, normalise: bool = False,
             progress=None, workers: int | None = 1, backend: str = "numpy") -> RowMap:
    """Apply ``function`` (``Rows`` -> dict of ``[H, C, ...]`` arrays) to every block; stack the results.

    ``progress`` is an optional tqdm bar advanced by one per block. ``workers`` blocks run at once on a
    pool of threads (``None``: :func:`default_workers`); ``function`` must then be safe to call from
    several threads on blocks of the same (window, layer). The results are the same for every ``workers``.
    With ``backend="torch"`` the blocks are tensors on the heads' device (:mod:`empirical.heads.tensor_rows`: on the
    CPU each block's heads are cut into ``workers`` groups, one thread each), the results gather on that device and
    come back as numpy arrays once, at the end.
    """
    workers = check_workers(workers)
    check_backend(backend)
    index = valid_rows(heads) if index is None else np.asarray(index)
    if backend == "torch":
        starts = _block_starts(heads, index, embeddings=embeddings, width=width, budget=budget, backend=backend)
        return RowMap(index, map_tensor_rows(heads, function, index, starts, embeddings=embeddings,
                                             normalise=normalise, progress=progress, workers=workers))
    batch, layers, n_heads = heads.sizes[:3]
    out: dict = {}
    every = blocks(heads, index, embeddings=embeddings, width=width, budget=budget, normalise=normalise)
    for rows, result in _evaluated(every, function, workers):
        positions = np.searchsorted(index, rows.index)
        for key, value in result.items():
            value = np.asarray(value)
            if key not in out:
                out[key] = np.full((batch, layers, n_heads, len(index), *value.shape[2:]), np.nan,
                                   dtype=value.dtype if value.dtype.kind == "f" else float)
            out[key][rows.window, rows.layer][:, positions] = value
        if progress is not None:
            progress.update(1)
    return RowMap(index, out)


def count_blocks(heads: Heads, index: np.ndarray, *, embeddings: str = "values", width: int | None = None,
                 budget: int = BUDGET, backend: str = "numpy") -> int:
    """How many blocks :func:`map_rows` will evaluate (for a progress bar's total)."""
    batch, layers = heads.sizes[:2]
    starts = _block_starts(heads, index, embeddings=embeddings, width=width, budget=budget, backend=backend)
    return batch * layers * (len(starts) - 1)
