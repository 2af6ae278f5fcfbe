"""Mutants of the holding Corollary 3 statements: each must be refuted, so the checks have teeth.

For every corrected bound: the constant tightened by 5% (tightness), and one structural change
(the paper's ``√2`` cap put back, a ``√2`` dropped, or the power of ``T`` changed).
"""

import dataclasses

import pytest

from theorems import STATEMENTS, refute

pytestmark = pytest.mark.theory


def _mutant(statement_id: str, label: str, rhs):
    original = STATEMENTS[statement_id]
    return dataclasses.replace(original, id=f"{statement_id}.mutant-{label}", rhs=rhs(original.rhs), expected="refuted")


def _tightened(rhs):
    return lambda i, xp: rhs(i, xp) * xp.number("0.95")


def _capped(rhs):
    def side(i, xp):
        bound, cap = rhs(i, xp), xp.sqrt(xp.number(2))
        return bound if bound < cap else cap
    return side


def _power(rhs):  # 1/T -> 1/T^0.9: smaller for T > 1
    return lambda i, xp: rhs(i, xp) * i["T"] ** xp.number("0.1")


def _without_root2(rhs):
    return lambda i, xp: rhs(i, xp) / xp.sqrt(xp.number(2))


MUTANTS = {
    "corollary3.spectral.corrected": (_mutant("corollary3.spectral.corrected", "095", _tightened),
                                      _mutant("corollary3.spectral.corrected", "capped", _capped)),
    "corollary3.frobenius.corrected": (_mutant("corollary3.frobenius.corrected", "095", _tightened),
                                       _mutant("corollary3.frobenius.corrected", "power", _power)),
    "corollary3.row.corrected": (_mutant("corollary3.row.corrected", "095", _tightened),
                                 _mutant("corollary3.row.corrected", "no-root2", _without_root2)),
    "corollary3.entry.corrected": (_mutant("corollary3.entry.corrected", "095", _tightened),
                                   _mutant("corollary3.entry.corrected", "capped", _capped)),
    "corollary3.finite-difference.corrected": (
        _mutant("corollary3.finite-difference.corrected", "095", _tightened),
        _mutant("corollary3.finite-difference.corrected", "no-root2", _without_root2)),
    "corollary3.motivating.corrected": (_mutant("corollary3.motivating.corrected", "095", _tightened),
                                        _mutant("corollary3.motivating.corrected", "no-root2", _without_root2)),
}


@pytest.mark.parametrize("mutant", [m for group in MUTANTS.values() for m in group], ids=lambda m: m.id)
def test_mutant_is_refuted(mutant):
    found = refute(mutant, max_examples=100, seed=0)
    assert found is not None, f"{mutant.id} survived: the suite cannot tell it from the true bound"
    assert found.method.startswith("arb ball arithmetic")
