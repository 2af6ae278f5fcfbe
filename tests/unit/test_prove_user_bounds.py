"""The issue's two user bounds at slack 1e-4, each with a certificate the checker accepts (51 boxes and 1 box,
docs/proofs.md: well inside the suite's box budget); their 2 % mutants refuted with a certified counterexample."""

import pytest

from theorems.arithmetic.decimals import outward
from theorems.engine.prove import SUITE_BOXES, prove
from user_bounds import lse, spectral

CASES = {
    "spectral": (spectral, {"gaps": [(0.0, 10.0)], "T": (0.1, 10.0)}),  # L = 2
    "lse": (lse, {"gaps": [(0.0, 10.0)] * 2, "T": (0.5, 2.0)}),  # L = 3
}


@pytest.mark.parametrize("name", CASES)
def test_the_user_bound_is_proved_and_checked(name, tmp_path):
    build, domain = CASES[name]
    proof = prove(build(), domain, slack=1e-4, max_seconds=None, max_boxes=SUITE_BOXES,
                  certificate=tmp_path / "proof.json")
    assert proof.status == "proved" and proof.checker == "proved", proof.describe()
    assert proof.box["T"] == list(outward(*domain["T"]))


@pytest.mark.parametrize("name", CASES)
def test_the_two_percent_mutant_is_refuted(name):
    build, domain = CASES[name]
    proof = prove(build(0.98), domain, slack=1e-4, max_seconds=None, max_boxes=SUITE_BOXES)
    assert proof.status == "refuted" and proof.counterexample is not None, proof.describe()
    assert proof.counterexample.method.startswith("arb ball arithmetic")
