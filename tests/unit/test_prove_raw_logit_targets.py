"""Issue 37's two bounds as users write them — raw logits, the stable softmax, ``T`` on an interval, no
``parameters=`` — proved at slack 1e-4 within a box budget (about 70 and 3 boxes when measured, docs/proofs.md),
each certificate accepted by ``verify_proof`` finding the statement from the certificate alone; each 2 % mutant
refuted with a counterexample certified in balls."""

import pytest

import raw_logit_bounds as raw
from theorems import verify_proof
from theorems.engine.prove import prove

BUDGET = 2000
CASES = {"jacobian-two": (raw.JACOBIAN_TWO, raw.JACOBIAN_TWO_TIGHT, "l ∈ [-5, 5]^2, T ∈ [0.1, 10]"),
         "lse-upper": (raw.LSE_UPPER, raw.LSE_UPPER_TIGHT, "l ∈ [-1, 1]^3, T ∈ [0.5, 2]")}


@pytest.mark.parametrize("name", CASES)
def test_the_bound_as_written_is_proved_and_its_certificate_accepted(name, tmp_path):
    statement, _, domain = CASES[name]
    assert statement.parameters is None
    path = tmp_path / "proof.json"
    proof = prove(statement, slack=1e-4, max_seconds=None, max_boxes=BUDGET, certificate=path)
    assert proof.status == "proved" and proof.checker == "proved", proof.describe()
    assert proof.domain == domain and "shift invariance" in proof.method, proof.describe()
    check = verify_proof(path)  # the statement found through the certificate's source
    assert check.status == "proved" and check.statement_id == statement.id, check.describe()


@pytest.mark.parametrize("name", CASES)
def test_the_two_percent_mutant_is_refuted(name):
    _, mutant, _ = CASES[name]
    proof = prove(mutant, slack=1e-4, max_seconds=None, max_boxes=BUDGET)
    assert proof.status == "refuted" and proof.counterexample is not None, proof.describe()
    assert proof.counterexample.method.startswith("arb ball arithmetic")
