"""``python -m empirical reproduce``: Algorithms 1-5 on one model and one text, with every output.

Writes ``DIR/results.json`` (every figure's data, per-head values, per-statement checks, the
model, the text, the versions, the timings), ``DIR/fig2a.png`` ... ``DIR/fig4.png`` and
``DIR/report.md``.

>>> run(model="minilm", text=WAR_AND_PEACE, out="out/minilm")     # doctest: +SKIP
"""

from __future__ import annotations

import json
import platform
import time
from pathlib import Path

import numpy as np

from empirical import algorithms
from empirical.algorithms import Setup
from empirical.checks import merge
from empirical.figures import draw_all
from empirical.loading import load_model
from empirical.report import render

ALGORITHMS = (1, 2, 3, 4, 5)


def versions() -> dict[str, str]:
    import scipy
    import torch
    import transformers
    return {"python": platform.python_version(), "torch": torch.__version__, "transformers": transformers.__version__,
            "numpy": np.__version__, "scipy": scipy.__version__}


def _jsonable(value):
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (np.floating, float)):
        return float(value) if np.isfinite(value) else None
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.ndarray):
        return _jsonable(value.tolist())
    return value


def run_algorithms(setup: Setup, *, which=ALGORITHMS, lengths=algorithms.PAPER_LENGTHS, ns=algorithms.PAPER_NS,
                   critical_lengths=None, critical_tokens: int | None = None, separability_ns=algorithms.SEPARABILITY_NS,
                   temperatures=algorithms.TEMPERATURES, epsilons=algorithms.EPSILONS,
                   distance_tokens: int | None = None, separability_tokens: int | None = None,
                   sensitivity_tokens: int | None = None) -> tuple[dict, dict]:
    """Run the chosen algorithms; returns ``(results, timings in seconds)``.

    ``*_tokens`` keep that many evenly spaced query tokens per head (``None``: every token).
    """
    which = tuple(sorted(set(which)))
    if not which or any(a not in ALGORITHMS for a in which):
        raise ValueError(f"algorithms={which!r} must be a non-empty subset of {ALGORITHMS}")
    longest = max(setup.lengths(lengths))
    results, timings = {}, {}
    jobs = {
        1: ("distance_vs_length", lambda: algorithms.distance_vs_length(setup, lengths=lengths, n=5,
                                                                        tokens=distance_tokens)),
        2: ("distance_vs_n", lambda: algorithms.distance_vs_n(setup, length=longest, ns=ns, tokens=distance_tokens)),
        3: ("critical_n", lambda: algorithms.critical_n(setup, lengths=critical_lengths or lengths,
                                                        tokens=critical_tokens)),
        4: ("separability", lambda: algorithms.separability(setup, length=longest, ns=separability_ns,
                                                            tokens=separability_tokens)),
        5: ("sensitivity", lambda: algorithms.sensitivity(setup, length=longest, temperatures=temperatures,
                                                          epsilons=epsilons, tokens=sensitivity_tokens)),
    }
    for number in which:
        key, job = jobs[number]
        began = time.perf_counter()
        results[key] = job()
        timings[f"Alg. {number} ({key})"] = time.perf_counter() - began
    return results, timings


def run(*, model: str, text, out, windows: int = 1, embeddings: str = "values", offline: bool | None = None,
        tokenizer: str | None = None, progress: bool = True, device: str = "cpu", **options) -> dict:
    """Load ``model``, run the algorithms on ``text``, write results.json, the figures and report.md."""
    from empirical.device import resolve

    resolve(device)  # before the model is loaded
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    loaded = load_model(model, offline=offline, tokenizer=tokenizer)
    setup = Setup(loaded, text=text, windows=windows, embeddings=embeddings, progress=progress, device=device)
    began = time.perf_counter()
    results, timings = run_algorithms(setup, **options)
    checks = merge([c for part in results.values() for c in part.get("checks", {}).values()])
    results.update({
        "model": loaded.describe(),
        "text": {"path": str(text) if text else None,
                 "description": (f"`{Path(text).name}`, consecutive windows from its first chapter" if text
                                 else "random token ids")},
        "settings": {"windows": windows, "embeddings": embeddings, **{k: v for k, v in options.items()}},
        "versions": versions(), "timings": timings, "checks": checks,
        "seconds": time.perf_counter() - began,
    })
    results = _jsonable(results)
    (out / "results.json").write_text(json.dumps(results, indent=1))
    results["figures"] = draw_all(results, out)
    (out / "report.md").write_text(render(results))
    return results
