"""A bound that the tested strategy never breaks but that fails elsewhere in the domain: ``check`` finds it
holding, ``prove`` on the whole domain refutes it with a certified counterexample."""

import numpy as np
from hypothesis import strategies as st

from theorems import Statement, check
from theorems.engine.prove import SUITE_BOXES, prove

# e^x ≤ 1 + x + x² is true for 0 ≤ x ≤ 1.5 (the strategy's range) and false beyond x ≈ 1.79
QUADRATIC = Statement(
    id="test.exp-below-quadratic", title="exp below 1 + x + x²", paper_ref="-", reading="-",
    formula="e^x ≤ 1 + x + x²", lhs=lambda i, xp: xp.exp(i["x"]), rhs=lambda i, xp: 1 + i["x"] + i["x"] ** 2,
    relation="<=", instances=st.fixed_dictionaries({"x": st.floats(0, 1.5).map(np.float64)}), expected="holds",
    reason="-")


def test_check_finds_it_holding_on_the_strategy():
    assert check(QUADRATIC, max_examples=200, seed=0).found == "holds"


def test_prove_refutes_it_on_the_wider_domain():
    proof = prove(QUADRATIC, {"x": (0.0, 3.0)}, max_seconds=None, max_boxes=SUITE_BOXES)
    assert proof.status == "refuted", proof.describe()
    assert proof.counterexample.instance["x"] > 1.5
    assert proof.counterexample.method.startswith("arb ball arithmetic")


def test_prove_proves_it_where_it_is_true():
    assert prove(QUADRATIC, {"x": (0.0, 1.5)}, max_seconds=None, max_boxes=SUITE_BOXES).status == "proved"
