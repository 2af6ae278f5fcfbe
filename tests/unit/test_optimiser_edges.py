"""The optimiser pushes each choice to the ends of its own range before Nelder–Mead: a supremum reached only
in a limit (the smallest ``T``, an entry at the strategy's bound, the largest ``L``) is reached in a few
proposals, every proposal is an instance the strategy admits, and a longer instance is replayed with the
simplest choices appended."""

import math

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from theorems.engine import hypothesis_internals as internals
from theorems.engine import optimiser

_LIMIT = st.fixed_dictionaries({"T": st.floats(0.1, 10), "n": st.integers(2, 40), "x": st.floats(-3, 3)})


def _start(strategy, choices):
    instance, used, constraints = internals.replay_recorded(strategy, choices)
    return instance, optimiser.Start(-math.inf, used, constraints)


def _run(strategy, start, score, evaluations):
    seen = []

    def recorded(instance):
        seen.append(instance)
        return score(instance)

    start.score = score(internals.replay(strategy, start.choices))
    spent = optimiser.optimise(strategy, [start], recorded, evaluations=evaluations)
    return seen, spent


def test_a_supremum_in_a_limit_is_reached_at_the_edges_in_a_few_proposals():
    # 1 − e^{−x/T} grows as T falls and x rises, and n adds a little: the supremum is at T = 0.1, x = 3, n = 40
    def score(i):
        return 1 - math.exp(-i["x"] / i["T"]) * 0.5 + i["n"] / 1e4

    _, start = _start(_LIMIT, _recorded_choices(_LIMIT, seed=0))
    seen, spent = _run(_LIMIT, start, score, evaluations=20)
    best = max(seen, key=score)
    assert (best["T"], best["n"], best["x"]) == (0.1, 40, 3.0)
    assert seen.index(best) < 20  # two passes over two ends of three choices and the shuffle of the keys


def test_every_proposal_is_an_instance_the_strategy_admits():
    _, start = _start(_LIMIT, _recorded_choices(_LIMIT, seed=0))
    def score(i):
        return -(i["x"] - 1.234) ** 2 - (i["T"] - 2) ** 2

    seen, spent = _run(_LIMIT, start, score, evaluations=150)
    assert len(seen) == spent <= 150
    assert all(0.1 <= i["T"] <= 10 and 2 <= i["n"] <= 40 and -3 <= i["x"] <= 3 for i in seen)
    best = max(seen, key=score)
    assert abs(best["x"] - 1.234) < 1e-2 and abs(best["T"] - 2) < 1e-2  # Nelder–Mead polishes inside the domain


def test_a_longer_instance_is_replayed_with_the_simplest_choices_appended():
    arrays = st.integers(1, 8).flatmap(lambda n: hnp.arrays(np.float64, n, elements=st.floats(-1, 1)))
    instance, start = _start(arrays, _recorded_choices(arrays, seed=3))
    seen, _ = _run(arrays, start, lambda a: len(a) + float(np.sum(a)) / 100, evaluations=60)
    longest = max(seen, key=len)
    assert len(instance) < 8 and len(longest) == 8


def test_an_equality_case_never_outranks_an_instance_that_carries_information():
    # the score is nan at the equality case x = −3 (as float_outcome gives it): a proposal there is the worst
    _, start = _start(_LIMIT, _recorded_choices(_LIMIT, seed=0))
    seen, _ = _run(_LIMIT, start, lambda i: math.nan if i["x"] == -3 else 0.5 - abs(i["x"] + 2.9), evaluations=40)
    scored = [0.5 - abs(i["x"] + 2.9) for i in seen if i["x"] != -3]
    assert max(scored) > 0.45  # it went past the edge x = −3 (nan) and found the supremum next to it


def _recorded_choices(strategy, *, seed):
    """The choices of an instance Hypothesis drew (not its first, which is the simplest: every choice at an end)."""
    from hypothesis import given, seed as hypothesis_seed, settings

    recorded = []

    @hypothesis_seed(seed)
    @settings(max_examples=5, database=None)
    @given(strategy)
    def draw(value):
        recorded.append(internals.record()[0])

    draw()
    return recorded[2]


def test_a_longer_instance_is_judged_once_its_new_entries_are_at_the_bound_too(monkeypatch):
    # appending an entry costs 0.01 while it is 0 (the simplest choice) and gains 0.99 at the bound 1: the
    # supremum is the longest array with every entry at 1, as in Lemma 1's bounds (the largest L, entries at ±a)
    arrays = st.integers(1, 8).flatmap(lambda n: hnp.arrays(np.float64, n, elements=st.floats(-1, 1)))
    _, start = _start(arrays, _recorded_choices(arrays, seed=3))

    def score(a):
        return float(np.sum(a)) - 0.01 * len(a)

    seen, _ = _run(arrays, start, score, evaluations=200)
    best = max(seen, key=score)
    assert len(best) == 8 and np.all(best == 1.0)
    monkeypatch.setattr(optimiser, "_settle", lambda run, point, *, first, limit: None)
    seen, _ = _run(arrays, start, score, evaluations=200)
    assert max(len(a) for a in seen if score(a) == max(map(score, seen))) < 8  # without settling, L = 8 loses
