"""CI checks each statement once: `.ci/run` runs no `python -m theorems check` of its own, because
`test_verdicts.py` (in the README's test command) is that check: every statement of the catalogue, the CLI's
default seed and budget, and the CLI's default profile, which the README's test command (the one `.ci/run` runs,
verbatim) loads with `--hypothesis-profile`."""

import importlib.util
import re
from pathlib import Path

from theorems import STATEMENTS
from theorems.app import cli
from theorems.app import profiles

ROOT = Path(__file__).resolve().parents[2]
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _verdicts_module():
    spec = importlib.util.spec_from_file_location("test_verdicts", Path(__file__).with_name("test_verdicts.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _commands(script: str) -> list[str]:
    return [line.strip() for line in script.splitlines() if line.strip() and not line.strip().startswith("#")]


def test_ci_runs_no_separate_statement_check():
    assert not [line for line in _commands(CI) if re.search(r"-m theorems (check|ledger)\b", line)]


def test_the_verdict_test_is_the_clis_check():
    defaults = cli._parser().parse_args(["check"])
    assert re.search(r"^\$test_command$", CI, re.MULTILINE), ".ci/run no longer runs the README's test command as written"
    shown = re.search(r"^    (python -m pytest.*)$", README, re.MULTILINE)
    profile = re.search(r"--hypothesis-profile=(\S+)", shown[1] if shown else "")
    assert profile, "the README's test command names no profile"
    assert profile[1] == profiles.full_name(defaults.profile)
    verdicts = _verdicts_module()
    assert verdicts.SEED == defaults.seed and defaults.max_examples is None and defaults.ids == []
    (parametrize,) = [m for m in verdicts.test_verdict_matches_expected.pytestmark if m.name == "parametrize"]
    assert list(parametrize.args[1]) == list(STATEMENTS.values())
