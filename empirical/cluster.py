"""``reproduce --cluster local|ADDRESS``: the algorithms' work as tasks by (window, layer block) on a Dask cluster.

The driver runs the algorithms (their aggregation: token means, KS tests, tallies) and makes no forward pass of its
own: every pass over the rows (each ``map_rows`` call) becomes, for each window and each block of ``k`` layers
``[a, b)``, one **rows task** (:func:`_block_rows`: the row function on that block's heads, the raw
``[1, b − a, H, R, ...]`` arrays of :func:`empirical.heads.rows.map_rows` back, each row under its global window and
layer number) fed by one **forward task** (:func:`_block_forward`: only those layers run, fed the hidden state the
previous block's forward task handed on; the block's heads stay on its worker). A forward task is shared by every
pass at its length (Alg. 2, 4 and 5 at the longest length read the same heads), and block ``k + 1``'s forward task
starts as soon as block ``k``'s ends, while block ``k``'s rows are still computed: a pipeline over the layers. The
algorithms themselves run side by side (one driver thread each), so the workers hold tasks of several passes. What
is not per row needs no forward pass on the driver: the visible keys are the model's mask (causal or full; every
rows task checks it against the mask its forward pass recorded), Alg. 4's ``δ`` comes with its rows, and the mpmath
confirmers of a violation read that layer from the workers' forward tasks (:class:`ClusterHeads`). A worker reads
only its block's weights: a local safetensors model is streamed there a layer at a time
(:mod:`empirical.heads.offload`; ``--weights auto``). The driver concatenates the blocks along the window and layer
axes into exactly the arrays ``map_rows`` returns and runs the unchanged aggregation, so ``results.json`` is the same.

- **Retries**: a task whose worker dies is rerun elsewhere (the scheduler's own rescheduling, and
  ``retries`` for a task that raises); a lost forward task is recomputed from its inputs.
- **Resumable**: each finished rows task is written at once to ``OUT/cluster-tasks/<digest>-alg<n>-call<c>-L<length>-
  w<window>-layers<a>-<b>.npz`` (the digest names the spec, the options, the call and its rows) with the block's output
  beside it (``.pt``), and each finished algorithm to ``alg<n>.json``; a rerun reads them back and computes only the
  missing blocks, each window's chain restarting from the saved output before its first missing block. The folder
  is removed once ``results.json`` is written.
- **Task times**: each task reports its duration; :meth:`BlockTasks.graph` is the run's task graph with them
  (what ``python -m empirical cluster-simulate`` replays on simulated workers).

Why Dask and not Ray (measured on this machine, 2 cores under a load of ~10, 2026-11-23; see
``docs/benchmarks.md``): a local cluster of two workers starts in 13 s against Ray's 25 s, one GPT-2
layer's ``q, k, v`` and hidden state (28 MiB) make the round trip in 0.5 s against 3.2 s, a killed
worker's task finishes 3 s later against 5 s, and ``distributed`` is a 25 MB pure-Python install
against Ray's 240 MB.

>>> results, timings = run(spec, grids=spec.grids.for_model(512), setup=Setup.from_spec(spec))  # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from theorems.errors import InvalidArgument

if TYPE_CHECKING:  # for the annotations only: `import empirical.cluster` stays free of torch
    from empirical.grids import Grids
    from empirical.spec import RunSpec

DISTRIBUTION = "attention-normalisation-limits"
"""The project's distribution (``pyproject.toml``), for the install hint of the ``cluster`` extra."""
RETRIES = 2
"""Extra attempts for a task that raises (a dead worker's task is rescheduled by the scheduler anyway)."""
LOCAL_WORKERS = 2
"""Workers of ``--cluster local``: one process each, the cores shared between them."""
TASKS = "cluster-tasks"
"""The folder under ``--out`` holding each finished task (what makes a run resumable)."""

_WORKER_SETUPS: dict = {}  # on a worker: the Setup of the last spec, so a model is loaded once per worker


