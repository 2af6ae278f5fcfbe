"""``prove`` rejects bad arguments with an error naming the argument, before any work."""

import dataclasses

import numpy as np
import pytest

from theorems import STATEMENTS
from theorems.engine.prove import prove

LEMMA = STATEMENTS["lemma1.upper"]
# on raw logits (no parametrisation, no default domain) its side picks the top two by a float64 argsort
MOTIVATING = dataclasses.replace(STATEMENTS["corollary3.motivating.corrected"], parameters=None, prove=None)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"slack": -1e-3}, ValueError, "slack"),
    ({"slack": float("nan")}, ValueError, "slack"),
    ({"max_seconds": -1}, ValueError, "max_seconds"),
    ({"seed": -1}, ValueError, "seed"),
    ({"max_boxes": 0}, ValueError, "max_boxes"),
    ({"max_boxes": 2.5}, TypeError, "max_boxes"),
    ({"second_order": "yes"}, TypeError, "second_order"),
])
def test_bad_options_name_the_argument(kwargs, error, match):
    with pytest.raises(error, match=match):
        prove(LEMMA, **kwargs)


@pytest.mark.parametrize("domain, match", [
    ({"x": (2.0, 1.0)}, "low <= high"),
    ({"x": (0.0, float("inf"))}, "finite"),
    ({"x": [1.0, 2.0]}, "pairs"),
    ({"x": 1.0}, "no interval"),
    ({}, "non-empty"),
    ([("x", (0, 1))], "mapping"),
])
def test_bad_domains_are_rejected(domain, match):
    with pytest.raises((ValueError, TypeError), match=match):
        prove(LEMMA, domain)


def test_a_statement_without_a_default_domain_needs_one():
    with pytest.raises(ValueError, match="domain is required"):
        prove(MOTIVATING)


def test_a_side_without_a_dual_form_is_undecided_not_proved():
    proof = prove(MOTIVATING, {"logits": [(-1.0, 1.0), (0.0, 0.0)], "T": 1.0, "eps": 0.5},
                  max_seconds=None, max_boxes=50)
    assert proof.status == "undecided" and "no ball form on a box" in proof.detail


def test_not_a_statement():
    with pytest.raises(TypeError, match="statement"):
        prove("lemma1.upper", {"x": (0, 1)})
