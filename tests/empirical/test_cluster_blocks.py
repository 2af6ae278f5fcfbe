"""`reproduce --cluster`: every pass over the rows as one rows task per (window, layer block), fed by forward tasks.

Dask workers on the tiny GPT-2 (two layers, one layer per block): the merged results.json equals the single-process
one (with one worker too), the task graph holds one rows task per (window, layer block) and pass and one forward
task per (window, layer block) and length, the driver makes no forward pass, a killed worker's task is rerun, and a
rerun reads the saved blocks back instead of recomputing them.
"""

import json
import os
import signal
import threading
import time

import numpy as np
import pytest

from empirical import cluster, reproduce, runner
from empirical.grids import Grids
from empirical.setup import Setup
from test_cluster import OPTIONS, _assert_same, _spec, single  # noqa: F401 (single: the fixture, shared)

pytestmark = [pytest.mark.empirical, pytest.mark.slow]

PASSES = 2 + 1 + 2 + 1 + 1
"""``map_rows`` calls of OPTIONS: Alg. 1 and 3 one per length (two lengths), Alg. 2, 4 and 5 one each."""


def _recorded(monkeypatch) -> list:
    made = []

    class Recorded(cluster.BlockTasks):
        def __init__(self, *arguments, **keywords):
            super().__init__(*arguments, **keywords)
            made.append(self)

    monkeypatch.setattr(cluster, "BlockTasks", Recorded)
    return made


def test_window_and_layer_block_tasks_merge_into_the_single_process_results(tiny_gpt2_dir, tmp_path, monkeypatch):
    common = dict(model=str(tiny_gpt2_dir), text=None, offline=True, progress=False, windows=2, **OPTIONS)
    reproduce.run(out=tmp_path / "single", **common)
    made = _recorded(monkeypatch)
    reproduce.run(out=tmp_path / "cluster", cluster="local", layers_per_block=1, **common)
    _assert_same(json.loads((tmp_path / "cluster" / "results.json").read_text()),
                 json.loads((tmp_path / "single" / "results.json").read_text()))
    [tasks] = made
    graph = json.loads((tmp_path / "cluster" / "cluster-graph.json").read_text())["tasks"]
    rows = [task for task in graph if task["name"].startswith("rows")]
    forwards = [task for task in graph if task["name"].startswith("forward")]
    # one rows task per (window, layer block) of every pass: 2 windows x 2 blocks x 7 passes
    assert len(rows) == tasks.computed == 2 * 2 * PASSES and tasks.reused == 0
    assert len({task["name"].rsplit(" ", 2)[0] + task["name"][-6:] for task in rows}) == len(rows)
    # one forward task per (window, layer block) and length, shared by the passes at that length: 2 x 2 x 2 lengths
    assert len(forwards) == tasks.forwards == 2 * 2 * 2
    assert all(task["seconds"] > 0 for task in graph)
    assert not (tmp_path / "cluster" / cluster.TASKS).exists()


def test_one_worker_writes_the_single_process_results(tiny_gpt2_dir, tmp_path, single):
    from distributed import Client, LocalCluster

    spec = _spec(tiny_gpt2_dir, tmp_path)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as local, \
            Client(local) as client:
        results, _ = cluster.run_blocks(client, setup=Setup.from_spec(spec), spec=spec, grids=Grids(**OPTIONS))
    for key, value in results.items():
        _assert_same(runner.jsonable(value), single[key], (key,))


def test_the_driver_makes_no_forward_pass(tiny_gpt2_dir, tmp_path, single, monkeypatch):
    """The driver's heads are the model's mask and sizes; every forward pass runs on a worker (another process,
    where this patch does not reach)."""
    from empirical import setup as setup_module

    def refuse(*arguments, **keywords):
        raise AssertionError("the driver ran a forward pass")

    monkeypatch.setattr(setup_module, "extract", refuse)
    reproduce.run(model=str(tiny_gpt2_dir), text=None, out=tmp_path, offline=True, progress=False, cluster="local",
                  layers_per_block=1, **OPTIONS)
    _assert_same(json.loads((tmp_path / "results.json").read_text()), single)


