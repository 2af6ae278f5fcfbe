"""Walk the public API of the quantity modules and the strategies, feed each argument generic bad values
(NaN, inf, empty, wrong shape, negative, wrong type, complex, out of range), and demand a clear error.

An outcome is one of: ``clear`` (raised by the project's own checks: the last frame of the traceback is in
``theorems/arithmetic/validation.py``, ``theorems/arithmetic/files.py`` or ``strategies/arguments.py``, or the
message names the argument and is raised in ``theorems/`` or
``strategies/``; argparse's usage error for a command line), ``dependency`` (any other traceback),
``silent`` (returned normally although the value is bad: a wrong number, or a strategy that accepted
it) or ``hang`` (ran past the time limit or out of memory). The test fails on anything but ``clear``;
``PYTHONPATH=. python tests/unit/test_api_audit.py [--fresh] [-v]`` prints the counts (``--fresh``: a second,
independent set of bad values, :data:`FRESH`; ``-v``: every outcome, not only the unclear ones).

Every public function of the audited modules must have an entry in :data:`SPECS` (a test fails when a
new one is added without), so the audit cannot silently miss an entry point.
"""

from __future__ import annotations

import atexit
import importlib
import inspect
import os
import shutil
import signal
import sys
import tempfile
import traceback
from pathlib import Path

import numpy as np
import pytest

MODULES = ("theorems.maths.distance", "theorems.maths.separability", "theorems.maths.gradient_sensitivity",
           "theorems.maths.gradient", "theorems.maths.normalisers", "theorems.maths.separability_sampling",
           "theorems.maths.batches", "theorems.figures.distance", "theorems.figures.separability",
           "theorems.figures.gradient", "theorems.figures.distance_bench", "theorems.figures",
           "theorems.arithmetic.validation", "strategies")
LIMIT_S = 4.0
CHECKS = tuple(os.sep.join(parts) for parts in (("theorems", "arithmetic", "validation.py"),
                                                 ("theorems", "arithmetic", "files.py"), ("strategies", "arguments.py")))
"""The project's own argument checks: an error raised there is clear by construction."""
NAN, INF = float("nan"), float("inf")

ALPHA = np.array([0.5, 0.3, 0.2])
X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
LOGITS = np.array([0.3, -1.0, 2.0])
TMP = Path(tempfile.mkdtemp(prefix="audit-"))
atexit.register(shutil.rmtree, TMP, ignore_errors=True)
A_FILE = TMP / "a-file.txt"
A_FILE.write_text("not a directory")

