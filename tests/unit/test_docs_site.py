"""The documentation site (mkdocs.yml: docs/ and the API's docstrings) builds with warnings as errors.

A broken link between the docs, a docstring mkdocstrings cannot read, or an API name that moved fails here,
in every run of the suite (and so in CI). The site is built into a temporary folder: the checkout stays clean.
"""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
API = ("Statement", "Derivation", "check", "refute", "prove", "investigate", "--hypothesis-seed")


def test_the_site_builds_without_a_warning_and_shows_the_api(tmp_path):
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "WARNING" not in run.stderr, run.stderr[-3000:]
    api = (tmp_path / "site" / "api" / "index.html").read_text(encoding="utf-8")
    missing = [name for name in API if f"{name}" not in api]
    assert not missing, f"the API reference lacks {missing}"


def test_a_broken_link_fails_the_strict_build(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\n[nowhere](missing.md)\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: probe\nstrict: true\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode != 0 and "missing.md" in run.stderr, run.stderr[-2000:]
