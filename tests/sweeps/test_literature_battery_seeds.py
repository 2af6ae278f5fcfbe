"""The whole literature battery (``tests/literature_battery.py``) at seeds 0–9: every true bound holds and every
2 % mutant is refuted (certified, or a candidate that fails the gate). Slow (about 7 minutes on one core for
the 340 mutants and 340 true bounds); ``tests/theory/test_literature_battery.py`` runs a representative part.

A mutant the search is known to miss is ``xfail`` (not strict: a better search may find it), with the reason;
``KNOWN_MISSES`` is the gap ``docs/search.md`` states, so that it cannot grow unnoticed."""

import pytest
from hypothesis import settings

from literature_battery import BOUNDS, SEEDS, statement
from theorems import check

REFUTED = ("refuted", "candidate")

_INTERIOR_LIMIT = ("tight only as y → x about two equal top logits, an interior limit no edge reaches; "
                   "Nelder–Mead gets 0.94–0.995 of the supremum (docs/search.md)")
_NEAR_EQUALITY = ("every start a near-equality case (a query of norm 6e-5 or a single key: both sides 1 + O(1e-8)); "
                  "docs/search.md")
KNOWN_MISSES = {(bound, seed): _INTERIOR_LIMIT for bound in ("softmax.lipschitz.l1.g", "softmax.lipschitz.l1.p")
                for seed in range(10)}
"""``(bound, seed) -> why``: mutants the search may miss at that seed. The l1 Lipschitz mutants are refuted at
some seeds and missed at others, and which depends on the profile (measured 2026-11-25: missed at 6 of 20 under
``theorems-dev``, 11 of 20 under ``theorems-ci``), so every seed is listed."""

KNOWN_MISSES_BY_EXAMPLES = {300: {("cs.weight-ratio.g", 5): _NEAR_EQUALITY}}
"""Further misses under a profile of that many examples (``theorems-ci``: 300), measured 2026-11-25."""


def _known_misses() -> dict:
    return KNOWN_MISSES | KNOWN_MISSES_BY_EXAMPLES.get(settings().max_examples, {})


pytestmark = pytest.mark.slow


def _mutant_cases():
    known = _known_misses()  # the profile is loaded before collection
    for bound in BOUNDS:
        for seed in SEEDS:
            why = known.get((bound.name, seed))
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
