"""The Hypothesis internals the engine hooks into are all present in the installed release, and the
contract check fails loudly (and the search warns) when one of them is renamed away."""

import importlib
import warnings

import pytest

from theorems import STATEMENTS, investigate
from theorems.engine import hypothesis_internals as internals


def test_every_internal_the_engine_uses_is_present():
    assert internals.missing() == (), "a Hypothesis internal moved: update theorems/engine/hypothesis_internals.py"


@pytest.mark.parametrize("hook", sorted(internals.CONTRACT))
def test_renaming_one_internal_breaks_the_contract(monkeypatch, hook):
    module, dotted = internals.CONTRACT[hook][0]
    owner_path, _, name = dotted.rpartition(".")
    owner = internals._lookup(module, owner_path) if owner_path else importlib.import_module(module)
    monkeypatch.delattr(owner, name)
    assert f"{module}.{dotted}" in internals.missing(hook)
    assert f"{module}.{dotted}" in internals.missing()


def test_a_missing_hook_warns_at_run_time_instead_of_falling_back_silently(monkeypatch):
    engine = importlib.import_module(internals.ENGINE)
    monkeypatch.delattr(engine.ConjectureRunner, "test_function")
    monkeypatch.setattr(internals, "_warned", set())
    with pytest.warns(internals.HypothesisInternalsWarning, match="ConjectureRunner.test_function"):
        with internals.bounded_target_phase(10):
            pass


def test_the_search_warns_and_reports_when_replay_is_missing(monkeypatch):
    data = importlib.import_module(internals.DATA)
    monkeypatch.delattr(data.ConjectureData, "for_choices")
    monkeypatch.setattr(internals, "_warned", set())
    with pytest.warns(internals.HypothesisInternalsWarning, match="for_choices"):
        report = investigate(STATEMENTS["lemma1.upper"], max_examples=20, seed=0)
    assert report.optimiser.startswith("unavailable")


def test_no_warning_when_every_internal_is_there():
    with warnings.catch_warnings():
        warnings.simplefilter("error", internals.HypothesisInternalsWarning)
        report = investigate(STATEMENTS["lemma1.upper"], max_examples=20, seed=0)
    assert report.optimiser.startswith("Nelder–Mead")
