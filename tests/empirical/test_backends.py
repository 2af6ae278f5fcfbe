"""The torch and numpy backends on a tiny GPT-2: every row quantity, and every quantity of ``results.json``, agree
within bounds derived from the rounding of each formula (``rounding.py``), and every count and choice is the same.

Row by row: each algorithm's row function through ``map_rows`` on both backends, compared with the per-row bounds.
``results.json``: the aggregations (token means, statistics over heads, maxima) are nondecreasing in every row
value, so when every torch row lies in ``[numpy − bound, numpy + bound]`` the aggregate lies between the numpy
pipeline run on ``numpy − bound`` and on ``numpy + bound`` (an envelope computed by the algorithms' own code, through
``Setup.with_sources``), up to the aggregation's own rounding. The counts, the KS tests' statistics and the checks'
tallies must be equal, and the test first shows that they have to be: no row or per-head mean lies within its
bound of a threshold or of another, so rounding cannot move them.
"""

import math

import numpy as np
import pytest

from empirical import algorithms, kernels
from empirical.grids import Grids
from empirical.heads.rows import RowMap, map_rows
from empirical.setup import Setup
from rounding import U, distance_bounds, gamma, root_error, separability_bounds, sensitivity_bounds
from setups import setup_of

pytestmark = pytest.mark.empirical

NS, GRID, SEPARABILITY_NS = (1, 3, 8), (1, 2, 4, 8, 16), (1, 4)
TEMPERATURES, EPSILONS = (0.05, 1.0, 5.0), (1e-3, 1.0)


@pytest.fixture(scope="module")
def setups(tiny_gpt2):
    return {backend: setup_of(tiny_gpt2, text=None, windows=2, progress=False, backend=backend, workers=2)
            for backend in ("numpy", "torch")}


def _compare(got: RowMap, expected: RowMap, bounds: RowMap, names):
    for name in names:
        a, b, bound = got.values[name], expected.values[name], bounds.values[name]
        assert np.array_equal(np.isnan(a), np.isnan(b)), name  # bitwise: NaN marks rows outside a statement, a count
        finite = ~np.isnan(b)
        excess = np.abs(a - b)[finite] - bound[finite]
        assert np.all(excess <= 0), (name, float(excess.max()))


def _both(setups, function, **keywords):
    heads = {backend: setup.heads(24) for backend, setup in setups.items()}
    return {backend: setups[backend].map_rows(heads[backend], function, **keywords) for backend in setups}, heads["numpy"]


def test_algorithms_1_and_2_rows_agree_within_their_rounding(setups):
    mapped, heads = _both(setups, algorithms._distance_rows(NS), width=1)
    bounds = map_rows(heads, lambda rows: distance_bounds(rows, NS), index=mapped["numpy"].index)
    _compare(mapped["torch"], mapped["numpy"], bounds, [f"{q}@{n}" for q in algorithms.DISTANCE_QUANTITIES for n in NS])


def test_algorithm_3_rows_agree_within_their_rounding(setups):
    mapped, heads = _both(setups, algorithms._grid_rows(GRID))

    def grid_bounds(rows):
        per_n = distance_bounds(rows, GRID)
        return {name: np.stack([per_n[f"{name}@{n}"] for n in GRID], axis=-1) for name in ("distance_sum", "estimate")}
    bounds = map_rows(heads, grid_bounds, index=mapped["numpy"].index)
    _compare(mapped["torch"], mapped["numpy"], bounds, ("distance_sum", "estimate"))


def test_algorithm_4_rows_agree_within_their_rounding_and_count_alike(setups):
    heads = setups["numpy"].heads(24)
    delta = algorithms.minimum_distances(heads)
    mapped, heads = _both(setups, algorithms._separability_rows(SEPARABILITY_NS), normalise=True)
    d = heads.layer_embeddings(0, "values").shape[-1]
    gram = 4 * gamma(d + 4)  # ‖x̂_i − x̂_j‖² = 2 − 2x̂_i·x̂_j of unit vectors, by another blocking of the same products
    assert np.all(np.abs(mapped["torch"].values["delta"][..., 0] - delta) <= root_error(delta, gram))

    def bounds_of(rows):
        out = separability_bounds(rows, SEPARABILITY_NS, delta[rows.window, rows.layer])
        gate = np.where(delta[rows.window, rows.layer] > 0, 1.0, np.nan)[:, None]  # δ = 0 heads have no bounds
        return {key: value * gate if key.split("@")[0] in ("lower", "upper_2M2", "upper_16M2") else value
                for key, value in out.items()}
    bounds = map_rows(heads, bounds_of, index=mapped["numpy"].index, normalise=True)
    for n in SEPARABILITY_NS:
        assert np.nansum(bounds.values[f"ties@{n}"]) == 0  # no selected key within rounding of its radius: same counts
    _compare(mapped["torch"], mapped["numpy"], bounds,
             [f"{q}@{n}" for q in algorithms.SEPARABILITY_QUANTITIES for n in SEPARABILITY_NS])


