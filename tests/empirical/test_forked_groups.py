"""Groups of heads in forked processes (torch backend, CPU, ``workers > 1``): the same bits as on threads and as one
group; a child's error or death reaches the caller; a stream's heads stay on threads."""

import os

import numpy as np
import pytest
import torch

from setups import setup_of
from empirical.heads import forked_groups, tensor_rows
from empirical.heads.rows import map_rows
from empirical.heads.stream import HeadStream
from theorems.errors import ModelRunFailed

pytestmark = [pytest.mark.empirical,
              pytest.mark.skipif(not forked_groups.can_fork(), reason="groups are forked on Linux only")]


def _values(rows) -> dict:
    """Each row's weights and embeddings read back, tagged with where the row is: any head, row or layer evaluated by
    the wrong group, or stored at the wrong place, changes the array."""
    where = 1000.0 * rows.layer + 100.0 * rows.window + torch.arange(rows.heads.start, rows.heads.stop)[:, None]
    return {"value": rows.alpha.square().sum(-1) + rows.keys.squared.sum(-1, keepdim=True) + where,
            "pid": torch.full(rows.alpha.shape[:2], float(os.getpid()))}


@pytest.fixture(scope="module")
def heads(tiny_gpt2):
    return setup_of(tiny_gpt2, text=None, windows=2, progress=False).heads(24)


def test_forked_groups_give_the_bits_of_threads_and_of_one_group(heads, monkeypatch):
    forked = map_rows(heads, _values, budget=64, workers=3, backend="torch").values
    one = map_rows(heads, _values, budget=64, workers=1, backend="torch").values
    monkeypatch.setattr(tensor_rows, "can_fork", lambda: False)
    threads = map_rows(heads, _values, budget=64, workers=3, backend="torch").values
    # bitwise: each head's arithmetic is the same code on the same tensors whichever process or thread runs it
    assert np.array_equal(forked["value"], one["value"]) and np.array_equal(threads["value"], one["value"])
    assert np.isfinite(forked["value"]).all()
    pids = np.unique(forked["pid"])
    assert len(pids) == 3 and os.getpid() in pids  # the first group here, the two others in two children
    assert set(np.unique(threads["pid"])) == {os.getpid()}


def test_an_error_in_a_child_is_raised_with_its_heads_and_traceback(heads):
    def failing(rows):
        if rows.heads.start > 0:
            raise ArithmeticError("a head of the second group")
        return _values(rows)

    with pytest.raises(ModelRunFailed, match=r"heads 2\.\.3 failed in their process: ArithmeticError.*second group"):
        map_rows(heads, failing, workers=2, backend="torch")


def test_a_child_that_dies_is_named_with_its_exit_code(heads):
    def dying(rows):
        if rows.heads.start > 0:
            os._exit(7)
        return _values(rows)

    with pytest.raises(ModelRunFailed, match=r"heads 2\.\.3 ended without its results \(exit code 7\)"):
        map_rows(heads, dying, workers=2, backend="torch")


def test_the_largest_child_growth_counts_what_a_child_allocated(heads):
    def allocating(rows):
        if rows.heads.start > 0 and rows.layer == 0 and rows.window == 0 and rows.index[0] == 0:
            allocating.kept = torch.ones(64 * 2 ** 20 // 8, dtype=torch.float64)  # 64 MiB, touched
        return _values(rows)

    map_rows(heads, allocating, workers=2, backend="torch")
    assert forked_groups.largest_child_growth() >= 60 * 1024  # kB


def test_a_stream_s_groups_stay_on_threads(tiny_gpt2, heads, monkeypatch):
    """A stream's child would extract its layers again: its groups run on threads, and give the same bits."""
    layers = heads.sizes[1]
    stream = HeadStream(lambda chosen: heads, layers=layers, per_block=layers)
    monkeypatch.setattr(forked_groups, "evaluate_in_processes", pytest.fail)
    monkeypatch.setattr(tensor_rows, "evaluate_in_processes", pytest.fail)
    streamed = map_rows(stream, _values, workers=2, backend="torch").values
    assert set(np.unique(streamed["pid"])) == {os.getpid()}
    # bitwise: the same arithmetic on the same heads, one process
    assert np.array_equal(streamed["value"], map_rows(heads, _values, workers=1, backend="torch").values["value"])


def _pids_in_a_daemon(heads, answers) -> None:
    torch.set_num_threads(1)  # a fork of a process whose OpenMP ran threads hangs in its next parallel region
    try:
        answers.put(sorted(set(np.unique(map_rows(heads, _values, workers=2, backend="torch").values["pid"]))))
    except BaseException as error:  # noqa: BLE001 - the test reads it
        answers.put(repr(error))


def test_a_daemonic_process_keeps_its_groups_on_threads(heads):
    """A pool's worker may not have children (multiprocessing's rule): there the groups run on threads."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    answers = context.Queue()
    daemon = context.Process(target=_pids_in_a_daemon, args=(heads, answers), daemon=True)
    daemon.start()
    answer = answers.get(timeout=120)
    daemon.join()
    assert answer == [daemon.pid]
