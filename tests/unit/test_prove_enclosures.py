"""The enclosures ``prove`` relies on, against an independent computation: on random sub-boxes of a declared
domain, the dual's value ball must meet the arb ball of the side at random points of the box, and the dual's
gradient must enclose the slope between two such points (mean-value theorem). A side whose enclosure is made too
narrow must fail this check: the test has teeth."""

import flint
import numpy as np
import pytest

from theorems import STATEMENTS
from theorems.arithmetic import box_jet
from theorems.arithmetic.precision import ARB, F64, Undecided, balls
from theorems.engine.prove.domain import Domain, jet_instance

IDS = ["lemma1.upper", "corollary1.max-key.lower", "corollary3.frobenius.corrected",
       "corollary3.spectral.corrected", "corollary3.entry.corrected", "corollary3.finite-difference.corrected",
       "corollary3.motivating.corrected"]


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
        with ARB.precision(128), jet_instance(domain, lows, highs, order=1) as instance:
            if statement.parameters is not None:
                instance = statement.parameters(instance, box_jet.DUAL)
            for side in ("lhs", "rhs"):
                function = statement.lhs if side == "lhs" else statement.rhs
                try:
                    enclosed = np.atleast_1d(np.asarray(function(instance, box_jet.DUAL), dtype=object)).ravel()
                except Undecided:  # e.g. a square root of a ball reaching 0: prove bisects such a box
                    continue
                x, y = rng.uniform(lows, highs), rng.uniform(lows, highs)
                at_x, at_y = _side_at(statement, domain, x, side), _side_at(statement, domain, y, side)
                for e, fx, fy in zip(enclosed, at_x, at_y):
                    if not isinstance(e, box_jet.Dual):
                        continue
                    assert e.value.overlaps(fx.arb), f"{statement.id} {side}: {fx} outside {e.value}"
                    slope = sum((g * float(d) for g, d in zip(e.gradient, y - x)), 0 * e.value)
                    assert slope.overlaps(fy.arb - fx.arb), f"{statement.id} {side}: slope {fy.arb - fx.arb} outside {slope}"


@pytest.mark.parametrize("statement_id", IDS)
def test_dual_enclosures_contain_the_ball_values(statement_id):
    _check_enclosures(STATEMENTS[statement_id])


def test_a_too_narrow_exp_is_caught(monkeypatch):
    def narrow(x):
        wide = box_jet.UNARY["exp"](x)
        wide.value = wide.centre  # the value at the box's centre claimed for the whole box: unsound
        return wide
    monkeypatch.setattr(box_jet.DUAL, "exp", np.frompyfunc(narrow, 1, 1))
    with pytest.raises(AssertionError, match="outside"):
        _check_enclosures(STATEMENTS["corollary3.frobenius.corrected"])


def test_a_too_narrow_square_is_caught(monkeypatch):
    square = box_jet.Dual.__pow__

    def narrow(self, n):
        wide = square(self, n)
        if n == 2:
            wide.value = wide.value.intersection(wide.centre.union(flint.arb(0)))  # clipped at the centre's square
        return wide
    monkeypatch.setattr(box_jet.Dual, "__pow__", narrow)
    with pytest.raises(AssertionError, match="outside"):
        _check_enclosures(STATEMENTS["corollary3.entry.corrected"], boxes=32)


def _matrix(x, y):
    """A symmetric 3×3 matrix of two coordinates with no rank-one shortcut (the softmax Jacobian at L = 2 has one)."""
    return [[x * y, x - y, 1], [x - y, y * y, x], [1, x, -x * x]]


def _check_spectral_norm(spectral_norm, *, boxes=20, seed=0):
    """``spectral_norm`` of duals on random boxes against float64 SVDs at two points of each box: the value at
    each point inside the value ball, the slope between them inside the gradient's (to rounding, 1e-12)."""
    rng = np.random.default_rng(seed)
    for _ in range(boxes):
        a, b = rng.uniform(-2, 2, 2), rng.uniform(-2, 2, 2)
        lows, highs = np.minimum(a, b), np.maximum(a, b)
        intervals = [(flint.arb((lo + hi) / 2), flint.arb((hi - lo) / 2)) for lo, hi in zip(lows, highs)]
        with ARB.precision(128), box_jet.on_box(intervals) as (x, y):
            enclosed = spectral_norm(np.array(_matrix(x, y), dtype=object))
        p, q = rng.uniform(lows, highs), rng.uniform(lows, highs)
        at_p, at_q = (np.linalg.norm(np.array(_matrix(*point), dtype=float), 2) for point in (p, q))
        for value in (at_p, at_q):
            assert enclosed.value.lower() - 1e-12 <= value <= enclosed.value.upper() + 1e-12, \
                f"spectral norm {value} outside {enclosed.value}"
        slope = sum((g * float(d) for g, d in zip(enclosed.gradient, q - p)), 0 * enclosed.value)
        assert slope.lower() - 1e-12 <= at_q - at_p <= slope.upper() + 1e-12, f"slope {at_q - at_p} outside {slope}"


def test_dual_spectral_norm_encloses_float64_svds_of_a_full_rank_matrix():
    _check_spectral_norm(box_jet.spectral_norm)


@pytest.mark.parametrize("part", ["value", "gradient"])
def test_a_too_narrow_spectral_norm_is_caught(part):
    def narrow(matrix):
        wide = box_jet.spectral_norm(matrix)
        if part == "value":
            wide.value = wide.centre  # the centre's norm claimed for the whole box: unsound
        else:
            wide.gradient = tuple(g / 4 for g in wide.gradient)  # a quarter of the Lipschitz bound: unsound
        return wide
    with pytest.raises(AssertionError, match="outside"):
        _check_spectral_norm(narrow)


def test_a_too_narrow_spectral_norm_is_caught_on_the_statement(monkeypatch):
    def narrow(matrix):
        wide = box_jet.spectral_norm(matrix)
        wide.value = wide.centre
        return wide
    monkeypatch.setattr(box_jet.DUAL, "spectral_norm", narrow)
    with pytest.raises(AssertionError, match="outside"):
        _check_enclosures(STATEMENTS["corollary3.spectral.corrected"])