def _client(cluster: str):
    try:
        # here, not at the top: an optional dependency (its ImportError is handled)
        from distributed import Client, LocalCluster
    except ImportError:
        raise InvalidArgument(f"--cluster needs Dask's distributed scheduler: pip install '{DISTRIBUTION}[cluster]'"
                              ) from None
    if cluster == "local":
        import dask

        from empirical.allocator import environment

        # the workers are this command's processes: glibc keeps their freed memory, as the driver's (Dask's default
        # gives it back at 64 KiB, and every block's arrays fault their pages in again: docs/benchmarks.md)
        spawned = {**dask.config.get("distributed.nanny.pre-spawn-environ", {}), **environment()}
        with dask.config.set({"distributed.nanny.pre-spawn-environ": spawned}):
            local = LocalCluster(n_workers=LOCAL_WORKERS, threads_per_worker=1, processes=True, dashboard_address=None)
        return Client(local), local
    return Client(cluster), None


def _setup_for(spec: RunSpec, threads: int | None):
    """The worker's Setup for ``spec`` (the model loaded once per worker and spec; ``threads``: a local worker's
    share of the cores, its threads when ``spec.workers`` is not given)."""
    # here, not at the top: `import empirical.cluster` stays free of torch
    import torch

    from empirical.setup import Setup

    key = (spec, threads)
    if key not in _WORKER_SETUPS:
        _WORKER_SETUPS.clear()
        if threads:
            torch.set_num_threads(threads)
        loaded = spec.model.load(stream=streams_on_workers(spec))
        _WORKER_SETUPS[key] = Setup.from_spec(spec, loaded=loaded, threads=threads)
    return _WORKER_SETUPS[key]


def streams_on_workers(spec: RunSpec) -> bool:
    """Whether the workers stream the model's weights from disk whatever its size: a layer-block run of a local
    safetensors model at ``--weights auto``, so that each worker reads only its block's layers, one at a time,
    instead of holding a copy of the whole model."""
    # here, not at the top: `import empirical.cluster` stays free of torch
    from empirical.heads.loading import resolve
    from empirical.heads.offload import tensor_files

    if spec.model.weights != "auto" or not spec.layers_per_block:
        return False
    folder = Path(resolve(spec.model.name))
    return folder.is_dir() and tensor_files(folder) is not None


# ----------------------------------------------------------------------------------------------
# On a worker


def _block_forward(spec: RunSpec, threads: int | None, length: int, window: int, layers: tuple[int, int],
                   entering=None) -> dict:
    """The forward pass of block ``[a, b)`` on window ``window`` of ``length`` tokens, fed ``entering`` (the previous
    block's packed output; ``None`` for the first block): only those layers run, so the worker reads only their
    weights. The block's :class:`Heads` stay on the worker for :func:`_block_rows`; ``leaving`` (packed) is the next
    block's input."""
    setup = _setup_for(spec, threads)
    began = time.perf_counter()
    ids = setup.token_ids(length)[window:window + 1]
    heads = setup.extract(ids, layers=range(*layers), pipeline=True,
                          entering=None if entering is None else _unpacked(entering["leaving"]))
    return {"heads": dataclasses.replace(heads, leaving=None), "leaving": _packed(heads.leaving),
            "seconds": time.perf_counter() - began}


def _leaving(forward: dict) -> dict:
    """What a forward task hands on (a task of its own, so only it travels to the next block's worker)."""
    return {"leaving": forward["leaving"], "seconds": forward["seconds"]}


def _block_rows(spec: RunSpec, threads: int | None, forward: dict, window: int, start: int, function, keywords: dict,
               visible) -> dict:
    """``map_rows``' arrays ``[1, b − a, H, R, ...]`` of one (window, layer block), each block of rows seen under its
    global window and layer number (Alg. 4's ``δ`` cache, Alg. 5's directions), and the seconds it took."""
    # here, not at the top: `import empirical.cluster` stays free of torch
    import torch

    from theorems.errors import ExtractionMismatch

    setup = _setup_for(spec, threads)
    heads = forward["heads"]
    if not torch.equal(heads.visible[0].cpu(), visible):
        raise ExtractionMismatch(f"window {window}: the model's mask is not the {'causal' if visible[-1, 0] == 0 else 'full'}"
                                 " mask the driver assumed (padding, sliding windows?): not supported on a cluster")
    began = time.perf_counter()

    def shifted(rows):
        return function(dataclasses.replace(rows, window=rows.window + window, layer=rows.layer + start))
    values = setup.map_rows(heads, shifted, **keywords).values
    return {"values": values, "seconds": time.perf_counter() - began}


