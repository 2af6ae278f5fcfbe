"""Blocks of rows on a pool of threads (``workers``): the same results as one at a time, bit for bit."""

import json
import threading

import numpy as np
import pytest

from setups import setup_of
from empirical.heads.rows import check_workers, default_workers, map_rows
from theorems.errors import InvalidArgument

pytestmark = pytest.mark.empirical

SMALL_BLOCKS = 2_000
"""A budget of array entries that cuts each (window, layer) of the tiny model into blocks of a few rows."""


def test_every_algorithm_gives_the_same_bits_on_one_and_on_two_workers(tiny_gpt2, run_every_algorithm):
    serial = setup_of(tiny_gpt2, text=None, windows=2, progress=False, budget=SMALL_BLOCKS, workers=1)
    pooled = setup_of(tiny_gpt2, text=None, windows=2, progress=False, budget=SMALL_BLOCKS, workers=2)
    expected, got = run_every_algorithm(serial), run_every_algorithm(pooled)
    for number in expected:  # the same operations on the same blocks, merged in order
        assert json.dumps(got[number], sort_keys=True, default=str) == \
            json.dumps(expected[number], sort_keys=True, default=str), number


def test_the_pool_runs_blocks_on_several_threads_and_merges_them_in_order(tiny_gpt2):
    heads = setup_of(tiny_gpt2, text=None, windows=2, progress=False).heads(24)
    threads = set()
    running, most = [0], [0]
    lock = threading.Lock()

    def function(rows):
        with lock:
            threads.add(threading.get_ident())
            running[0] += 1
            most[0] = max(most[0], running[0])
        value = np.broadcast_to(rows.index.astype(float), rows.alpha.shape[:2]) + rows.alpha.sum(-1)
        with lock:
            running[0] -= 1
        return {"value": value + 1000 * rows.layer + 100 * rows.window}

    serial = map_rows(heads, function, budget=1, workers=1)
    pooled = map_rows(heads, function, budget=1, workers=3)
    # bitwise: the claim under test (README: "the same bits for every N"): each block is the same computation
    # whichever thread runs it
    assert np.array_equal(serial.values["value"], pooled.values["value"])
    assert np.isfinite(pooled.values["value"]).all()
    assert len(threads) >= 2 and most[0] <= 3  # blocks did run on the pool, never more than `workers` at once


def test_an_error_in_one_block_reaches_the_caller(tiny_gpt2):
    heads = setup_of(tiny_gpt2, text=None, progress=False).heads(16)

    def function(rows):
        if rows.index[0] == 5:
            raise ArithmeticError("block 5")
        return {"value": rows.alpha.sum(-1)}

    with pytest.raises(ArithmeticError, match="block 5"):
        map_rows(heads, function, budget=1, workers=2)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_a_bad_workers_value_is_named(tiny_gpt2, bad):
    with pytest.raises(InvalidArgument, match="workers="):
        setup_of(tiny_gpt2, text=None, workers=bad)
    with pytest.raises(InvalidArgument, match="workers="):
        check_workers(bad)


def test_the_default_is_the_cores_this_process_may_use(tiny_gpt2):
    assert setup_of(tiny_gpt2, text=None).workers == default_workers() >= 1
