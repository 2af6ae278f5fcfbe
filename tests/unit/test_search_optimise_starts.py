"""The optimiser's starts: a pool of Hypothesis's best *distinct* instances, a few per discrete structure, best
first; the runs take one per structure before a second of any. An instance that cannot enter the pool is not
even recorded (its choices are not read back from Hypothesis), and an equality case (score ``nan``) never is."""

import numpy as np

from theorems.engine import optimiser
from theorems.engine.optimiser import Start, diverse, keep
from theorems.engine.search.optimise import remember

_KINDS = (("integer", {"min_value": 1, "max_value": 9}), ("float", {"min_value": 0.0, "max_value": 1.0}))


def _start(score, length, x):
    return Start(score, (length, x), _KINDS)


def test_the_largest_scores_are_kept_largest_first_and_the_pool_is_bounded(monkeypatch):
    recorded = []
    choices = iter(range(1000))
    monkeypatch.setattr(optimiser, "record", lambda: (recorded.append(1) or ((next(choices), 0.5), _KINDS)))
    starts = []
    scores = np.linspace(0.01, 0.99, 40)[np.random.default_rng(0).permutation(40)]
    for score in scores:
        remember(starts, float(score))
    assert [s.score for s in starts] == sorted(scores, reverse=True)[:optimiser.POOL]
    assert len(recorded) < len(scores)  # once full, a score below the pool's last is not even recorded


def test_a_repeated_instance_is_kept_once():
    pool = []
    for _ in range(3):
        keep(pool, _start(0.9, 2, 0.25))
    assert len(pool) == 1


def test_one_structure_keeps_at_most_a_few_instances():
    pool = []
    for k in range(10):
        keep(pool, _start(0.9 + k / 100, 2, k / 10))  # one structure (L = 2), ten distinct instances
    keep(pool, _start(0.5, 3, 0.5))
    same = [s for s in pool if s.choices[0] == 2]
    assert len(same) == optimiser.PER_STRUCTURE and min(s.score for s in same) == 0.9 + (10 - optimiser.PER_STRUCTURE) / 100
    assert any(s.choices[0] == 3 for s in pool)  # the worse structure still gets a start


def test_runs_take_one_instance_per_structure_before_a_second():
    pool = []
    for start in (_start(0.99, 2, 0.1), _start(0.98, 2, 0.2), _start(0.97, 2, 0.3), _start(0.5, 3, 0.1),
                  _start(0.4, 4, 0.1)):
        keep(pool, start)
    order = diverse(pool)
    assert [s.choices[0] for s in order[:3]] == [2, 3, 4]
    assert [s.score for s in order] == [0.99, 0.5, 0.4, 0.98, 0.97]


def test_the_structure_ignores_float_values_only():
    assert _start(0.1, 2, 0.1).structure == _start(0.9, 2, 0.7).structure
    assert _start(0.1, 2, 0.1).structure != _start(0.1, 3, 0.1).structure
