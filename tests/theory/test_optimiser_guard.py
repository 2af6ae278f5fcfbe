"""The optimiser uses Hypothesis internals; without them the search still runs, and says so."""

from theorems import STATEMENTS, investigate
from theorems.engine import optimiser


def test_search_runs_without_the_optimiser_when_the_internal_api_is_missing(monkeypatch):
    monkeypatch.setattr(optimiser, "_api", lambda: None)
    report = investigate(STATEMENTS["corollary1.own-key.upper"], max_examples=150, seed=0)
    assert report.counterexample is not None and report.optimiser.startswith("unavailable")
    holds = investigate(STATEMENTS["lemma1.upper"], max_examples=30, seed=0)
    assert holds.counterexample is None and holds.optimiser.startswith("unavailable")


def test_the_optimiser_runs_when_the_api_is_there():
    report = investigate(STATEMENTS["lemma1.upper"], max_examples=30, seed=0)
    assert report.optimiser.startswith("Nelder–Mead") and report.examples > 30
