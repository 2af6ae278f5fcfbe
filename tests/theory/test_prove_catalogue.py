"""Every catalogue statement that declares a proof domain is *proved* there, and its constant tightened by 2 %
is *refuted* there by ``prove`` itself (a certified counterexample, as ``check`` reports), within the suite's box
budget (never seconds: the same result at any load). The two declared domains that take minutes (about 28,000 boxes
each) are proved here at ``T = 1``, so that ``pytest -m theory`` stays a run of about a minute; on their whole
declared domain, with the checker, in ``tests/unit/test_prove_domains.py`` (marked slow)."""

import dataclasses

import numpy as np
import pytest

from theorems import STATEMENTS
from theorems.arithmetic.precision import F64
from theorems.engine.prove.domain import Domain
from theorems.engine.prove import SUITE_BOXES, prove

pytestmark = pytest.mark.theory

DECLARED = [s for s in STATEMENTS.values() if s.prove is not None]
AT_T_ONE = {"corollary3.finite-difference.corrected", "corollary3.motivating.corrected"}


def _domain(statement) -> dict:
    """The declared domain, at ``T = 1`` for the two that take minutes on their ``T`` interval."""
    return {**statement.prove, "T": 1.0} if statement.id in AT_T_ONE else statement.prove


def _tightened(statement):
    """The bound moved 2 % towards the bounded side: ``0.98·rhs`` for ``≤``, ``1.02·rhs`` for ``≥``."""
    factor = "0.98" if statement.relation == "<=" else "1.02"
    rhs = statement.rhs
    return dataclasses.replace(statement, id=f"{statement.id}.tightened", expected="refuted",
                               rhs=lambda i, xp: rhs(i, xp) * xp.number(factor))


def test_at_least_ten_holding_statements_declare_a_domain():
    assert len(DECLARED) >= 10 and all(s.expected == "holds" for s in DECLARED)


@pytest.mark.parametrize("statement", DECLARED, ids=lambda s: s.id)
def test_declared_domain_is_proved_with_a_proved_sup_enclosure(statement):
    proof = prove(statement, _domain(statement), max_seconds=None, max_boxes=SUITE_BOXES)
    assert proof.status == "proved", proof.describe()
    low, high = proof.sup
    assert low <= high <= 1 + proof.slack  # the proved enclosure of sup small/big over the domain


@pytest.mark.parametrize("statement", DECLARED, ids=lambda s: s.id)
def test_two_percent_mutant_is_refuted_by_prove(statement):
    proof = prove(_tightened(statement), _domain(statement), max_seconds=None, max_boxes=SUITE_BOXES)
    assert proof.status == "refuted", proof.describe()
    assert proof.counterexample.method.startswith("arb ball arithmetic")


@pytest.mark.parametrize("statement_id, slack", [("corollary3.frobenius.corrected", 1e-6),
                                                 ("corollary3.spectral.corrected", 1e-6),
                                                 ("corollary3.row.corrected", 1e-6),
                                                 ("corollary3.entry.corrected", 1e-6),  # tight along a curve
                                                 ("lemma1.upper", 1e-6), ("lemma1.lower", 1e-6)])
def test_bounds_are_proved_at_three_logits(statement_id, slack):
    statement = STATEMENTS[statement_id]
    # T = 1 at three logits: Lemma 1's lower bound with T ∈ [0.1, 10] there takes 68,000 boxes (docs/proofs.md)
    domain = {**statement.prove, "T": 1.0, "u": [(-1.0, 1.0)] * 3} if "u" in statement.prove else \
        {"gaps": [(0.0, 10.0)] * 2, "T": 1.0}
    proof = prove(statement, domain, slack=slack, max_seconds=None, max_boxes=SUITE_BOXES)
    assert proof.status == "proved", proof.describe()
    assert prove(_tightened(statement), domain, slack=slack, max_seconds=None, max_boxes=SUITE_BOXES).status == "refuted"


def test_finite_difference_bound_is_proved_at_three_logits():
    """Along ``v = e₁ − e₂``, where the supremum is reached (in another direction the bound is loose: its 2 %
    mutant is proved there too, so a mutant test would say nothing)."""
    statement = STATEMENTS["corollary3.finite-difference.corrected"]
    domain = {**statement.prove, "T": 1.0, "logits": [(-5.0, 5.0), (-5.0, 5.0), (0.0, 0.0)],
              "v": np.array([1.0, -1.0, 0.0])}
    proof = prove(statement, domain, max_seconds=None, max_boxes=SUITE_BOXES)
    assert proof.status == "proved", proof.describe()
    assert prove(_tightened(statement), domain, max_seconds=None, max_boxes=SUITE_BOXES).status == "refuted"


def test_motivating_parametrisation_states_the_pair_a_stable_sort_picks():
    """The proof of ``corollary3.motivating.corrected`` takes the top two from its parametrisation (a sort of balls
    touching at a box's edge is undecided): at every point, with ties included, they are the float64 argsort's."""
    statement = STATEMENTS["corollary3.motivating.corrected"]
    domain = Domain.parse({**statement.prove, "gaps": [(0.0, 10.0)] * 3})
    rng = np.random.default_rng(0)
    corners = [np.where(rng.random(domain.size) < 0.5, domain.lows, domain.highs) for _ in range(20)]  # ties: gaps 0
    points = [rng.uniform(domain.lows, domain.highs) for _ in range(200)] + corners
    for point in points:
        instance = statement.parameters(domain.point(point), F64)
        sorted_instance = {k: v for k, v in instance.items() if k != "top_two"}
        assert statement.lhs(instance, F64) == statement.lhs(sorted_instance, F64), instance


def test_motivating_change_factored_form_agrees_with_the_difference_in_balls():
    """``corollary3.motivating.corrected``'s left side (``Δ`` factored so that its ball enclosure is tight relative
    to ``ε``) against ``‖α(A) − α(B)‖₂`` computed directly, in arb balls at random logits, ``T`` and ``ε``."""
    from theorems.arithmetic.precision import ARB, balls
    from theorems.statements.gradient.corollary3 import weights

    statement = STATEMENTS["corollary3.motivating.corrected"]
    rng = np.random.default_rng(0)
    for _ in range(200):
        l = rng.uniform(-5, 5, rng.integers(2, 7))
        instance = balls({"logits": l, "T": float(np.exp(rng.uniform(-4, 4))), "eps": float(np.exp(rng.uniform(-6, 2)))})
        top, runner = np.argsort(-l, kind="stable")[:2]
        A, B = instance["logits"].copy(), instance["logits"].copy()
        A[top], B[runner] = A[top] + 2 * instance["eps"], B[runner] + instance["eps"]
        with ARB.precision(128):
            direct = ARB.norm(weights(A, instance["T"], ARB) - weights(B, instance["T"], ARB))
            factored = statement.lhs(instance, ARB)
        assert factored.arb.overlaps(direct.arb), (l, factored, direct)
