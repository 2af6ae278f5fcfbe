"""The paper's growth claim (Fig. 2a/2b): does the distance grow linearly in ``L`` when ``N ≪ L``?

Two regimes on generated data, unit-norm embeddings ``x_i`` uniform on the sphere:

- ``bounded``: logits i.i.d. uniform on ``[−a, a]`` (Lemma 1's hypothesis), so ``α_i = Θ(1/L)``;
- ``sink``: the same, plus one attention-sink token whose logit is ``log L + c``, so it keeps a
  constant share ``≈ e^c/(e^c + E e^l)`` of the mass as ``L`` grows.

For each ``L`` (and each ``N``) the mean over rows of: the true ``d̃`` of the top-``N`` set, the
Theorem 1 fixed bound (normalised centre), the random-selection main sum, ``E[d̃]`` (Monte Carlo,
with its interval) and ``Σ‖α_i x_i‖`` (Corollary 2 (i)'s limit). Regenerate the figures with
``python -m theorems.figures.distance`` (writes ``docs/figures/fig2_growth_vs_length.png`` and
``docs/figures/fig2_growth_vs_n.png``).

>>> out = growth(lengths=(32, 64), n=2, rows=2, dim=4, samples=16)
>>> sorted(out)[:3], out["true"].shape
(['A', 'bound', 'expected'], (2,))
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from theorems.arithmetic.files import check_output_path
from theorems.arithmetic.validation import (check_array, check_choice, check_integer, check_number, check_positive, check_seed, check_work)
from theorems.figures.arguments import cli_integer
from theorems.errors import InvalidArgument, InvalidArgumentType
from theorems.figures import save_figure
from theorems.maths.distance import distance, expected_distance, fixed_bound, random_main_sum
from theorems.maths.spherical import uniform_sphere

REGIMES = ("bounded", "sink")
LENGTHS = (32, 64, 128, 256, 512, 1024, 2048)
TOP_N = (1, 5, 10, 20, 100)


def sample_rows(*, regime: str, length: int, rows: int, dim: int, bound: float = 2.0, sink_offset: float = 0.0,
                seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``alpha [rows, L]`` (softmax of the regime's logits) and ``x [rows, L, dim]`` on the unit sphere."""
    check_choice(regime, name="regime", choices=REGIMES)
    for name, value in (("length", length), ("rows", rows), ("dim", dim)):
        check_integer(value, name=name)
    check_positive(bound, name="bound")
    check_number(sink_offset, name="sink_offset")
    check_seed(seed)
    check_work(rows * length * dim, what=f"x [rows={rows}, L={length}, dim={dim}]", way_out="lower rows, L or dim")
    rng = np.random.default_rng(seed)
    logits = rng.uniform(-bound, bound, size=(rows, length))  # [rows, L]
    if regime == "sink":
        logits[:, 0] = np.log(length) + sink_offset  # the sink keeps a constant share of the mass
    alpha = np.exp(logits - logits.max(axis=-1, keepdims=True))
    alpha /= alpha.sum(axis=-1, keepdims=True)
    x = uniform_sphere(rng, length=rows * length, dim=dim).reshape(rows, length, dim)
    return alpha, x


def growth(*, regime: str = "bounded", lengths=LENGTHS, n: int | None = 5, top_n=None, length: int | None = None,
           rows: int = 32, dim: int = 16, samples: int = 200, seed: int = 0) -> dict[str, np.ndarray]:
    """Row means of the distance quantities against ``L`` (``n`` fixed) or against ``N`` (``top_n``, ``length`` fixed)."""
    grid = _grid(lengths=lengths, n=n, top_n=top_n, length=length)
    check_choice(regime, name="regime", choices=REGIMES)
    rows, dim = check_integer(rows, name="rows"), check_integer(dim, name="dim")
    samples = check_integer(samples, name="samples", min_value=2)
    check_seed(seed)
    longest = max(l for l, _ in grid)
    check_work(rows * longest * dim, what=f"x [rows={rows}, L={longest}, dim={dim}]", way_out="lower rows, L or dim")
    check_work(samples * rows * longest * dim, what=f"Monte Carlo samples={samples} x rows={rows} x L={longest} x dim={dim}",
               limit=10 ** 10, way_out="lower samples, rows, L or dim")
    keys = ("true", "bound", "main", "expected", "low", "high", "A")
    out = {k: np.zeros(len(grid)) for k in keys}
    for k, (l, m) in enumerate(grid):
        alpha, x = sample_rows(regime=regime, length=l, rows=rows, dim=dim, seed=seed + l)
        estimate = expected_distance(alpha, x, m, method="monte-carlo", samples=samples, seed=seed)
        values = {"true": distance(alpha, x, m), "bound": fixed_bound(alpha, x, m), "main": random_main_sum(alpha, x, m),
                  "expected": estimate.mean, "low": estimate.low, "high": estimate.high,
                  "A": np.sum(alpha * np.linalg.norm(x, axis=-1), axis=-1)}
        for key in keys:
            out[key][k] = np.mean(values[key])
    out["grid"] = np.array([m if top_n is not None else l for l, m in grid])
    return out


