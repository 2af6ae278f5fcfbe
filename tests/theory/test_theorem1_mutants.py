"""Deliberately wrong variants of the Theorem 1 statements that hold must be refuted.

Each mutant changes one thing: a constant tightened, a term dropped, or an exponent changed.
The random-selection sides keep the common offset ``A = Σ‖α_i x_i‖`` of the originals (see
``theorems.statements.distance.theorem1.plus_terms``), so only the mutated term differs.
"""

import dataclasses

import pytest

from strategies.distance import distance_instances
from theorems import STATEMENTS, refute
from theorems.statements.distance.theorem1 import (
    fixed_parts, plus_terms, effective_number_bound, jensen_bound, main_sum, selected, weights,
)

pytestmark = pytest.mark.slow  # each probe shrinks through mpmath enumerations: seconds, not milliseconds


SMALL = distance_instances(max_length=5)
"""Random-selection mutants search L <= 5: every mpmath confirmation enumerates C(L, N) subsets."""


def _mutant(statement_id, suffix, **sides):
    if statement_id.startswith("theorem1.random."):
        sides.setdefault("instances", SMALL)
    return dataclasses.replace(STATEMENTS[statement_id], id=f"{statement_id}.{suffix}", **sides)


def _fixed_rhs(*, center, gap=0, drop_second=False, drop_first=False, absolute=True):
    """The fixed bound with one change: ``(L − N − gap)`` in the coefficient, a term dropped, or ``|·|`` removed."""
    def side(i, xp):
        mass, outside, d1, normalised, largest = fixed_parts(i, xp)
        first = 0 if drop_first else outside * d1
        if center == "corrected":
            coefficient = xp.abs(outside - mass) if absolute else outside - mass
            return first + (0 if drop_second else coefficient * normalised)
        c = normalised if center == "normalised" else largest
        coefficient = (len(i["w"]) - int(sum(selected(i))) - gap) * mass - outside
        return first + (0 if drop_second else coefficient * c)
    return side


def _scaled(term, factor):
    return lambda i, xp: term(i, xp) * factor


def _squared_alpha_bound(i, xp):
    """``effective_number_bound`` with ``‖α‖₂`` replaced by ``‖α‖₂²`` (an exponent changed)."""
    alpha = weights(i, xp)
    return effective_number_bound(i, xp) * xp.sqrt(sum(alpha * alpha))


MUTANTS = {
    "theorem1.fixed.sum.normalised": (
        _mutant("theorem1.fixed.sum.normalised", "coefficient-minus-one", rhs=_fixed_rhs(center="normalised", gap=1)),
        _mutant("theorem1.fixed.sum.normalised", "no-centre-term", rhs=_fixed_rhs(center="normalised", drop_second=True)),
    ),
    "theorem1.fixed.sum.max-norm": (
        _mutant("theorem1.fixed.sum.max-norm", "coefficient-minus-one", rhs=_fixed_rhs(center="max-norm", gap=1)),
        _mutant("theorem1.fixed.sum.max-norm", "no-centre-term", rhs=_fixed_rhs(center="max-norm", drop_second=True)),
    ),
    "theorem1.fixed.norm.corrected": (
        _mutant("theorem1.fixed.norm.corrected", "no-absolute-value", rhs=_fixed_rhs(center="corrected", absolute=False)),
        _mutant("theorem1.fixed.norm.corrected", "no-d1-term", rhs=_fixed_rhs(center="corrected", drop_first=True)),
    ),
    "theorem1.random.residual-sign": (
        _mutant("theorem1.random.residual-sign", "tightened", rhs=plus_terms(_scaled(main_sum, 1.05))),
        _mutant("theorem1.random.residual-sign", "plus-bound", rhs=plus_terms(main_sum, jensen_bound)),
    ),
    "theorem1.random.residual-bound": (
        _mutant("theorem1.random.residual-bound", "no-bound", rhs=plus_terms(main_sum)),
        _mutant("theorem1.random.residual-bound", "tenth-of-bound", rhs=plus_terms(main_sum, _scaled(jensen_bound, 0.1))),
    ),
    "theorem1.random.residual-effective-number": (
        _mutant("theorem1.random.residual-effective-number", "no-bound", rhs=plus_terms(main_sum)),
        _mutant("theorem1.random.residual-effective-number", "squared-norm", rhs=plus_terms(main_sum, _squared_alpha_bound),
                 instances=distance_instances(max_length=9)),
    ),
}


@pytest.mark.parametrize("mutant", [m for ms in MUTANTS.values() for m in ms], ids=lambda m: m.id)
def test_mutant_is_refuted(mutant):
    assert refute(mutant, max_examples=40, seed=0) is not None
