"""The raw-logit bounds of ``raw_logit_bounds.py`` (issue 37's targets) say what they claim: each true one holds
under the search and is tight at equal logits; each 2 % mutant is refuted with a certified counterexample, and is
false (certified) at equal logits at the corners of its domain."""

import itertools

import numpy as np
import pytest

from raw_logit_bounds import TIGHT, TRUE
from theorems import certify, check

PAIRS = list(zip(TRUE, TIGHT))


def _equal_logits(statement):
    """Equal logits at the ends of the domain's logit range, at both ends of its ``T`` range."""
    (low, high), n = statement.prove["l"][0], len(statement.prove["l"])
    return [{"l": np.full(n, c), "T": t} for c, t in itertools.product((low, high), statement.prove["T"])]


def test_every_true_bound_has_its_mutant_and_a_domain():
    assert len(TRUE) == len(TIGHT) >= 6
    for true, tight in PAIRS:
        assert tight.id == true.id + ".tight" and tight.prove == true.prove and tight.relation == true.relation


@pytest.mark.parametrize("statement", TRUE, ids=lambda s: s.id)
def test_the_true_bound_holds(statement):
    verdict = check(statement, max_examples=60, seed=0)
    assert verdict.found == "holds", verdict.report


@pytest.mark.parametrize("statement", TIGHT, ids=lambda s: s.id)
def test_the_mutant_is_refuted(statement):
    verdict = check(statement, max_examples=60, seed=0)
    assert verdict.found == "refuted", verdict.report
    assert verdict.report.counterexample.method.startswith("arb ball arithmetic")


@pytest.mark.parametrize("statement", TRUE, ids=lambda s: s.id)
def test_the_true_bound_is_tight_at_equal_logits(statement):
    for instance in _equal_logits(statement):
        lhs, rhs = statement.sides(instance, np)
        assert float(lhs) == pytest.approx(float(rhs), rel=1e-12, abs=1e-12), instance


@pytest.mark.parametrize("statement", TIGHT, ids=lambda s: s.id)
def test_the_mutant_is_false_at_equal_logits(statement):
    for instance in _equal_logits(statement):
        assert certify(statement, instance).status == "violated", instance