# generic bad values per kind of argument (every one of them must be refused)
BAD = {
    "weights": [np.array([0.5, NAN, 0.2]), np.array([0.5, INF, 0.2]), np.array([]), np.float64(0.5), "abc",
                np.array([0.5 + 1j, 0.3, 0.2]), np.array([2.0, -1.0, 0.5]), np.array([5.0, 3.0, 2.0]),
                np.zeros(3), np.array([1.5, -0.7, 0.2])],
    "logits": [np.array([0.3, NAN, 2.0]), np.array([-INF, 0.0, 1.0]), np.array([]), "abc",
               np.array([0.3 + 1j, -1.0, 2.0]), [[0.3], [1.0, 2.0]]],
    "logits3": [np.full((1, 1, 3), NAN), np.zeros((1, 1, 0)), np.zeros(3), "abc", np.zeros((1, 1, 3)) + 1j],
    "embeddings": [np.where(X == 0, NAN, X), np.full((3, 2), INF), np.zeros((3, 0)), np.zeros(3), "abc", X + 1j],
    "points": [np.zeros(3), np.full((3, 2), NAN), "abc", X + 1j, np.zeros((3, 0))],
    "positive": [NAN, INF, -INF, 0.0, -1.0, "1", 1 + 1j, True, None],
    "temperature": [NAN, INF, 0.0, -1.0, 5e-324, 1e-310, "1", 1 + 1j, True],
    "nonnegative": [NAN, INF, -1.0, "1", 1 + 1j],
    "radius": [NAN, -1.0, -INF, "1", 1 + 1j, np.array([1.0, 2.0])],
    "count": [0, -1, 2.5, "2", NAN, None, True],
    "n": [0, -1, 4, 2.5, "2", NAN, None],
    "seed": [-1, 2.5, "x", NAN],
    "choice": ["bogus", 3, None],
    "mask": [np.array([1, 1, 0]), np.array([True, False]), np.zeros(3, bool), "x"],
    "level": [NAN, 0.0, 1.0, 1.5, -0.1, "x"],
    "grid": [[NAN], [], [0.0], [-1.0], "x", [1 + 1j], [5e-324], [[1.0, 2.0]]],
    "dir": [A_FILE, A_FILE / "sub"],
    "file": [TMP, A_FILE / "sub" / "f.png"],
    "callable": [3, "softmax"],
    "normaliser": ["softmax", 3],
    "rng": ["x", 3],
    "shape": [(-1, 3), "x", (2.5,), ()],
    "length_or_strategy": [0, -1, 2.5, "x", NAN, None],
    "shapes": [("bogus",), (), 3],
    "sizes": [(), (0,), (600,), (2.5,), "x"],
    "lengths": [(), (0,), (2.5,), "x", (10 ** 12,)],
    "selected": [np.array([0.5, NAN]), np.array([0.5, -0.5]), "abc", np.array([0.5 + 1j]), np.array([])],
    "mask_shape": [np.array([1, 1, 0]), np.array([True, False]), "x"],
    "name": [3, "", None],
    "exact_method": ["exact"],
    "temperature_array": [NAN, INF, 0.0, -1.0, 5e-324, "1", 1 + 1j, True, [1.0, NAN], [], ["1"]],
    "optional_callable": [3, "x"],
    "optional_nonnegative": [NAN, INF, -1.0, "1", 1 + 1j],
    "fraction": [NAN, 0.0, -0.5, 1.5, "x"],
    "unit_fraction": [NAN, -0.5, 1.5, "x"],
    "result": [None, "x"],
    "figure": [None, "x"],
    "huge_count": [10 ** 12],
}

