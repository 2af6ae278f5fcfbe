"""`python -m empirical cluster-simulate`: the task graph it replays and projects, and its replays' bounds.

Replays measure wall time on Dask's scheduler, so the tests check only what holds on any machine: a replay's
makespan is at least the graph's longest chain and, on one worker, at least its total work (each task sleeps at
least its duration); the structure of the graphs is checked exactly.
"""

import json

import pytest

from empirical import simulate
from empirical.__main__ import main

pytestmark = pytest.mark.empirical


def _graph():
    """Two algorithms, two passes of one, two windows, two layer blocks (a reproduce --cluster graph's shape)."""
    tasks = []
    for length in (8, 16):
        for window in range(2):
            for block in range(2):
                tasks.append({"name": f"forward L{length} w{window} b{block}", "seconds": 0.02, "layers": 1,
                              "after": [f"forward L{length} w{window} b{block - 1}"] if block else []})
    for algorithm, lengths in ((1, (8, 16)), (5, (16,))):
        for call, length in enumerate(lengths, start=1):
            for window in range(2):
                for block in range(2):
                    tasks.append({"name": f"rows alg{algorithm} call{call} L{length} w{window} b{block}",
                                  "seconds": 0.01 * length / 8, "layers": 1, "algorithm": algorithm, "call": call,
                                  "after": [f"forward L{length} w{window} b{block}"]})
    return tasks


def test_a_rows_task_waits_for_its_forward_and_its_algorithm_s_previous_pass():
    tasks = {task.name: task for task in simulate.with_barriers(_graph())}
    second = tasks["rows alg1 call2 L16 w1 b0"]
    assert "forward L16 w1 b0" in second.after
    assert {f"rows alg1 call1 L8 w{w} b{b}" for w in range(2) for b in range(2)} <= set(second.after)
    assert tasks["rows alg5 call1 L16 w0 b1"].after == ("forward L16 w0 b1",)  # a first pass waits for no pass


def test_the_laws_fit_power_laws_exactly_and_the_projection_has_one_task_per_window_and_layer():
    law = simulate.fit_law({64: 3.0, 128: 12.0, 256: 48.0})
    assert law.exponent == pytest.approx(2.0) and law(1024) == pytest.approx(768.0)
    laws = simulate.fitted_laws([_graph()])
    assert laws["rows"][1].exponent == pytest.approx(1.0)  # 0.01 s at L = 8, 0.02 s at 16 per layer
    projected = simulate.projected_graph(laws, layers=4, grids={1: [8, 16, 32], 5: [32]}, windows=2)
    rows = [task for task in projected if task.name.startswith("rows")]
    forwards = [task for task in projected if task.name.startswith("forward")]
    assert len(rows) == (3 + 1) * 2 * 4 and len(forwards) == 3 * 2 * 4  # per call / length x window x layer
    assert next(t for t in rows if t.name == "rows alg1 call3 L32 w0 b2").seconds == pytest.approx(0.04)


def test_a_replay_lasts_at_least_the_longest_chain_and_one_worker_the_whole_work():
    tasks = simulate.with_barriers(_graph())
    by_name = {task.name: task for task in tasks}
    finish: dict = {}
    for task in simulate._ordered(tasks):
        finish[task.name] = task.seconds + max((finish[name] for name in task.after), default=0.0)
    chain, total = max(finish.values()), sum(task.seconds for task in tasks)
    assert simulate.replay(tasks, 1, scale=1.0) >= total
    assert simulate.replay(tasks, 4, scale=1.0) >= chain
    assert len(by_name) == len(tasks)


def test_list_scheduling_in_virtual_time_is_exact_on_small_graphs():
    chain = [simulate.Task("a", 1.0), simulate.Task("b", 2.0, ("a",)), simulate.Task("c", 3.0, ("a",))]
    assert simulate.schedule(chain, 1) == 6.0 and simulate.schedule(chain, 2) == 4.0  # b and c side by side after a
    tasks = simulate.with_barriers(_graph())
    total = sum(task.seconds for task in tasks)
    assert simulate.schedule(tasks, 1) == pytest.approx(total)  # one worker: every task in turn, no idle time
    assert simulate.schedule(tasks, 64) <= simulate.schedule(tasks, 2) <= simulate.schedule(tasks, 1)


def test_the_command_refuses_a_file_that_is_no_task_graph(tmp_path, capsys):
    bad = tmp_path / "graph.json"
    bad.write_text(json.dumps({"results": 1}))
    assert main(["cluster-simulate", "--graph", str(bad)]) == 2
    assert f"--graph='{bad}' is not a cluster-graph.json" in capsys.readouterr().err
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"tasks": _graph()}))
    assert main(["cluster-simulate", "--graph", str(good), "--workers", "0"]) == 2
    assert "--workers=0 must be an integer from 1 to 64" in capsys.readouterr().err
