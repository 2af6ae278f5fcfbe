"""Names of scipy.special bound before ``theorems`` is imported (``from scipy.special import log_softmax`` at the top
of a test module) reach the ball forms the same as ``scipy.special.log_softmax``: a fresh project's true bounds pass
through the pytest plugin, their 3 % tightenings are refuted with certified counterexamples
(``downstream_names_bound_first.py`` holds the bounds); and a plain script that imports them before ``theorems``
gets the same verdicts from ``check``, as the same bound written with ``scipy.special.log_softmax`` does."""

import dataclasses
import subprocess
import sys
from pathlib import Path

import downstream_names_bound_first
import numpy as np
import pytest
from downstream import project, pytest_run

from theorems import Statement, check

BOUNDS = Path(downstream_names_bound_first.__file__)
NAMES = sorted(name for name, value in vars(downstream_names_bound_first).items() if isinstance(value, Statement))

pytestmark = pytest.mark.slow  # a pytest run of a downstream project, in a subprocess


def test_the_module_binds_scipys_names_before_importing_theorems():
    source = BOUNDS.read_text(encoding="utf-8")
    assert source.index("from scipy.special import log_softmax") < source.index("from theorems import")
    assert {name.split("_", 1)[0] for name in NAMES} == {"true", "tight"} and len(NAMES) == 4


def test_through_the_plugin(tmp_path):
    folder = project(tmp_path, BOUNDS.read_text(encoding="utf-8"), name="test_bounds_first.py")
    run = pytest_run(folder, "-m", "theory", "-rA", "--hypothesis-seed=0", "-q")
    out = run.stdout + run.stderr
    for name in NAMES:
        assert f"PASSED tests/test_bounds_first.py::{name}" in out, out[-6000:]
    for name in NAMES:
        verdict = next(line for line in out.splitlines() if f"::{name} [" in line and "expected" in line)
        assert ("refuted" if name.startswith("tight_") else "holds") in verdict and "candidates 0" in verdict, verdict
        if name.startswith("tight_"):
            assert "certified 0" not in verdict, verdict


SCRIPT = """
import sys
sys.path.insert(0, {folder!r})
import downstream_names_bound_first as bounds   # binds scipy's names, then imports theorems
from theorems import check
for name in {names!r}:
    verdict = check(getattr(bounds, name), seed=0)
    print(name, verdict.found, verdict.report.candidate_count)
"""


def test_from_a_plain_script():
    script = SCRIPT.format(folder=str(BOUNDS.parent), names=NAMES)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    for name in NAMES:
        assert f"{name} {'refuted' if name.startswith('tight_') else 'holds'} 0" in run.stdout, run.stdout


def _kl_by_attribute(i, xp):
    import scipy.special

    a = scipy.special.log_softmax(i["l"] / i["T"])
    b = scipy.special.log_softmax((i["l"] + i["d"]) / i["T"])
    return np.sum(np.exp(a) * (a - b))


@pytest.mark.parametrize("name", ["true_kl_hoeffding", "tight_kl_hoeffding"])
def test_the_name_and_the_attribute_give_the_same_verdict(name):
    by_name = getattr(downstream_names_bound_first, name)
    by_attribute = dataclasses.replace(by_name, lhs=_kl_by_attribute)
    first, second = check(by_name, seed=0), check(by_attribute, seed=0)
    assert (first.found, first.report.certified, first.report.candidate_count, first.report.inconclusive) == (
        second.found, second.report.certified, second.report.candidate_count, second.report.inconclusive)
    assert first.found == by_name.expected
