"""``python -m empirical cluster-simulate``: how a run's (window, layer block) tasks spread over 1 to N workers.

The tasks and their seconds come from runs of ``reproduce --cluster`` (``cluster-graph.json``: each task's measured
duration and what it waited for, :meth:`empirical.cluster.BlockTasks.graph`). The makespan on ``N`` workers is list
scheduling in virtual time (:func:`schedule`: a free worker takes the ready task submitted first, Dask's default
priority), exact and free of the load of the machine that computes it; Dask's own scheduler replays the graph on a
local cluster of simulated workers whose tasks sleep for their (scaled) durations for a few ``N`` beside it
(:func:`replay`: the cross-check, with the scheduler's own overhead). Neither counts the transfers or the driver's
aggregation (both small next to the tasks here). A rows task also waits for its algorithm's previous pass (the
driver aggregates a pass before it starts the next).

The projection to a larger model (the paper's grids on a 7B model) rebuilds the graph at that model's layers and
lengths from per-task laws fitted to the measured tasks: a rows task's seconds per layer ``c·L^a`` per algorithm, a
forward task's ``c·L^b``, each fitted over the measured lengths (a law is only as good as the span it was fitted on:
the output says which). One worker is one machine like the measuring one.

>>> law = fit_law({128: 2.0, 256: 8.0})
>>> round(law(512), 6)
32.0
"""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path

import numpy as np

from theorems.errors import InvalidArgument

REPLAY_SECONDS = 30.0
"""The one-worker replay lasts about this long (every task's duration scaled by one factor)."""


@dataclasses.dataclass(frozen=True)
class Task:
    """One task of a graph: its name, seconds and the names it waits for."""

    name: str
    seconds: float
    after: tuple[str, ...] = ()


def read_graph(path) -> list[dict]:
    """The tasks of a ``cluster-graph.json``, checked: a clear error naming the file otherwise."""
    path = Path(path)
    try:
        tasks = json.loads(path.read_text())["tasks"]
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as error:
        raise InvalidArgument(f"--graph={str(path)!r} is not a cluster-graph.json written by `reproduce --cluster`: "
                              f"{error}") from None
    if not tasks:
        raise InvalidArgument(f"--graph={str(path)!r} holds no task")
    return tasks


def with_barriers(tasks: list[dict]) -> list[Task]:
    """The graph's tasks, each rows task also waiting for every rows task of its algorithm's previous call."""
    calls: dict = {}
    for task in tasks:
        if "algorithm" in task:
            calls.setdefault((task["algorithm"], task["call"]), []).append(task["name"])
    out = []
    for task in tasks:
        after = list(task.get("after", ()))
        if "algorithm" in task:
            after += calls.get((task["algorithm"], task["call"] - 1), [])
        out.append(Task(task["name"], float(task["seconds"]), tuple(after)))
    return out


def replay(tasks: list[Task], workers: int, *, scale: float) -> float:
    """The makespan of ``tasks`` on ``workers`` simulated workers (Dask's scheduler; each task sleeps ``scale`` times
    its seconds), in the tasks' own seconds."""
    # here, not at the top: an optional dependency (`[cluster]`)
    from distributed import Client, LocalCluster, wait

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=False, dashboard_address=None) as local, \
            Client(local) as client:
        futures: dict = {}
        began = time.perf_counter()
        for task in _ordered(tasks):
            futures[task.name] = client.submit(_sleep, task.seconds * scale, *[futures[name] for name in task.after],
                                               key=task.name, pure=False)
        wait(list(futures.values()))
        return (time.perf_counter() - began) / scale


def schedule(tasks: list[Task], workers: int) -> float:
    """The makespan of ``tasks`` on ``workers`` workers by list scheduling in virtual time: whenever a worker is free it
    takes the ready task submitted first (Dask's default priority: the order the driver submits in), so the answer is
    the graph's and the durations', exact and free of the replaying machine's load."""
    import heapq

    ordered = _ordered(tasks)
    rank = {task.name: position for position, task in enumerate(ordered)}
    waiting = {task.name: len(task.after) for task in ordered}
    followers: dict = {}
    for task in ordered:
        for name in task.after:
            followers.setdefault(name, []).append(task)
    ready = [(rank[task.name], task) for task in ordered if not task.after]
    heapq.heapify(ready)
    running: list = []  # (finish time, rank, task)
    now, free = 0.0, workers
    while ready or running:
        while free and ready:
            _, task = heapq.heappop(ready)
            heapq.heappush(running, (now + task.seconds, rank[task.name], task))
            free -= 1
        now, _, task = heapq.heappop(running)
        free += 1
        for follower in followers.get(task.name, ()):
            waiting[follower.name] -= 1
            if not waiting[follower.name]:
                heapq.heappush(ready, (rank[follower.name], follower))
    return now


