"""`reproduce --cluster local`: two Dask workers give the single-process results.json; finished algorithms are reused."""

import json
import math

import pytest

from empirical import cluster, reproduce, runner
from empirical.grids import Grids
from empirical.spec import RunSpec

pytestmark = [pytest.mark.empirical, pytest.mark.slow]

OPTIONS = dict(which=(1, 2, 3, 4, 5), lengths=(8, 16), ns=(1, 3), separability_ns=(1, 2), temperatures=(0.1, 1.0),
               epsilons=(1e-3, 1.0))
UNCOMPARED = {"timings", "seconds", "figures"}


def _assert_same(got, expected, path=()):
    """Counts, names and structure exactly; floats to float64 rounding."""
    if isinstance(expected, dict):
        assert set(got) == set(expected), path
        for key in expected:
            if not (not path and key in UNCOMPARED):
                _assert_same(got[key], expected[key], path + (key,))
    elif isinstance(expected, list):
        assert len(got) == len(expected), path
        for i, (a, b) in enumerate(zip(got, expected)):
            _assert_same(a, b, path + (i,))
    elif isinstance(expected, float) and not isinstance(got, bool) and isinstance(got, (int, float)):
        assert math.isclose(got, expected, rel_tol=1e-12, abs_tol=1e-300), (path, got, expected)
    else:
        assert got == expected, (path, got, expected)


@pytest.fixture(scope="module")
def single(tiny_gpt2_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("single")
    reproduce.run(model=str(tiny_gpt2_dir), text=None, out=out, offline=True, progress=False, **OPTIONS)
    return json.loads((out / "results.json").read_text())


def test_a_local_cluster_of_two_workers_writes_the_single_process_results(tiny_gpt2_dir, tmp_path, single):
    reproduce.run(model=str(tiny_gpt2_dir), text=None, out=tmp_path, offline=True, progress=False, cluster="local",
                  **OPTIONS)
    _assert_same(json.loads((tmp_path / "results.json").read_text()), single)
    assert not (tmp_path / cluster.TASKS).exists()  # the task records are gone once results.json holds them


def test_reproduce_with_one_layer_per_block_streams_and_writes_the_same_results(tiny_gpt2_dir, tmp_path, single,
                                                                                 monkeypatch):
    from empirical import setup

    blocks = []

    class Recorded(setup.HeadStream):
        def __init__(self, *arguments, **keywords):
            blocks.append(keywords["per_block"])
            super().__init__(*arguments, **keywords)

    monkeypatch.setattr(setup, "HeadStream", Recorded)
    reproduce.run(model=str(tiny_gpt2_dir), text=None, out=tmp_path, offline=True, progress=False, layers_per_block=1,
                  **OPTIONS)
    assert blocks and set(blocks) == {1}  # the two layers came one block at a time
    _assert_same(json.loads((tmp_path / "results.json").read_text()), single)


def _spec(tiny_gpt2_dir, out, **options) -> RunSpec:
    return RunSpec.from_options(model=str(tiny_gpt2_dir), text=None, out=out, offline=True, progress=False, **options)


def test_a_rerun_reads_the_finished_algorithms_back_and_recomputes_the_others(tiny_gpt2_dir, tmp_path):
    from distributed import Client, LocalCluster

    from empirical.setup import Setup

    grids = Grids(**dict(OPTIONS, which=(1, 5)))
    spec = _spec(tiny_gpt2_dir, tmp_path)
    identity = cluster.task_identity(spec, grids)
    records = tmp_path / cluster.TASKS
    records.mkdir()
    marker = {"results": {"distance_vs_length": "read back"}, "timings": {"Alg. 1": 0.0}}
    (records / "alg1.json").write_text(json.dumps({"identity": identity, "answer": marker}))
    stale = {"results": {"sensitivity": "stale"}, "timings": {}}
    (records / "alg5.json").write_text(json.dumps({"identity": {"other": "options"}, "answer": stale}))
    setup = Setup.from_spec(spec)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as local, \
            Client(local) as client:
        results, _ = cluster.run_blocks(client, setup=setup, spec=spec, grids=grids)
    assert results["distance_vs_length"] == "read back"  # not recomputed
    assert isinstance(results["sensitivity"], dict) and results["sensitivity"]["algorithm"] == 5  # the stale one was
    assert json.loads((records / "alg5.json").read_text())["identity"] == identity


@pytest.mark.parametrize("address", ["", "no-port", "tcp://host :1"])
def test_a_bad_cluster_address_is_named_before_the_model_loads(tmp_path, address):
    with pytest.raises(ValueError, match="--cluster="):
        reproduce.run(model="no/such-model", text=None, out=tmp_path, cluster=address)
