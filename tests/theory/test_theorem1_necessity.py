"""Which hypotheses of the Theorem 1 statements are needed: a confirmed counterexample once each is broken.

Found by the suite: the top-N choice and Σα = 1 are both needed by the fixed sum bound; the corrected
norm bound needs Σα = 1 but holds for any subset; every random-selection statement needs the uniform
law but none needs Σα = 1 (Jensen and the variance bound hold for any vectors a_j = α_j x_j).
"""

import pytest

from theorems import STATEMENTS, necessity

pytestmark = pytest.mark.slow  # each probe shrinks through mpmath enumerations: seconds, not milliseconds

NEEDED = {
    ("theorem1.fixed.sum.normalised", "top-n"): True,
    ("theorem1.fixed.sum.normalised", "normalised"): True,
    ("theorem1.fixed.sum.max-norm", "top-n"): True,
    ("theorem1.fixed.norm.corrected", "normalised"): True,
    ("theorem1.fixed.norm.corrected", "top-n"): False,
    ("theorem1.random.residual-sign", "uniform-selection"): True,
    ("theorem1.random.residual-bound", "uniform-selection"): True,
    ("theorem1.random.residual-bound", "normalised"): False,
}


@pytest.mark.parametrize("statement_id, hypothesis", NEEDED, ids=lambda v: str(v))
def test_hypothesis_necessity(statement_id, hypothesis):
    found = necessity(STATEMENTS[statement_id], hypothesis, max_examples=60, seed=0)
    assert found.needed is NEEDED[statement_id, hypothesis]
