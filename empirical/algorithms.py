"""The paper's Algorithms 1-5 on real heads, vectorised over heads and tokens.

Every quantity comes from the theory modules (``theorems.maths.distance``, ``theorems.maths.separability``,
``theorems.maths.gradient_sensitivity``); this file only feeds them the heads of a model, in memory-bounded blocks
(:mod:`empirical.heads.rows`), and aggregates as the paper does: a mean over query tokens per head
(and over windows), then statistics over the heads.

- Alg. 1 :func:`distance_vs_length`: ``N = 5``, ``L`` on a grid: true ``d̃`` (both readings), the
  Theorem 1 fixed bound (both centres), the random-selection main sum.
- Alg. 2 :func:`distance_vs_n`: the same at one ``L``, ``N`` on a grid.
- Alg. 3 :func:`critical_n`: the first ``N`` where a two-sample Kolmogorov-Smirnov test on the
  per-head token means of ``d̃`` and of the estimate no longer rejects, at levels 0.01 and 0.05.
- Alg. 4 :func:`separability`: embeddings on the unit sphere, ``δ`` the head's minimum pairwise
  distance, ``r`` the experiments' radius; ``N_s/N`` and both Theorem 2 bounds.
- Alg. 5 :func:`sensitivity`: ``g(T, ε)`` and the exact Jacobian norms on a temperature grid.

Each returns a JSON-ready dict with the figure's data and, for the statements that apply to a
single instance, the per-token checks (:mod:`empirical.checks`).

>>> setup = Setup.from_spec(RunSpec.from_options(model="minilm", text=WAR_AND_PEACE))   # doctest: +SKIP
>>> distance_vs_n(setup, length=128, ns=(1, 5))["points"][0]["n"]  # doctest: +SKIP
1
"""

from __future__ import annotations

import threading
import warnings

import numpy as np
import torch
from scipy.stats import ks_2samp
from tqdm.auto import tqdm

from empirical import kernels, torch_kernels
from empirical.checks import Check, merge, outside_assumption2, tally
from empirical.corollary3 import sensitivity_checks, sensitivity_confirmer, statement_bounds
from empirical.grids import EPSILONS, PAPER_LENGTHS, PAPER_NS, SEPARABILITY_NS, TEMPERATURES
from empirical.heads.extraction import Heads
from empirical.heads.rows import Rows, valid_rows
from empirical.heads.tensor_rows import on_unit_sphere
from empirical.kernels import separability_block, sensitivity_block
from empirical.setup import Setup
from theorems.errors import InvalidArgument
from theorems.maths.gradient_sensitivity import Sensitivity, fig4_claims

LEVELS = (0.01, 0.05)

THEOREM1_CHECKS = tuple(
    Check(f"theorem1.fixed.{reading}.{center}", f"distance_{reading}", f"bound_{center}",
          note="Theorem 1 part 1 [R], one instance per head and query token")
    for reading in ("sum", "norm") for center in ("normalised", "max-norm"))
"""Theorem 1's fixed-``I_N`` bound, each reading of ``d̃`` against each reading of ``‖x̄‖``."""


def _head_stats(per_head: np.ndarray) -> dict:
    """Mean, median and quartiles over heads of per-head values (NaN heads ignored)."""
    values = per_head[np.isfinite(per_head)]
    if not values.size:
        return {"mean": None, "median": None, "q25": None, "q75": None}
    q25, median, q75 = np.percentile(values, [25, 50, 75])
    return {"mean": float(values.mean()), "median": float(median), "q25": float(q25), "q75": float(q75)}