# a second, independent set for the report (``--fresh``): other values of the same kinds, never tuned against
FRESH = {
    "weights": [np.array([0.7, 0.3, 1e-3]), np.array([0.5, 0.5, -1e-3]), np.array([[0.5, 0.3, 0.2]]) * 3,
                np.full(3, 1 / 3, dtype=np.float32) * 2, [0.5, 0.3], np.array([0.5, 0.3, 0.2], dtype=object) * 2,
                np.array([1e308, 1e308, -1e308]), [0.5, "0.3", 0.2], np.array([0.4, -0.0, 0.4]), {"a": 1}],
    "logits": [np.array([1e308, -1e308, np.nan]), [0.0, float("-inf")], np.array([[]]), np.array(["1", "2"]),
               np.complex64([1, 2]), {"l": 1}, np.array([True, False])],
    "logits3": [np.zeros((1, 3)), np.full((2, 1, 3), np.inf), np.ones((1, 1, 3), dtype=complex), [[[]]]],
    "embeddings": [np.zeros((2, 2)), np.zeros((3, 2, 1)) + np.nan, [[1, 2], [3]], np.array([[1e308, np.inf]] * 3),
                   np.array([["a", "b"]] * 3)],
    "points": [np.array([[np.inf, 0.0], [0.0, 0.0]]), [[1.0], [2.0, 3.0]], np.zeros((2, 2), dtype=complex)],
    "positive": [-1e-300, -0.0, float("-nan"), 1e400, "inf", [1.0], np.array([1.0, 2.0]), complex(0, 1)],
    "temperature": [-0.0, 1e-320, float("-inf"), "0.5", [0.5], None],
    "nonnegative": [-1e-300, float("-inf"), "0", None],
    "radius": [float("nan"), -1e-9, "inf", None],
    "count": [0.0, 1.0, 10 ** 40 * 0.5, -(2 ** 63), np.float64(3), "3", [3]],
    "n": [0.0, 1.0, np.float32(1), 3.0 + 0j, 10 ** 30, -(2 ** 70)],
    "seed": [-(2 ** 70), 1.0, [1, 2], "0", None],
    "choice": ["", "SUM", ("sum",), 0],
    "mask": [np.ones((2, 3), dtype=int) == 2, np.array([[True, True, True]] * 2)[:, :2], [1, 0, 1], 3.0],
    "level": [1e-320 * 0, 1.0 + 1e-16, float("inf"), -float("inf"), None, [0.5]],
    "grid": [np.array([1.0, np.nan]), [-0.0], [1e-320], np.array([[1.0]]), None, ["1"]],
    "dir": ["/dev/null/sub", A_FILE / "a" / "b"],
    "file": [str(TMP) + "/", "/dev/null/f.png", A_FILE / "x" / "y.png"],
    "callable": [None, 1.5, [lambda l: l]],
    "normaliser": [None, lambda l: l],
    "rng": [None, 0, np.random.RandomState(0)],
    "shape": [(0, 3), (3, -2), None, (3.0,)],
    "length_or_strategy": [-5, 0.0, 3.5, [3], "3"],
    "shapes": ("free", [], ("free", "nope"), None),
    "sizes": [(1, 1000), (-1,), [0.5], None, (1.0,)],
    "lengths": [(8, -8), (8.0,), None, [], (0,)],
    "fraction": [0.0, -1e-9, 1.0 + 1e-9, None, float("inf")],
    "unit_fraction": [-1e-9, 1.0 + 1e-9, None, float("-inf")],
    "result": [{}, 3],
    "figure": [3, {}],
    "huge_count": [10 ** 15, 2 ** 62],
    "selected": [np.array([[0.5, -0.1]]), [0.5, None], np.array([np.inf])],
    "mask_shape": [np.ones((3, 3), dtype=int), [[True] * 4], "x"],
    "name": [("g",), b"g"],
    "exact_method": ["exact"],
    "temperature_array": [-0.0, 1e-320, float("-inf"), "0.5", [0.5, -1.0], np.array([[np.nan]]), None],
    "optional_callable": [1.5, [lambda l: l]],
    "optional_nonnegative": [-1e-300, float("-inf"), "0"],
}

# name -> (call, baseline kwargs, {argument: kind}, cheap)  (cheap: the baseline itself runs in the test)
SPECS: dict[str, tuple] = {}


def spec(name, baseline, kinds, *, cheap=True, call=None):
    SPECS[name] = (call, baseline, kinds, cheap)


def _resolve(name):
    module, _, attribute = name.rpartition(".")
    return getattr(importlib.import_module(module), attribute)


D, S, G, GF = ("theorems.maths.distance.", "theorems.maths.separability.", "theorems.maths.gradient_sensitivity.",
              "theorems.figures.gradient.")
for f in ("distance", "fixed_bound", "random_main_sum", "jensen_gap_bound"):
    spec(D + f, dict(alpha=ALPHA, x=X, n=1), dict(alpha="weights", x="embeddings", n="n", mask="mask"))
spec(D + "top_n", dict(alpha=ALPHA, n=1), dict(alpha="logits", n="n", mask="mask"))  # any scores: only the order counts
spec(D + "subsets", dict(length=4, n=2), dict(length="count", n="count"))
spec(D + "expected_distance", dict(alpha=ALPHA, x=X, n=1),
     dict(alpha="weights", x="embeddings", n="n", reading="choice", method="choice", samples="count", seed="seed",
          level="level", mask="mask", chunk="count"))
