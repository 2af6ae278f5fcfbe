"""CI runs the test command the README shows: .ci/run's own extraction, run here, finds it."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ci_extracts_the_readme_test_command():
    shown = re.search(r"^    (python -m pytest.*)$", (ROOT / "README.md").read_text(encoding="utf-8"), re.MULTILINE)
    assert shown, "the README shows no test command"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    extraction = re.search(r"^test_command=\$\((.*)\)$", ci, re.MULTILINE)
    assert extraction and "$test_command" in ci.split(extraction[0], 1)[1]
    found = subprocess.run(["bash", "-c", extraction[1]], cwd=ROOT, capture_output=True, text=True, check=True)
    assert found.stdout.strip() == shown[1]
