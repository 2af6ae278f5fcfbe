"""The light core, for real: a fresh virtual environment that holds only the package and its core dependencies
(no torch, no transformers) runs `pytest -m theory` in a separate project with the plugin, shows the tightness,
lets `HYPOTHESIS_PROFILE` set the budget and exits 4 on a bad seed.

For speed the core distributions are not downloaded: the ones installed here are linked into the new environment
(exactly those that the package's core requirements name, recursively), and the package is installed from a wheel
built here without its dependencies."""

import importlib.metadata
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from downstream import project

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "attention-normalisation-limits"
DOCS = ROOT / "docs" / "derivations.md"


def _core(name: str, seen: set[str]) -> set[str]:
    """``name`` and every distribution its requirements without extras name, recursively (normalised names)."""
    key = re.sub(r"[-_.]+", "-", name).lower()
    if key in seen:
        return seen
    seen.add(key)
    for text in importlib.metadata.distribution(name).requires or ():
        requirement = Requirement(text)
        if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
            _core(requirement.name, seen)
    return seen


def _link_farm(folder: Path, names: set[str]) -> None:
    folder.mkdir()
    for name in names:
        dist = importlib.metadata.distribution(name)
        tops = {Path(str(f)).parts[0] for f in dist.files or () if not str(f).startswith("..")}
        for top in tops:
            source = Path(dist.locate_file(top))
            if source.exists() and not (folder / top).exists():
                (folder / top).symlink_to(source)


@pytest.mark.slow
def test_a_separate_project_runs_the_plugin_on_the_core_alone(tmp_path):
    core = _core(PACKAGE, set()) - {PACKAGE}
    assert not core & {"torch", "transformers", "matplotlib", "gguf", "accelerate", "tqdm"}, core
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "venv")], check=True)
    python = tmp_path / "venv" / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               capture_output=True, text=True, check=True).stdout.strip())
    _link_farm(tmp_path / "core", core)
    (site / "core.pth").write_text(str(tmp_path / "core") + "\n", encoding="utf-8")
    source = tmp_path / "source"  # built from a copy: setuptools writes build/ and *.egg-info beside the sources
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", "build", "out", "*.egg-info", "__pycache__",
                                                                ".hypothesis", ".pytest_cache"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(tmp_path / "wheel"), str(source)], check=True, timeout=300)
    wheel = next((tmp_path / "wheel").glob("*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                    "--no-index", str(wheel)], check=True, timeout=300)
    assert subprocess.run([str(python), "-c", "import torch"], capture_output=True).returncode != 0

    (tmp_path / "downstream").mkdir()
    folder = project(tmp_path / "downstream", re.findall(r"```python\n(.*?)```", DOCS.read_text(encoding="utf-8"), flags=re.DOTALL)[0])

    def run(*args, env=None):
        return subprocess.run([str(python), "-m", "pytest", "-m", "theory", "-p", "no:cacheprovider", *args],
                              cwd=folder, capture_output=True, text=True, timeout=300,
                              env={"PATH": "/usr/bin:/bin", **(env or {})})

    default = run()
    assert default.returncode == 1 and "1 failed, 3 passed" in default.stdout, default.stdout + default.stderr
    assert "square_at_most_nine [my.square]: holds (expected holds); tight: 1 at x = " in default.stdout
    examples = lambda out: int(re.search(r"\[my\.square\]: holds .*?; (\d+) examples", out).group(1))  # noqa: E731
    assert examples(run(env={"HYPOTHESIS_PROFILE": "theorems-ci"}).stdout) > examples(default.stdout)
    assert run("--hypothesis-seed=abc").returncode == 4