def _sleep(seconds: float, *_) -> None:
    time.sleep(seconds)


def _ordered(tasks: list[Task]) -> list[Task]:
    """``tasks`` with every task after those it waits for (their graph is acyclic)."""
    by_name = {task.name: task for task in tasks}
    done, order = set(), []

    def visit(task: Task) -> None:
        if task.name in done:
            return
        for name in task.after:
            visit(by_name[name])
        done.add(task.name)
        order.append(task)
    for task in tasks:
        visit(task)
    return order


def fit_law(points: dict[int, float]):
    """``L -> c·L^a`` through the measured ``{L: seconds}`` (least squares in logs; one point: ``a = 2``, the
    quadratic growth of the per-head tables)."""
    lengths = np.array(sorted(points), dtype=float)
    seconds = np.array([points[int(length)] for length in lengths])
    a = float(np.polyfit(np.log(lengths), np.log(seconds), 1)[0]) if len(lengths) > 1 else 2.0
    c = float(np.exp(np.mean(np.log(seconds) - a * np.log(lengths))))
    law = lambda length: c * float(length) ** a  # noqa: E731
    law.exponent = a
    return law


def _length(task: dict) -> int:
    return int(next(part for part in task["name"].split() if part.startswith("L"))[1:])


def fitted_laws(graphs: list[list[dict]]) -> dict:
    """Per algorithm, the law of a rows task per layer; and the forward task's per layer, from every graph (a task of
    a block of ``k`` layers counts ``seconds / k`` per layer)."""
    rows, forwards = {}, {}
    for tasks in graphs:
        for task in tasks:
            per_layer = task["seconds"] / task.get("layers", 1)
            if task["name"].startswith("forward"):
                forwards.setdefault(_length(task), []).append(per_layer)
            else:
                rows.setdefault(task["algorithm"], {}).setdefault(_length(task), []).append(per_layer)
    return {"rows": {algorithm: fit_law({length: float(np.median(values)) for length, values in points.items()})
                     for algorithm, points in rows.items()},
            "forward": fit_law({length: float(np.median(values)) for length, values in forwards.items()})}


def projected_graph(laws: dict, *, layers: int, grids: dict, windows: int = 1) -> list[Task]:
    """The task graph of a run on ``layers`` layers (one per block), ``grids`` ``{algorithm: [lengths of its calls]}``,
    each task's seconds from ``laws`` (:func:`fitted_laws`, per layer)."""
    tasks = []
    for length in sorted({length for lengths in grids.values() for length in lengths}):
        for window in range(windows):
            for block in range(layers):
                after = (f"forward L{length} w{window} b{block - 1}",) if block else ()
                tasks.append(Task(f"forward L{length} w{window} b{block}", laws["forward"](length), after))
    for algorithm, lengths in grids.items():
        previous: list[str] = []
        for call, length in enumerate(lengths, start=1):
            names = []
            for window in range(windows):
                for block in range(layers):
                    name = f"rows alg{algorithm} call{call} L{length} w{window} b{block}"
                    tasks.append(Task(name, laws["rows"][algorithm](length),
                                      (f"forward L{length} w{window} b{block}", *previous)))
                    names.append(name)
            previous = names
    return tasks


