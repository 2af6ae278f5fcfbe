"""The command line: list, check (the gate's exit status), JSON, ledger, and its errors."""

import dataclasses
import json

import pytest

from theorems import STATEMENTS
from theorems.app import cli


def test_list_shows_every_statement(capsys):
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    assert all(statement_id in out for statement_id in STATEMENTS)


def test_check_json_reports_verdicts_and_counterexamples(capsys):
    assert cli.main(["check", "corollary1.own-key", "--json", "--max-examples", "150"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {v["id"] for v in report["verdicts"]} == {"corollary1.own-key.upper", "corollary1.own-key.lower",
                                                      "corollary1.own-key.upper.corrected",
                                                      "corollary1.own-key.lower.corrected"}
    refuted = [v for v in report["verdicts"] if v["found"] == "refuted"]
    assert refuted and all(v["counterexample"]["method"].startswith("arb ball arithmetic") for v in refuted)


def test_check_exits_non_zero_when_a_verdict_differs(monkeypatch, capsys):
    wrong = dataclasses.replace(STATEMENTS["corollary1.own-key.upper"], expected="holds")
    monkeypatch.setattr(cli, "select", lambda ids: [wrong])
    assert cli.main(["check"]) == 1
    assert "differ from expected: corollary1.own-key.upper" in capsys.readouterr().err


def test_unknown_id_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["check", "lemma7"])
    assert exit_info.value.code == 2 and "unknown statement id 'lemma7'" in capsys.readouterr().err


def test_bad_max_examples_is_a_usage_error(capsys):
    with pytest.raises(SystemExit):
        cli.main(["check", "--max-examples", "0"])
    assert "must be a positive integer" in capsys.readouterr().err


def test_ledger_writes_markdown_and_refreshes_the_readme_table(tmp_path, monkeypatch):
    readme = tmp_path / "README.md"
    readme.write_text("x\n<!-- verdicts:start -->\nold\n<!-- verdicts:end -->\ny\n")
    monkeypatch.setattr(cli, "STATEMENTS", {k: v for k, v in STATEMENTS.items() if k.startswith("corollary1.own-key.upper")})
    out, details = tmp_path / "verdicts.md", tmp_path / "out" / "verdicts.md"
    assert cli.main(["ledger", "--out", str(out), "--readme", str(readme), "--details", str(details),
                     "--max-examples", "150"]) == 0
    assert "Counterexample: certified: ball arithmetic" in out.read_text()
    assert "Minimal counterexample" in details.read_text() and "## `corollary1.own-key.upper` [P]" in (tmp_path / "catalogue.md").read_text()
    assert "\nold\n" not in readme.read_text()
    assert "`corollary1.own-key.upper`" in readme.read_text()


def test_help_explains_itself(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert "exit 1 if a verdict differs" in capsys.readouterr().out


def test_ledger_probes_hypotheses_only_of_statements_that_hold():
    from theorems.app import ledger
    entries = ledger.collect([STATEMENTS["corollary1.own-key.upper"], STATEMENTS["lemma1.upper"]], max_examples=30, seed=0)
    refuted, holds = entries
    assert refuted.necessities == () and {n.hypothesis for n in holds.necessities} == {"positive", "length-independent", "bounded"}
