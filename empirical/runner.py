"""Run Algorithms 1-5 on one :class:`empirical.setup.Setup`: what ``reproduce`` (one process) and the
cluster's tasks (:mod:`empirical.cluster`, one algorithm per task) both call, so neither imports the other.

>>> jsonable({"p": np.float64(0.5), "n": np.int64(3), "bad": float("nan"), "t": (1, 2)})
{'p': 0.5, 'n': 3, 'bad': None, 't': [1, 2]}
"""

from __future__ import annotations

import time

import numpy as np

from empirical import algorithms
from empirical.grids import PAPER_LENGTHS, Grids
from empirical.setup import Setup


def jsonable(value):
    """``value`` with numpy scalars and arrays as Python numbers and lists, tuples as lists, NaN and inf as None."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (np.floating, float)):
        return float(value) if np.isfinite(value) else None
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    return value


def run_algorithms(setup: Setup, grids: Grids, *, partial: dict | None = None) -> tuple[dict, dict]:
    """Run ``grids.which`` on ``grids``; returns ``(results, timings in seconds)``.

    ``grids.lengths=None`` runs the paper's lengths that fit the model. ``partial``, when given, receives each
    algorithm's results as soon as it finishes (kept if a later one fails).
    """
    lengths = grids.lengths or PAPER_LENGTHS
    longest = max(setup.lengths(lengths))
    results, timings = ({} if partial is None else partial), {}
    jobs = {
        1: ("distance_vs_length", lambda: algorithms.distance_vs_length(setup, lengths=lengths, n=5,
                                                                        tokens=grids.distance_tokens)),
        2: ("distance_vs_n", lambda: algorithms.distance_vs_n(setup, length=longest, ns=grids.ns,
                                                              tokens=grids.distance_tokens)),
        3: ("critical_n", lambda: algorithms.critical_n(setup, lengths=grids.critical_lengths or lengths,
                                                        tokens=grids.critical_tokens)),
        4: ("separability", lambda: algorithms.separability(setup, length=longest, ns=grids.separability_ns,
                                                            tokens=grids.separability_tokens)),
        5: ("sensitivity", lambda: algorithms.sensitivity(setup, length=longest, temperatures=grids.temperatures,
                                                          epsilons=grids.epsilons, tokens=grids.sensitivity_tokens)),
    }
    which = tuple(sorted(set(grids.which)))
    for number in which:
        key, job = jobs[number]
        began = time.perf_counter()
        results[key] = job()
        timings[f"Alg. {number} ({key})"] = time.perf_counter() - began
    return results, timings
