"""``python -m theorems check --prove``: the proof line under each holding statement with a domain, in JSON too."""

import json

from theorems.app.cli import main


def test_check_prove_prints_the_proved_domain(capsys):
    assert main(["check", "corollary3.row.corrected", "--prove", "--max-examples", "20"]) == 0
    out = capsys.readouterr().out
    assert "proved on gaps ∈ [0, 10]^1, T ∈ [0.05, 20]" in out and "slack 1e-06" in out
    assert "T ∈ [0.05, 20], L = 2; method: homogeneity" in out and "independent checker: proved" in out


def test_check_prove_json_carries_the_proof(capsys):
    assert main(["check", "corollary3.entry.corrected", "--prove", "--json", "--max-examples", "20"]) == 0
    proof = json.loads(capsys.readouterr().out)["proofs"]["corollary3.entry.corrected"]
    assert proof["status"] == "proved" and proof["sup"][1] <= 1 + proof["slack"]
    # the box proved: 0.05 widened to the float below 1/20 (the float 0.05 is above it), printed as written
    assert proof["box"] == {"gaps": [[0.0, 10.0], [0.0, 10.0]], "T": [0.049999999999999996, 20.0]}
    assert proof["scope"].startswith("T ∈ [0.05, 20], L = 3")
    assert proof["checker"] == "proved" and proof["tokens"] == 3 and proof["method"].startswith("homogeneity")


def test_without_prove_no_proof_is_run(capsys):
    assert main(["check", "corollary3.row.corrected", "--json", "--max-examples", "20"]) == 0
    assert json.loads(capsys.readouterr().out)["proofs"] == {}
