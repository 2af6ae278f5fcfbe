"""A separate project gates bounds written with np.linalg, scipy.special, math, builtins and decimal constants
through the installed pytest plugin: every true bound passes, every 2 %-tightened one fails with a certified
or a candidate counterexample, and the failure says which (`downstream_bounds.py` holds the bounds)."""

import re
from pathlib import Path

import downstream_bounds
import pytest
from downstream import project, pytest_run

from theorems import Statement

BOUNDS = Path(downstream_bounds.__file__)
NAMES = sorted(name for name, value in vars(downstream_bounds).items() if isinstance(value, Statement))


pytestmark = pytest.mark.slow  # one pytest run of a downstream project, in a subprocess


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> str:
    folder = project(tmp_path_factory.mktemp("downstream"), BOUNDS.read_text(encoding="utf-8"), "test_numpy_bounds.py")
    run = pytest_run(folder, "-m", "theory", "-rA", "--hypothesis-seed=0", "-q", timeout=600)
    return run.stdout + run.stderr


def test_true_bounds_pass_and_tightened_ones_fail_with_a_reason(out):
    assert len(NAMES) >= 20 and {n.split("_", 1)[0] for n in NAMES} == {"true", "tight"}
    for name in NAMES:
        outcome = "PASSED" if name.startswith("true_") else "FAILED"
        assert f"{outcome} tests/test_numpy_bounds.py::{name}" in out, (name, out[-6000:])
    failures_section = re.split(r"\n=+ (?:PASSES|short test summary info) =+\n", out.split(" FAILURES ", 1)[1])[0]
    failures = re.split(r"_{5,} theory: ", failures_section)[1:]
    assert len(failures) == sum(n.startswith("tight_") for n in NAMES), out[-6000:]
    for failure in failures:
        certified = "certified by" in failure or "certified:" in failure
        candidate = "found candidate" in failure and "not certified because" in failure
        assert certified != candidate, failure  # one or the other, and it says which


def test_a_function_without_ball_form_is_named_in_the_candidate(out):
    assert "np.linalg.svd has no ball form here" in out
    assert "scipy.special.erf has no ball form here" in out