def _layer_view(forward: dict, inside: int, kind: str) -> dict:
    """One layer of a block's heads for the driver's mpmath confirmers: its logits ``[1, H, L, L]`` and embeddings."""
    heads = forward["heads"]
    return {"logits": heads.layer_logits(inside).cpu(), "embeddings": heads.layer_embeddings(inside, kind).cpu()}


def _packed(tensor) -> tuple:
    """``(dtype name, tensor)`` with a bfloat16/float16 tensor's bits as int16: Dask's torch serialiser goes through
    numpy, which has no bfloat16; the bits travel unchanged."""
    # here, not at the top: `import empirical.cluster` stays free of torch
    import torch

    narrow = tensor.dtype in (torch.bfloat16, torch.float16)
    return str(tensor.dtype).removeprefix("torch."), (tensor.view(torch.int16) if narrow else tensor).cpu()


def _unpacked(packed: tuple):
    # here, not at the top: `import empirical.cluster` stays free of torch
    import torch

    name, tensor = packed
    dtype = getattr(torch, name)
    return tensor.view(dtype) if tensor.dtype != dtype else tensor


# ----------------------------------------------------------------------------------------------
# On the driver


class ClusterHeads:
    """The driver's view of the heads of one length: what the algorithms read outside the rows, with no forward pass.

    ``sizes`` from the model's config; ``visible`` its mask (causal: row ``t`` sees keys ``0..t``; an encoder: every
    key), which every rows task checks against the mask its forward pass recorded; one layer's logits or
    embeddings (the mpmath confirmers of a violating row) read from the workers' forward tasks.
    """

    def __init__(self, tasks: "BlockTasks", length: int):
        # here, not at the top: `import empirical.cluster` stays free of torch
        import torch

        loaded = tasks.setup.loaded
        self._tasks, self.length = tasks, length
        self.sizes = (tasks.setup.windows, loaded.n_layers, loaded.n_heads, length)
        square = torch.ones(length, length, dtype=torch.bool)
        self.visible = (torch.tril(square) if loaded.causal else square).expand(tasks.setup.windows, -1, -1)
        self.causal = bool(loaded.causal)
        self.attention_error = 0.0
        self._views: dict = {}

    def embedding_width(self, kind: str = "values") -> int:
        loaded = self._tasks.setup.loaded
        if kind != "hidden":
            return loaded.d_head
        config = loaded.model.config
        return int(getattr(config, "hidden_size", None) or getattr(config, "n_embd", 0) or loaded.n_heads * loaded.d_head)

    def _view(self, layer: int, kind: str) -> dict:
        # here, not at the top: `import empirical.cluster` stays free of torch
        import torch

        if (layer, kind) not in self._views:
            parts = [self._tasks.layer_view(self.length, window, layer, kind) for window in range(self.sizes[0])]
            self._views[(layer, kind)] = {name: torch.cat([part[name] for part in parts]) for name in parts[0]}
        return self._views[(layer, kind)]

    def layer_logits(self, layer: int, heads: slice = slice(None)):
        return self._view(layer, "values")["logits"][:, heads]

    def layer_embeddings(self, layer: int, kind: str = "values"):
        return self._view(layer, kind)["embeddings"]

    def layer_alpha(self, layer: int):
        # here, not at the top: `import empirical.cluster` stays free of torch
        import torch

        return torch.softmax(self.layer_logits(layer), dim=-1)


