"""The paper's empirical claims, each with what it measures, its figure, and a stated reproduction criterion.

Each claim is measured on the heads of a reading (:func:`empirical.readings.derive.derive`) by the
package's own algorithms (:mod:`empirical.algorithms`, :mod:`empirical.kernels`), without the
per-statement checks of ``reproduce``; a claim's figure is the median over heads of the per-head token
means, except Fig. 4 (the maximum over heads, as the paper plots it). :func:`verdict` applies the
criterion to the measured figure.

>>> CLAIMS["fig2c"].criterion
'critical N (first N of the grid that does not reject) within a factor 2 of 0.06·L at every L'
"""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
from scipy.stats import ks_2samp

from empirical.readings.grid import Reading


@dataclasses.dataclass(frozen=True)
class Claim:
    name: str
    algorithm: int
    figure: str
    paper: str
    criterion: str


CLAIMS = {claim.name: claim for claim in (
    Claim("fig2a", 1, "Fig. 2a", "d̃ and E[d̃] grow roughly linearly in L (N = 5, N ≪ L)",
          "log-log slopes against L of the head medians of d̃ and of the estimate both within 0.2 of 1"),
    Claim("fig2b", 2, "Fig. 2b", "the distance falls as N grows (L = 1024)",
          "log-log slope of the head median of d̃ against N below 0"),
    Claim("fig2c", 3, "Fig. 2c", "critical N ≈ 0.06·L",
          "critical N (first N of the grid that does not reject) within a factor 2 of 0.06·L at every L"),
    Claim("fig3", 4, "Fig. 3", "N_s/N falls until N ≈ 16, then saturates at 0.70-0.85",
          "head median of N_s/N inside [0.70, 0.85] at every N ≥ 16 of the grid"),
    Claim("fig4-slope", 5, "Fig. 4", "g(T, ε) follows 1/T below T = 0.1",
          "slope of log g (max over heads) against log T for T < 0.1 within 0.2 of -1 for every ε"),
    Claim("fig4-coincide", 5, "Fig. 4", "the three ε curves coincide for T ≥ 1",
          "largest max_ε g / min_ε g over T ≥ 1 at most 1.05"),
)}


def head_median(per_head) -> float:
    values = np.asarray(per_head, dtype=float)
    values = values[np.isfinite(values)]
    return float(np.median(values)) if values.size else float("nan")


def token_means(values: np.ndarray) -> np.ndarray:
    """``[B, layer, head, R, ...]`` -> ``[layer·head, ...]``: the mean over windows and query rows."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a head with no usable row: NaN, on purpose
        means = np.nanmean(values, axis=(0, 3))
    return means.reshape(-1, *means.shape[2:])


def loglog_slope(xs, ys) -> float:
    """Least-squares slope of ``log y`` against ``log x`` over the finite positive pairs (NaN below two)."""
    xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    ok = np.isfinite(xs) & np.isfinite(ys) & (xs > 0) & (ys > 0)
    return float(np.polyfit(np.log(xs[ok]), np.log(ys[ok]), 1)[0]) if ok.sum() > 1 else float("nan")


# ----------------------------------------------------------------------------------------------
# Alg. 3's KS test under the readings ks=, sided=, level=


def ks_p_values(distance: np.ndarray, estimate: np.ndarray, reading: Reading) -> list[float]:
    """p-value per ``N`` of the grid: ``distance``, ``estimate`` ``[B, layer, head, R, G]`` from ``distance_grid``."""
    pooled = reading.get("ks") == "pooled"
    alternative = "two-sided" if reading.get("sided") == "two" else "less"  # less: d̃'s CDF below, d̃ larger
    d_all = distance.reshape(-1, distance.shape[-1]) if pooled else token_means(distance)
    e_all = estimate.reshape(-1, estimate.shape[-1]) if pooled else token_means(estimate)
    out = []
    for k in range(d_all.shape[-1]):
        d, e = d_all[:, k], e_all[:, k]
        ok = np.isfinite(d) & np.isfinite(e)
        out.append(float(ks_2samp(d[ok], e[ok], alternative=alternative).pvalue) if ok.sum() > 1 else float("nan"))
    return out


def critical_point(length: int, grid, p_values, reading: Reading) -> dict:
    """The first ``N`` of ``grid`` whose test does not reject at the reading's level (None: every N rejects)."""
    level = float(reading.get("level"))
    critical = next((n for n, p in zip(grid, p_values) if np.isfinite(p) and p >= level), None)
    return {"length": length, "grid": list(grid), "p_values": p_values, "level": level, "critical_n": critical,
            "ratio": None if critical is None else critical / length, "paper": 0.06 * length}


