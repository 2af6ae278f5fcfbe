"""bench's compute floor: the operations counted from the shapes of the work, the rates measured, the table's column."""

import math

import pytest

from empirical import compute_floor
from empirical.algorithms import critical_grid
from empirical.grids import Grids

pytestmark = pytest.mark.empirical


def _rows(length, causal):
    return [t + 1 if causal else length for t in range(length)]  # visible keys per query row


def _distance(length, ns, d, causal):
    """Alg. 1-3 by hand: per row one softmax, one weighted sum T and x_i·T for each key, a selection per N (or a
    sort, if less), the running sum of the selected vectors up to the largest N, and at each N x_i·s_N and a root
    for each key outside I_N and a root for each key (the random main sum)."""
    ops = {"matmul": 0, "exp": 0, "element": 0}
    for k in _rows(length, causal):
        if k < min(ns):
            continue
        ops["matmul"] += 2 * k * d + 2 * k * d
        ops["exp"] += k
        selections = k * sum(1 for n in ns if k >= n)
        ops["element"] += min(selections, k * math.ceil(math.log2(max(k, 2)))) + d * min(k, max(ns))
        for n in ns:
            if k >= n:
                ops["matmul"] += 2 * (k - n) * d
                ops["element"] += (k - n) + k
    return ops


@pytest.mark.parametrize("causal", [True, False])
def test_every_algorithm_counts_what_its_rows_must_do(causal):
    grids = Grids(ns=(1, 5, 10), separability_ns=(1, 2, 4), temperatures=(0.1, 1.0, 10.0), epsilons=(1e-3, 1.0))
    heads, d, windows = 3, 4, 2
    scale = heads * windows

    def counted(number, lengths):
        return compute_floor.work(number, grids, lengths=lengths, heads=heads, d=d, causal=causal, windows=windows)

    expected = {kind: 0 for kind in compute_floor.KINDS}
    for length in (8, 16):
        for kind, value in _distance(length, (5,), d, causal).items():
            expected[kind] += value * scale
    assert counted(1, [8, 16]) == pytest.approx(expected)
    assert counted(2, [16]) == pytest.approx({k: v * scale for k, v in _distance(16, (1, 5, 10), d, causal).items()})
    assert counted(3, [16]) == pytest.approx({k: v * scale for k, v in _distance(16, critical_grid(16), d, causal).items()})
    separability = {"matmul": 16 * 16 * d, "exp": 0, "element": 0}  # δ: each head's symmetric Gram matrix
    for k in _rows(16, causal):
        separability["exp"] += k if k >= 2 else 0
        for n in (1, 2, 4):
            if k >= n + 1:
                separability["matmul"] += 2 * k * d
                separability["element"] += 2 * k + n * d
    assert counted(4, [16]) == pytest.approx({k: v * scale for k, v in separability.items()})
    keys = sum(_rows(16, causal))
    assert counted(5, [16]) == pytest.approx({"matmul": 0, "exp": 3 * 3 * keys * scale,
                                              "element": 3 * (4 + 2) * keys * scale})


def test_the_rates_are_measured_and_the_floor_is_each_count_over_its_rate():
    rates = compute_floor.rates(workers=2)
    assert rates["workers"] == 2
    assert all(math.isfinite(rates[kind]) and rates[kind] > 1e6 for kind in compute_floor.KINDS)
    counts = {"matmul": 4e9, "exp": 1e8, "element": 3e8}
    floor = compute_floor.floor(counts, rates)
    assert floor["seconds"] == pytest.approx(sum(counts[k] / rates[k] for k in compute_floor.KINDS))
    assert floor["by_kind"]["exp"] == pytest.approx(1e8 / rates["exp"])


def test_the_bench_table_adds_the_compute_floor_beside_the_memory_floor():
    from empirical.bench import PAPER_TABLE1, markdown

    memory = {"seconds": 2.0, "forward_seconds": 1.5, "bytes": 2 ** 30, "bandwidth": 2 ** 32}
    compute = {"seconds": 4.0, "by_kind": {"matmul": 1.0, "exp": 2.0, "element": 1.0}, "rates": {"workers": 2}}
    records = [{"algorithm": 1, "name": "alg1", "seconds": 40.0, "peak_gib": 1.5, "paper_seconds": PAPER_TABLE1[1],
                "floor": memory, "compute_floor": compute},
               {"algorithm": 2, "name": "alg2", "seconds": 30.0, "peak_gib": 1.5, "paper_seconds": PAPER_TABLE1[2]}]
    table = markdown(records, scale="small")
    header = table.splitlines()[0]
    assert "floor (forward + read) | ours / floor | compute floor" in header
    first = table.splitlines()[2]
    assert "| 20× |" in first  # 40 s against the memory floor's 2 s: still reported
    assert "4.00 s (1.00 + 2.00 + 1.00 s; 2 threads) | 10× | 10.0× |" in first  # the larger floor: the compute's 4 s
    assert table.splitlines()[3].endswith("| ? | ? | ? |")  # an older record without the columns
    assert all(line.count("|") == header.count("|") for line in table.splitlines()[:5])
