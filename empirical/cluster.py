"""``reproduce --cluster local|ADDRESS``: the algorithms as tasks on the workers of a Dask cluster.

Each algorithm is one task (the model, the text, the options and the algorithm's number); a worker
loads the model once (:func:`_setup_for` keeps it between tasks) and returns the algorithm's
JSON-ready results, which the driver merges into the same ``results.json`` as a single-process run:
every algorithm is a deterministic function of the model, the text and its options (the random
directions of Alg. 5 are seeded per block), so where it ran changes no number.

- **Retries**: a task whose worker dies is rerun elsewhere (the scheduler's own rescheduling, and
  ``retries`` for a task that raises).
- **Resumable**: each finished task is written to ``OUT/cluster-tasks/alg<n>.json`` at once; a rerun with
  the same model, text and options reads it back instead of recomputing, so a run interrupted after
  three algorithms pays only for the last two. The directory is removed once ``results.json`` is written.

Why Dask and not Ray (measured on this machine, 2 cores under a load of ~10, 2026-11-23; see
``docs/benchmarks.md``): a local cluster of two workers starts in 13 s against Ray's 25 s, one GPT-2
layer's ``q, k, v`` and hidden state (28 MiB) make the round trip in 0.5 s against 3.2 s, a killed
worker's task finishes 3 s later against 5 s, and ``distributed`` is a 25 MB pure-Python install
against Ray's 240 MB.

>>> results, timings = run(cluster="local", spec=spec, options=options, out="out/minilm")  # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

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
    import torch

    from empirical.algorithms import Setup
    from empirical.heads.loading import load_model

    key = json.dumps(spec, sort_keys=True)
    if key not in _WORKER_SETUPS:
        _WORKER_SETUPS.clear()
        if spec.get("threads"):
            torch.set_num_threads(spec["threads"])
        loaded = load_model(spec["model"], offline=spec["offline"], tokenizer=spec["tokenizer"])
        _WORKER_SETUPS[key] = Setup(loaded, text=spec["text"], windows=spec["windows"], embeddings=spec["embeddings"],
                                    progress=False, device=spec["device"],
                                    layers_per_block=spec.get("layers_per_block"),
                                    workers=spec.get("workers") or spec.get("threads"))  # a local worker: its share
    return _WORKER_SETUPS[key]


def _task(number: int, spec: dict, options: dict) -> dict:
    """Run algorithm ``number`` on a worker; JSON-ready results and the time it took."""
    from empirical.runner import jsonable, run_algorithms

    results, timings = run_algorithms(_setup_for(spec), which=(number,), **options)
    return {"results": jsonable(results), "timings": timings}


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
    from distributed import as_completed

    from empirical.runner import ALGORITHMS, jsonable

    out = Path(out)
    which = tuple(sorted(set(options.get("which", ALGORITHMS))))
    rest = {key: value for key, value in options.items() if key != "which"}
    identity = jsonable({"spec": {k: v for k, v in spec.items() if k not in ("threads", "workers")}, "options": rest})
    identity = json.loads(json.dumps(identity))  # tuples -> lists, as read back from disk
    answers = {number: _finished(out, number, identity) for number in which}
    todo = [number for number in which if answers[number] is None]
    (out / TASKS).mkdir(parents=True, exist_ok=True)
    futures = {client.submit(_task, number, spec, rest, pure=False, retries=RETRIES, key=f"alg{number}-{time.time_ns()}"):
               number for number in todo}
    for future in as_completed(futures):
        number = futures[future]
        answers[number] = future.result()
        path = _record(out, number)
        path.with_suffix(".tmp").write_text(json.dumps({"identity": identity, "answer": answers[number]}))
        path.with_suffix(".tmp").replace(path)  # whole or absent: an interruption never leaves half a record
        if progress:
            print(f"Alg. {number} done on the cluster ({len([a for a in answers.values() if a])}/{len(which)})",
                  flush=True)
    results, timings = {}, {}
    for number in which:  # the single-process order of keys
        results.update(answers[number]["results"])
        timings.update(answers[number]["timings"])
    return results, timings


def run(*, cluster: str, spec: dict, options: dict, out, progress: bool = False) -> tuple[dict, dict]:
    """Connect to (or start) the cluster, run :func:`run_tasks`, close what was started here."""
    check_cluster(cluster)
    client, local = _client(cluster)
    try:
        if local is not None:
            spec = {**spec, "threads": max(1, (os.cpu_count() or 1) // LOCAL_WORKERS)}
        return run_tasks(client, spec=spec, options=options, out=out, progress=progress)
    finally:
        client.close()
        if local is not None:
            local.close()


def forget(out) -> None:
    """Remove the finished-task records once ``results.json`` holds them."""
    shutil.rmtree(Path(out) / TASKS, ignore_errors=True)