# ----------------------------------------------------------------------------------------------
# verdicts


def _fig2a(parts: list[dict], reading: Reading) -> tuple[dict, bool]:
    key = f"distance_{reading.get('distance')}"
    lengths = [p["length"] for p in parts]
    slope_d = loglog_slope(lengths, [p["median"][key] for p in parts])
    slope_e = loglog_slope(lengths, [p["median"]["estimate"] for p in parts])
    measured = {"lengths": lengths, "distance_slope": slope_d, "estimate_slope": slope_e,
                "text": f"d̃ slope {slope_d:.2f}, estimate slope {slope_e:.2f}"}
    return measured, abs(slope_d - 1) <= 0.2 and abs(slope_e - 1) <= 0.2


def _fig2b(parts: list[dict], reading: Reading) -> tuple[dict, bool]:
    key = f"distance_{reading.get('distance')}"
    ns = [p["n"] for p in parts]
    medians = [p["median"][key] for p in parts]
    slope = loglog_slope(ns, medians)
    measured = {"ns": ns, "distance": medians, "slope": slope,
                "text": f"d̃ {medians[0]:.3g} → {medians[-1]:.3g} (N = {ns[0]} → {ns[-1]}), slope {slope:.2f}"}
    return measured, bool(slope < 0)


def _fig2c(parts: list[dict], reading: Reading) -> tuple[dict, bool]:
    described = [f"{p['length']}: {'none' if p['critical_n'] is None else p['critical_n']}" for p in parts]
    within = [p["critical_n"] is not None and 0.5 * p["paper"] <= p["critical_n"] <= 2 * p["paper"] for p in parts]
    measured = {"points": parts, "text": "critical N at L = " + ", ".join(described)}
    return measured, bool(parts) and all(within)


def _fig3(parts: list[dict], reading: Reading) -> tuple[dict, bool]:
    late = [p for p in parts if p["n"] >= 16]
    values = [p["median"] for p in late]
    finite = [v for v in values if np.isfinite(v)]
    text = (f"N_s/N {min(finite):.2f}-{max(finite):.2f} for N ≥ 16" if finite else "no N ≥ 16 evaluated")
    measured = {"ns": [p["n"] for p in parts], "fraction": [p["median"] for p in parts], "text": text}
    return measured, bool(finite) and len(finite) == len(values) and all(0.70 <= v <= 0.85 for v in finite)


def _fig4_slope(parts: list[dict], reading: Reading) -> tuple[dict, bool]:
    slopes = parts[0]["claims"]["slope_below_0.1"]
    measured = {"slopes": slopes, "text": "slope " + ", ".join(f"{v:.2f}" for v in slopes.values())
                + " (ε = " + ", ".join(f"{e:g}" for e in slopes) + ")"}
    return measured, all(np.isfinite(v) and abs(v + 1) <= 0.2 for v in slopes.values())


def _fig4_coincide(parts: list[dict], reading: Reading) -> tuple[dict, bool]:
    spread = parts[0]["claims"]["spread_above_1"]
    measured = {"spread_above_1": spread, "text": f"largest ratio {spread:.3f} for T ≥ 1"}
    return measured, bool(np.isfinite(spread) and spread <= 1.05)


VERDICTS = {"fig2a": _fig2a, "fig2b": _fig2b, "fig2c": _fig2c, "fig3": _fig3, "fig4-slope": _fig4_slope,
            "fig4-coincide": _fig4_coincide}


def verdict(claim: str, parts: list[dict], reading: Reading) -> dict:
    """The measured figure and whether it meets the claim's criterion: ``{measured, reproduced}``."""
    measured, reproduced = VERDICTS[claim](parts, reading)
    return {"measured": measured, "reproduced": reproduced}
