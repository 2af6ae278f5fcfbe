"""Each of the CPU's fused loops (``empirical.fused_kernels``) compiled by numba equals the same loop run by Python,
bit for bit, on data full of ties (small integers) and at widths the compiler vectorises (numba 0.68 once compiled
a loop that read an entry after a conditional store to it: the vectorised result differed from 40 keys on).

IEEE arithmetic in both (no ``fastmath``) and the same operations in the same order: any difference is the
compiler's. Their agreement with the torch operations they replace, within rounding, is ``test_torch_kernels.py``'s
and ``test_backends.py``'s.
"""

import numpy as np
import pytest

from empirical import fused_kernels

pytestmark = pytest.mark.empirical
numba = pytest.importorskip("numba")

HEADS, ROWS, KEYS, WIDTH = 3, 5, 67, 4  # 67 keys: several vector widths and a remainder


def _both(kernel, *arguments, outputs):
    """``kernel`` compiled and in Python on copies of ``arguments``; the arrays at ``outputs`` (positions) of each."""
    runs = []
    for function in (kernel, kernel.py_func):
        copies = [np.copy(a) if isinstance(a, np.ndarray) else a for a in arguments]
        returned = function(*copies)
        runs.append([copies[k] for k in outputs] + ([returned] if returned is not None else []))
    return runs


def _assert_same(runs):
    for compiled, python in zip(*runs):
        assert np.array_equal(compiled, python, equal_nan=True)  # bitwise: the same IEEE operations in the same order


@pytest.fixture
def rng():
    return np.random.default_rng(0)


def _order(rng, k):
    return np.stack([np.stack([rng.permutation(KEYS)[:k] for _ in range(ROWS)]) for _ in range(HEADS)])


def test_selected_sums(rng):
    alpha = rng.integers(0, 3, size=(HEADS, ROWS, KEYS)) / 4
    x = rng.integers(-2, 3, size=(HEADS, KEYS, WIDTH)).astype(float)
    for grid in (np.array([1, 2, 7, 40]), np.array([5, 3, 3, 60])):  # ascending, and not (the sum starts again)
        out = np.full((HEADS, ROWS, len(grid), WIDTH), np.nan)
        runs = _both(fused_kernels.selected_sums, alpha, _order(rng, 50), x, grid, out, outputs=[4])
        _assert_same(runs)
        assert not np.isnan(runs[0][0]).any()


def test_distance_sums(rng):
    grid = np.array([1.0, 4.0, 30.0])
    shape = (HEADS, ROWS, len(grid))
    rank = rng.integers(-1, 40, size=(HEADS, ROWS, KEYS)).astype(float)
    arguments = [rng.integers(-3, 4, size=(*shape, KEYS)).astype(float),  # x_i·s_N
                 rng.integers(0, 3, size=(HEADS, ROWS, KEYS)) / 2, rng.integers(0, 3, size=(HEADS, KEYS)).astype(float),
                 rank, rng.integers(0, 5, size=shape).astype(float), grid,
                 rng.integers(-2, 3, size=(HEADS, ROWS, KEYS)).astype(float), rng.random((ROWS, len(grid))),
                 rng.integers(0, 4, size=(HEADS, ROWS)).astype(float), np.empty(shape), np.empty(shape)]
    _assert_same(_both(fused_kernels.distance_sums, *arguments, outputs=[9, 10]))


def _state():
    state = np.zeros((4, HEADS, KEYS))
    state[0::2] = -np.inf
    return state


def test_sweep_columns(rng):
    table = rng.integers(-3, 4, size=(HEADS, 30, KEYS)).astype(float)  # ties everywhere
    runs = [[], []]
    state = [_state(), _state()]
    for first, last in ((0, 0), (1, 9), (10, 29)):
        for k, function in enumerate((fused_kernels.sweep_columns, fused_kernels.sweep_columns.py_func)):
            function(table, state[k], first, last, first)
            runs[k].append(state[k].copy())
    _assert_same(runs)


