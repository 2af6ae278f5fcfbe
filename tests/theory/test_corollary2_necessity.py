"""Corollary 2's corrected bounds need the uniform selection law and not Σα = 1."""

import pytest

from theorems import STATEMENTS, necessity

pytestmark = pytest.mark.slow  # each probe shrinks through mpmath enumerations: seconds, not milliseconds


@pytest.mark.parametrize("statement_id", ["corollary2.i.corrected", "corollary2.ii"])
def test_uniform_selection_is_needed(statement_id):
    assert necessity(STATEMENTS[statement_id], "uniform-selection", max_examples=60, seed=0).needed


def test_probability_weights_are_not_needed():
    assert not necessity(STATEMENTS["corollary2.ii"], "normalised", max_examples=60, seed=0).needed
