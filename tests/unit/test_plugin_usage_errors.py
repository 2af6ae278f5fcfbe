"""Bad plugin input is a pytest usage error (exit 4) with a message naming the option, before any test runs."""

import pytest

from downstream import project, pytest_run


@pytest.mark.parametrize("seed", ["abc", "-1", "1.5"])
def test_a_bad_seed_is_a_usage_error(tmp_path, seed):
    run = pytest_run(project(tmp_path), f"--hypothesis-seed={seed}")
    assert run.returncode == 4, run.stdout + run.stderr
    assert f"--hypothesis-seed={seed!r} must be a non-negative integer" in run.stderr
    assert "INTERNALERROR" not in run.stdout + run.stderr


def test_an_unknown_profile_option_is_a_usage_error(tmp_path):
    run = pytest_run(project(tmp_path), "--hypothesis-profile=nosuch")
    assert run.returncode == 4, run.stdout + run.stderr
    assert "--hypothesis-profile='nosuch' is not a registered Hypothesis profile" in run.stderr
    assert "INTERNALERROR" not in run.stdout + run.stderr


def test_an_unknown_profile_in_the_environment_is_a_usage_error(tmp_path):
    run = pytest_run(project(tmp_path), env={"HYPOTHESIS_PROFILE": "thorough"})
    assert run.returncode == 4, run.stdout + run.stderr
    assert "HYPOTHESIS_PROFILE='thorough'" in run.stderr and "'theorems-thorough'" in run.stderr
