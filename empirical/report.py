"""``report.md``: each measured number beside the paper's claim, and the per-statement violations.

>>> text = render(json.load(open("out/results.json")))      # doctest: +SKIP
"""

from __future__ import annotations

import numpy as np

PAPER = {
    "critical_ratio": 0.06,
    "separability_band": (0.70, 0.85),
    "separability_knee": 16,
    "slope_below_0.1": -1.0,
}


def _fmt(value, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and not np.isfinite(value)):
        return "n/a"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    return f"{value:.{digits}g}"


def _slope(xs, ys) -> float | None:
    xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    ok = np.isfinite(ys) & (ys > 0)
    return float(np.polyfit(np.log(xs[ok]), np.log(ys[ok]), 1)[0]) if ok.sum() > 1 else None


def _distance_section(result: dict, key: str, label: str) -> list[str]:
    points = result["points"]
    lines = [f"| {label} | tokens | d̃ sum | d̃ norm | bound ‖x̄‖ | bound max‖x_j‖ | estimate |", "|---|---|---|---|---|---|---|"]
    for point in points:
        stats = point["stats"]
        lines.append(f"| {point[key]} | {point['tokens']} | " + " | ".join(
            _fmt(stats[name]["median"]) for name in ("distance_sum", "distance_norm", "bound_normalised",
                                                      "bound_max-norm", "estimate")) + " |")
    return lines


def render(results: dict) -> str:
    """The Markdown report of a reproduction run: the header, then one section per algorithm run, the checks of
    the bounds on real heads and the run times (each section only when its results are there)."""
    out = _header(results)
    for key, section in _SECTIONS:
        if key in results:
            out += section(results[key])
    out += _checks_section(results.get("checks", {}))
    out += _timings_section(results.get("timings", {}))
    return "\n".join(out)


HEADER = {"model": ("name", "model_type", "layers", "heads", "d_head", "causal", "parameters"),
          "text": ("description",), "settings": ("embeddings", "windows"), "versions": ()}
"""What the report's header reads from ``results.json``: each object and its fields."""


def missing_fields(results) -> list[str]:
    """The fields of :data:`HEADER` that ``results`` lacks (``"model.name"``, ``"text"``...): ``[]`` when none."""
    missing = []
    for key, fields in HEADER.items():
        value = results.get(key) if isinstance(results, dict) else None
        if not isinstance(value, dict):
            missing.append(key)
        else:
            missing += [f"{key}.{field}" for field in fields if field not in value]
    return missing


def _header(results: dict) -> list[str]:
    model = results["model"]
    return [f"# Reproduction report: {model['name']}", "",
            f"Model: `{model['name']}` ({model['model_type']}, {model['layers']} layers × {model['heads']} heads = "
            f"{model['layers'] * model['heads']} heads, d_head = {model['d_head']}, "
            f"{'causal' if model['causal'] else 'bidirectional'}, {model['parameters']:,} parameters). "
            f"Text: {results['text']['description']}. Embeddings x_i: the heads' **{results['settings']['embeddings']}**. "
            f"Windows per length: {results['settings']['windows']}. Versions: "
            + ", ".join(f"{k} {v}" for k, v in results["versions"].items()) + ".", "",
            "Every number is a median over heads of the per-head mean over query tokens (and windows), as in the "
            "paper's figures; `results.json` holds every head's value.", ""]


def _distance_vs_length_section(r: dict) -> list[str]:
    lengths = [p["length"] for p in r["points"]]
    slope_d = _slope(lengths, [p["stats"]["distance_sum"]["median"] for p in r["points"]])
    slope_e = _slope(lengths, [p["stats"]["estimate"]["median"] for p in r["points"]])
    return [f"## Algorithm 1: distance vs L (N = {r['n']}), Fig. 2a", "",
            f"Paper: for N ≪ L both d̃ and its random-selection estimate grow roughly linearly in L "
            f"(log-log slope 1). Measured log-log slopes of the medians: d̃ (sum) **{_fmt(slope_d)}**, "
            f"estimate **{_fmt(slope_e)}**.", "", *_distance_section(r, "length", "L"), ""]