def _grid(*, lengths, n, top_n, length) -> list[tuple[int, int]]:
    """``[(L, N), ...]``: ``N`` fixed against the ``lengths``, or ``L = length`` fixed against ``top_n``."""
    def integers(values, name):
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__") or not len(values):
            raise InvalidArgumentType(f"{name}={values!r} must be a non-empty sequence of positive integers")
        return [check_integer(v, name=f"every entry of {name}") for v in values]
    if top_n is not None:
        length = check_integer(length, name="length")
        return [(length, check_integer(m, name="every entry of top_n", max_value=length)) for m in integers(top_n, "top_n")]
    n = check_integer(n, name="n")
    grid = [(l, n) for l in integers(lengths, "lengths")]
    if any(l < n for l, _ in grid):
        raise InvalidArgument(f"every entry of lengths={tuple(lengths)!r} must be >= n={n}")
    return grid


def slope(xs, ys) -> float:
    """Least-squares slope of ``log y`` against ``log x`` (1 = linear growth, 0 = flat).

    >>> round(slope([1.0, 2.0, 4.0], [3.0, 6.0, 12.0]), 6)
    1.0
    """
    xs, ys = check_array(xs, name="xs", ndim=1, min_length=2), check_array(ys, name="ys", ndim=1, min_length=2)
    if xs.shape != ys.shape:
        raise InvalidArgument(f"xs and ys must have the same length, got {len(xs)} and {len(ys)}")
    if np.any(xs <= 0) or np.any(ys < 0):
        raise InvalidArgument("xs must be > 0 and ys >= 0 (a slope on log-log axes)")
    return float(np.polyfit(np.log(xs), np.log(np.maximum(ys, 1e-300)), 1)[0])


def _panel(ax, data, title, xlabel):
    grid = data["grid"]
    ax.plot(grid, data["true"], "o-", label="true d̃ (top-N)")
    ax.plot(grid, data["bound"], "s--", label="Thm 1 fixed bound")
    ax.plot(grid, data["main"], "^-", label="Thm 1 random main sum")
    ax.plot(grid, data["expected"], "v-", label="E[d̃] (Monte Carlo)")
    ax.fill_between(grid, data["low"], data["high"], alpha=0.3)
    ax.plot(grid, data["A"], ":", color="grey", label="Σ‖α_i x_i‖ (Cor. 2 (i))")
    ax.plot(grid, data["true"][0] * grid / grid[0], color="black", lw=0.6, alpha=0.5, label="slope 1 (linear)")
    ax.set(xscale="log", yscale="log", xlabel=xlabel, ylabel="distance (row mean)", title=title)
    ax.grid(True, which="both", alpha=0.3)


def figures(directory: Path | str = "docs/figures", *, rows: int = 32, dim: int = 16, samples: int = 200) -> list[Path]:
    """Write the Fig. 2a-style (vs ``L``, ``N = 5``) and Fig. 2b-style (vs ``N``, ``L = 1024``) figures."""
    directory = check_output_path(directory, name="directory", kind="directory")
    for name, value in (("rows", rows), ("dim", dim)):
        check_integer(value, name=name)
    check_integer(samples, name="samples", min_value=2)
    check_work(samples * rows * max(LENGTHS) * dim, what=f"Monte Carlo samples={samples} x rows={rows} x "
               f"L={max(LENGTHS)} x dim={dim}", limit=10 ** 10, way_out="lower samples, rows or dim")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    paths = []
    for name, kwargs, xlabel in (("fig2_growth_vs_length.png", {"n": 5}, "context length L  (N = 5)"),
                                 ("fig2_growth_vs_n.png", {"top_n": TOP_N, "length": 1024}, "top-N  (L = 1024)")):
        fig, axes = plt.subplots(1, 2, figsize=(12, 4.6), sharey=True)
        for ax, regime in zip(axes, REGIMES):
            data = growth(regime=regime, rows=rows, dim=dim, samples=samples, **kwargs)
            sl = {k: slope(data["grid"], data[k]) for k in ("true", "expected")}
            what = "bounded logits in [−2, 2]" if regime == "bounded" else "bounded + sink logit log L"
            _panel(ax, data, f"{what}\nlog-log slope: d̃ {sl['true']:.2f}, E[d̃] {sl['expected']:.2f}", xlabel)
        axes[0].legend(fontsize=8, loc="upper left")
        fig.suptitle("Distance collapse vs " + ("context length (Fig. 2a style)" if "n" in kwargs else "N (Fig. 2b style)")
                     + f"; {rows} rows, d = {dim}, unit-norm x")
        paths.append(save_figure(fig, directory / name, dpi=110))
    return paths


def main(argv: list[str] | None = None) -> int:
    import argparse
    parser = argparse.ArgumentParser(prog="python -m theorems.figures.distance", description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="docs/figures", help="directory for the PNG files (default: %(default)s)")
    parser.add_argument("--rows", type=cli_integer(), default=32)
    parser.add_argument("--dim", type=cli_integer(), default=16)
    parser.add_argument("--samples", type=cli_integer(min_value=2), default=200)
    args = parser.parse_args(argv)
    try:  # before minutes of computation, not after them
        check_output_path(args.out, kind="directory")
        check_work(args.samples * args.rows * max(LENGTHS) * args.dim, what=f"Monte Carlo --samples {args.samples} x "
                   f"--rows {args.rows} x L={max(LENGTHS)} x --dim {args.dim}", limit=10 ** 10,
                   way_out="lower --samples, --rows or --dim")
    except ValueError as error:
        parser.error(str(error))
    for path in figures(args.out, rows=args.rows, dim=args.dim, samples=args.samples):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
