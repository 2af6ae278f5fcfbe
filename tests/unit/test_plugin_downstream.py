"""A fresh downstream project that only installs this package: `pytest -m theory` collects its statements and
derivation through the installed `pytest11` entry point, passes the true ones and fails exactly on the broken link."""

import importlib.metadata
import subprocess
import sys
import textwrap
from pathlib import Path

from theorems import SearchReport

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"

TEST_MODULE = textwrap.dedent('''
    import dataclasses

    from hypothesis import strategies as st
    from theorems import STATEMENTS, Statement
    from theorems.derivation import Derivation, Link, Term, expect

    X = st.fixed_dictionaries({"x": st.floats(-3, 3, allow_nan=False)})
    SQUARE = Term("x²", lambda i, xp: i["x"] ** 2)

    square_is_non_negative = Statement(
        id="my.square", title="squares", paper_ref="notes", reading="-", formula="x² ≥ 0",
        lhs=SQUARE.value, rhs=lambda i, xp: 0 * i["x"], relation=">=", instances=X, expected="holds", reason="-")
    square_below_one = dataclasses.replace(square_is_non_negative, id="my.below-one", formula="x² ≤ 1",
                                           rhs=lambda i, xp: 1 + 0 * i["x"], relation="<=")
    known_false = expect(square_below_one, verdict="refuted")
    tight_at_zero = expect(square_is_non_negative, tightness=0.99)  # x² ≥ 0 is attained at x = 0
    chain = Derivation(
        id="my.chain", title="a chain with one broken link", instances=X, start=SQUARE,
        links=(Link("<=", Term("2x²", lambda i, xp: 2 * i["x"] ** 2), "doubling a square"),
               Link("<=", Term("x² + 1", lambda i, xp: i["x"] ** 2 + 1), "the broken step"),
               Link("<=", Term("x² + 2", lambda i, xp: i["x"] ** 2 + 2), "adding one")))
    ALIAS = STATEMENTS["lemma1.upper"]  # an alias of an imported statement: not collected
''')


def _installed() -> bool:
    return any(ep.value == "theorems.plugin" for ep in importlib.metadata.entry_points(group="pytest11"))


def test_entry_point_is_declared():
    assert '[project.entry-points.pytest11]\ntheorems = "theorems.plugin"' in PYPROJECT.read_text(encoding="utf-8")


def test_downstream_project_gates_its_statements_and_derivation(tmp_path):
    assert _installed(), "the pytest11 entry point is not installed: run `pip install -e . --no-deps` again"
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "downstream"\nversion = "0"\n', encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_bounds.py").write_text(TEST_MODULE, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-m", "theory", "-p", "no:cacheprovider", "-p", "no:xdist",
                          "-rA", "--strict-markers", "--hypothesis-seed=3"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    assert "PASSED tests/test_bounds.py::square_is_non_negative" in out
    assert "PASSED tests/test_bounds.py::known_false" in out
    assert "FAILED tests/test_bounds.py::square_below_one" in out
    assert "FAILED tests/test_bounds.py::chain" in out
    assert "ALIAS" not in out
    # a pinned tightness needs the engine's tightness report; without one the pin fails and says why
    if "tightness" in getattr(SearchReport, "__dataclass_fields__", {}):
        assert "PASSED tests/test_bounds.py::tight_at_zero" in out and "2 failed, 3 passed" in out
    else:
        assert "FAILED tests/test_bounds.py::tight_at_zero" in out and "3 failed, 2 passed" in out
        assert "pinned tightness 0.99 not reached: tightness not reported by the engine" in out
    assert "first failing link: step 2 (the broken step)" in out
    assert "certified by mpmath" in out and "--hypothesis-seed=3" in out