class BlockTasks:
    """The driver's sources (:meth:`empirical.setup.Setup.with_sources`): ``heads`` the heads of a length without a
    forward pass, and each ``map_rows`` call as one rows task per (window, block of ``per_block`` layers), fed by the
    forward tasks of its length (shared by the calls). The workers build their setup from ``spec`` (and
    ``threads``, a local worker's share of the cores).

    Same arguments and the same ``RowMap`` as :func:`empirical.heads.rows.map_rows`; each finished rows task is saved
    under ``records`` and read back by a rerun whose spec, grids, call and rows are the same (``identity``:
    :func:`task_identity`). Safe to call from one
    thread per algorithm (:meth:`start` numbers the calls per thread).
    """

    KEPT_LENGTHS = 3
    """Lengths whose forward tasks are kept on the workers for the next calls (the algorithms run side by side)."""

    def __init__(self, client, *, setup, spec: RunSpec, threads: int | None, per_block: int, records: Path, identity):
        self.client, self.setup, self.spec, self.threads = client, setup, spec, threads
        self.records, self.identity = Path(records), identity
        layers = setup.loaded.n_layers
        self.blocks = [(start, min(start + per_block, layers)) for start in range(0, layers, per_block)]
        self.computed, self.reused, self.forwards = 0, 0, 0  # rows tasks run, rows tasks read back, forward tasks
        self._lock, self._local = threading.RLock(), threading.local()
        self._chains: dict = {}  # (length, window, block index) -> (forward future, leaving future)
        self._heads: dict = {}
        self._graph: list[dict] = []

    # the heads the algorithms ask for, without a forward pass
    def heads(self, length: int) -> ClusterHeads:
        with self._lock:
            if length not in self._heads:
                self._heads[length] = ClusterHeads(self, length)
            return self._heads[length]

    def start(self, algorithm: int) -> None:
        """Number the calls from here, in this thread, for ``algorithm`` (a rerun skipping finished algorithms numbers
        them alike)."""
        self._local.algorithm, self._local.calls = algorithm, 0

    def _forward(self, length: int, window: int, block: int, entering=None):
        """The forward and leaving futures of ``(length, window, block)``: chained on the previous block's (or on a
        saved ``entering``), made once per length and kept for the other calls at that length."""
        key = (length, window, block)
        with self._lock:
            if key not in self._chains:
                if entering is None and block > 0:
                    entering = self._forward(length, window, block - 1)[1]
                stamp = f"forward-L{length}-w{window}-layers{self.blocks[block][0]}-{self.blocks[block][1]}-{time.time_ns()}"
                forward = self.client.submit(_block_forward, self.spec, self.threads, length, window, self.blocks[block],
                                             entering, pure=False, retries=RETRIES, key=stamp)
                leaving = self.client.submit(_leaving, forward, pure=False, key=f"{stamp}-leaving")
                self._chains[key] = (forward, leaving)
                self.forwards += 1
                lengths = list(dict.fromkeys(k[0] for k in self._chains))
                for old in lengths[:-self.KEPT_LENGTHS]:  # release the oldest lengths' heads on the workers
                    for stale in [k for k in self._chains if k[0] == old]:
                        del self._chains[stale]
            return self._chains[key]

    def layer_view(self, length: int, window: int, layer: int, kind: str) -> dict:
        """One layer's logits and embeddings on one window, read from its forward task (recomputed if released)."""
        block = next(k for k, (a, b) in enumerate(self.blocks) if a <= layer < b)
        forward, _ = self._forward(length, window, block)
        return self.client.submit(_layer_view, forward, layer - self.blocks[block][0], kind, pure=False).result()

    def _path(self, length: int, window: int, block: tuple[int, int], index: np.ndarray, keywords: dict) -> Path:
        named = json.dumps({"identity": self.identity, "algorithm": self._local.algorithm, "call": self._local.calls,
                            "length": length, "window": window, "block": block, "keywords": sorted(keywords.items())},
                           default=str)
        digest = hashlib.sha256(named.encode() + np.ascontiguousarray(index, dtype=np.int64).tobytes()).hexdigest()
        return self.records / (f"{digest[:16]}-alg{self._local.algorithm}-call{self._local.calls}-L{length}-"
                               f"w{window}-layers{block[0]}-{block[1]}.npz")

    def __call__(self, heads, function, *, index=None, progress=None, **keywords):
        # here, not at the top: `import empirical.cluster` stays free of distributed and torch
        from distributed import wait

        from empirical.heads.rows import RowMap, valid_rows

        self._local.calls += 1
        index = valid_rows(heads) if index is None else np.asarray(index)
        windows, layers, _, length = heads.sizes
        visible = heads.visible[0]
        parts, futures, handed = {}, {}, {}
        for window in range(windows):
            paths = [self._path(length, window, block, index, keywords) for block in self.blocks]
            saved = [path.is_file() and path.with_suffix(".pt").is_file() for path in paths]
            first = saved.index(False) if False in saved else len(self.blocks)  # the blocks before it are read back
            for k in range(first):
                parts[(window, k)] = dict(np.load(paths[k]))
            self.reused += first
            entering = {"leaving": torch_load(paths[first - 1].with_suffix(".pt"))} if 0 < first < len(self.blocks) \
                else None
            for k in range(first, len(self.blocks)):
                forward, leaving = self._forward(length, window, k, entering if k == first else None)
                stamp = f"rows-alg{self._local.algorithm}-call{self._local.calls}-L{length}-w{window}-" \
                        f"layers{self.blocks[k][0]}-{self.blocks[k][1]}-{time.time_ns()}"
                futures[(window, k)] = self.client.submit(
                    _block_rows, self.spec, self.threads, forward, window, self.blocks[k][0], function,
                    {"index": index, **keywords}, visible, pure=False, retries=RETRIES, key=stamp)
                handed[(window, k)] = (leaving, paths[k])
        wait(list(futures.values()))
        for (window, k), future in futures.items():
            answer = future.result()
            parts[(window, k)] = answer["values"]
            leaving, path = handed[(window, k)]
            handed_on = leaving.result()
            self.computed += 1
            _save_block(path, {"values": answer["values"], "leaving": handed_on["leaving"]})
            self._record(length, window, k, answer["seconds"], handed_on["seconds"])
            if progress is not None:
                progress.update(round(progress.total * (self.blocks[k][1] - self.blocks[k][0]) / (layers * windows)))
        keys = list(parts[(0, 0)])  # every block has the keys of the function's first result, in its order
        return RowMap(index, {key: np.concatenate([np.concatenate([parts[(window, k)][key]
                                                                   for k in range(len(self.blocks))], axis=1)
                                                   for window in range(windows)], axis=0) for key in keys})

    def _record(self, length, window, block, rows_seconds, forward_seconds) -> None:
        layers = self.blocks[block][1] - self.blocks[block][0]
        with self._lock:
            forward = f"forward L{length} w{window} b{block}"
            if not any(task["name"] == forward for task in self._graph):
                self._graph.append({"name": forward, "seconds": forward_seconds, "layers": layers,
                                    "after": [f"forward L{length} w{window} b{block - 1}"] if block else []})
            self._graph.append({"name": f"rows alg{self._local.algorithm} call{self._local.calls} L{length} w{window} "
                                        f"b{block}", "seconds": rows_seconds, "after": [forward], "layers": layers,
                                "algorithm": self._local.algorithm, "call": self._local.calls})

    def graph(self) -> list[dict]:
        """The tasks run so far, with their seconds and what each waited for (a rows task also waits for its
        algorithm's previous call: the driver aggregates a call before it makes the next)."""
        with self._lock:
            return [dict(task) for task in self._graph]


