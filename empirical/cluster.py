"""``reproduce --cluster local|ADDRESS``: the algorithms as tasks on the workers of a Dask cluster.

Two kinds of task. Without ``--layers-per-block``, each algorithm is one task (the model, the text, the
options and the algorithm's number); a worker
loads the model once (:func:`_setup_for` keeps it between tasks) and returns the algorithm's
JSON-ready results, which the driver merges into the same ``results.json`` as a single-process run:
every algorithm is a deterministic function of the model, the text and its options (the random
directions of Alg. 5 are seeded per block), so where it ran changes no number.

With ``--layers-per-block k`` (:func:`run_blocks`), the driver runs the algorithms itself and every pass over
the rows (each ``map_rows`` call: per length for Alg. 1 and 3, per ``N`` for a subsample of Alg. 4) becomes
a pipeline of one task per block of ``k`` layers ``[a, b)``: the worker runs only those layers
(:func:`empirical.heads.extraction.extract` with ``pipeline=True``), fed the hidden state the previous block's
task handed on (a Dask dependency: block ``k + 1``'s task starts when block ``k``'s output exists, and only that
``[B, L, d_model]`` tensor travels), and returns the raw ``[B, b - a, H, R, ...]`` arrays of
:func:`empirical.heads.rows.map_rows` (its rows carry their global layer number, so Alg. 5's per-block seeds are
the single process's) and its own output. A worker reads only its block's weights: a local safetensors model is
streamed there a layer at a time (:mod:`empirical.heads.offload`; ``--weights auto``), so adding workers spreads
the model instead of copying it. The driver concatenates the blocks along the layer axis into the arrays
``map_rows`` returns and runs the unchanged aggregation, so ``results.json`` is the same by construction. The driver keeps a streamed view of the heads (one block at a time) for what is
not per row: the visible keys, Alg. 4's ``δ`` (every layer's embeddings, block by block, on the driver)
and the mpmath confirmers of a violating row.

- **Retries**: a task whose worker dies is rerun elsewhere (the scheduler's own rescheduling, and
  ``retries`` for a task that raises).
- **Resumable**: each finished task is written to ``OUT/cluster-tasks/alg<n>.json`` at once; a rerun with
  the same model, text and options reads it back instead of recomputing, so a run interrupted after
  three algorithms pays only for the last two. With layer blocks, each finished block is also saved
  (``cluster-tasks/<digest>-alg<n>-call<c>-L<length>-layers<a>-<b>.npz``, the digest naming the spec, the
  options, the call and its rows, with the block's output beside it as ``.pt``), so an algorithm interrupted
  half-way recomputes only the blocks from its first missing one on, fed the saved output before it. The directory is removed once ``results.json`` is written.

Why Dask and not Ray (measured on this machine, 2 cores under a load of ~10, 2026-11-23; see
``docs/benchmarks.md``): a local cluster of two workers starts in 13 s against Ray's 25 s, one GPT-2
layer's ``q, k, v`` and hidden state (28 MiB) make the round trip in 0.5 s against 3.2 s, a killed
worker's task finishes 3 s later against 5 s, and ``distributed`` is a 25 MB pure-Python install
against Ray's 240 MB.

>>> results, timings = run(cluster="local", spec=spec, options=options, out="out/minilm")  # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import time
from pathlib import Path

import numpy as np

from theorems.errors import InvalidArgument

RETRIES = 2
"""Extra attempts for a task that raises (a dead worker's task is rescheduled by the scheduler anyway)."""
LOCAL_WORKERS = 2
"""Workers of ``--cluster local``: one process each, the cores shared between them."""
TASKS = "cluster-tasks"
"""The folder under ``--out`` holding each finished task (what makes a run resumable)."""

_WORKER_SETUPS: dict = {}  # on a worker: the Setup of the last spec, so a model is loaded once per worker


def check_cluster(cluster) -> str | None:
    """``None``, ``"local"`` or a scheduler address (``tcp://host:port``, ``host:port``), checked before any work.

    >>> check_cluster("tcp://10.0.0.5:8786")
    'tcp://10.0.0.5:8786'
    >>> check_cluster("")
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: --cluster='' must be 'local' or a Dask scheduler address such as tcp://host:8786
    """
    if cluster is None or cluster == "local":
        return cluster
    if not isinstance(cluster, str) or ":" not in cluster or any(c.isspace() for c in cluster):
        raise InvalidArgument(f"--cluster={cluster!r} must be 'local' or a Dask scheduler address such as tcp://host:8786")
    return cluster


def _client(cluster: str):
    try:
        # here, not at the top: an optional dependency (its ImportError is handled)
        from distributed import Client, LocalCluster
    except ImportError:
        raise InvalidArgument("--cluster needs Dask's distributed scheduler: pip install 'limitations-attention[cluster]'"
                         ) from None
    if cluster == "local":
        local = LocalCluster(n_workers=LOCAL_WORKERS, threads_per_worker=1, processes=True, dashboard_address=None)
        return Client(local), local
    return Client(cluster), None


def _setup_for(spec: dict):
    """The worker's Setup for ``spec`` (the model loaded once per worker and spec)."""
    # here, not at the top: `import empirical.cluster` stays free of torch
    import torch

    from empirical.setup import Setup
    from empirical.heads.loading import load_model

    key = json.dumps(spec, sort_keys=True)
    if key not in _WORKER_SETUPS:
        _WORKER_SETUPS.clear()
        if spec.get("threads"):
            torch.set_num_threads(spec["threads"])
        loaded = load_model(spec["model"], offline=spec["offline"], tokenizer=spec["tokenizer"],
                            dtype=spec.get("dtype", "float32"), weights=_worker_weights(spec))
        _WORKER_SETUPS[key] = Setup(loaded, text=spec["text"], windows=spec["windows"], embeddings=spec["embeddings"],
                                    progress=False, device=spec["device"],
                                    layers_per_block=spec.get("layers_per_block"),
                                    workers=spec.get("workers") or spec.get("threads"),  # a local worker: its share
                                    backend=spec.get("backend", "torch"))
    return _WORKER_SETUPS[key]


def _worker_weights(spec: dict) -> str:
    """A layer-block worker streams a local safetensors model (``--weights auto``): it reads only its block's layers,
    one at a time, instead of holding a copy of the whole model."""
    # here, not at the top: `import empirical.cluster` stays free of torch
    from empirical.heads.loading import resolve
    from empirical.heads.offload import tensor_files

    weights = spec.get("weights", "auto")
    if weights != "auto" or not spec.get("layers_per_block"):
        return weights
    folder = Path(resolve(spec["model"]))
    return "disk" if folder.is_dir() and tensor_files(folder) is not None else "auto"


def _task(number: int, spec: dict, options: dict) -> dict:
    """Run algorithm ``number`` on a worker; JSON-ready results and the time it took."""
    # here, not at the top: `import empirical.cluster` stays free of torch
    from empirical.runner import jsonable, run_algorithms

    results, timings = run_algorithms(_setup_for(spec), which=(number,), **options)
    return {"results": jsonable(results), "timings": timings}


def _block_forward(spec: dict, length: int, layers: tuple[int, int], entering=None):
    """On a worker: the forward pass of block ``[a, b)`` of the pipeline over the layers, on the windows of ``length``.

    Only those layers run, fed ``entering`` (the previous block's output; ``None`` for the first block), so the
    worker reads only their weights. Returns the block's :class:`Heads` (kept on the worker for
    :func:`_block_rows`), its ``leaving`` packed for the next block's :func:`_block_forward`: the next block's forward
    pass starts as soon as this one ends, while this block's rows are still being computed.
    """
    setup = _setup_for(spec)
    start, stop = layers
    heads = setup._extract(setup.token_ids(length), layers=range(start, stop), pipeline=True,
                           entering=None if entering is None else _unpacked(entering))
    return dataclasses.replace(heads, leaving=_packed(heads.leaving))


def _block_rows(spec: dict, heads, start: int, function, keywords: dict) -> dict:
    """On a worker: ``map_rows``'s arrays ``[B, b - a, H, R, ...]`` of a block's heads (``function`` sees each block of
    rows under its global layer number)."""
    # here, not at the top: `import empirical.cluster` stays free of torch
    from empirical.heads.rows import map_rows

    _setup_for(spec)  # the worker's thread settings

    def shifted(rows):
        return function(dataclasses.replace(rows, layer=rows.layer + start))
    return map_rows(heads, shifted, **keywords).values


def _leaving(heads):
    """The hidden state a block hands on (a task of its own, so only it travels to the next block's worker)."""
    return heads.leaving


def _packed(tensor) -> tuple:
    """``(dtype name, tensor)`` with a bfloat16/float16 tensor's bits as int16: Dask's torch serialiser goes through
    numpy, which has no bfloat16; the bits travel unchanged."""
    # here, not at the top: `import empirical.cluster` stays free of torch
    import torch

    narrow = tensor.dtype in (torch.bfloat16, torch.float16)
    return str(tensor.dtype).removeprefix("torch."), tensor.view(torch.int16) if narrow else tensor


def _unpacked(packed: tuple):
    # here, not at the top: `import empirical.cluster` stays free of torch
    import torch

    name, tensor = packed
    dtype = getattr(torch, name)
    return tensor.view(dtype) if tensor.dtype != dtype else tensor


class LayerBlocks:
    """``Setup.row_mapper`` on the driver: each ``map_rows`` call as one task per block of ``per_block`` layers.

    Same arguments and the same ``RowMap`` as :func:`empirical.heads.rows.map_rows`; each finished block is
    saved under ``records`` and read back by a rerun whose spec, options, call and rows are the same.
    """

    def __init__(self, client, *, spec: dict, per_block: int, records: Path, identity, progress: bool = False):
        self.client, self.spec, self.per_block, self.records = client, spec, per_block, Path(records)
        self.identity, self.progress = identity, progress
        self.algorithm, self.calls = None, 0
        self.computed, self.reused = 0, 0  # blocks run on workers, blocks read back

    def start(self, algorithm: int) -> None:
        """Number the calls from here per algorithm (a rerun skipping finished algorithms numbers them alike)."""
        self.algorithm, self.calls = algorithm, 0

    def _path(self, length: int, block: tuple[int, int], index: np.ndarray, keywords: dict) -> Path:
        named = json.dumps({"identity": self.identity, "algorithm": self.algorithm, "call": self.calls,
                            "length": length, "block": block, "keywords": sorted(keywords.items())}, default=str)
        digest = hashlib.sha256(named.encode() + np.ascontiguousarray(index, dtype=np.int64).tobytes()).hexdigest()
        return self.records / (f"{digest[:16]}-alg{self.algorithm}-call{self.calls}-L{length}-"
                               f"layers{block[0]}-{block[1]}.npz")

    def __call__(self, heads, function, *, index=None, progress=None, **keywords):
        # here, not at the top: `import empirical.cluster` stays free of distributed
        from distributed import as_completed

        from empirical.heads.rows import RowMap, valid_rows

        self.calls += 1
        index = valid_rows(heads) if index is None else np.asarray(index)
        _, layers, _, length = heads.sizes
        blocks = [(start, min(start + self.per_block, layers)) for start in range(0, layers, self.per_block)]
        paths = {block: self._path(length, block, index, keywords) for block in blocks}
        saved = [path.is_file() and path.with_suffix(".pt").is_file() for path in paths.values()]
        first = saved.index(False) if False in saved else len(blocks)  # blocks before it are read back
        parts = {block: dict(np.load(paths[block])) for block in blocks[:first]}
        self.reused += len(parts)
        entering = torch_load(paths[blocks[first - 1]].with_suffix(".pt")) if 0 < first < len(blocks) else None
        futures, handed = {}, {}
        for block in blocks[first:]:  # block k + 1's forward pass waits for block k's output only
            stamp = f"alg{self.algorithm}-call{self.calls}-layers{block[0]}-{time.time_ns()}"
            heads = self.client.submit(_block_forward, self.spec, length, block, entering, pure=False,
                                       retries=RETRIES, key=f"{stamp}-forward")
            entering = handed[block] = self.client.submit(_leaving, heads, pure=False, key=f"{stamp}-leaving")
            futures[self.client.submit(_block_rows, self.spec, heads, block[0], function, {"index": index, **keywords},
                                       pure=False, retries=RETRIES, key=f"{stamp}-rows")] = block
        for future in as_completed(futures):
            block = futures[future]
            parts[block] = future.result()
            self.computed += 1
            _save_block(paths[block], {"values": parts[block], "leaving": handed[block].result()})
            if progress is not None:
                progress.update(round(progress.total * (block[1] - block[0]) / layers))
        keys = list(parts[blocks[0]])  # every block has the keys of the function's first result, in its order
        return RowMap(index, {key: np.concatenate([parts[block][key] for block in blocks], axis=1) for key in keys})


def torch_load(path: Path):
    # here, not at the top: `import empirical.cluster` stays free of torch
    import torch

    return torch.load(path, weights_only=True)


def _save_block(path: Path, answer: dict) -> None:
    """A block's arrays (``.npz``) and its output (``.pt``, the model's dtype), each whole or absent."""
    # here, not at the top: `import empirical.cluster` stays free of torch
    import torch

    temporary = path.with_suffix(".tmp")
    with open(temporary, "wb") as handle:
        np.savez(handle, **answer["values"])
    torch.save(answer["leaving"], path.with_suffix(".pt.tmp"))
    path.with_suffix(".pt.tmp").replace(path.with_suffix(".pt"))
    temporary.replace(path)


def _identity(spec: dict, options: dict) -> tuple[tuple[int, ...], dict, dict]:
    """``(algorithms, the other options, the identity a saved task must match)``."""
    # here, not at the top: `import empirical.cluster` stays free of torch
    from empirical.runner import ALGORITHMS, jsonable

    which = tuple(sorted(set(options.get("which", ALGORITHMS))))
    rest = {key: value for key, value in options.items() if key != "which"}
    identity = jsonable({"spec": {k: v for k, v in spec.items() if k not in ("threads", "workers")}, "options": rest})
    return which, rest, json.loads(json.dumps(identity))  # tuples -> lists, as read back from disk


def _save(out: Path, number: int, identity: dict, answer: dict) -> None:
    path = _record(out, number)
    path.with_suffix(".tmp").write_text(json.dumps({"identity": identity, "answer": answer}))
    path.with_suffix(".tmp").replace(path)  # whole or absent: an interruption never leaves half a record


def _merged(which, answers: dict) -> tuple[dict, dict]:
    results, timings = {}, {}
    for number in which:  # the single-process order of keys
        results.update(answers[number]["results"])
        timings.update(answers[number]["timings"])
    return results, timings


def _record(out: Path, number: int) -> Path:
    return out / TASKS / f"alg{number}.json"


def _finished(out: Path, number: int, identity: dict) -> dict | None:
    """The task's saved answer if it was computed for the same spec and options, else ``None``."""
    path = _record(out, number)
    if not path.is_file():
        return None
    try:
        saved = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError):
        return None  # a file cut short by the interruption: computed again
    return saved["answer"] if saved.get("identity") == identity else None


