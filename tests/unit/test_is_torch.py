"""``is_torch`` is the project's one test of "is this a torch tensor": true for tensors of every kind, false for
everything else, and it never imports torch itself (a light core install has none)."""

import subprocess
import sys

import numpy as np
import pytest

from theorems.arithmetic.tensors import is_torch
from theorems.maths import batches

torch = pytest.importorskip("torch")


class _Sub(torch.Tensor):
    pass


@pytest.mark.parametrize("value", [torch.zeros(2), torch.zeros(2, dtype=torch.float32), torch.tensor(1.0),
                                   torch.nn.Parameter(torch.zeros(1)), torch.zeros(2).as_subclass(_Sub),
                                   torch.zeros(2, dtype=torch.bool)])
def test_tensors_are_torch(value):
    assert is_torch(value)


@pytest.mark.parametrize("value", [np.zeros(2), np.float64(1.0), 1.0, [1.0], None, "torch", torch.float64,
                                   torch.zeros(2).numpy(), type("Tensor", (), {"__module__": "torch"})()])
def test_other_values_are_not(value):
    assert not is_torch(value)


def test_the_old_import_path_is_the_same_function():
    assert batches.is_torch is is_torch


def test_it_never_imports_torch():
    code = ("import sys, numpy as np\nfrom theorems.arithmetic.tensors import is_torch\n"
            "assert not is_torch(np.zeros(2)) and 'torch' not in sys.modules")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]


def test_no_other_torch_check_is_left():
    """The three checks there were (a module name, ``isinstance(..., torch.Tensor)``, ``sys.modules``) are this one."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    found = [f"{path.relative_to(root)}: {line.strip()}"
             for package in ("theorems", "strategies", "empirical") for path in sorted((root / package).rglob("*.py"))
             if path.name != "tensors.py"
             for line in path.read_text(encoding="utf-8").splitlines()
             if 'split(".")[0] == "torch"' in line or "isinstance(" in line and "torch.Tensor" in line]
    assert found == []
