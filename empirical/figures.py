"""The five figures of a reproduction, in the style of the paper's Figs. 2a, 2b, 2c, 3 and 4.

Each function reads the JSON-ready result of one algorithm (:mod:`empirical.algorithms`) and writes
one PNG (matplotlib, Agg backend). Lines are medians over heads of the per-head token means, bands
the inter-quartile range over heads. Fig. 4 reuses :func:`theorems.figures.gradient.plot_fig4`.

Regenerate from a finished run: ``python -m empirical figures --results DIR/results.json --out DIR``.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

from theorems.figures.gradient import plot_fig4
from theorems.maths.gradient_sensitivity import Sensitivity

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from theorems.figures import save_figure  # noqa: E402

SERIES = (
    ("distance_sum", "true d̃ (sum reading)", "C0", "-"),
    ("distance_norm", "true d̃ (norm reading)", "C0", ":"),
    ("bound_normalised", "Theorem 1 bound, ‖x̄‖ = ‖s‖/ᾱ_N", "C3", "-"),
    ("bound_max-norm", "Theorem 1 bound, max_j ‖x_j‖", "C3", "--"),
    ("estimate", "random-selection estimate (main sum)", "C2", "-"),
)


def _save(figure, path) -> Path:
    return save_figure(figure, path, dpi=130)


def _distance_axes(axis, points: list[dict], key: str) -> None:
    xs = np.array([point[key] for point in points], dtype=float)
    for name, label, colour, style in SERIES:
        stats = [point["stats"].get(name) for point in points]
        if any(s is None or s["median"] is None for s in stats):
            continue
        median = np.array([s["median"] for s in stats])
        axis.plot(xs, median, style, color=colour, marker="o", ms=3, label=label)
        axis.fill_between(xs, [s["q25"] for s in stats], [s["q75"] for s in stats], color=colour, alpha=0.12)
    axis.set_yscale("log")
    axis.grid(True, which="both", alpha=0.3)
    axis.set_ylabel("distance (median over heads of token means)")


def _distance_figure(result: dict, path, *, key: str, xscale: dict, xlabel: str, title: str) -> Path:
    figure, axis = plt.subplots(figsize=(6.4, 4.4))
    _distance_axes(axis, result["points"], key)
    axis.set_xscale(**xscale)
    axis.set_xlabel(xlabel)
    axis.set_title(title, fontsize=9)
    axis.legend(fontsize=7)
    return _save(figure, path)


def fig2a(result: dict, path, *, model: str = "") -> Path:
    """Distance against context length ``L`` at fixed ``N`` (Algorithm 1)."""
    return _distance_figure(result, path, key="length", xscale={"value": "log", "base": 2}, xlabel="context length L",
                            title=f"Fig. 2a style: distance vs L, N = {result['n']}  {model}")


def fig2b(result: dict, path, *, model: str = "") -> Path:
    """Distance against ``N`` at fixed ``L`` (Algorithm 2)."""
    return _distance_figure(result, path, key="n", xscale={"value": "log"}, xlabel="number of selected tokens N",
                            title=f"Fig. 2b style: distance vs N, L = {result['length']}  {model}")


def fig2c(result: dict, path, *, model: str = "") -> Path:
    """Critical ``N`` against ``L`` at both levels, beside the paper's ``0.06·L`` (Algorithm 3)."""
    figure, axis = plt.subplots(figsize=(6.4, 4.4))
    lengths = np.array([point["length"] for point in result["points"]], dtype=float)
    for level, marker in zip(result["levels"], ("o", "s")):
        values = [point["critical_n"].get(str(level)) for point in result["points"]]
        axis.plot(lengths, [np.nan if v is None else v for v in values], marker=marker, label=f"critical N, KS level {level}")
    # an L at which every N of the scanned grid rejects: the critical N lies above the grid's largest N
    above = [(point["length"], point["grid"][-1]) for point in result["points"] if point.get("grid")
             and all(point["critical_n"].get(str(level)) is None for level in result["levels"])]
    if above:
        axis.plot(*zip(*above), "^", color="tab:red", linestyle="none",
                  label="every N of the grid rejects: critical N above this")
    axis.plot(lengths, 0.06 * lengths, "--", color="grey", label="paper: 0.06·L")
    axis.plot(lengths, lengths, ":", color="black", lw=1, label="N = L")
    axis.set_xscale("log", base=2)
    axis.set_yscale("log")
    axis.set_xlabel("context length L")
    axis.set_ylabel("critical N")
    axis.grid(True, which="both", alpha=0.3)
    axis.set_title(f"Fig. 2c style: critical top-N vs L  {model}", fontsize=9)
    axis.legend(fontsize=7)
    return _save(figure, path)


def fig3(result: dict, path, *, model: str = "") -> Path:
    """``N_s/N`` against ``N`` with both Theorem 2 bounds and the paper's 0.70-0.85 band (Algorithm 4)."""
    points = result["points"]
    ns = np.array([point["n"] for point in points], dtype=float)
    figure, axis = plt.subplots(figsize=(6.4, 4.4))
    axis.axhspan(0.70, 0.85, color="gold", alpha=0.25, label="paper: saturates at 0.70-0.85")
    for name, label, colour, style in (("fraction", "N_s/N (measured)", "C0", "-"),
                                       ("lower", "Theorem 2 lower bound [R]", "C3", "--"),
                                       ("upper_2M2", "Theorem 2 upper bound, 2M² [R]", "C2", "--"),
                                       ("upper_16M2", "Theorem 2 upper bound, 16M² [R]", "C2", ":")):
        stats = [point["stats"][name] for point in points]
        axis.plot(ns, [s["median"] for s in stats], style, color=colour, marker="o", ms=3, label=label)
        axis.fill_between(ns, [s["q25"] for s in stats], [s["q75"] for s in stats], color=colour, alpha=0.12)
    axis.set_xscale("log", base=2)
    axis.set_ylim(-0.05, 1.05)
    axis.set_xlabel("number of selected tokens N")
    axis.set_ylabel("fraction (median over heads of token means)")
    axis.grid(True, which="both", alpha=0.3)
    axis.set_title(f"Fig. 3 style: separability, L = {result['length']}, unit sphere  {model}", fontsize=9)
    axis.legend(fontsize=7, loc="lower left")
    return _save(figure, path)


def fig4(result: dict, path, *, model: str = "") -> Path:
    """``g(T, ε)`` and the exact ``‖J‖₂`` against ``T`` (Algorithm 5), drawn by the theory module."""
    sensitivity = Sensitivity(np.asarray(result["temperatures"]), np.asarray(result["epsilons"]),
                              np.asarray(result["g_per_head"]), np.asarray(result["spectral_per_head"]))
    return plot_fig4(sensitivity, path, title=f"Fig. 4 style: gradient sensitivity, L = {result['length']}  {model}")


FIGURES = {"fig2a": ("distance_vs_length", fig2a), "fig2b": ("distance_vs_n", fig2b),
           "fig2c": ("critical_n", fig2c), "fig3": ("separability", fig3), "fig4": ("sensitivity", fig4)}
"""Figure name -> (key of results.json, drawing function)."""


def draw_all(results: dict, out, *, prefix: str = "") -> dict[str, str]:
    """Every figure whose algorithm is in ``results``; returns name -> written path."""
    model = f"({results.get('model', {}).get('name', '')})"
    written = {}
    for name, (key, draw) in FIGURES.items():
        if key in results:
            written[name] = str(draw(results[key], Path(out) / f"{prefix}{name}.png", model=model))
    return written