def torch_load(path: Path):
    # here, not at the top: `import empirical.cluster` stays free of torch
    import torch

    return torch.load(path, weights_only=True)


def _save_block(path: Path, answer: dict) -> None:
    """A block's arrays (``.npz``) and its output (``.pt``, packed), each whole or absent."""
    # here, not at the top: `import empirical.cluster` stays free of torch
    import torch

    temporary = path.with_suffix(".tmp")
    with open(temporary, "wb") as handle:
        np.savez(handle, **answer["values"])
    torch.save(answer["leaving"], path.with_suffix(".pt.tmp"))
    path.with_suffix(".pt.tmp").replace(path.with_suffix(".pt"))
    temporary.replace(path)


def task_identity(spec: RunSpec, grids: Grids) -> dict:
    """What a saved task (or algorithm) must match to be read back: the spec's fields that change its numbers (not
    where the outputs go, how many threads, the progress bars or the cluster) and the grids but which algorithms run,
    as read back from disk (tuples as lists)."""
    # here, not at the top: `import empirical.cluster` stays free of torch
    from empirical.runner import jsonable

    unchanging = ("out", "workers", "progress", "cluster", "grids")
    fields = {key: value for key, value in dataclasses.asdict(spec).items() if key not in unchanging}
    options = {key: value for key, value in grids.settings().items() if key != "which"}
    return json.loads(json.dumps(jsonable({"spec": fields, "options": options})))


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
    """The algorithm's saved answer if it was computed for the same spec and options, else ``None``."""
    path = _record(out, number)
    if not path.is_file():
        return None
    try:
        saved = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError):
        return None  # a file cut short by the interruption: computed again
    return saved["answer"] if saved.get("identity") == identity else None