def test_algorithm_5_rows_agree_within_their_rounding(setups):
    function = algorithms._sensitivity_rows(TEMPERATURES, EPSILONS, seed=3)
    mapped, heads = _both(setups, function)

    def bounds_of(rows):
        normals = kernels.direction_normals(3, window=rows.window, layer=rows.layer, index=rows.index, seen=rows.seen,
                                            heads=rows.layer_heads, length=rows.logits.shape[-1])
        return sensitivity_bounds(rows, TEMPERATURES, EPSILONS, kernels.unit_directions(normals, rows.mask))
    bounds = map_rows(heads, bounds_of, index=mapped["numpy"].index)
    _compare(mapped["torch"], mapped["numpy"], bounds, ("jacobian_spectral", "jacobian_frobenius", "jacobian_row",
                                                         "jacobian_entry", "g"))


# ----------------------------------------------------------------------------------------------
# results.json: the envelope of the aggregations


OPTIONS = dict(lengths=(16, 24), ns=(1, 3, 8), separability_ns=SEPARABILITY_NS, temperatures=TEMPERATURES,
               epsilons=EPSILONS)


class Envelope:
    """A setup's rows (``Setup.with_sources``): numpy's ``map_rows`` with every row value moved by ``sign`` times its
    rounding bound; ``lengths`` are the lengths the algorithms asked ``setup`` for, in order."""

    def __init__(self, sign: float, setup: Setup, lengths: list):
        self.sign, self.setup, self.lengths = sign, setup, lengths

    def __call__(self, heads, function, **keywords):
        mapped = map_rows(heads, function, backend="numpy", workers=1, **keywords)
        bounds = map_rows(heads, self._bounds(function, mapped), backend="numpy", workers=1, **keywords)
        return RowMap(mapped.index, {key: value + self.sign * np.nan_to_num(bounds.values.get(key, 0.0))
                                     for key, value in mapped.values.items()})  # δ (Alg. 4) is exact: no bound

    def _bounds(self, function, mapped):
        keys = list(mapped.values)
        if "g" in keys:  # Algorithm 5
            def sensitivity(rows):
                normals = kernels.direction_normals(self.setup.seed, window=rows.window, layer=rows.layer,
                                                    index=rows.index, seen=rows.seen, heads=rows.layer_heads,
                                                    length=rows.logits.shape[-1])
                return sensitivity_bounds(rows, TEMPERATURES, EPSILONS, kernels.unit_directions(normals, rows.mask))
            return sensitivity
        if any(key.startswith("radius@") for key in keys):  # Algorithm 4: its δ from the same heads
            ns = sorted({int(key.split("@")[1]) for key in keys if "@" in key})
            delta = algorithms.minimum_distances(self.setup.heads(max(OPTIONS["lengths"])))
            return lambda rows: {key: value for key, value in separability_bounds(
                rows, ns, delta[rows.window, rows.layer]).items() if key in keys}
        if "@" in keys[0]:  # Algorithms 1-2
            ns = sorted({int(key.split("@")[1]) for key in keys})
            return lambda rows: {key: value for key, value in distance_bounds(rows, ns).items() if key in keys}
        length = self.lengths[-1]  # Algorithm 3: its grid at the length it asked for last
        grid = tuple(n for n in algorithms.critical_grid(length) if n < length)

        def grid_bounds(rows):  # Algorithm 3
            per_n = distance_bounds(rows, grid)
            return {name: np.stack([per_n[f"{name}@{n}"] for n in grid], axis=-1) for name in keys}
        return grid_bounds


