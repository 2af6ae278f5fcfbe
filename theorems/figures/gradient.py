"""Fig. 4 in the paper's style: the finite-difference sensitivity ``g(T, ε)`` of Algorithm 5, the exact
``‖J‖₂``, the paper's ``min{1/(4T), √2}`` and the proven suprema, on synthetic heads.

Regenerate: ``python -m theorems.figures.gradient --out docs/figures``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from theorems.arithmetic.files import check_output_path
from theorems.arithmetic.validation import check_seed
from theorems.figures.arguments import cli_integer
from theorems.figures import save_figure
from theorems.maths.gradient_sensitivity import (Sensitivity, _check_result, algorithm5, causal_mask, fig4_claims, paper_curve,
                                                 sup_finite_difference, sup_spectral, synthetic_logits)


def plot_fig4(result: Sensitivity, path, *, title: str = "") -> Path:
    """Fig. 4 in the paper's style: ``g(T, ε)`` per ``ε``, the exact ``‖J‖₂``, the paper's and the
    corrected curves, on log–log axes. Returns the written PNG path."""
    _check_result(result)
    path = check_output_path(path, name="path")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    g, spectral = result.curves()
    t = result.temperatures
    fine = np.logspace(np.log10(t.min()), np.log10(t.max()), 400)
    figure, axis = plt.subplots(figsize=(7, 4.8))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, eps in enumerate(result.epsilons):
        axis.loglog(t, g[:, k], "o-", ms=3, color=colours[k], label=f"g(T, ε={eps:g}) (Alg. 5, max over heads)")
        axis.loglog(fine, sup_finite_difference(fine, eps), ":", color=colours[k], lw=1,
                    label=f"sup g = (√2/ε)·tanh(ε/(2√2T)), ε={eps:g}")
    axis.loglog(t, spectral, "s-", ms=3, color="black", label="exact ‖J‖₂ (token mean, max over heads)")
    axis.loglog(fine, paper_curve(fine), "--", color="grey", lw=2, label="paper: min{1/(4T), √2}")
    axis.loglog(fine, sup_spectral(fine), "-", color="red", lw=1.5, label="corrected: sup ‖J‖₂ = 1/(2T)")
    axis.set_xlabel("temperature T")
    axis.set_ylabel("sensitivity")
    axis.set_ylim(max(1e-6, 0.3 * float(np.min(g[g > 0]))), None)
    axis.set_title(title or "Gradient sensitivity (Fig. 4 style)")
    axis.legend(fontsize=6.5, loc="lower left")
    axis.grid(True, which="both", alpha=0.3)
    return save_figure(figure, path, dpi=140)


def make_figures(out, *, seed: int = 0) -> dict[str, dict]:
    """Write ``fig4_synthetic.png`` (Gaussian logits, scale 2) and ``fig4_ties.png`` (logits with a
    tied top pair, the worst case) under ``out``; return the Fig. 4 claim checks for each."""
    out = check_output_path(out, name="out", kind="directory")
    check_seed(seed)
    temperatures = np.logspace(-3, 3, 31)
    logits = synthetic_logits(heads=12, queries=64, length=64, scale=2.0, seed=seed)  # [H, Q, L]
    ties = logits.copy()
    ties[..., 1] = ties[..., 0] = ties.max(axis=-1) + 1.0  # a tied top pair in every row
    checks = {}
    for name, array, label in (("fig4_synthetic", logits, "Gaussian logits, σ=2"),
                               ("fig4_ties", ties, "tied top pair")):
        result = algorithm5(array, temperatures=temperatures, seed=seed, mask=causal_mask(64, 64))
        plot_fig4(result, Path(out) / f"{name}.png", title=f"Alg. 5, synthetic {label} (12 heads, causal L=64)")
        checks[name] = fig4_claims(result)
    return checks


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m theorems.figures.gradient",
                                     description="Regenerate the Fig. 4-style figures of docs/gradient.md")
    parser.add_argument("--out", default="docs/figures", help="directory for the PNG files")
    parser.add_argument("--seed", type=cli_integer(min_value=0), default=0)
    arguments = parser.parse_args(argv)
    try:  # before the minute of computation, not after it
        check_output_path(arguments.out, kind="directory")
    except ValueError as error:
        parser.error(str(error))
    for name, claims in make_figures(arguments.out, seed=arguments.seed).items():
        print(name, claims)


if __name__ == "__main__":
    main()