def block_tasks(client, *, setup, spec: RunSpec, grids: Grids, threads: int | None = None) -> BlockTasks:
    """The :class:`BlockTasks` of a run: blocks of ``spec.layers_per_block`` layers, or as many as one process holds
    at the longest length (:meth:`empirical.setup.Setup.block_size`); the tasks saved under ``spec.out``."""
    longest = max(setup.lengths(grids.lengths or (setup.loaded.max_length,)))
    per_block = spec.layers_per_block or setup.block_size(1, longest)
    return BlockTasks(client, setup=setup, spec=spec, threads=threads, per_block=per_block,
                      records=Path(spec.out) / TASKS, identity=task_identity(spec, grids))


def run_blocks(client, *, setup, spec: RunSpec, grids: Grids, tasks: BlockTasks | None = None) -> tuple[dict, dict]:
    """The algorithms of ``grids`` on the driver's ``setup`` (one thread each), every pass over the rows as (window,
    layer block) tasks on ``client``'s workers. ``spec.layers_per_block`` is the block (default: as many layers as
    one process holds, :meth:`empirical.setup.Setup.block_size`). Finished algorithms (and rows tasks) saved under
    ``spec.out`` for the same spec and grids are reused; ``tasks`` (default: a new :class:`BlockTasks`) is what the
    tests inspect."""
    # here, not at the top: `import empirical.cluster` stays free of torch
    from empirical.runner import jsonable, run_algorithms

    out, which = Path(spec.out), tuple(sorted(set(grids.which)))
    (out / TASKS).mkdir(parents=True, exist_ok=True)
    tasks = tasks or block_tasks(client, setup=setup, spec=spec, grids=grids)
    answers = {number: _finished(out, number, tasks.identity) for number in which}
    driver = setup.with_sources(heads=tasks.heads, rows=tasks)

    def one(number: int) -> None:
        if answers[number] is None:
            tasks.start(number)
            results, timings = run_algorithms(driver, grids.only(number))
            answers[number] = {"results": jsonable(results), "timings": timings}
            _save(out, number, tasks.identity, answers[number])
        if spec.progress:
            print(f"Alg. {number} done on the cluster ({tasks.computed} rows tasks computed, {tasks.reused} read "
                  f"back, {tasks.forwards} forward tasks)", flush=True)

    with ThreadPoolExecutor(max_workers=len(which), thread_name_prefix="algorithm") as pool:
        for future in [pool.submit(one, number) for number in which]:
            future.result()
    return _merged(which, answers)


def run(spec: RunSpec, *, grids: Grids, setup) -> tuple[dict, dict]:
    """Connect to (or start) ``spec.cluster``, run :func:`run_blocks` on ``grids`` (the spec's, fitted to the model),
    close what was started here; the run's task graph with its measured seconds is written to
    ``OUT/cluster-graph.json``."""
    client, local = _client(spec.cluster)
    try:
        threads = max(1, (os.cpu_count() or 1) // LOCAL_WORKERS) if local is not None else None
        tasks = block_tasks(client, setup=setup, spec=spec, grids=grids, threads=threads)
        answer = run_blocks(client, setup=setup, spec=spec, grids=grids, tasks=tasks)
        (Path(spec.out) / "cluster-graph.json").write_text(json.dumps({"workers": LOCAL_WORKERS if local else None,
                                                                       "blocks": tasks.blocks,
                                                                       "tasks": tasks.graph()}, indent=1))
        return answer
    finally:
        client.close()
        if local is not None:
            local.close()


def forget(out) -> None:
    """Remove the finished-task records once ``results.json`` holds them."""
    shutil.rmtree(Path(out) / TASKS, ignore_errors=True)
