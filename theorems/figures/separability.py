"""Fig. 3 of the paper, on synthetic data: the separable fraction ``N_s/N`` as ``N`` grows, with Theorem 2's bounds.

Embeddings are i.i.d. uniform on ``S^{d−1}(M)`` (Assumption 1), as in Alg. 4 after normalisation;
``δ`` is each row's empirical minimum pairwise distance and ``r = min_{j∉I_N} ‖s − α_j x_j‖`` (the
experiments' radius), exactly as Alg. 4 does. Attention rows are softmax of Gaussian logits at
two scales: *peaked* (a few keys hold most of the mass) and *flat* (close to uniform). Everything
is vectorised over rows: one ``[S, L, d]`` draw per regime.

Regenerate the figure (and print the numbers quoted in ``docs/separability.md``)::

    python -m theorems.figures.separability                    # docs/figures/fig3_separability.png
    python -m theorems.figures.separability --rows 64 --length 1024 --out /tmp/fig3.png
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from theorems.arithmetic.files import check_output_path
from theorems.arithmetic.validation import check_integer, check_positive, check_seed, check_work
from theorems.figures.arguments import cli_integer
from theorems.errors import InvalidArgumentType
from theorems.figures import save_figure
from theorems.maths.separability import (default_radius, separability_lower_bound, separability_upper_bound,
                                         separable_count)
from theorems.maths.separability_sampling import sample_configurations
from theorems.maths.spherical import min_pairwise_distances

REGIMES = {"peaked": 4.0, "flat": 0.5}
"""Standard deviation of the Gaussian logits of each attention regime."""
PAPER_BAND = (0.70, 0.85)
"""Where the paper reports ``N_s/N`` saturating on GPT-2 (an empirical observation)."""


def measure(*, rows: int = 32, length: int = 512, dim: int = 64, radius: float = 1.0,
            sizes: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64, 128, 256), seed: int = 0) -> dict:
    """Per regime and ``N``: the mean and 10–90% band of ``N_s/N``, the mean bounds, how often the lower bound is negative."""
    for name, value in (("rows", rows), ("dim", dim)):
        check_integer(value, name=name)
    length = check_integer(length, name="length", min_value=2)
    check_positive(radius, name="radius")
    check_seed(seed)
    if isinstance(sizes, (str, bytes)) or not hasattr(sizes, "__iter__") or not len(sizes):
        raise InvalidArgumentType(f"sizes={sizes!r} must be a non-empty sequence of integers N in 1..length-1")
    for n in sizes:
        check_integer(n, name=f"every N in sizes={tuple(sizes)!r} (Alg. 4 needs a non-selected key: N < length)",
                      max_value=length - 1)
    check_work(rows * length * length, what=f"pairwise distances [rows={rows}, L={length}, L]",
               way_out="lower rows or length")
    rng = np.random.default_rng(seed)
    x, _ = sample_configurations(samples=rows, length=length, dim=dim, radius=radius, seed=seed)  # [S, L, d]
    delta = min_pairwise_distances(x)                                                            # [S]
    results = {"rows": rows, "length": length, "dim": dim, "radius": radius, "seed": seed,
               "delta_mean": float(delta.mean()), "regimes": {}}
    for name, scale in REGIMES.items():
        logits = scale * rng.standard_normal((rows, length))                                     # [S, L]
        alpha = np.exp(logits - logits.max(-1, keepdims=True))
        alpha /= alpha.sum(-1, keepdims=True)
        table = []
        for n in sizes:
            r = default_radius(alpha, x, n)                                                      # [S]
            fraction = separable_count(alpha, x, n, r) / n                                       # [S]
            lower = separability_lower_bound(alpha, n, r, M=radius, delta=delta)
            upper = {e: separability_upper_bound(alpha, n, r, M=radius, delta=delta, exponent=e)
                     for e in ("2M^2", "16M^2")}
            table.append({
                "n": n, "fraction": float(fraction.mean()), "fraction_p10": float(np.quantile(fraction, 0.1)),
                "fraction_p90": float(np.quantile(fraction, 0.9)), "lower": float(lower.mean()),
                "lower_negative": float(np.mean(lower < 0)), "upper_2M2": float(upper["2M^2"].mean()),
                "upper_16M2": float(upper["16M^2"].mean()), "radius": float(r.mean()),
                "upper_violated": float(np.mean(fraction > upper["2M^2"])),
            })
        results["regimes"][name] = table
    return results


def plot(results: dict, out: Path) -> Path:
    """Two panels (peaked, flat attention) in the style of the paper's Fig. 3."""
    if not isinstance(results, dict) or "regimes" not in results:
        raise InvalidArgumentType(f"results must be the dict that measure() returns, not {type(results).__name__}")
    out = check_output_path(out, name="out")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results["regimes"]), figsize=(11, 4.8), sharey=True)
    for ax, (name, table) in zip(np.atleast_1d(axes), results["regimes"].items()):
        n = [row["n"] for row in table]
        ax.axhspan(*PAPER_BAND, color="0.88", label="paper's GPT-2 saturation 0.70–0.85 (empirical)")
        ax.fill_between(n, [row["fraction_p10"] for row in table], [row["fraction_p90"] for row in table],
                        color="tab:blue", alpha=0.2)
        ax.plot(n, [row["fraction"] for row in table], "o-", color="tab:blue", label="measured $N_s/N$ (10–90% band)")
        ax.plot(n, [row["upper_2M2"] for row in table], "s--", color="tab:red", label="upper bound, $2M^2$ [R]")
        ax.plot(n, [row["upper_16M2"] for row in table], "^--", color="tab:orange", label="upper bound, $16M^2$ [R]")
        ax.plot(n, [max(row["lower"], -0.2) for row in table], "v:", color="tab:green",
                label="lower bound [R] (clipped at −0.2)")
        ax.set_xscale("log", base=2)
        ax.set_ylim(-0.22, 1.05)
        ax.set_xlabel("N (top-N selected tokens)")
        ax.set_title(f"{name} attention: L = {results['length']}, d = {results['dim']}, uniform on $S^{{d-1}}$")
        ax.grid(alpha=0.3)
    np.atleast_1d(axes)[0].set_ylabel("fraction of separable selected tokens")
    handles, labels = np.atleast_1d(axes)[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.suptitle("Geometric separability (Theorem 2): r = min over non-selected of ‖s − α_j x_j‖, δ = empirical min distance",
                 fontsize=9.5)
    return save_figure(fig, out, dpi=130, rect=(0, 0.12, 1, 1))  # room for the legend below the panels


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m theorems.figures.separability", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=cli_integer(), default=32, help="attention rows per regime (default: %(default)s)")
    parser.add_argument("--length", type=cli_integer(min_value=2), default=512,
                        help="context length L (default: %(default)s)")
    parser.add_argument("--dim", type=cli_integer(), default=64, help="embedding dimension d (default: %(default)s)")
    parser.add_argument("--seed", type=cli_integer(min_value=0), default=0)
    parser.add_argument("--out", type=Path, default=Path("docs/figures/fig3_separability.png"))
    parser.add_argument("--json", action="store_true", help="print the measured numbers as JSON")
    args = parser.parse_args(argv)
    try:  # before the computation, not after it
        check_output_path(args.out)
        check_work(args.rows * args.length * args.length, what=f"pairwise distances [--rows {args.rows}, "
                   f"--length {args.length}, --length {args.length}]", way_out="lower --rows or --length")
    except ValueError as error:
        parser.error(str(error))
    sizes = tuple(n for n in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512) if n < args.length)
    results = measure(rows=args.rows, length=args.length, dim=args.dim, sizes=sizes, seed=args.seed)
    print(f"wrote {plot(results, args.out)}")
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        for name, table in results["regimes"].items():
            print(name)
            for row in table:
                print(f"  N={row['n']:>4}  N_s/N={row['fraction']:.3f}  lower={row['lower']:+.3f} "
                      f"(negative {row['lower_negative']:.0%})  upper2={row['upper_2M2']:.3f}  upper16={row['upper_16M2']:.3f}  "
                      f"r={row['radius']:.3f}  N_s/N>upper2 in {row['upper_violated']:.0%} of rows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
