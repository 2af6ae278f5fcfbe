"""A throwaway downstream project that only installs this package, and a pytest run in it (helpers)."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

BOUND = textwrap.dedent('''
    from hypothesis import strategies as st
    from theorems import Statement, expect

    square = Statement(
        id="my.square", title="squares on [-3, 3]", paper_ref="-", reading="-", formula="x² ≤ 9",
        lhs=lambda i, xp: i["x"] ** 2, rhs=lambda i, xp: 9 + 0 * i["x"], relation="<=",
        instances=st.fixed_dictionaries({"x": st.floats(-3, 3)}), expected="holds", reason="|x| ≤ 3")
''')


def project(tmp_path: Path, module: str = BOUND, name: str = "test_bounds.py") -> Path:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "downstream"\nversion = "0"\n', encoding="utf-8")
    (tmp_path / "tests").mkdir(exist_ok=True)
    (tmp_path / "tests" / name).write_text(module, encoding="utf-8")
    return tmp_path


def pytest_run(folder: Path, *args: str, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """``python -m pytest`` in ``folder``, serial, without a cache, with ``env`` added to a clean environment."""
    environment = {k: v for k, v in os.environ.items() if k not in ("HYPOTHESIS_PROFILE", "PYTEST_ADDOPTS", "CI")}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", *args],
                          cwd=folder, capture_output=True, text=True, timeout=timeout, env=environment | (env or {}))
