"""A fresh downstream project gates everyday bounds written in plain Python (`downstream_everyday.py`: names
imported from scipy before `theorems`, `Fraction`, `.item()`, `np.vectorize`, `functools.reduce`, `heapq`, `np.ma`,
`sympy.lambdify`, `scipy.optimize`, …) through the installed pytest plugin: every true bound passes and every
3 %-tightened one fails, each failure saying whether its counterexample is certified or a candidate."""

import re
from pathlib import Path

import downstream_everyday
import pytest
from downstream import project, pytest_run

from theorems import Statement

BOUNDS = Path(downstream_everyday.__file__)
NAMES = sorted(name for name, value in vars(downstream_everyday).items() if isinstance(value, Statement))

pytestmark = pytest.mark.slow  # one pytest run of a downstream project, in a subprocess


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> str:
    folder = project(tmp_path_factory.mktemp("everyday"), BOUNDS.read_text(encoding="utf-8"), "test_everyday_bounds.py")
    run = pytest_run(folder, "-m", "theory", "-rA", "--hypothesis-profile=theorems-ci", "-q", timeout=1500)
    return run.stdout + run.stderr


def test_every_true_bound_passes_and_every_tightened_one_fails(out):
    assert {n.split("_", 1)[0] for n in NAMES} == {"true", "tight"}
    wrong = [name for name in NAMES
             if f"{'PASSED' if name.startswith('true_') else 'FAILED'} tests/test_everyday_bounds.py::{name}" not in out]
    assert not wrong, (wrong, out[-8000:])


def test_each_failure_says_certified_or_candidate(out):
    failures_section = re.split(r"\n=+ (?:PASSES|short test summary info) =+\n", out.split(" FAILURES ", 1)[1])[0]
    failures = re.split(r"_{5,} theory: ", failures_section)[1:]
    assert len(failures) == sum(n.startswith("tight_") for n in NAMES), out[-8000:]
    for failure in failures:
        certified = "certified by" in failure or "certified:" in failure
        candidate = "found candidate" in failure and "not certified because" in failure
        assert certified != candidate, failure
