"""The proofs the suite runs itself — the ledger's, ``check --prove``'s, the pytest plugin's — are bounded by a box
budget, not by seconds: on a machine a thousand times slower (a clock that jumps 1,000 s at every reading of the
prover's) their statuses, box counts, enclosures and lines are the same as on this one. Under a time limit the slow
machine's proof would stop at its first box, undecided. No timing is asserted: only that nothing depends on it."""

import json
from types import SimpleNamespace

import pytest

from theorems import STATEMENTS
from theorems.app.cli import main
from theorems.app import ledger, plugin
from theorems.engine.prove import prove, state

ROW = STATEMENTS["corollary3.row.corrected"]  # 73 boxes through the reduction, T ∈ [0.05, 20]


def _slow(patch) -> None:
    """Every clock reading of the prover 1,000 s after the one before."""
    readings = iter(range(10 ** 9))
    patch.setattr(state, "time", SimpleNamespace(perf_counter=lambda: 1000.0 * next(readings)))


@pytest.fixture
def slow_machine(monkeypatch):
    _slow(monkeypatch)


def _ledger_line():
    (entry,) = ledger.collect([ROW], max_examples=20, seed=0)
    return ledger._proof(entry.proof, detail=True), entry.proof.status


def _check_prove_json(capsys):
    assert main(["check", ROW.id, "--prove", "--json", "--max-examples", "20"]) == 0
    proof = json.loads(capsys.readouterr().out)["proofs"][ROW.id]
    proof.pop("seconds")
    return proof


def test_the_ledgers_proof_line_does_not_depend_on_the_machines_speed():
    idle = _ledger_line()
    assert idle[1] == "proved", idle
    with pytest.MonkeyPatch.context() as patch:
        _slow(patch)
        assert _ledger_line() == idle


def test_check_prove_json_does_not_depend_on_the_machines_speed(capsys):
    idle = _check_prove_json(capsys)
    assert idle["status"] == "proved" and idle["boxes"] > 1, idle
    with pytest.MonkeyPatch.context() as patch:
        _slow(patch)
        assert _check_prove_json(capsys) == idle


def test_the_plugins_proof_does_not_depend_on_the_machines_speed(slow_machine):
    ok, message = plugin._prove(ROW, 0, "holds")
    assert ok and "proof: proved on gaps ∈ [0, 10]^1, T ∈ [0.05, 20]" in message, message


def test_a_time_limit_stays_a_users_option(slow_machine):
    proof = prove(ROW, max_seconds=60)
    assert proof.status == "undecided" and "time limit" in proof.detail, proof.describe()
