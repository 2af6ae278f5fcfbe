"""`reproduce --cluster local --layers-per-block k`: every pass over the rows as one task per block of layers.

Two Dask workers on the tiny GPT-2 (two layers): the merged results.json equals the single-process one, a killed
worker's block is rerun, and a rerun reads the saved blocks back instead of recomputing them.
"""

import json
import os
import signal
import threading
import time

import numpy as np
import pytest

from empirical import cluster, reproduce, runner
from empirical.setup import Setup
from empirical.heads.loading import load_model
from test_cluster import OPTIONS, _assert_same, _spec, single  # noqa: F401 (single: the fixture, shared)

pytestmark = [pytest.mark.empirical, pytest.mark.slow]


def test_layer_block_tasks_merge_into_the_single_process_results(tiny_gpt2_dir, tmp_path, single, monkeypatch):
    made = []

    class Recorded(cluster.LayerBlocks):
        def __init__(self, *arguments, **keywords):
            super().__init__(*arguments, **keywords)
            made.append(self)

    monkeypatch.setattr(cluster, "LayerBlocks", Recorded)
    reproduce.run(model=str(tiny_gpt2_dir), text=None, out=tmp_path, offline=True, progress=False, cluster="local",
                  layers_per_block=1, **OPTIONS)
    _assert_same(json.loads((tmp_path / "results.json").read_text()), single)
    [mapper] = made
    # Alg. 1 and 3: one pass per length (2 each); Alg. 2, 4, 5: one pass each; 2 blocks of one layer per pass
    assert (mapper.computed, mapper.reused) == (2 * (2 + 1 + 2 + 1 + 1), 0)
    assert not (tmp_path / cluster.TASKS).exists()


def test_without_a_block_size_the_cluster_runs_whole_algorithms(tiny_gpt2_dir, tmp_path, monkeypatch):
    def refuse(*arguments, **keywords):
        raise AssertionError("run_blocks was called without --layers-per-block")

    monkeypatch.setattr(cluster, "run_blocks", refuse)
    reproduce.run(model=str(tiny_gpt2_dir), text=None, out=tmp_path, offline=True, progress=False, cluster="local",
                  **dict(OPTIONS, which=(5,)))
    assert "sensitivity" in json.loads((tmp_path / "results.json").read_text())


def _driver(tiny_gpt2_dir) -> tuple[Setup, dict]:
    setup = Setup(load_model(str(tiny_gpt2_dir), offline=True), text=None, windows=1, embeddings="values",
                  progress=False, layers_per_block=1)
    return setup, dict(_spec(tiny_gpt2_dir), layers_per_block=1)


def test_a_worker_killed_while_it_runs_a_layer_block_has_the_block_rerun(tiny_gpt2_dir, tmp_path, single):
    from distributed import Client, LocalCluster

    killed = []

    def kill_a_busy_worker(client):
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not killed:
            busy = [worker for worker, tasks in client.processing().items()
                    if any(str(task).startswith("alg") and "-call" in str(task) for task in tasks)]
            if busy:
                pids = client.run(os.getpid, workers=busy[:1])
                os.kill(pids[busy[0]], signal.SIGKILL)
                killed.append(busy[0])
            time.sleep(0.05)

    setup, spec = _driver(tiny_gpt2_dir)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as local, \
            Client(local) as client:
        killer = threading.Thread(target=kill_a_busy_worker, args=(client,), daemon=True)
        killer.start()
        results, _ = cluster.run_blocks(client, setup=setup, spec=spec, options=OPTIONS, out=tmp_path)
        killer.join(timeout=5)
    assert killed, "no worker was killed: the test did not test anything"
    for key, value in results.items():
        _assert_same(runner.jsonable(value), single[key], (key,))


def test_a_rerun_reads_the_saved_blocks_back_and_recomputes_stale_ones(tiny_gpt2_dir, tmp_path, single):
    from distributed import Client, LocalCluster

    setup, spec = _driver(tiny_gpt2_dir)
    options = dict(OPTIONS, which=(5,))
    records = tmp_path / cluster.TASKS
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as local, \
            Client(local) as client:
        first = cluster.LayerBlocks(client, spec=spec, per_block=1, records=records,
                                    identity=cluster._identity(spec, options)[2])
        cluster.run_blocks(client, setup=setup, spec=spec, options=options, out=tmp_path, mapper=first)
        assert (first.computed, first.reused) == (2, 0)
        (records / "alg5.json").unlink()  # interrupted after its blocks, before the algorithm's record
        [layer1] = records.glob("*-alg5-call1-L16-layers1-2.npz")
        saved = dict(np.load(layer1))
        saved["g"] = np.full_like(saved["g"], 7.0)  # a marker: only a block read back from disk shows it
        with open(layer1, "wb") as handle:
            np.savez(handle, **saved)
        again = cluster.LayerBlocks(client, spec=spec, per_block=1, records=records,
                                    identity=cluster._identity(spec, options)[2])
        results, _ = cluster.run_blocks(client, setup=setup, spec=spec, options=options, out=tmp_path, mapper=again)
        assert (again.computed, again.reused) == (0, 2)
        g = np.asarray(results["sensitivity"]["g_per_head"])  # [layer·head, n_T, n_ε]
        assert np.all(g[4:] == 7.0)  # layer 1's four heads came from the file
        _assert_same(runner.jsonable(g[:4].tolist()), single["sensitivity"]["g_per_head"][:4])
        (records / "alg5.json").unlink()
        other = dict(options, temperatures=(0.5,))  # other options: another identity, every block recomputed
        stale = cluster.LayerBlocks(client, spec=spec, per_block=1, records=records,
                                    identity=cluster._identity(spec, other)[2])
        cluster.run_blocks(client, setup=setup, spec=spec, options=other, out=tmp_path, mapper=stale)
        assert (stale.computed, stale.reused) == (2, 0)
