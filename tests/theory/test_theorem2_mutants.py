"""Deliberately wrong variants of the Theorem 2 statements that hold must be refuted.

Statistical statements are changed with :func:`theorems.statements.separability.theorem2.mutant` (``dataclasses.replace``
plus re-binding the interval confirmation to the mutant's own right side).
"""

import numpy as np
import pytest

from theorems import STATEMENTS, refute
from theorems.maths.separability import xi
from theorems.statements.separability.theorem2 import selected_indices, mutant as _mutant

BUDGET = 200
"""Examples per mutant search: a search stops at its first confirmed counterexample, so this is a ceiling."""


def mutant(statement, **changes):
    return _mutant(statement, **({"max_examples": BUDGET} | changes))


LOWER = STATEMENTS["theorem2.lower.ungated"]
CORRECTED = STATEMENTS["theorem2.upper.ungated.corrected"]
CROSS = STATEMENTS["theorem2.assumptions.cross-term"]
SECOND = STATEMENTS["theorem2.assumptions.second-moment"]


def _lower(shift=0.0, factor=1.0):
    """``1 + shift − factor·Σξ_i/(r·N)``: a constant tightened when ``shift > 0`` (or ``factor < 1``)."""
    def side(i, xp):
        spread = xi(i["alpha"], i["n"], M=i["M"], delta=i["delta"]).sum()
        return 1 + shift - factor * spread / (i["r"] * i["n"])
    return side


def _corrected_without_branch(i, xp):
    """The McDiarmid tail used above its mean as well (the ``r ≥ m_i → 1`` branch dropped)."""
    alpha = np.asarray(i["alpha"])[selected_indices(i)]
    others, others_sq = alpha.sum() - alpha, np.sum(alpha ** 2) - alpha ** 2
    mean_floor = np.where(others > 0, i["M"] * others_sq / np.where(others > 0, others, 1), 0.0)
    with np.errstate(divide="ignore"):
        return np.exp(-(mean_floor - i["r"]) ** 2 / (2 * i["M"] ** 2 * others_sq)).mean()



def _corrected_capped(i, xp):
    """The ``r ≥ m_i → 1`` branch replaced by 0.9 (a constant tightened; ``N = 1`` shows it at once)."""
    alpha = np.asarray(i["alpha"])[selected_indices(i)]
    M, r = i["M"], i["r"]
    others, others_sq = alpha.sum() - alpha, np.maximum(np.sum(alpha ** 2) - alpha ** 2, 0.0)
    mean_floor = np.where(others > 0, M * others_sq / np.where(others > 0, others, 1), 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        tail = np.exp(-(mean_floor - r) ** 2 / (2 * M * M * others_sq))
    return np.where(r >= mean_floor, 0.9, tail).mean()


def _second_moment(cross, diagonal=True):
    """``ξ_i²/M²`` with the cross-term coefficient ``cross(δ/M)`` and optionally without the diagonal term."""
    def side(i, xp):
        alpha = np.asarray(i["alpha"])[selected_indices(i)]
        others, others_sq = alpha.sum() - alpha, np.sum(alpha ** 2) - alpha ** 2
        return (others_sq if diagonal else 0.0) + cross(i["delta"] / i["M"]) * (others ** 2 - others_sq)
    return side


def _floor_mutants(statement_id):
    statement = STATEMENTS[statement_id]
    return (
        mutant(statement, id=f"{statement_id}.tightened", rhs=lambda i, xp, s=statement: s.rhs(i, xp) ** 0.8),
        mutant(statement, id=f"{statement_id}.scaled", rhs=lambda i, xp, s=statement: 1.05 * s.rhs(i, xp)),
    )


MUTANTS = {
    "theorem2.lower.ungated": (
        mutant(LOWER, id="theorem2.lower.ungated.shifted", rhs=_lower(shift=0.1)),
        # N = 1 is an equality case (ξ = 0, bound 1, N_s/N = 1): the targeted search gathers there, so a
        # mutant of the spread term alone (e.g. 1 − Σξ/(4rN)) is refuted only in a narrow regime and not reliably
        mutant(LOWER, id="theorem2.lower.ungated.scaled", rhs=lambda i, xp: 1.1 * _lower()(i, xp)),
    ),
    "theorem2.upper.ungated.corrected": (
        mutant(CORRECTED, id="theorem2.upper.ungated.corrected.no-branch", rhs=_corrected_without_branch),
        mutant(CORRECTED, id="theorem2.upper.ungated.corrected.capped", rhs=_corrected_capped),
    ),
    "theorem2.upper.2m2.floor": _floor_mutants("theorem2.upper.2m2.floor"),
    "theorem2.upper.16m2.floor": _floor_mutants("theorem2.upper.16m2.floor"),
    "theorem2.assumptions.cross-term": (
        mutant(CROSS, id="theorem2.assumptions.cross-term.full-delta", rhs=lambda i, xp: 1.0 - (i["delta"] / i["M"]) ** 2),
        mutant(CROSS, id="theorem2.assumptions.cross-term.no-m2", rhs=lambda i, xp: -(i["delta"] / i["M"]) ** 2 / 2),
    ),
    "theorem2.assumptions.second-moment": (
        mutant(SECOND, id="theorem2.assumptions.second-moment.squared",
               rhs=lambda i, xp: _second_moment(lambda d: 1 - d * d / 2)(i, xp) ** 2),
        mutant(SECOND, id="theorem2.assumptions.second-moment.no-diagonal",
               rhs=_second_moment(lambda d: 1 - d * d / 2, diagonal=False)),
    ),
}


@pytest.mark.parametrize("mutant_statement", [m for ms in MUTANTS.values() for m in ms], ids=lambda m: m.id)
def test_mutant_is_refuted(mutant_statement):
    assert refute(mutant_statement, seed=0) is not None
