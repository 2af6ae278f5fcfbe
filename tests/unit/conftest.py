"""Shared fixtures of the unit tests."""

import pytest


@pytest.fixture
def enclosures_only(monkeypatch):
    """No float64 point refutes anything in ``prove``: only the enclosures decide (the adversarial proofs' setting,
    where a false side must fail on its boxes, not be caught by a lucky sample)."""
    from theorems.engine.prove import evaluate, run

    monkeypatch.setattr(run, "sample", lambda *args: None)
    monkeypatch.setattr(run, "refute_at", lambda *args: None)
    monkeypatch.setattr(evaluate, "refute_vertex", lambda *args: None)
