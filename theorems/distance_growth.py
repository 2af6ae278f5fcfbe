"""The paper's growth claim (Fig. 2a/2b): does the distance grow linearly in ``L`` when ``N ≪ L``?

Two regimes on generated data, unit-norm embeddings ``x_i`` uniform on the sphere:

- ``bounded``: logits i.i.d. uniform on ``[−a, a]`` (Lemma 1's hypothesis), so ``α_i = Θ(1/L)``;
- ``sink``: the same, plus one attention-sink token whose logit is ``log L + c``, so it keeps a
  constant share ``≈ e^c/(e^c + E e^l)`` of the mass as ``L`` grows.

For each ``L`` (and each ``N``) the mean over rows of: the true ``d̃`` of the top-``N`` set, the
Theorem 1 fixed bound (normalised centre), the random-selection main sum, ``E[d̃]`` (Monte Carlo,
with its interval) and ``Σ‖α_i x_i‖`` (Corollary 2 (i)'s limit). Regenerate the figures with
``python -m theorems.distance_growth`` (writes ``docs/figures/fig2_growth_vs_length.png`` and
``docs/figures/fig2_growth_vs_n.png``).

>>> out = growth(lengths=(32, 64), n=2, rows=2, dim=4, samples=16)
>>> sorted(out)[:3], out["true"].shape
(['A', 'bound', 'expected'], (2,))
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from strategies.spherical import uniform_sphere
from theorems.distance import distance, expected_distance, fixed_bound, random_main_sum
from theorems.validation import check_positive
from theorems.figures import save_figure

REGIMES = ("bounded", "sink")
LENGTHS = (32, 64, 128, 256, 512, 1024, 2048)
TOP_N = (1, 5, 10, 20, 100)


def sample_rows(*, regime: str, length: int, rows: int, dim: int, bound: float = 2.0, sink_offset: float = 0.0,
                seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``alpha [rows, L]`` (softmax of the regime's logits) and ``x [rows, L, dim]`` on the unit sphere."""
    if regime not in REGIMES:
        raise ValueError(f"regime={regime!r} must be one of {REGIMES}")
    check_positive(bound, name="bound")
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
    grid = [(length, m) for m in top_n] if top_n is not None else [(l, n) for l in lengths]
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


def slope(xs, ys) -> float:
    """Least-squares slope of ``log y`` against ``log x`` (1 = linear growth, 0 = flat)."""
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
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
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
    parser = argparse.ArgumentParser(prog="python -m theorems.distance_growth", description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="docs/figures", help="directory for the PNG files (default: %(default)s)")
    parser.add_argument("--rows", type=int, default=32)
    parser.add_argument("--dim", type=int, default=16)
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args(argv)
    for path in figures(args.out, rows=args.rows, dim=args.dim, samples=args.samples):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
