"""Every refutation is certified or says why not: ``check --json``'s ``certified`` counts the violations proved in
ball arithmetic, also those a statement's own ``confirm`` proves that way (Corollary 2's exact enumeration), and a
statistical confirmation is counted as none and says so in its method. ``corollary2.i.upper`` was refuted by an
enumeration in float64 ("relative margin 0.0429 > rounding guard 1e-09") with ``certified: 0``, against the
README's "every counterexample is certified in ball arithmetic"."""

import numpy as np

from strategies.distance import seeded_embeddings
from theorems import STATEMENTS, check

# the search's counterexample: L = 32, N = 2, one dominant logit, every x_i = (1); all 496 subsets are enumerated
DOMINANT = {"w": np.array([np.exp(2.0)] + [np.exp(-2.0)] * 31), "x": np.ones((32, 1)), "n": 2, "seed": 0}


def test_the_exact_enumeration_is_certified_in_ball_arithmetic():
    found = STATEMENTS["corollary2.i.upper"].confirm(DOMINANT)
    assert found is not None and found.certified and found.method.startswith("arb ball arithmetic")
    assert found.lhs > 2 * 1.0 and found.to_json()["certified"] is True


def test_a_monte_carlo_confirmation_is_not_counted_as_certified_and_says_why():
    x = seeded_embeddings(np.random.default_rng(0), shape="equal", length=64, dim=2)
    found = STATEMENTS["corollary2.i.upper"].confirm({"w": np.ones(64), "x": x, "n": 4, "seed": 0})
    assert found is not None and not found.certified and "not certified" in found.method


def test_every_refuted_statement_of_corollary_2_has_a_certified_violation():
    for name in ("corollary2.i.upper", "corollary2.i.lower"):
        summary = check(STATEMENTS[name], seed=0).to_json()
        assert summary["found"] == "refuted"
        assert summary["certified"] > 0 or "not certified" in summary["counterexample"]["method"], summary
        assert summary["counterexample"]["certified"] == (summary["counterexample"]["method"].startswith("arb"))