def _token_means(values: np.ndarray) -> np.ndarray:
    """``[B, layer, head, R, ...]`` -> ``[layer·head, ...]``: the mean over windows and tokens per head."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a head with no usable token: NaN, on purpose
        means = np.nanmean(values, axis=(0, 3))  # [layer, head, ...]
    return means.reshape(-1, *means.shape[2:])


# ----------------------------------------------------------------------------------------------
# Algorithms 1 and 2: distance, bound and estimate


DISTANCE_QUANTITIES = ("distance_sum", "distance_norm", "bound_normalised", "bound_max-norm", "estimate")


GRID_QUANTITIES = ("distance_sum", "distance_norm", "estimate")
"""The quantities :func:`empirical.kernels.distance_grid` gives at every ``N`` from one sort per (head, query)."""


class _LayerTable:
    """The farthest-pair table of the current (window, layer), built once and shared by the blocks of that layer.

    One of ``map_rows``' threads builds a layer's table while the others wait for it (numpy); on the torch backend
    each group of heads has its own (its thread sweeps it in block order). A copy sent to another process (a cluster
    worker's task) starts empty: a lock cannot be pickled, and the table is rebuilt there from the worker's own rows.
    """

    def __init__(self) -> None:
        self._tables: dict = {}
        self._lock = threading.Lock()

    def __call__(self, rows: Rows):
        key, group = (rows.window, rows.layer), (rows.heads.start, rows.heads.stop)  # one table per group of heads
        with self._lock:
            if self._tables.get(group, (None,))[0] != key:
                self._tables[group] = (key, self.build(rows))
            return self._tables[group][1]

    def build(self, rows: Rows):
        return (torch_kernels.FarthestPrefix(rows.keys) if torch.is_tensor(rows.x)
                else kernels.farthest_table(rows.x))  # running top-2 / [H, L, L] x 5

    def __getstate__(self) -> dict:
        return {}

    def __setstate__(self, state: dict) -> None:
        self.__init__()


def _distance_rows(ns, quantities=DISTANCE_QUANTITIES):
    """The row function of Algorithms 1-2: each of ``quantities`` at each ``N`` of ``ns``, keyed ``name@N``.

    ``d̃`` (both readings) and the estimate come from one sort per (head, query) for every ``N``; the bounds
    from the per-head ``d_1`` table of the layer, built once and shared by its blocks and every ``N``. A row
    with fewer than ``N`` visible keys is NaN at that ``N``.
    """
    ns = tuple(ns)
    grid_quantities = [name for name in quantities if name in GRID_QUANTITIES]
    centers = [name.removeprefix("bound_") for name in quantities if name.startswith("bound_")]
    table = _LayerTable()

    def function(rows: Rows) -> dict[str, np.ndarray]:
        # alpha [H, C, L], x [H, 1, L, d] (one set of embeddings per head, shared by its queries), mask [C, L]
        if torch.is_tensor(rows.alpha):
            return _distance_tensors(rows, ns, quantities, table)
        out = {}
        if grid_quantities:
            grid = kernels.distance_grid(rows.alpha, rows.x, ns, mask=rows.mask, norm="distance_norm" in quantities)
            out |= {f"{name}@{n}": grid[name][..., k] for name in grid_quantities for k, n in enumerate(ns)}
        layer_table = table(rows) if centers else None
        for n in ns if centers else ():
            keep = np.flatnonzero(rows.counts >= n)  # [C'] rows that see at least N keys
            alpha = rows.alpha if keep.size == rows.counts.size else np.ascontiguousarray(rows.alpha[:, keep])
            bounds = (kernels.fixed_bounds(alpha, rows.x, n, centers=centers, mask=rows.mask[keep], table=layer_table)
                      if keep.size else {})
            for center in centers:
                full = np.full(rows.alpha.shape[:2], np.nan)  # [H, C]
                if keep.size:
                    full[:, keep] = bounds[center]
                out[f"bound_{center}@{n}"] = full
        return {f"{name}@{n}": out[f"{name}@{n}"] for n in ns for name in quantities}  # the order of results.json
    return function


def _distance_tensors(rows: Rows, ns, quantities, table: _LayerTable) -> dict:
    """:func:`_distance_rows`' function on the torch backend: every ``N`` at once, one selection order shared by the
    grid and the bounds (``[H, C]`` tensors keyed ``name@N``, NaN where a row sees fewer than ``N`` keys)."""
    selection = torch_kernels.select(rows.alpha, rows.keys, ns, mask=rows.mask)
    grid_quantities = [name for name in quantities if name in GRID_QUANTITIES]
    centers = [name.removeprefix("bound_") for name in quantities if name.startswith("bound_")]
    out = {}
    if grid_quantities:
        grid = torch_kernels.distance_grid(rows.alpha, rows.keys, ns, mask=rows.mask, norm="distance_norm" in quantities,
                                           selection=selection)
        out |= {f"{name}@{n}": grid[name][..., k] for name in grid_quantities for k, n in enumerate(ns)}
    if centers:
        bounds = torch_kernels.fixed_bounds(rows.alpha, rows.keys, ns, centers=centers, mask=rows.mask, prefix=table(rows),
                                            selection=selection)
        out |= {f"bound_{center}@{n}": bounds[center][..., k] for center in centers for k, n in enumerate(ns)}
    return {f"{name}@{n}": out[f"{name}@{n}"] for n in ns for name in quantities}  # the order of results.json


CONFIRM_ENTRIES = 1 << 18
"""Theorem 1 violations are re-checked in mpmath when ``L·N·d`` is at most this (about 10 s)."""


def _confirmer(heads: Heads, embeddings: str, n: int):
    """Re-check a violation of a Theorem 1 statement in mpmath, on the statement's own sides.

    The instance is the head's row restricted to its visible keys, in the family's own form
    ``{w, x, n}`` (``α = w/Σw``); only reported violations are re-checked, never every token.
    """
    # the catalogue and the search engine (python-flint, mpmath) load when a violation is re-checked, not on import
    from theorems import STATEMENTS
    from theorems.engine.search import confirm_in_high_precision

    def confirm(statement_id: str, example: dict) -> bool | None:
        if statement_id not in STATEMENTS.keys():
            return None
        w, layer, head, token = example["window"], example["layer"], example["head"], example["token"]
        keys = heads.visible[w, token].cpu().numpy()
        if keys.sum() * n * heads.embedding_width(embeddings) > CONFIRM_ENTRIES:
            return None  # d_1 takes (L - N)·N·d mpmath differences
        weights = torch.softmax(heads.layer_logits(layer)[w, head, token].double().cpu(), dim=-1)  # as in the blocks
        instance = {"w": weights.numpy()[keys],
                    "x": heads.layer_embeddings(layer, embeddings)[w, head].double().cpu().numpy()[keys], "n": n}
        return confirm_in_high_precision(STATEMENTS[statement_id], instance) is not None
    return confirm


def distance_point(setup: Setup, *, length: int, n: int, tokens: int | None = None, checks: bool = True,
                   description: str = "", quantities=DISTANCE_QUANTITIES) -> dict:
    """Per-head token means of ``d̃``, the bounds and the estimate at one ``(L, N)``, plus the checks."""
    heads = setup.heads(length)
    index = valid_rows(heads, min_keys=n, tokens=tokens)
    blocking = setup.blocking(width=1, grid=1)  # numpy: the kernels' largest per-block arrays are [H, C, L], [H, C, d]
    with setup.bar(setup.count_blocks(heads, index, **blocking), description or f"distance L={length} N={n}") as bar:
        mapped = setup.map_rows(heads, _distance_rows((n,), quantities), index=index, progress=bar, **blocking)
    mapped.values.update({key.removesuffix(f"@{n}"): mapped.values.pop(key) for key in list(mapped.values)})
    per_head = {key: _token_means(value) for key, value in mapped.values.items()}  # each [layer·head]
    point = {"length": length, "n": n, "tokens": int(len(index)), "windows": setup.windows,
             "per_head": {key: value.tolist() for key, value in per_head.items()},
             "stats": {key: _head_stats(value) for key, value in per_head.items()}}
    if checks:
        context = {"length": length, "n": n}
        confirm = _confirmer(heads, setup.embeddings, n)
        counts = heads.visible.sum(-1).min(0).values.cpu().numpy()[index]  # [R] visible keys per row (causal edge rows)
        point["checks"] = [tally(check, mapped.values, mapped.index, context=context, confirm=confirm, counts=counts)
                           for check in THEOREM1_CHECKS]
    return point


def _collect_checks(points: list[dict]) -> dict:
    return merge([one for point in points for one in point.pop("checks", [])])


def distance_vs_length(setup: Setup, *, lengths=PAPER_LENGTHS, n: int = 5, tokens: int | None = None) -> dict:
    """Algorithm 1: ``d̃``, the Theorem 1 bound and the random estimate against ``L`` at fixed ``N``.

    ``tokens`` (default: all) keeps that many evenly spaced query tokens per head.
    """
    points = [distance_point(setup, length=length, n=n, tokens=tokens, description=f"Alg. 1 L={length}")
              for length in tqdm(setup.lengths(lengths), desc="Alg. 1 (distance vs L)", disable=not setup.progress)]
    return {"algorithm": 1, "n": n, "tokens_per_head": tokens, "points": points, "checks": _collect_checks(points)}


def distance_points(setup: Setup, *, length: int, ns, description: str = "") -> list[dict]:
    """:func:`distance_point` at every ``N`` of ``ns`` (every token) in one pass over the blocks.

    Each block of rows is read once for all ``N``, and the per-head ``d_1`` table of a layer serves
    every ``N``; at each ``N`` only the rows with at least ``N`` visible keys count, exactly as in
    :func:`distance_point`, whose points (values, checks) this returns.
    """
    heads = setup.heads(length)
    index = valid_rows(heads, min_keys=min(ns))
    counts = heads.visible.sum(-1).min(0).values.cpu().numpy()[index]  # [R] fewest visible keys over windows
    function = _distance_rows(ns)  # every N from one sort per (head, query) and one d_1 table per layer
    blocking = setup.blocking(width=1, grid=len(ns))
    with setup.bar(setup.count_blocks(heads, index, **blocking), description or f"distance L={length}") as bar:
        mapped = setup.map_rows(heads, function, index=index, progress=bar, **blocking)
    points = []
    for n in ns:
        rows_n = np.flatnonzero(counts >= n)
        values = {key.split("@")[0]: value[:, :, :, rows_n] for key, value in mapped.values.items()
                  if key.endswith(f"@{n}")}  # each [B, layer, head, R_n]
        per_head = {key: _token_means(value) for key, value in values.items()}
        point = {"length": length, "n": n, "tokens": int(len(rows_n)), "windows": setup.windows,
                 "per_head": {key: value.tolist() for key, value in per_head.items()},
                 "stats": {key: _head_stats(value) for key, value in per_head.items()}}
        confirm = _confirmer(heads, setup.embeddings, n)
        point["checks"] = [tally(check, values, index[rows_n], context={"length": length, "n": n}, confirm=confirm,
                                 counts=counts[rows_n])
                           for check in THEOREM1_CHECKS]
        points.append(point)
    return points


def distance_vs_n(setup: Setup, *, length: int = 1024, ns=PAPER_NS, tokens: int | None = None) -> dict:
    """Algorithm 2: the same at fixed ``L`` against ``N`` (the values of ``ns`` that fit ``L``).

    With every token (``tokens=None``) all ``N`` share one pass over the heads (:func:`distance_points`).
    """
    length = min(length, setup.loaded.max_length)
    kept = [n for n in ns if n < length]
    if tokens is None and kept:
        points = distance_points(setup, length=length, ns=kept, description=f"Alg. 2 (L={length})")
    else:
        points = [distance_point(setup, length=length, n=n, tokens=tokens, description=f"Alg. 2 N={n}")
                  for n in tqdm(kept, desc=f"Alg. 2 (distance vs N, L={length})", disable=not setup.progress)]
    return {"algorithm": 2, "length": length, "tokens_per_head": tokens, "points": points,
            "checks": _collect_checks(points)}


# ----------------------------------------------------------------------------------------------
# Algorithm 3: the critical N


CRITICAL_STEPS_PER_OCTAVE = 2
"""Algorithm 3's grid of ``N``: every distinct ``round(2^(k/2))``, ``k = 0, 1, ...``, below ``L`` (half octaves)."""


def critical_grid(length: int, *, steps_per_octave: int = CRITICAL_STEPS_PER_OCTAVE) -> tuple[int, ...]:
    """The candidate ``N`` of Algorithm 3 at ``length``: 1, 2, 3, 4, 6, 8, 11, 16, 23, 32, ... below ``L``.

    >>> critical_grid(32)
    (1, 2, 3, 4, 6, 8, 11, 16, 23)
    >>> len(critical_grid(1024)), critical_grid(1024)[-1]
    (19, 724)
    """
    if isinstance(length, bool) or not isinstance(length, int) or length < 2:
        raise InvalidArgument(f"length={length!r} must be an integer >= 2")
    top = int(np.ceil(np.log2(length) * steps_per_octave))
    values = np.unique(np.round(2.0 ** (np.arange(top + 1) / steps_per_octave)).astype(int))
    return tuple(int(v) for v in values if v < length)


def _grid_rows(grid):
    """The row function of Algorithm 3: ``d̃`` and the estimate at every ``N`` of ``grid`` (``[H, C, G]`` each)."""
    def function(rows: Rows) -> dict:
        if torch.is_tensor(rows.alpha):
            return torch_kernels.distance_grid(rows.alpha, rows.keys, grid, mask=rows.mask)
        return kernels.distance_grid(rows.alpha, rows.x, grid, mask=rows.mask)
    return function


def ks_scan(ns, p_values, level: float) -> dict:
    """The first ``N`` of the grid that does not reject, the first after which none rejects, and the exceptions."""
    rejects = [p < level for p in p_values]
    first = next((n for n, r in zip(ns, rejects) if not r), None)
    last_rejection = max((k for k, r in enumerate(rejects) if r), default=-1)
    stable = ns[last_rejection + 1] if last_rejection + 1 < len(ns) else None
    late = [n for n, r in zip(ns, rejects) if r and first is not None and n > first]  # rejections after `first`
    return {"first": first, "stable": stable, "rejections_after_first": late, "monotone": first == stable}


def critical_n(setup: Setup, *, lengths=PAPER_LENGTHS, levels=LEVELS, tokens: int | None = None, ns=None) -> dict:
    """Algorithm 3: per ``L``, the KS test of per-head means of ``d̃`` and the estimate at every ``N`` of a grid.

    The per-head token means of ``d̃`` (sum reading) and of the random main sum are compared with
    ``scipy.stats.ks_2samp`` at every ``N`` of ``ns`` (default :func:`critical_grid`: half octaves
    below ``L``); the test rejects at ``level`` when ``p < level``. No monotonicity is assumed: the
    whole grid is scanned (one sort per head and query serves every ``N``), ``critical_n`` is the
    first ``N`` that does not reject, ``stable_n`` the first after which no ``N`` of the grid rejects,
    and ``non_monotone`` lists, per level, the ``N`` that reject after ``critical_n`` and the grid
    steps where the p-value falls. A row with fewer than ``N`` visible keys is left out at that
    ``N``. ``tokens`` query rows per head, evenly spaced (``None``: every token).
    """


    results = []
    for length in tqdm(setup.lengths(lengths), desc="Alg. 3 (critical N)", disable=not setup.progress):
        grid = tuple(n for n in (ns or critical_grid(length)) if n < length)
        heads = setup.heads(length)
        index = valid_rows(heads, min_keys=1, tokens=tokens)
        blocking = setup.blocking(grid=len(grid))  # numpy: blocks of ~40 rows at L = 1024, each N's passes in cache
        with setup.bar(setup.count_blocks(heads, index, **blocking), f"Alg. 3 L={length}") as bar:
            mapped = setup.map_rows(heads, _grid_rows(grid), index=index, progress=bar, **blocking)
        d_all = _token_means(mapped.values["distance_sum"])  # [G, K]
        e_all = _token_means(mapped.values["estimate"])  # [G, K]
        evaluated = []
        for k, n in enumerate(grid):
            d, e = d_all[:, k], e_all[:, k]
            ok = np.isfinite(d) & np.isfinite(e)
            test = ks_2samp(d[ok], e[ok])
            evaluated.append({"n": n, "statistic": float(test.statistic), "p_value": float(test.pvalue),
                              "distance_mean": float(d[ok].mean()), "estimate_mean": float(e[ok].mean()),
                              "tokens": int(np.isfinite(mapped.values["distance_sum"][..., k]).any(axis=(0, 1, 2)).sum())})
        p_values = [entry["p_value"] for entry in evaluated]
        scans = {str(level): ks_scan(grid, p_values, level) for level in levels}
        critical = {level: scan["first"] for level, scan in scans.items()}
        falls = [grid[k] for k in range(1, len(grid)) if p_values[k] < p_values[k - 1]]
        results.append({"length": length, "grid": list(grid), "critical_n": critical,
                        "stable_n": {level: scan["stable"] for level, scan in scans.items()},
                        "ratio": {k: (v / length if v else None) for k, v in critical.items()},
                        "non_monotone": {"p_value_falls_at": falls,
                                         **{level: {"rejections_after_critical": scan["rejections_after_first"],
                                                    "monotone": scan["monotone"]} for level, scan in scans.items()}},
                        "evaluated": evaluated})
    return {"algorithm": 3, "levels": list(levels), "tokens_per_head": tokens, "search": "scan", "points": results}


# ----------------------------------------------------------------------------------------------
# Algorithm 4: separability


def minimum_distances(heads: Heads, *, embeddings: str = "values") -> np.ndarray:
    """``δ [B, layer, head]``: the least pairwise distance between a head's unit-normalised embeddings."""
    batch, layers, n_heads, _ = heads.sizes
    out = np.empty((batch, layers, n_heads))
    for layer in range(layers):  # one Gram matrix [H, L, L] per (layer, window): one layer's tables at a time
        x = on_unit_sphere(heads.layer_embeddings(layer, embeddings).to(torch.float64))  # [B, H, L, d]
        for window in range(batch):
            out[window, layer] = least_distances(x[window]).cpu().numpy()
    return out


def least_distances(x: torch.Tensor) -> torch.Tensor:
    """``δ [H]``: the least pairwise distance of each head's unit embeddings ``x [H, L, d]`` (one Gram matrix per head;
    the same operations whichever heads or blocks hold them)."""
    squared = (2 - 2 * (x @ x.transpose(-1, -2))).clamp_min(0)  # ‖x̂_i − x̂_j‖² on the unit sphere
    squared.diagonal(dim1=-2, dim2=-1).fill_(float("inf"))
    return squared.flatten(-2).min(-1).values.sqrt()


class _LayerDelta(_LayerTable):
    """``δ`` of the current (window, layer) and group of heads, from the block's own unit embeddings: computed in the
    pass over the rows, so no pass needs every layer's embeddings beside it (a streamed model or a cluster's worker
    holds one block of layers)."""

    def build(self, rows: Rows):
        x = rows.x[:, 0] if torch.is_tensor(rows.x) else torch.from_numpy(rows.x[:, 0])
        return least_distances(x).cpu().numpy()  # [H] the block's group of heads


def _separability_rows(ns):
    """The row function of Algorithm 4: its quantities at each ``N`` of ``ns``, keyed ``name@N``, and ``delta`` (each
    row's head's ``δ``, for the aggregation); a row with fewer than ``N + 1`` visible keys is NaN at that ``N``."""
    delta = _LayerDelta()

    def function(rows: Rows) -> dict[str, np.ndarray]:
        # alpha [H, C, L], x [H, 1, L, d] (unit norm), mask [C, L]; delta per head [H, 1]
        d = delta(rows)[:, None]  # [H, 1] the block's group of heads
        outside = np.where(d > 0, 1.0, np.nan)  # δ = 0 (repeated embeddings): outside Assumption 2, no bound
        if torch.is_tensor(rows.alpha):
            out = _separability_tensors(rows, ns, d, outside)
            return out | {"delta": torch.from_numpy(d).to(rows.alpha.device).expand(-1, rows.alpha.shape[1])}
        out = {}
        for n in ns:
            keep = np.flatnonzero(rows.counts >= n + 1)  # [C'] rows with a key outside the top N
            every = keep.size == rows.counts.size
            alpha, mask = (rows.alpha, rows.mask) if every else (np.ascontiguousarray(rows.alpha[:, keep]), rows.mask[keep])
            quantities = (separability_block(alpha, rows.x, n, delta=np.where(d > 0, d, 1.0), mask=mask)
                          if keep.size else {key: np.empty((d.shape[0], 0)) for key in SEPARABILITY_QUANTITIES})
            for key, value in quantities.items():
                full = np.full(rows.alpha.shape[:2], np.nan)  # [H, C]
                full[:, keep] = value * outside if key in ("lower", "upper_2M2", "upper_16M2") else value
                out[f"{key}@{n}"] = full
        return out | {"delta": np.broadcast_to(d, rows.alpha.shape[:2])}
    return function


SEPARABILITY_QUANTITIES = ("radius", "fraction", "lower", "upper_2M2", "upper_16M2")
"""What :func:`empirical.kernels.separability_block` gives per row."""


def _separability_tensors(rows: Rows, ns, d: np.ndarray, outside: np.ndarray) -> dict:
    """:func:`_separability_rows`' function on the torch backend: every ``N`` of the grid at once."""
    device = rows.alpha.device
    quantities = torch_kernels.separability_block(rows.alpha, rows.keys, ns, mask=rows.mask,
                                                  delta=torch.from_numpy(np.where(d > 0, d, 1.0)).to(device))
    gate = torch.from_numpy(outside).to(device)  # [H, 1]
    return {f"{key}@{n}": quantities[key][..., k] * gate if key in ("lower", "upper_2M2", "upper_16M2")
            else quantities[key][..., k] for k, n in enumerate(ns) for key in SEPARABILITY_QUANTITIES}


def _separability_values(setup: Setup, heads, ns, tokens: int | None):
    """``(δ [B, layer, head], [(N, rows, values [B, layer, head, R_N])])``: with every token (``tokens=None``) one pass
    over the blocks serves every ``N`` (the blocks' float64 softmax and unit embeddings are built once); a subsample
    of ``tokens`` rows depends on ``N``, so then one pass per ``N``. ``δ`` comes from the (first) pass."""
    if tokens is None or not ns:
        index = valid_rows(heads, min_keys=min(ns, default=0) + 1)
        counts = heads.visible.sum(-1).min(0).values.cpu().numpy()[index]  # [R] fewest visible keys over windows
        blocking = setup.blocking(grid=max(len(ns), 1))
        with setup.bar(setup.count_blocks(heads, index, **blocking), "Alg. 4 (separability, every N)") as bar:
            mapped = setup.map_rows(heads, _separability_rows(ns), index=index, normalise=True, progress=bar,
                                    **blocking)
        points = []
        for n in ns:
            rows_n = np.flatnonzero(counts >= n + 1)
            points.append((n, index[rows_n], {key: mapped.values[f"{key}@{n}"][..., rows_n]
                                              for key in SEPARABILITY_QUANTITIES}))
        return mapped.values["delta"][..., 0], points
    points, delta = [], None
    for n in tqdm(ns, desc="Alg. 4 (separability)", disable=not setup.progress):
        index = valid_rows(heads, min_keys=n + 1, tokens=tokens)
        blocking = setup.blocking(grid=1)
        with setup.bar(setup.count_blocks(heads, index, **blocking), f"Alg. 4 N={n}") as bar:
            mapped = setup.map_rows(heads, _separability_rows((n,)), index=index, normalise=True, progress=bar,
                                    **blocking)
        delta = mapped.values["delta"][..., 0] if delta is None else delta
        points.append((n, index, {key: mapped.values[f"{key}@{n}"] for key in SEPARABILITY_QUANTITIES}))
    return delta, points


def separability(setup: Setup, *, length: int = 1024, ns=SEPARABILITY_NS, tokens: int | None = None) -> dict:
    """Algorithm 4: ``N_s/N`` per head and token against ``N``, with both Theorem 2 bounds.

    Embeddings on the unit sphere (``M = 1``); ``δ`` per head and window is the least pairwise
    distance of its ``L`` embeddings (computed in the pass over the rows, from each block's embeddings);
    ``r = min_{j∉I_N} ‖s − α_j x_j‖`` per token. Rows whose ``r``
    is not positive and finite (every valid key selected) are left out. Theorem 2 bounds an
    expectation over random embeddings: on one real head the bounds are a reference, not a claim,
    so the share of tokens inside ``[lower, upper]`` is reported, not counted as violations.
    """
    length = min(length, setup.loaded.max_length)
    heads = setup.heads(length)
    delta, passes = _separability_values(setup, heads, [n for n in ns if n < length], tokens)  # δ [B, layer, H]
    points = []
    for n, index, values in passes:
        per_head = {key: _token_means(value) for key, value in values.items()}
        present = np.isfinite(values["fraction"]) & np.isfinite(values["lower"])  # δ > 0 heads only
        inside = present & (values["fraction"] >= values["lower"]) & (values["fraction"] <= values["upper_2M2"])
        points.append({"n": n, "tokens": int(len(index)),
                       "per_head": {key: value.tolist() for key, value in per_head.items()},
                       "stats": {key: _head_stats(value) for key, value in per_head.items()},
                       "share_within_bounds": float(inside.sum() / max(present.sum(), 1)),
                       "share_above_upper_2M2": float((present & (values["fraction"] > values["upper_2M2"])).sum()
                                                      / max(present.sum(), 1))})
    return {"algorithm": 4, "length": length, "M": 1.0, "tokens_per_head": tokens,
            "delta": {"min": float(delta.min()), "median": float(np.median(delta)), "max": float(delta.max())},
            "outside_hypotheses": outside_assumption2(delta),
            "points": points}


# ----------------------------------------------------------------------------------------------
# Algorithm 5: gradient sensitivity


def _sensitivity_rows(temperatures, epsilons, seed: int):
    t = np.asarray(temperatures, dtype=float)
    e = np.asarray(epsilons, dtype=float)

    def function(rows: Rows) -> dict[str, np.ndarray]:
        # v: one random direction per (window, layer, head, token), whatever the blocks (kernels.direction_normals)
        normals = kernels.direction_normals(seed, window=rows.window, layer=rows.layer, index=rows.index, seen=rows.seen,
                                            heads=rows.layer_heads, keep=rows.heads, length=rows.logits.shape[-1])
        # jacobian_* [H, C, n_T] and g [H, C, n_T, n_ε]: softmax_jacobian_norms and finite_difference_sensitivity
        # to float64 rounding (tests/empirical/test_sensitivity_kernel.py), one base softmax per T
        if torch.is_tensor(rows.logits):
            return torch_kernels.sensitivity_block(rows.logits, t, e, v=torch_kernels.directions(normals, rows.mask),
                                                   mask=rows.mask)
        return sensitivity_block(rows.logits, t, e, v=kernels.unit_directions(normals, rows.mask), mask=rows.mask)
    return function


def sensitivity(setup: Setup, *, length: int = 1024, temperatures=TEMPERATURES, epsilons=EPSILONS,
                tokens: int | None = None) -> dict:
    """Algorithm 5: ``g(T, ε)`` (token mean per head, maximum over heads) and the exact ``‖J‖``.

    The logits are the model's own (scaled, masked); ``T`` divides them once more, so ``T = 1`` is
    the model's attention. Every token and ``T`` is checked against Corollary 3's readings.
    """
    length = min(length, setup.loaded.max_length)
    heads = setup.heads(length)
    index = valid_rows(heads, min_keys=1, tokens=tokens)
    blocking = setup.blocking(width=len(temperatures), grid=len(temperatures))
    with setup.bar(setup.count_blocks(heads, index, **blocking), f"Alg. 5 L={length}") as bar:
        mapped = setup.map_rows(heads, _sensitivity_rows(temperatures, epsilons, setup.seed), index=index,
                                progress=bar, **blocking)
    values = mapped.values
    g = _token_means(values["g"])  # [G, n_T, n_ε]
    spectral = _token_means(values["jacobian_spectral"])  # [G, n_T]
    result = Sensitivity(np.asarray(temperatures, dtype=float), np.asarray(epsilons, dtype=float), g, spectral)
    curves_g, curves_spectral = result.curves()
    labels = {"T": list(temperatures), "epsilon": list(epsilons)}
    tallies = []
    confirm = sensitivity_confirmer(heads)
    for check in sensitivity_checks():
        bound = statement_bounds(check, temperatures, epsilons)
        if bound is None:
            continue  # not in the catalogue
        values[check.rhs] = bound  # broadcasts against [B, layer, head, R, n_T(, n_ε)]
        tallies.append(tally(check, values, mapped.index, labels=labels, context={"length": length}, confirm=confirm))
    checks = merge(tallies)
    return {"algorithm": 5, "length": length, "tokens": int(len(index)), "temperatures": list(temperatures),
            "epsilons": list(epsilons), "g_max_over_heads": curves_g.tolist(),
            "spectral_max_over_heads": curves_spectral.tolist(), "g_per_head": g.tolist(),
            "spectral_per_head": spectral.tolist(), "claims": fig4_claims(result), "checks": checks}
