"""A side that catches an undecided comparison of the certifier's balls and returns something else certifies
nothing: ``0.1x + 0.2x == 0.3x`` holds for every real ``x`` but is False in float64 and undecided in balls, where
the constants are 1/10 ± an ulp; a "defensive" ``except`` that turns the undecided test into the violating branch
must leave the instance inconclusive, never a certified counterexample of a bound that holds."""

import dataclasses

import numpy as np

import raw_logit_bounds as raw
from theorems.engine.search.balls import certify


def _two_unless_exact(i, xp):
    x = i["x"][0]
    try:
        return 0.0 if x * 0.1 + x * 0.2 == x * 0.3 else 2.0  # 0 for every real x
    except ArithmeticError:
        return 2.0


def test_a_swallowed_undecided_comparison_certifies_no_counterexample():
    statement = dataclasses.replace(raw.JACOBIAN_TWO, id="swallow.point", lhs=_two_unless_exact,
                                    rhs=lambda i, xp: 1.0, relation="<=", prove=None, expected="holds")
    instance = {"x": np.array([1.0]), "T": 1.0}
    assert _two_unless_exact(instance, np) == 2.0  # float64 sees a violation: the certifier is asked
    outcome = certify(statement, instance)
    assert outcome.status != "violated", outcome