SPECS[D + "expected_distance#exact"] = (_resolve(D + "expected_distance"),  # C(40, 20) = 1.4e11 subsets
                                        dict(alpha=np.full(40, 1 / 40), x=np.ones((40, 1)), n=20, method="monte-carlo"),
                                        dict(method="exact_method"), False)
SPECS[D + "expected_distance#samples"] = (_resolve(D + "expected_distance"),
                                          dict(alpha=ALPHA, x=X, n=1, method="monte-carlo"),
                                          dict(samples="huge_count"), True)
spec(S + "top_n_indices", dict(alpha=ALPHA, n=1), dict(alpha="weights", n="n", mask="mask"))
spec(S + "xi_squared", dict(selected=ALPHA, M=1.0, delta=0.5), dict(selected="selected", M="positive", delta="nonnegative"))
spec(S + "xi", dict(alpha=ALPHA, n=2, M=1.0, delta=0.5), dict(alpha="weights", n="n", M="positive", delta="nonnegative",
                                                             mask="mask"))
for f in ("separability_lower_bound", "separability_upper_bound"):
    spec(S + f, dict(alpha=ALPHA, n=2, r=0.5, M=1.0, delta=0.5),
         dict(alpha="weights", n="n", r="radius", M="positive", delta="nonnegative", mask="mask"))
spec(S + "default_radius", dict(alpha=ALPHA, x=X, n=1), dict(alpha="weights", x="embeddings", n="n", mask="mask"))
spec(S + "separable_count", dict(alpha=ALPHA, x=X, n=1, r=0.5),
     dict(alpha="weights", x="embeddings", n="n", r="radius", mask="mask"))
spec(S + "hoeffding_halfwidth", dict(samples=100, level=0.9), dict(samples="count", level="level", value_range="positive"))
spec(S + "estimate_separable_fraction", dict(alpha=ALPHA, n=1, r=0.5, M=1.0, dim=2, samples=50, seed=0),
     dict(alpha="weights", n="n", r="radius", M="positive", dim="count", delta="nonnegative", samples="count",
          seed="seed", law="choice", level="level"))  # delta=None is refused: no default of None here
spec(G + "largest_eigenvalue", dict(alpha=ALPHA), dict(alpha="weights"))
spec(G + "softmax_jacobian_norms", dict(logits=LOGITS, temperatures=[1.0]), dict(logits="logits", temperatures="grid",
                                                                                 mask="mask"))
spec(G + "random_directions", dict(shape=(2, 3)), dict(shape="shape", seed="seed", mask="mask"))
spec(G + "finite_difference_sensitivity", dict(logits=LOGITS, temperatures=[1.0], epsilons=[0.1]),
     dict(logits="logits", temperatures="grid", epsilons="grid", seed="seed", mask="mask"))
spec(G + "sup_spectral", dict(temperature=1.0), dict(temperature="temperature_array"))
spec(G + "sup_finite_difference", dict(temperature=1.0, epsilon=0.1),
     dict(temperature="temperature_array", epsilon="temperature_array"))
spec(G + "paper_curve", dict(temperature=1.0), dict(temperature="temperature_array"))
spec(G + "algorithm5", dict(logits=np.zeros((1, 2, 3)), temperatures=[1.0]),
     dict(logits="logits3", temperatures="grid", epsilons="grid", seed="seed"))
spec(G + "synthetic_logits", dict(heads=1, queries=2, length=3), dict(heads="count", queries="count", length="count",
                                                                      scale="positive", seed="seed"))
spec(G + "causal_mask", dict(queries=2, length=3), dict(queries="count", length="count"))
spec(G + "fig4_claims", dict(result=None), dict(result="result"), cheap=False)
spec(GF + "plot_fig4", dict(result=None, path=TMP / "f.png"), dict(result="result"), cheap=False)
spec(GF + "make_figures", dict(out=TMP / "fig4"), dict(out="dir", seed="seed"), cheap=False)
J = "theorems.maths.gradient."
spec(J + "softmax_weights", dict(logits=LOGITS, temperature=1.0), dict(logits="logits", temperature="temperature",
                                                                       mask="mask"))