def _distance_vs_n_section(r: dict) -> list[str]:
    return [f"## Algorithm 2: distance vs N (L = {r['length']}), Fig. 2b", "",
            "Paper: the true distance falls as N grows and the Theorem 1 bound stays above it.", "",
            *_distance_section(r, "n", "N"), ""]


def _critical_n_section(r: dict) -> list[str]:
    out = ["## Algorithm 3: critical N (two-sample KS on the per-head means), Fig. 2c", "",
           f"Paper: critical N ≈ {PAPER['critical_ratio']}·L. Search: "
           + ("every N of the grid (half octaves below L); critical N is the first that does not reject; "
              "where a larger N of the grid rejects again, results.json lists it under non_monotone, "
              if r.get("search") == "scan" else "galloping then bisection over N, ")
           + f"{_fmt(r['tokens_per_head'])} query tokens per head.", "",
           "| L | " + " | ".join(f"critical N (level {lv}) | N/L" for lv in r["levels"]) + " | paper 0.06·L |",
           "|---|" + "---|---|" * len(r["levels"]) + "---|"]
    for point in r["points"]:
        cells = []
        for level in r["levels"]:
            value = point["critical_n"].get(str(level))
            cells += [_fmt(value), _fmt(value / point["length"] if value else None)]
        out.append(f"| {point['length']} | " + " | ".join(cells) + f" | {_fmt(0.06 * point['length'])} |")
    return out + [""]


def _separability_section(r: dict) -> list[str]:
    points = r["points"]
    fractions = [p["stats"]["fraction"]["median"] for p in points]
    tail = [f for p, f in zip(points, fractions) if p["n"] >= PAPER["separability_knee"] and f is not None]
    low, high = PAPER["separability_band"]
    verdict = ("inside" if tail and all(low <= f <= high for f in tail) else "not inside")
    out = [f"## Algorithm 4: separability N_s/N (L = {r['length']}, unit sphere, δ median {_fmt(r['delta']['median'])}), Fig. 3", "",
           f"Paper: N_s/N falls until N ≈ {PAPER['separability_knee']} and saturates at {low:.2f}–{high:.2f} "
           f"(an empirical claim, not a consequence of Theorem 2). Measured for N ≥ {PAPER['separability_knee']}: "
           f"{', '.join(_fmt(f) for f in tail) or 'n/a'} — **{verdict}** the band.", "",
           "Theorem 2 bounds an expectation over random embeddings (Assumptions 1–2), so on one real head it "
           "is a reference, not a claim: the table gives the share of tokens whose N_s/N lies between the "
           "lower and the 2M² upper bound.", "",
           "| N | tokens | N_s/N | lower [R] | upper 2M² [R] | upper 16M² [R] | share within bounds |",
           "|---|---|---|---|---|---|---|"]
    for p in points:
        s = p["stats"]
        out.append(f"| {p['n']} | {p['tokens']} | {_fmt(s['fraction']['median'])} | {_fmt(s['lower']['median'])} | "
                   f"{_fmt(s['upper_2M2']['median'])} | {_fmt(s['upper_16M2']['median'])} | {_fmt(p['share_within_bounds'])} |")
    outside = r.get("outside_hypotheses")
    if outside and outside["count"]:
        layers = sorted({h["layer"] for h in outside["heads"]})
        out += ["", f"**Outside Theorem 2's hypotheses: {outside['count']} of {outside['of']} heads** "
                    f"(layers {', '.join(map(str, layers))}): {outside['reason']}."]
    return out + [""]


