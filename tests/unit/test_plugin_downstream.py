"""A fresh downstream project that only installs this package: `pytest -m theory` collects its statements and
derivation through the installed `pytest11` entry point, passes the true ones and fails exactly on the broken link."""

import importlib.metadata
import re
import subprocess
import sys
import textwrap
from pathlib import Path

from theorems import SearchReport

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"

DOCS = Path(__file__).resolve().parents[2] / "docs" / "derivations.md"
# the downstream test module is the example of docs/derivations.md, plus an alias that must not be collected
TEST_MODULE = re.findall(r"```python\n(.*?)```", DOCS.read_text(encoding="utf-8"), flags=re.DOTALL)[0] + textwrap.dedent('''
    from theorems import STATEMENTS
    ALIAS = STATEMENTS["lemma1.upper"]  # an alias of an imported statement: not collected
''')


def _installed() -> bool:
    return any(ep.value == "theorems.app.plugin" for ep in importlib.metadata.entry_points(group="pytest11"))


def test_entry_point_is_declared():
    assert '[project.entry-points.pytest11]\ntheorems = "theorems.app.plugin"' in PYPROJECT.read_text(encoding="utf-8")


def test_downstream_project_gates_its_statements_and_derivation(tmp_path):
    assert _installed(), "the pytest11 entry point is not installed: run `pip install -e . --no-deps` again"
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "downstream"\nversion = "0"\n', encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_my_bounds.py").write_text(TEST_MODULE, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-m", "theory", "-p", "no:cacheprovider", "-p", "no:xdist",
                          "-rA", "--strict-markers", "--hypothesis-seed=3",
                          "--hypothesis-profile=theorems-ci", "--hypothesis-show-statistics"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    assert "PASSED tests/test_my_bounds.py::square_at_most_nine" in out
    assert "PASSED tests/test_my_bounds.py::known_false" in out
    assert "FAILED tests/test_my_bounds.py::chain" in out
    assert "ALIAS" not in out
    # the plugin's profiles exist downstream, and Hypothesis's statistics option reports the theory tests
    assert "theory statistics" in out and "tests/test_my_bounds.py::chain: first failing step 2, conclusion holds" in out
    # a pinned tightness needs the engine's tightness report; without one the pin fails and says why
    if "tightness" in getattr(SearchReport, "__dataclass_fields__", {}):
        assert "PASSED tests/test_my_bounds.py::tight_at_three" in out and "1 failed, 3 passed" in out
    else:
        assert "FAILED tests/test_my_bounds.py::tight_at_three" in out and "2 failed, 2 passed" in out
        assert "pinned tightness 0.99 not reached: tightness not reported by the engine" in out
    assert "first failing link: step 2 (the broken step)" in out
    assert "certified by" in out and "--hypothesis-seed=3" in out