spec(J + "softmax_jacobian", dict(logits=LOGITS, temperature=1.0), dict(logits="logits", temperature="temperature"))
spec(J + "normaliser_jacobian", dict(normaliser=None, logits=LOGITS), dict(normaliser="normaliser", logits="logits"))
spec(J + "torch_function", dict(normaliser=None), dict(normaliser="normaliser"))
spec(J + "jacobian_autograd", dict(normaliser_or_fn=None, logits=LOGITS),
     dict(normaliser_or_fn="callable", logits="logits"))
spec(J + "sympy_jacobian", dict(F=None, length=2), dict(F="callable", length="count"), cheap=False)
N = "theorems.maths.normalisers."
spec(N + "softmax", {}, dict(temperature="temperature"))
spec(N + "softmax_on_box", {}, dict(temperature="temperature"))
spec(N + "scalable_softmax", {}, dict(s="positive"))
spec(N + "exp_sine", {}, dict(c="positive"))
spec(N + "softpick", {}, dict(eps="positive"))
spec(N + "entmax_bisect", {}, dict(alpha="positive", iterations="count"))
spec(N + "general", dict(name="g", F=None, F_range=None),
     dict(F="callable", F_range="callable", dF="optional_callable", name="name"))
for f in ("sigmoid_attention", "relu_attention", "sparsemax", "entmax15", "catalogue"):
    spec(N + f, {}, {})
for f in ("softmax", "sparsemax", "entmax15", "relu_attention"):
    SPECS[N + f + "#call"] = (None, dict(logits=LOGITS), dict(logits="logits"), True)
A = "theorems.maths.separability_sampling."
spec(A + "max_min_distance", dict(length=3, dim=2, radius=1.0), dict(length="count", dim="count", radius="positive"))
spec(A + "sample_configurations", dict(samples=5, length=3, dim=2, radius=1.0, seed=0),
     dict(samples="count", length="count", dim="count", radius="positive", min_distance="optional_nonnegative",
          seed="seed", law="choice", max_draws="count"))
spec(A + "sample_sphere", dict(length=3, dim=2, radius=1.0, seed=0),
     dict(length="count", dim="count", radius="positive", min_distance="optional_nonnegative", seed="seed",
          max_attempts="count"))
spec(A + "pilot_min_distance", dict(quantile=0.5, length=3, dim=2, radius=1.0, seed=0, samples=20),
     dict(quantile="unit_fraction", length="count", dim="count", radius="positive", seed="seed", samples="count",
          law="choice"))
B = "theorems.maths.batches."
spec(B + "to_numpy", dict(value=ALPHA, name="alpha"), dict(value="logits"))
spec(B + "check_n", dict(n=1, valid=np.ones(3, bool)), dict(n="n"))
for f in ("top_n_mask", "top_n_order"):
    spec(B + f, dict(alpha=ALPHA, valid=np.ones(3, bool), n=1), dict(alpha="logits", n="n", valid="mask_shape"))
for f in ("is_torch", "like"):
    SPECS[B + f] = (None, {}, {}, False)  # plumbing of any value: nothing to refuse
DG = "theorems.figures.distance."
spec(DG + "sample_rows", dict(regime="bounded", length=8, rows=2, dim=2),
     dict(regime="choice", length="count", rows="count", dim="count", bound="positive", seed="seed"))
spec(DG + "growth", dict(lengths=(8, 16), n=1, rows=2, dim=2, samples=8),
     dict(regime="choice", lengths="lengths", n="count", rows="count", dim="count", samples="count", seed="seed"))
