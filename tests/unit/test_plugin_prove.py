"""The pytest plugin proves a collected statement that declares ``prove=`` (a domain): a true bound passes with
its proof, a bound false on the domain (though never on the searched instances) fails with the certified
counterexample of its proof."""

import subprocess
import sys

MODULE = '''
import numpy as np
from hypothesis import strategies as st
from theorems import Statement

X = st.fixed_dictionaries({"x": st.floats(0, 1.5).map(np.float64)})
COMMON = dict(paper_ref="-", reading="-", formula="e^x <= 1 + x + x^2", relation="<=", instances=X,
              expected="holds", reason="-", lhs=lambda i, xp: xp.exp(i["x"]), rhs=lambda i, xp: 1 + i["x"] + i["x"] ** 2)
near_zero = Statement(id="mine.near-zero", title="true on [0, 1.5]", prove={"x": (0.0, 1.5)}, **COMMON)
too_wide = Statement(id="mine.too-wide", title="false past 1.79", prove={"x": (0.0, 3.0)}, **COMMON)
'''


def test_plugin_passes_a_proof_and_fails_a_refuted_one(tmp_path):
    (tmp_path / "test_mine.py").write_text(MODULE, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-m", "theory", "-p", "no:cacheprovider", "-p", "no:xdist",
                          "-rA", "test_mine.py"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    assert "PASSED test_mine.py::near_zero" in out and "FAILED test_mine.py::too_wide" in out
    assert "proof: refuted on x ∈ [0, 3]" in out and "(certified: arb ball arithmetic" in out