def speedups(tasks: list[Task], workers, *, replayed=(1, 2, 4)) -> tuple[list[dict], dict]:
    """``[{workers, seconds, speedup, replayed}]``: the makespan by :func:`schedule` for every count of ``workers``, and
    Dask's own scheduler replaying the graph (:func:`replay`, sleeping tasks) for the counts of ``replayed``, with its
    overhead per task."""
    total = sum(task.seconds for task in tasks)
    scale = REPLAY_SECONDS / max(total, 1e-9)
    rows = [{"workers": count, "seconds": schedule(tasks, count)} for count in workers]
    for row in rows:
        row["speedup"] = rows[0]["seconds"] / row["seconds"]
        if row["workers"] in replayed:
            row["replayed"] = replay(tasks, row["workers"], scale=scale)
    idle = replay([Task(task.name, 0.0, task.after) for task in tasks], 1, scale=1.0)  # scheduling alone, unscaled
    return rows, {"tasks": len(tasks), "work_seconds": total, "scale": scale, "overhead_per_task": idle / len(tasks)}


def _duration(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} h"
    if seconds >= 60:
        return f"{seconds / 60:.1f} min"
    return f"{seconds:.1f} s"


def table(rows: list[dict], facts: dict, title: str) -> str:
    """A Markdown table of a graph's makespans against the workers."""
    lines = [f"**{title}** ({facts['tasks']} tasks, {_duration(facts['work_seconds'])} of task time)", "",
             "| workers | " + " | ".join(str(row["workers"]) for row in rows) + " |",
             "|---|" + "---|" * len(rows),
             "| time | " + " | ".join(_duration(row["seconds"]) for row in rows) + " |",
             "| speedup | " + " | ".join(f"{row['speedup']:.1f}×" for row in rows) + " |",
             "| Dask's replay | " + " | ".join(_duration(row["replayed"]) if "replayed" in row else ""
                                               for row in rows) + " |"]
    return "\n".join(lines) + (f"\n\nDask's replay: the graph on a local cluster of that many single-thread workers, "
                                f"each task sleeping {facts['scale']:.3g} times its seconds (its scheduling costs "
                                f"{1e3 * facts['overhead_per_task']:.2f} ms per task here, and the replaying "
                                "machine's load adds to it).\n")


PAPER_7B = {"layers": 32, "lengths": (32, 64, 128, 256, 512, 1024, 2048, 4096)}
"""The 7B projection: 32 layers; Alg. 1 and 3 at every length of the paper's doubling grid up to the model's 4096
positions, Alg. 2, 4 and 5 at 4096 (``docs/benchmarks.md``'s projection)."""


def main(*, graphs, out, workers: int = 20, measured: list[dict] | None = None) -> str:
    """Replay the first graph on 1..``workers`` workers, project every graph's laws to :data:`PAPER_7B` and replay
    that; write and return the Markdown."""
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= 64:
        raise InvalidArgument(f"--workers={workers!r} must be an integer from 1 to 64")
    loaded = [read_graph(path) for path in graphs]
    counts = range(1, workers + 1)
    measured_rows, measured_facts = speedups(with_barriers(loaded[0]), counts)
    laws = fitted_laws(loaded)
    lengths = PAPER_7B["lengths"]
    grids = {1: list(lengths), 2: [lengths[-1]], 3: list(lengths), 4: [lengths[-1]], 5: [lengths[-1]]}
    grids = {algorithm: grid for algorithm, grid in grids.items() if algorithm in laws["rows"]}
    projected_rows, projected_facts = speedups(projected_graph(laws, layers=PAPER_7B["layers"], grids=grids), counts)
    fitted = ", ".join(f"Alg. {a} L^{law.exponent:.2f}" for a, law in sorted(laws["rows"].items()))
    spans = sorted({_length(task) for tasks in loaded for task in tasks})
    text = (table(measured_rows, measured_facts, f"Measured graph ({graphs[0]})") + "\n"
            + table(projected_rows, projected_facts, f"Projected: {PAPER_7B['layers']} layers, L up to {lengths[-1]}")
            + f"\nLaws fitted on the measured lengths {spans}: rows tasks per layer {fitted}; forward tasks per layer "
              f"L^{laws['forward'].exponent:.2f}. One worker is one machine like the measuring one.\n")
    if out is not None:
        Path(out).write_text(text)
    return text


if __name__ == "__main__":  # pragma: no cover - python -m empirical cluster-simulate is the entry point
    raise SystemExit("use: python -m empirical cluster-simulate --graph cluster-graph.json [--graph ...] --out FILE")
