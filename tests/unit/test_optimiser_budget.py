"""The optimiser's budget follows the loaded profile: a profile that asks for a harder search (more examples)
gets more proposals too (more Hypothesis examples alone change the starts, and missed mutants that the default
profile refuted: ``docs/search.md``); a statement's own ``max_examples`` does not change it."""

import pytest
from hypothesis import settings

from theorems import STATEMENTS, investigate
from theorems.engine import optimiser


@pytest.fixture
def profile_of():
    before = settings._current_profile

    def load(examples):
        settings.register_profile(f"test-optimiser-budget-{examples}", max_examples=examples, deadline=None)
        settings.load_profile(f"test-optimiser-budget-{examples}")

    yield load
    settings.load_profile(before)


@pytest.mark.parametrize("examples, proposals", [(100, 600), (300, 1800), (20, 600)])
def test_the_proposals_scale_with_the_profile(profile_of, examples, proposals):
    profile_of(examples)
    report = investigate(STATEMENTS["lemma1.upper"], max_examples=20, seed=0)
    assert report.counterexample is None
    assert report.optimiser.endswith(f", {proposals} proposals"), report.optimiser


def test_the_budget_is_never_below_the_default():
    assert optimiser.evaluations(1) == optimiser.EVALUATIONS
    assert optimiser.evaluations(3000) == 30 * optimiser.EVALUATIONS