spec(DG + "slope", dict(xs=[1.0, 2.0], ys=[1.0, 2.0]), dict(xs="grid", ys="grid"))
spec(DG + "figures", dict(directory=TMP / "fig2"), dict(directory="dir", rows="count", dim="count", samples="count"),
     cheap=False)
spec("theorems.figures.separability.measure", dict(rows=2, length=8, dim=2, sizes=(1, 2)),
     dict(rows="count", length="count", dim="count", radius="positive", sizes="sizes", seed="seed"))
spec("theorems.figures.separability.plot", dict(results=None, out=TMP / "fig3.png"), dict(results="result"), cheap=False)
spec("theorems.figures.distance_bench.benchmark", dict(heads=1, queries=4, keys=4, dim=2, n=1, chunk_heads=1),
     dict(heads="count", queries="count", keys="count", dim="count", n="count", chunk_heads="count", seed="seed"))
spec("theorems.figures.save_figure", dict(figure=None, path=TMP / "s.png"), dict(figure="figure", path="file"),
     cheap=False)
for cli in ("theorems.figures.distance.main", "theorems.figures.separability.main", "theorems.figures.gradient.main",
            "theorems.figures.distance_bench.main"):
    SPECS[cli] = (None, {}, {}, False)  # see CLI_BAD below
ST = "strategies."
spec(ST + "logits", {}, dict(bound="positive", min_length="count", max_length="count", shapes="shapes"))
spec(ST + "bounds", {}, dict(min_value="positive", max_value="positive"))
spec(ST + "lengths", {}, dict(min_length="count", max_length="count"))
spec(ST + "log_uniform", dict(min_value=0.1, max_value=10.0), dict(min_value="positive", max_value="positive"))
spec(ST + "temperatures", {}, dict(min_value="temperature", max_value="temperature"))
spec(ST + "normalisers", {}, dict(family="choice"))
spec(ST + "top_n_sizes", dict(length=5), dict(length="count", max_fraction="fraction"))
spec(ST + "min_pairwise_distance", dict(x=X), dict(x="points"))
spec(ST + "min_pairwise_distances", dict(x=X[None]), dict(x="points"))
spec(ST + "spherical_embeddings", dict(length=3, dim=2),
     dict(length="length_or_strategy", dim="length_or_strategy", radius="positive", min_distance="optional_nonnegative",
          attempts="count"))
spec(ST + "uniform_sphere", dict(rng=None, length=3, dim=2), dict(rng="rng", length="count", dim="count",
                                                                   radius="positive"))
spec(ST + "separability_instances", {}, dict(max_length="count", max_dim="count", law="choice", max_radius="positive",
                                             min_acceptance="fraction"))
spec(ST + "distance_instances", {}, dict(min_length="count", max_length="count", bound="positive", shapes="shapes",
                                         min_effective_fraction="unit_fraction"))
spec(ST + "embeddings", dict(length=3), dict(length="count", max_dim="count", shapes="shapes"))
spec(ST + "long_context_instances", {}, dict(max_n="count", ratio="count", extra="nonnegative", bound="positive",
                                             max_dim="count"))
spec(ST + "seeded_embeddings", dict(rng=None, shape="sphere", length=3, dim=2),
     dict(rng="rng", shape="choice", length="count", dim="count"))
spec(ST + "seeded_logits", dict(rng=None, shape="uniform", length=3, bound=1.0),
     dict(rng="rng", shape="choice", length="count", bound="positive"))
V = "theorems.arithmetic.validation."

