"""The whole literature battery (``tests/literature_battery.py``) at seeds 0–9: every true bound holds and every
2 % mutant is refuted (certified, or a candidate that fails the gate). Slow (about 7 minutes on one core for
the 340 mutants and 340 true bounds); ``tests/theory/test_literature_battery.py`` runs a representative part.

A mutant the search is known to miss is ``xfail`` (not strict: a better search may find it), with the reason;
``KNOWN_MISSES`` is the gap ``docs/search.md`` states, so that it cannot grow unnoticed."""

import pytest

from literature_battery import BOUNDS, SEEDS, statement
from theorems import check

REFUTED = ("refuted", "candidate")

_INTERIOR_LIMIT = ("tight only as y → x about two equal top logits, an interior limit no edge reaches; "
                   "Nelder–Mead gets 0.94–0.995 of the supremum (docs/search.md)")
KNOWN_MISSES = {("softmax.lipschitz.l1.g", seed): _INTERIOR_LIMIT for seed in (6, 7, 8, 9)} | {
    ("softmax.lipschitz.l1.p", seed): _INTERIOR_LIMIT for seed in (3, 4)}
"""``(bound, seed) -> why``: mutants the search misses at that seed (measured 2026-11-24)."""

pytestmark = pytest.mark.slow


def _mutant_cases():
    for bound in BOUNDS:
        for seed in SEEDS:
            why = KNOWN_MISSES.get((bound.name, seed))
            marks = [pytest.mark.xfail(reason=why, strict=False)] if why else []
            yield pytest.param(bound.name, seed, marks=marks, id=f"{bound.name}-seed{seed}")


@pytest.mark.parametrize("name, seed", list(_mutant_cases()))
def test_every_two_percent_mutant_is_refuted(name, seed):
    verdict = check(statement(_BY_NAME[name], mutant=True), seed=seed)
    assert verdict.found in REFUTED, (verdict.found, verdict.report.tightness)


@pytest.mark.parametrize("name, seed", [(b.name, s) for b in BOUNDS for s in SEEDS],
                         ids=[f"{b.name}-seed{s}" for b in BOUNDS for s in SEEDS])
def test_every_true_bound_holds(name, seed):
    verdict = check(statement(_BY_NAME[name], mutant=False), seed=seed)
    assert verdict.found == "holds", verdict.report.counterexample or verdict.report.candidates


_BY_NAME = {bound.name: bound for bound in BOUNDS}
