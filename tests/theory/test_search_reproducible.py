"""A search's result depends on the statement and the seed only, not on which modules are imported.

Regression: Hypothesis draws literals parsed from every imported local module, so a test session
(which imports the test files) and the command line shrank the same seed to different
counterexamples, and a README example took 90 s instead of 1 s inside the full test session.
"""

import importlib.util
import sys

from theorems import STATEMENTS, investigate


def _search():
    report = investigate(STATEMENTS["corollary1.own-key.upper"], seed=0)
    return report.examples, repr(report.counterexample.instance)


def test_importing_a_module_full_of_constants_does_not_change_the_search(tmp_path):
    before = _search()
    literals = ", ".join(f"{k / 97:.6f}" for k in range(-190, 190, 3)) + ", " + ", ".join(map(str, range(1, 13)))
    path = tmp_path / "constant_noise.py"
    path.write_text(f"VALUES = [{literals}]\n")
    spec = importlib.util.spec_from_file_location("constant_noise", path)
    sys.modules["constant_noise"] = module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        after = _search()
    finally:
        del sys.modules["constant_noise"]
    assert before == after
