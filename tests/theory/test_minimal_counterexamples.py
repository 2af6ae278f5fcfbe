"""Refutations shrink to the smallest instance that can show them.

The sizes below were derived by hand: a smaller instance cannot violate the statement (the
docstring of each family says why); a regression here means the shrinker stopped early.
"""

import pytest

from theorems import STATEMENTS, necessity, refute

MINIMAL_SIZE = {
    "corollary1.own-key.upper": 2,  # L = 2: one key of norm 0 beside one aligned against q
    "corollary1.own-key.lower": 2,
}


@pytest.mark.parametrize("statement_id, size", MINIMAL_SIZE.items())
def test_refutation_shrinks_to_minimal_length(statement_id, size):
    found = refute(STATEMENTS[statement_id], seed=0)
    assert found is not None and found.size == size


def test_corollary1_own_key_counterexample_is_one_dimensional():
    found = refute(STATEMENTS["corollary1.own-key.upper"], seed=0)
    assert found.instance["keys"].shape == (2, 1)


@pytest.mark.parametrize("hypothesis, size", [("bounded", 2), ("positive", 3)])
def test_lemma1_upper_probes_shrink(hypothesis, size):
    """Unbounded logits break the bound at L = 2; exact zeros need L = 3 > L0 = 2."""
    found = necessity(STATEMENTS["lemma1.upper"], hypothesis, seed=0).counterexample
    assert found is not None and found.size == size
