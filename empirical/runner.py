"""Run Algorithms 1-5 on one :class:`empirical.setup.Setup`: what ``reproduce`` (one process) and the
cluster's tasks (:mod:`empirical.cluster`, one algorithm per task) both call, so neither imports the other.

>>> jsonable({"p": np.float64(0.5), "n": np.int64(3), "bad": float("nan"), "t": (1, 2)})
{'p': 0.5, 'n': 3, 'bad': None, 't': [1, 2]}
"""

from __future__ import annotations

import time

import numpy as np

from empirical import algorithms
from empirical.setup import Setup
from theorems.errors import InvalidArgument

ALGORITHMS = (1, 2, 3, 4, 5)


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


def run_algorithms(setup: Setup, *, which=ALGORITHMS, lengths=algorithms.PAPER_LENGTHS, ns=algorithms.PAPER_NS,
                   critical_lengths=None, critical_tokens: int | None = None, separability_ns=algorithms.SEPARABILITY_NS,
                   temperatures=algorithms.TEMPERATURES, epsilons=algorithms.EPSILONS,
                   distance_tokens: int | None = None, separability_tokens: int | None = None,
                   sensitivity_tokens: int | None = None, partial: dict | None = None) -> tuple[dict, dict]:
    """Run the chosen algorithms; returns ``(results, timings in seconds)``.

    ``*_tokens`` keep that many evenly spaced query tokens per head (``None``: every token).
    ``partial``, when given, receives each algorithm's results as soon as it finishes (kept if a later one fails).
    """
    which = tuple(sorted(set(which)))
    if not which or any(a not in ALGORITHMS for a in which):
        raise InvalidArgument(f"algorithms={which!r} must be a non-empty subset of {ALGORITHMS}")
    longest = max(setup.lengths(lengths))
    results, timings = ({} if partial is None else partial), {}
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
