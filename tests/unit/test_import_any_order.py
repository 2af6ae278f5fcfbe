"""Every engine module imports on its own, as the first module of a fresh interpreter, and the ball forms of
``np.linalg`` work after it: ``python -m theorems ledger`` once failed because ``ledger → proof → boxes → dual →
ball_linalg`` reached the ball backend from ``ball_linalg``, which ``ballarray`` needed complete while installing
its wrappers."""

import pkgutil
import subprocess
import sys

import pytest

import theorems.engine

MODULES = sorted(f"theorems.engine.{m.name}" for m in pkgutil.iter_modules(theorems.engine.__path__))
CHECK = """
import numpy as np
numpys_norm = np.linalg.norm
import {module}
from theorems.arithmetic.precision import balls
matrix = balls(np.array([[2.0, 1.0], [1.0, 2.0]]))
for norm in (np.linalg.norm, numpys_norm):  # the installed wrapper, and numpy's own function through NEP 18
    value = norm(matrix, 2)
    assert value.lower <= 3 <= value.upper, value
assert np.linalg.eigvalsh(matrix)[1].lower <= 3 <= np.linalg.eigvalsh(matrix)[1].upper
"""


@pytest.mark.parametrize("module", MODULES)
def test_module_imports_first_and_the_ball_forms_work(module):
    run = subprocess.run([sys.executable, "-c", CHECK.format(module=module)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