def run_tasks(client, *, spec: dict, options: dict, out, progress: bool = False) -> tuple[dict, dict]:
    """Every algorithm of ``options["which"]`` as a task on ``client``'s workers; ``(results, timings)``.

    Finished tasks found under ``out`` (same spec and options) are reused; each new one is saved as it
    finishes.
    """
    # here, not at the top: `import empirical.cluster` stays free of distributed
    from distributed import as_completed

    out = Path(out)
    which, rest, identity = _identity(spec, options)
    answers = {number: _finished(out, number, identity) for number in which}
    todo = [number for number in which if answers[number] is None]
    (out / TASKS).mkdir(parents=True, exist_ok=True)
    futures = {client.submit(_task, number, spec, rest, pure=False, retries=RETRIES, key=f"alg{number}-{time.time_ns()}"):
               number for number in todo}
    for future in as_completed(futures):
        number = futures[future]
        answers[number] = future.result()
        _save(out, number, identity, answers[number])
        if progress:
            print(f"Alg. {number} done on the cluster ({len([a for a in answers.values() if a])}/{len(which)})",
                  flush=True)
    return _merged(which, answers)


def run_blocks(client, *, setup, spec: dict, options: dict, out, progress: bool = False,
               mapper: LayerBlocks | None = None) -> tuple[dict, dict]:
    """The algorithms on the driver's ``setup``, each pass over the rows as layer-block tasks on ``client``.

    ``spec["layers_per_block"]`` is the block. Finished algorithms (and blocks) saved under ``out`` for the
    same spec and options are reused; ``mapper`` (default: a new :class:`LayerBlocks`) is what the tests
    inspect.
    """
    # here, not at the top: `import empirical.cluster` stays free of torch
    from empirical.runner import jsonable, run_algorithms

    out = Path(out)
    which, rest, identity = _identity(spec, options)
    (out / TASKS).mkdir(parents=True, exist_ok=True)
    mapper = mapper or LayerBlocks(client, spec=spec, per_block=spec["layers_per_block"], records=out / TASKS,
                                   identity=identity, progress=progress)
    answers = {number: _finished(out, number, identity) for number in which}
    setup.row_mapper = mapper
    try:
        for number in which:
            if answers[number] is None:
                mapper.start(number)
                results, timings = run_algorithms(setup, which=(number,), **rest)
                answers[number] = {"results": jsonable(results), "timings": timings}
                _save(out, number, identity, answers[number])
            if progress:
                print(f"Alg. {number} done on the cluster (layer blocks: {mapper.computed} computed, "
                      f"{mapper.reused} read back)", flush=True)
    finally:
        setup.row_mapper = None
    return _merged(which, answers)


def run(*, cluster: str, spec: dict, options: dict, out, progress: bool = False, setup=None) -> tuple[dict, dict]:
    """Connect to (or start) the cluster, run :func:`run_tasks` (or :func:`run_blocks` when
    ``spec["layers_per_block"]`` is set and the driver's ``setup`` is given), close what was started here."""
    check_cluster(cluster)
    client, local = _client(cluster)
    try:
        if local is not None:
            spec = {**spec, "threads": max(1, (os.cpu_count() or 1) // LOCAL_WORKERS)}
        if spec.get("layers_per_block") and setup is not None:
            return run_blocks(client, setup=setup, spec=spec, options=options, out=out, progress=progress)
        return run_tasks(client, spec=spec, options=options, out=out, progress=progress)
    finally:
        client.close()
        if local is not None:
            local.close()


def forget(out) -> None:
    """Remove the finished-task records once ``results.json`` holds them."""
    shutil.rmtree(Path(out) / TASKS, ignore_errors=True)