CLI_BAD = {
    "theorems.figures.distance.main": [["--rows", "0"], ["--dim", "-1"], ["--samples", "1"], ["--rows", "x"],
                                      ["--out", str(A_FILE)], ["--out", str(A_FILE / "sub")],
                                      ["--samples", "nan"], ["--rows", "10000000000"]],
    "theorems.figures.separability.main": [["--rows", "0"], ["--length", "1"], ["--dim", "0"], ["--seed", "-1"],
                           ["--out", str(TMP)], ["--out", str(A_FILE / "sub" / "f.png")], ["--length", "x"],
                           ["--rows", "100000", "--length", "100000"]],
    "theorems.figures.gradient.main": [["--out", str(A_FILE)], ["--out", str(A_FILE / "sub")], ["--seed", "-1"],
                                  ["--seed", "x"]],
    "theorems.figures.distance_bench.main": [["--bench", "--heads", "0"], ["--bench", "--n", "0"],
                                     ["--bench", "--n", "9", "--keys", "4"], ["--bench", "--dim", "-3"],
                                     ["--bench", "--keys", "x"], ["--bench", "--chunk-heads", "0"]],
}

CLI_FRESH = {
    "theorems.figures.distance.main": [["--rows", "-3"], ["--dim", "2.5"], ["--samples", ""], ["--out", "/dev/null/x"],
                                      ["--samples", "1000000000", "--rows", "1000"]],
    "theorems.figures.separability.main": [["--rows", "1e3"], ["--length", "0"], ["--dim", "-"], ["--out", "/dev/null/f.png"],
                           ["--out", str(TMP) + "/"], ["--seed", "1.5"]],
    "theorems.figures.gradient.main": [["--out", "/dev/null/x"], ["--seed", "-5"], ["--seed", ""]],
    "theorems.figures.distance_bench.main": [["--bench", "--queries", "-1"], ["--bench", "--dim", "0"],
                                     ["--bench", "--heads", "2", "--chunk-heads", "3"],
                                     ["--bench", "--keys", "1000000", "--queries", "1000000"]],
}


def _fill(name, kwargs):
    """Baseline values that cannot be written as literals at import (a normaliser, a generator, a result)."""
    from theorems.maths import normalisers as nz
    from theorems.maths.gradient_sensitivity import algorithm5
    out = dict(kwargs)
    if "normaliser" in out and out["normaliser"] is None:
        out["normaliser"] = nz.softmax()
    if "normaliser_or_fn" in out and out["normaliser_or_fn"] is None:
        out["normaliser_or_fn"] = nz.softmax()
    if out.get("rng", 0) is None:
        out["rng"] = np.random.default_rng(0)
    if "F" in out and out["F"] is None:
        out["F"] = (lambda l, L, xp: xp.exp(l)) if "F_range" in out else (lambda s: s)
    if "F_range" in out and out["F_range"] is None:
        out["F_range"] = lambda a, L, xp: (xp.exp(-a), xp.exp(a))
    if out.get("result", 0) is None:
        out["result"] = algorithm5(np.zeros((1, 2, 3)), temperatures=[0.01, 1.0, 10.0])
    if out.get("results", 0) is None:
        from theorems.figures.separability import measure
        out["results"] = measure(rows=2, length=8, dim=2, sizes=(1, 2))
    if out.get("figure", 0) is None:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        out["figure"] = plt.figure()
    return out


def _cases(bad=None, cli_bad=None):
    for name, (call, baseline, kinds, _) in SPECS.items():
        for argument, kind in kinds.items():
            for index, value in enumerate((bad or BAD)[kind]):
                yield name, argument, index, value
    for name, argvs in (cli_bad or CLI_BAD).items():
        for index, argv in enumerate(argvs):
            yield name, "argv", index, argv


class _Hang(Exception):
    pass


def _alarm(signum, frame):
    raise _Hang


def _invoke(name, argument, value):
    call, baseline, _, _ = SPECS[name]
    base = name.split("#")[0]
    function = call or _resolve(base)
    if name.endswith("#call"):  # the normaliser's __call__ on logits
        return function()(value)
    if argument == "argv":
        return function(value)
    return function(**(_fill(name, baseline) | {argument: value}))


