"""Lemma 2's hypotheses: with some ``F_j = 0`` the bound becomes ``+∞`` (vacuous, never false);
as ``F_j → 0`` it stays true but loses all relation to ``‖J‖`` (the ratio grows like ``1/min F``)."""

import numpy as np
import pytest

from theorems import STATEMENTS, necessity
from theorems.arithmetic.precision import F64
from theorems.statements.gradient.lemma2 import square

pytestmark = pytest.mark.theory

LEMMA2 = STATEMENTS["lemma2"]


def test_positivity_is_not_needed_for_truth_only_for_meaning():
    found = necessity(LEMMA2, "positive", max_examples=60, seed=0)
    assert not found.needed
    instance = {"normaliser": square(), "logits": np.array([0.0, 1.0])}
    assert LEMMA2.rhs(instance, F64) == np.inf and np.isfinite(LEMMA2.lhs(instance, F64))


@pytest.mark.parametrize("floor", [1e-2, 1e-4, 1e-6])
def test_bound_over_norm_grows_like_one_over_min_F(floor):
    instance = {"normaliser": square(floor=floor), "logits": np.array([0.0, 1.0])}
    lhs, rhs = LEMMA2.lhs(instance, F64), LEMMA2.rhs(instance, F64)
    assert lhs <= rhs
    # F = (floor, 1 + floor), F' = (0, 2): the bound is (2 + ‖α‖·2)/(2·floor) ≈ 2/floor, ‖J‖ stays below 1
    assert rhs * floor == pytest.approx(2.0, rel=0.02) and lhs < 1.0 and rhs / lhs > 1 / floor
