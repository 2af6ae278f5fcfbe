"""Downstream, the plugin honours `HYPOTHESIS_PROFILE` and `--hypothesis-profile` (the option wins), and its
profiles are namespaced: a user's own `ci` profile is theirs, and Hypothesis's built-in `ci` is left alone."""

import re

import pytest
from hypothesis import settings

from downstream import BOUND, project, pytest_run
from theorems.app import profiles

USER_CI = BOUND.replace("from theorems import", "from hypothesis import settings\n"
                        "settings.register_profile('ci', max_examples=7)\nfrom theorems import")


def _examples(run) -> int:
    found = re.search(r"\[my\.square\]: holds \(expected holds\).*?; (\d+) examples", run.stdout)
    assert found, run.stdout + run.stderr
    return int(found.group(1))


@pytest.mark.slow  # three pytest runs of a downstream project
def test_the_environment_and_the_option_set_the_budget(tmp_path):
    folder = project(tmp_path)
    default = _examples(pytest_run(folder))
    by_env = _examples(pytest_run(folder, env={"HYPOTHESIS_PROFILE": "theorems-thorough"}))
    by_option = _examples(pytest_run(folder, "--hypothesis-profile=theorems-dev",
                                     env={"HYPOTHESIS_PROFILE": "theorems-thorough"}))
    assert by_env > 3 * default and by_option < by_env


def test_the_package_does_not_replace_hypothesis_ci_profile():
    profiles.register()
    assert settings.get_profile("ci").max_examples != profiles.PROFILES["ci"]
    assert settings.get_profile("theorems-ci").max_examples == profiles.PROFILES["ci"]
