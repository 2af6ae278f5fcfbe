"""The enclosures ``prove`` relies on, against an independent computation: on random sub-boxes of a declared
domain, the dual's value ball must meet the arb ball of the side at random points of the box, and the dual's
gradient must enclose the slope between two such points (mean-value theorem). A side whose enclosure is made too
narrow must fail this check: the test has teeth."""

import numpy as np
import pytest

from theorems import STATEMENTS
from theorems.engine import dual
from theorems.engine.boxes import Domain, dual_instance
from theorems.engine.precision import ARB, F64, Undecided, balls

IDS = ["lemma1.upper", "corollary1.max-key.lower", "corollary3.frobenius.corrected",
       "corollary3.finite-difference.corrected"]


def _side_at(statement, domain, point, side):
    instance = domain.point(point)
    if statement.parameters is not None:
        instance = statement.parameters(instance, F64)
    function = statement.lhs if side == "lhs" else statement.rhs
    return np.atleast_1d(np.asarray(function(balls(dict(instance)), ARB), dtype=object)).ravel()


def _check_enclosures(statement, *, boxes=8, seed=0):
    domain = Domain.parse(statement.prove)
    rng = np.random.default_rng(seed)
    for _ in range(boxes):
        a, b = rng.uniform(domain.lows, domain.highs), rng.uniform(domain.lows, domain.highs)
        lows, highs = np.minimum(a, b), np.maximum(a, b)
        with ARB.precision(128), dual_instance(domain, lows, highs) as instance:
            if statement.parameters is not None:
                instance = statement.parameters(instance, dual.DUAL)
            for side in ("lhs", "rhs"):
                function = statement.lhs if side == "lhs" else statement.rhs
                try:
                    enclosed = np.atleast_1d(np.asarray(function(instance, dual.DUAL), dtype=object)).ravel()
                except Undecided:  # e.g. a square root of a ball reaching 0: prove bisects such a box
                    continue
                x, y = rng.uniform(lows, highs), rng.uniform(lows, highs)
                at_x, at_y = _side_at(statement, domain, x, side), _side_at(statement, domain, y, side)
                for e, fx, fy in zip(enclosed, at_x, at_y):
                    if not isinstance(e, dual.Dual):
                        continue
                    assert e.value.overlaps(fx.arb), f"{statement.id} {side}: {fx} outside {e.value}"
                    slope = sum((g * float(d) for g, d in zip(e.gradient, y - x)), 0 * e.value)
                    assert slope.overlaps(fy.arb - fx.arb), f"{statement.id} {side}: slope {fy.arb - fx.arb} outside {slope}"


@pytest.mark.parametrize("statement_id", IDS)
def test_dual_enclosures_contain_the_ball_values(statement_id):
    _check_enclosures(STATEMENTS[statement_id])


def test_a_too_narrow_exp_is_caught(monkeypatch):
    def narrow(x):
        wide = dual.exp(x)
        wide.value = wide.centre  # the value at the box's centre claimed for the whole box: unsound
        return wide
    monkeypatch.setattr(dual.DUAL, "exp", np.frompyfunc(narrow, 1, 1))
    with pytest.raises(AssertionError, match="outside"):
        _check_enclosures(STATEMENTS["corollary3.frobenius.corrected"])
