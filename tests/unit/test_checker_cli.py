"""``python -m theorems verify-proof``: a line saying proved or what failed, ``--json`` for machines, exit status
0 / 1 / 2, ``--statements`` for a statement of one's own, a ``--help`` that explains itself."""

import json
import subprocess
import sys
import textwrap

import pytest

from checker_certificates import certificate, tiling, write
from theorems import STATEMENTS
from theorems.app.cli import main

ROW = STATEMENTS["corollary3.row.corrected"]


@pytest.fixture(scope="module")
def proof(tmp_path_factory):
    data = certificate(ROW.id, {"gaps": [(0.0, 10.0)], "T": 1.0})
    data["boxes"] = tiling(ROW, data)
    return write(tmp_path_factory.mktemp("cli") / "row.json", data), data


def test_a_valid_certificate_prints_proved_and_exits_0(capsys, proof):
    assert main(["verify-proof", proof[0]]) == 0
    out = capsys.readouterr().out
    assert out.startswith("proved: corollary3.row.corrected on gaps ∈ [0, 10]^1, T = 1, slack 1e-06")


def test_json_carries_the_result(capsys, proof):
    assert main(["verify-proof", proof[0], "--json", "--refine", "0"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "proved" and result["boxes"] == len(proof[1]["boxes"]) == result["evaluations"]
    assert result["reason"] == "" and result["sup"] <= 1 + 1e-6 and result["failed_box"] is None


def test_a_rejected_certificate_exits_1_with_the_reason(capsys, tmp_path, proof):
    data = json.loads(json.dumps(proof[1]))
    del data["boxes"][0]
    assert main(["verify-proof", write(tmp_path / "holed.json", data)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("rejected:") and "rejected: coverage: the boxes leave" in out


def test_help_explains_the_checker_and_the_exit_status():
    run = subprocess.run([sys.executable, "-m", "theorems", "verify-proof", "--help"], capture_output=True, text=True)
    assert run.returncode == 0
    text = " ".join(run.stdout.split())
    for phrase in ("shares no bounding code with the prover", "tile the domain", "Exit status: 0 proved, 1 rejected",
                   "--json", "--refine", "--statements MODULE"):
        assert phrase in text, phrase


def test_a_statement_of_ones_own_from_a_file(capsys, tmp_path):
    module = tmp_path / "my_bounds.py"
    module.write_text(textwrap.dedent('''
        import dataclasses
        from theorems import STATEMENTS

        row = STATEMENTS["corollary3.row.corrected"]
        looser = dataclasses.replace(row, id="corollary3.row.looser", rhs=lambda i, xp: 2 * row.rhs(i, xp))
    '''))
    data = certificate("corollary3.row.looser", {"gaps": [(0.0, 10.0)], "T": 1.0},
                       [{"low": [0.0], "high": [5.0]}, {"low": [5.0], "high": [10.0]}])
    path = write(tmp_path / "looser.json", data)
    assert main(["verify-proof", path, "--statements", str(module)]) == 0
    assert "proved: corollary3.row.looser" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_info:
        main(["verify-proof", path, "--statements", str(tmp_path / "missing.py")])
    assert exit_info.value.code == 2
    assert "--statements=" in capsys.readouterr().err