def _run(setup):
    from empirical.runner import jsonable, run_algorithms

    return jsonable(run_algorithms(setup, Grids(**OPTIONS))[0])


def _leaves(tree, path=()):
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from _leaves(value, path + (key,))
    elif isinstance(tree, list):
        for k, value in enumerate(tree):
            yield from _leaves(value, path + (k,))
    else:
        yield path, tree


ENVELOPED = ("per_head", "stats", "g_max_over_heads", "spectral_max_over_heads", "g_per_head", "spectral_per_head",
             "distance_mean", "estimate_mean")
"""The fields computed from row values by nondecreasing aggregations (means, percentiles, maxima): bounded by the
envelope. Every other float is tested below by its own argument."""


def test_results_json_agrees_within_the_envelope_of_its_rounding(tiny_gpt2, monkeypatch):
    setups = {backend: setup_of(tiny_gpt2, text=None, windows=2, progress=False, backend=backend, workers=2)
              for backend in ("numpy", "torch")}
    expected, got = _run(setups["numpy"]), _run(setups["torch"])
    envelopes = {}
    for sign in (-1.0, 1.0):
        setup = setup_of(tiny_gpt2, text=None, windows=2, progress=False, backend="numpy", workers=1)
        lengths = []
        original = Setup.heads

        def heads(self, length, original=original, lengths=lengths):
            lengths.append(length)
            return original(self, length)
        monkeypatch.setattr(Setup, "heads", heads)
        envelopes[sign] = _run(setup.with_sources(rows=Envelope(sign, setup, lengths)))
        monkeypatch.undo()
    low, high = (dict(_leaves(envelopes[sign])) for sign in (-1.0, 1.0))
    mine = dict(_leaves(got))
    checked = 0
    for path, value in _leaves(expected):
        other = mine[path]
        if isinstance(value, float) and any(part in ENVELOPED for part in path if isinstance(part, str)):
            slack = gamma(1024) * abs(value)  # the aggregation's own rounding: sums of at most 1024 terms
            lower, upper = min(low[path], high[path]), max(low[path], high[path])
            assert lower - slack <= other <= upper + slack, (path, other, value, lower, upper)
            checked += 1
        elif not isinstance(value, float):
            assert other == value, (path, other, value)  # counts, grids, identities: the same choices
    assert checked > 500  # the envelope covered the per-head values of every algorithm


def test_the_counts_and_ks_statistics_cannot_move_by_rounding(tiny_gpt2):
    """The premise of the equality above: every KS test compares per-head means whose envelopes do not overlap
    (so their order, the statistic and its p-value are fixed), and no check's margin lies within rounding of its
    tally's threshold."""
    setup = setup_of(tiny_gpt2, text=None, windows=2, progress=False, backend="numpy", workers=1)
    result = algorithms.critical_n(setup, lengths=(24,))
    statistics = [entry["statistic"] for entry in result["points"][0]["evaluated"]]
    assert all(0 <= s <= 1 for s in statistics)
    heads = setup.heads(24)
    grid = result["points"][0]["grid"]
    mapped = map_rows(heads, algorithms._grid_rows(grid), backend="numpy")

    def grid_bounds(rows):
        per_n = distance_bounds(rows, grid)
        return {name: np.stack([per_n[f"{name}@{n}"] for n in grid], axis=-1) for name in ("distance_sum", "estimate")}
    bounds = map_rows(heads, grid_bounds, index=mapped.index, backend="numpy")
    d, e = (algorithms._token_means(mapped.values[name]) for name in ("distance_sum", "estimate"))  # [heads, G]
    bd, be = (algorithms._token_means(bounds.values[name]) for name in ("distance_sum", "estimate"))
    for k in range(len(grid)):
        ok = np.isfinite(d[:, k]) & np.isfinite(e[:, k])
        gaps = np.abs(d[ok, k][:, None] - e[ok, k][None, :])
        assert np.all(gaps > bd[ok, k][:, None] + be[ok, k][None, :] + 4 * U * (np.abs(d[ok, k][:, None]) + 1)), grid[k]
    checks = algorithms.distance_vs_length(setup, lengths=(24,), n=3)["checks"]
    for name, tally in checks.items():  # the worst margin is far from the tally's threshold (1e-7 relative)
        worst = tally["worst_relative_margin"]
        assert worst is None or not math.isclose(worst, 1e-7, rel_tol=1e-3), name