def test_sweep_and_read(rng):
    table = rng.integers(-3, 4, size=(HEADS, 30, KEYS)).astype(float)
    columns = np.array([0, 3, 3, 12, 29])
    keys = np.minimum(rng.integers(0, KEYS, size=(len(columns), HEADS, 6)), columns[:, None, None])
    out = np.full((4, HEADS, len(columns), 6), np.nan)
    runs = _both(fused_kernels.sweep_and_read, table, _state(), 0, 0, columns, np.arange(len(columns))[::-1].copy(),
                 keys, out, outputs=[1, 7])
    _assert_same(runs)
    assert runs[0][-1] == 30 and not np.isnan(runs[0][1]).any()  # every column absorbed, every entry read


def test_farthest_candidates_and_largest_pairs(rng):
    k, grid = 12, np.array([1.0, 3.0, 12.0])
    rank = rng.integers(-1, 20, size=(HEADS, ROWS, KEYS)).astype(float)
    best = rng.integers(-3, 4, size=(HEADS, ROWS, k)).astype(float)
    runner = np.where(rng.random(best.shape) < 0.2, -np.inf, best - rng.integers(0, 2, size=best.shape))
    own = rng.integers(0, 3, size=(HEADS, ROWS, k)).astype(float)
    shape = (HEADS, ROWS, len(grid), k)
    runs = _both(fused_kernels.farthest_candidates, rank, rng.integers(0, KEYS, size=best.shape),
                 rng.integers(0, KEYS, size=best.shape), best, runner, own, grid, np.array([1, 2, 12, 40, 67]),
                 np.empty(shape), np.empty(shape, dtype=np.int8), outputs=[8, 9])
    _assert_same(runs)
    far, status = runs[0]
    assert {0, fused_kernels.CLEAN, fused_kernels.REDO} <= set(np.unique(status))  # every case met
    _assert_same(_both(fused_kernels.largest_pairs, far, own, np.empty(shape[:3]), outputs=[2]))


def test_secular_roots(rng):
    weights = rng.dirichlet(np.ones(KEYS) * 0.3, size=8)
    weights[3] = np.round(weights[3], 2)  # ties
    weights[4, 2:] = 0.0  # two keys: the root on Gershgorin's bound
    weights[4, :2] = (0.75, 0.25)
    ordered = -np.sort(-weights, axis=-1)
    scale = np.maximum(ordered[:, 1] * (1 - ordered[:, 1]), ordered[:, 0] * (1 - ordered[:, 0]))
    a1, a2 = ordered[:, 0] / scale, ordered[:, 1] / scale
    low, high = np.maximum(a2, 1.0), np.minimum(a1, 2.0)
    for steps in (64, 2):  # to the root, and stopped on the way
        runs = _both(fused_kernels.secular_roots, weights, np.arange(8), scale, (low + high) / 2, low, high, a1, a2,
                     steps, 4 * 2.0 ** -52, np.full(8, np.nan), outputs=[10])
        _assert_same(runs)
        assert np.all((runs[0][0] >= low) & (runs[0][0] <= high))


def test_weight_moments(rng):
    weights = rng.dirichlet(np.ones(KEYS) * 0.3, size=6)
    weights[1] = np.round(weights[1], 1)  # ties, the largest among them
    weights[2] = 0.0
    weights[2, 5] = 1.0  # one key: no other weight
    runs = _both(fused_kernels.weight_moments, weights, *(np.full(6, np.nan) for _ in range(5)),
                 outputs=[1, 2, 3, 4, 5])
    _assert_same(runs)
    top, r_top, second, q, cubes = runs[0]
    assert top[2] == 1.0 and r_top[2] == second[2] == q[2] == cubes[2] == 0.0
    assert np.allclose((top + r_top)[[0, 2, 3, 4, 5]], 1.0) and np.all(second <= top)  # row 1 rounded: not 1