def classify(name, argument, value, *, limit=LIMIT_S) -> tuple[str, str]:
    """``(outcome, detail)`` of one bad call: clear, dependency, silent or hang."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        try:
            result = _invoke(name, argument, value)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)  # disarmed at once: the handlers below must not be interrupted
    except _Hang:
        return "hang", f"ran past {limit} s"
    except MemoryError:
        return "hang", "out of memory"
    except SystemExit as exit_:
        return ("clear", "argparse usage error") if exit_.code == 2 else ("dependency", f"SystemExit({exit_.code})")
    except Exception as error:  # noqa: BLE001 - classifying every exception is the point
        frames = traceback.extract_tb(error.__traceback__)
        last = frames[-1].filename if frames else ""
        own = any(part in last for part in (f"theorems{os.sep}", f"strategies{os.sep}"))
        words = {argument, argument.lstrip("-")} | ({"--" + argument.replace("_", "-")} if argument != "argv" else set())
        names_it = any(w in str(error) for w in words) or (argument == "argv" and own)
        if last.endswith(CHECKS) or (own and names_it):
            return "clear", f"{type(error).__name__}: {error}"
        return "dependency", f"{type(error).__name__} at {Path(last).name}:{frames[-1].lineno if frames else '?'}: {error}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    try:
        shown = repr(result)[:80]
    except Exception:  # noqa: BLE001 - a lazy strategy's repr may itself fail on the bad value
        shown = "<unprintable>"
    return "silent", f"returned {type(result).__name__}: {shown}"


CASES = list(_cases())
ARGUMENTS = sorted({(name, argument) for name, argument, _, _ in CASES})


@pytest.mark.parametrize("name, argument", ARGUMENTS, ids=[f"{n}-{a}" for n, a in ARGUMENTS])
def test_bad_values_get_a_clear_error(name, argument):
    """Both sets of bad values (:data:`BAD` and :data:`FRESH`) for one argument of one entry point."""
    unclear = []
    for bad, cli_bad in ((BAD, CLI_BAD), (FRESH, CLI_FRESH)):
        for case_name, case_argument, _, value in _cases(bad, cli_bad):
            if (case_name, case_argument) == (name, argument):
                outcome, detail = classify(name, argument, value)
                if outcome != "clear":
                    unclear.append(f"{argument}={value!r:.60}: {outcome}: {detail}")
    assert not unclear, f"{name}: " + "\n".join(unclear)


@pytest.mark.parametrize("name", [n for n, s in SPECS.items() if s[3]])
def test_the_baseline_of_each_spec_is_valid(name):
    """Otherwise a refusal might come from the baseline, not from the bad value."""
    call, baseline, _, _ = SPECS[name]
    function = call or _resolve(name.split("#")[0])
    if name.endswith("#call"):
        assert np.all(np.isfinite(function()(LOGITS)))
    else:
        function(**_fill(name, baseline))


def test_every_public_function_is_audited():
    missing = []
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for attribute, value in vars(module).items():
            if attribute.startswith("_") or not inspect.isfunction(value):
                continue
            if module_name != "strategies" and value.__module__ != module_name:
                continue
            qualified = f"{module_name}.{attribute}"
            if module_name == "theorems.arithmetic.validation" or qualified in SPECS:
                continue
            missing.append(qualified)
    assert not missing, f"public functions without an audit spec: {missing}"


def main() -> int:
    import collections
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
    counts = collections.Counter()
    cases = list(_cases(FRESH, CLI_FRESH)) if "--fresh" in sys.argv else CASES
    for name, argument, index, value in cases:
        outcome, detail = classify(name, argument, value)
        counts[outcome] += 1
        if outcome != "clear" or "-v" in sys.argv:
            print(f"{outcome:10} {name}({argument}={value!r:.40}): {detail[:160]}")
    print(dict(counts), "of", len(cases))
    return 0


if __name__ == "__main__":  # PYTHONPATH=. python tests/unit/test_api_audit.py [--fresh] [-v]
    raise SystemExit(main())