def _sensitivity_section(r: dict) -> list[str]:
    claims = r["claims"]
    slopes = ", ".join(f"ε = {e}: **{_fmt(v)}**" for e, v in claims["slope_below_0.1"].items())
    return [f"## Algorithm 5: gradient sensitivity g(T, ε) (L = {r['length']}), Fig. 4", "",
            f"Paper: g follows 1/T below T = 0.1 (log-log slope −1) and the three ε curves coincide for T ≥ 1; "
            f"dashed curve min{{1/(4T), √2}}. Measured slopes of the maximum over heads below T = 0.1: {slopes}. "
            f"Largest ratio between the ε curves for T ≥ 1: **{_fmt(claims['spread_above_1'])}** (1 = coincide).", ""]


_SECTIONS = (("distance_vs_length", _distance_vs_length_section), ("distance_vs_n", _distance_vs_n_section),
             ("critical_n", _critical_n_section), ("separability", _separability_section),
             ("sensitivity", _sensitivity_section))
"""The algorithms' sections in report order, each with the key of its results."""


def _checks_section(checks: dict) -> list[str]:
    if not checks:
        return []
    out = ["## The bounds on real heads: violations per statement", "",
           "One instance per head, query token (and temperature): a violation is a margin beyond float64 "
           "rounding (relative 1e-7); a near miss is a positive margin within it. The worst violation and the "
           "worst near miss are re-checked in mpmath (50 digits) on the statement's own sides when the row "
           "is short enough. `expected` is the suite's own verdict from the catalogue (`refuted` = the suite has "
           "a counterexample, so violations on real heads are possible and not a surprise).", "",
           "Rows outside a statement's hypotheses are counted apart (last column) and never in its violations: "
           "for Theorem 1's fixed-I_N statements, the causal rows that see at most N keys (nothing lies "
           "outside I_N; the sum reading is then 0 ≤ 0, the norm reading ‖s‖ ≤ 0).", "",
           "| statement | expected | evaluated | violations | float near misses (mpmath) | worst violation (window, layer, head, token) | outside hypotheses (violations there) |",
           "|---|---|---|---|---|---|---|"]
    out += [_check_row(statement, c) for statement, c in sorted(checks.items())]
    surprises = [s for s, c in checks.items() if c["expected"] == "holds" and c["violations"]]
    return out + ["", ("**Every statement expected to hold has zero violations.**" if not surprises else
                       "**Violations of statements expected to hold: " + ", ".join(f"`{s}`" for s in surprises) +
                       "** — see results.json for every example."), ""]


def _check_row(statement: str, c: dict) -> str:
    apart = "; ".join(f"{part['entries']:,} ({part['violations']:,})"
                      for part in c.get("outside_hypotheses", {}).values()) or "—"
    return (f"| `{statement}` | {c['expected'] or 'not in catalogue'} | {c['evaluated']:,} | {c['violations']:,} | "
            f"{_near_misses(c)} | {_worst_violation(c)} | {apart} |")


def _worst_violation(c: dict) -> str:
    first = c["examples"][0] if c["examples"] else None
    if not first:
        return "—"
    extra = ", ".join(f"{k} = {_fmt(first[k])}" for k in ("length", "n", "T", "epsilon") if k in first)
    confirmed = first.get("confirmed_mpmath")
    return (f"w{first['window']} layer {first['layer']} head {first['head']} token {first['token']} "
            f"({extra}; lhs {_fmt(first['lhs'], 6)} vs rhs {_fmt(first['rhs'], 6)}"
            + ("" if confirmed is None else f"; mpmath: {'confirmed' if confirmed else 'not confirmed'}")
            + ")")


def _near_misses(c: dict) -> str:
    near = c.get("near_misses", 0)
    near_text = str(near)
    if near and c.get("worst_near_miss"):
        verdict = c["worst_near_miss"].get("confirmed_mpmath")
        near_text += {True: " (worst: confirmed!)", False: " (worst: rounding, not confirmed)",
                      None: " (worst: row too long for mpmath)"}[verdict]
    return near_text


def _timings_section(timings: dict) -> list[str]:
    if not timings:
        return []
    return (["## Run time", "", "| algorithm | seconds |", "|---|---|"]
            + [f"| {name} | {seconds:.1f} |" for name, seconds in timings.items()] + [""])
