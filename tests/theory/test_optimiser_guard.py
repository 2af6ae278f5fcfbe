"""The optimiser uses Hypothesis internals; without them the search still runs, warns and says so."""

import importlib

import pytest

from theorems import STATEMENTS, investigate
from theorems.engine import hypothesis_internals as internals


@pytest.mark.filterwarnings("ignore::theorems.engine.hypothesis_internals.HypothesisInternalsWarning")
def test_search_runs_without_the_optimiser_when_the_internal_api_is_missing(monkeypatch):
    monkeypatch.delattr(importlib.import_module(internals.DATA).ConjectureData, "for_choices")
    report = investigate(STATEMENTS["corollary1.own-key.upper"], max_examples=150, seed=0)
    assert report.counterexample is not None and report.optimiser.startswith("unavailable")
    holds = investigate(STATEMENTS["lemma1.upper"], max_examples=30, seed=0)
    assert holds.counterexample is None and holds.optimiser.startswith("unavailable")


def test_the_optimiser_runs_when_the_api_is_there():
    report = investigate(STATEMENTS["lemma1.upper"], max_examples=30, seed=0)
    assert report.optimiser.startswith("Nelder–Mead") and report.examples > 30