def test_without_a_block_size_a_block_holds_what_one_process_holds(tiny_gpt2_dir, tmp_path, monkeypatch):
    made = _recorded(monkeypatch)
    reproduce.run(model=str(tiny_gpt2_dir), text=None, out=tmp_path, offline=True, progress=False, cluster="local",
                  **dict(OPTIONS, which=(5,)))
    assert "sensitivity" in json.loads((tmp_path / "results.json").read_text())
    assert made[0].blocks == [(0, 2)]  # the tiny model's two layers fit one block


def _driver(tiny_gpt2_dir, out) -> tuple[Setup, object]:
    spec = _spec(tiny_gpt2_dir, out, windows=1, embeddings="values", layers_per_block=1)
    return Setup.from_spec(spec), spec


def test_a_worker_killed_while_it_runs_a_task_has_the_task_rerun(tiny_gpt2_dir, tmp_path, single):
    from distributed import Client, LocalCluster

    killed = []

    def kill_a_busy_worker(client):
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not killed:
            busy = [worker for worker, tasks in client.processing().items()
                    if any(str(task).startswith("rows-") for task in tasks)]
            if busy:
                pids = client.run(os.getpid, workers=busy[:1])
                os.kill(pids[busy[0]], signal.SIGKILL)
                killed.append(busy[0])
            time.sleep(0.05)

    setup, spec = _driver(tiny_gpt2_dir, tmp_path)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as local, \
            Client(local) as client:
        killer = threading.Thread(target=kill_a_busy_worker, args=(client,), daemon=True)
        killer.start()
        results, _ = cluster.run_blocks(client, setup=setup, spec=spec, grids=Grids(**OPTIONS))
        killer.join(timeout=5)
    assert killed, "no worker was killed: the test did not test anything"
    for key, value in results.items():
        _assert_same(runner.jsonable(value), single[key], (key,))


def test_a_rerun_reads_the_saved_blocks_back_and_recomputes_stale_ones(tiny_gpt2_dir, tmp_path, single):
    from distributed import Client, LocalCluster

    setup, spec = _driver(tiny_gpt2_dir, tmp_path)
    grids = Grids(**dict(OPTIONS, which=(5,)))
    records = tmp_path / cluster.TASKS

    def tasks_for(client, chosen):
        return cluster.block_tasks(client, setup=setup, spec=spec, grids=chosen)

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as local, \
            Client(local) as client:
        first = tasks_for(client, grids)
        cluster.run_blocks(client, setup=setup, spec=spec, grids=grids, tasks=first)
        assert (first.computed, first.reused) == (2, 0)
        (records / "alg5.json").unlink()  # interrupted after its blocks, before the algorithm's record
        [layer1] = records.glob("*-alg5-call1-L16-w0-layers1-2.npz")
        saved = dict(np.load(layer1))
        saved["g"] = np.full_like(saved["g"], 7.0)  # a marker: only a block read back from disk shows it
        with open(layer1, "wb") as handle:
            np.savez(handle, **saved)
        again = tasks_for(client, grids)
        results, _ = cluster.run_blocks(client, setup=setup, spec=spec, grids=grids, tasks=again)
        assert (again.computed, again.reused) == (0, 2)  # no rows computed; the forward tasks made are the mpmath
        assert again.forwards <= len(again.blocks)  # confirmers' (a violating row's layer), one per block at most
        g = np.asarray(results["sensitivity"]["g_per_head"])  # [layer·head, n_T, n_ε]
        assert np.all(g[4:] == 7.0)  # layer 1's four heads came from the file
        _assert_same(runner.jsonable(g[:4].tolist()), single["sensitivity"]["g_per_head"][:4])
        (records / "alg5.json").unlink()
        other = Grids(**dict(OPTIONS, which=(5,), temperatures=(0.5,)))  # other grids: another identity, every
        stale = tasks_for(client, other)  # block recomputed
        cluster.run_blocks(client, setup=setup, spec=spec, grids=other, tasks=stale)
        assert (stale.computed, stale.reused) == (2, 0)
