"""The light core: importing the catalogue does not import torch (nor the model stack), and the pytest plugin,
loaded at every pytest start, imports nothing heavy until a theory test runs."""

import json
import subprocess
import sys

from downstream import project, pytest_run

HEAVY = ("torch", "transformers", "matplotlib", "gguf", "accelerate", "tqdm")
ENGINE = ("flint", "mpmath", "theorems.engine.search", "theorems.catalogue", "scipy")


def _loaded(code: str) -> set[str]:
    script = code + f"\nimport json, sys; print(json.dumps([m for m in {HEAVY + ENGINE!r} if m in sys.modules]))"
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return set(json.loads(run.stdout.splitlines()[-1]))


def test_the_catalogue_and_the_engine_do_not_import_the_model_stack():
    loaded = _loaded("from theorems import STATEMENTS, check, refute, Derivation\nimport strategies\n"
                     "assert len(STATEMENTS) > 40")
    assert not loaded & set(HEAVY), loaded


def test_the_plugin_module_imports_nothing_heavy():
    assert _loaded("import theorems.app.plugin") == set()


def test_a_pytest_session_without_theory_tests_loads_no_engine(tmp_path):
    folder = project(tmp_path, f"import sys\n\ndef test_nothing_heavy():\n"
                               f"    assert [m for m in {HEAVY + ENGINE!r} if m in sys.modules] == []\n")
    run = pytest_run(folder)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "attention-normalisation-limits" in run.stdout  # the plugin was loaded (pytest's "plugins:" line)
