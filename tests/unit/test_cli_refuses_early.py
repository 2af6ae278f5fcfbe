"""The command line refuses work that cannot finish or cannot be saved, before doing any of it."""

import pytest

from theorems.app import cli
from theorems.app import ledger


def _no_work(*args, **kwargs):
    raise AssertionError("the ledger was computed before its output path was checked")


@pytest.mark.parametrize("out", ["folder", "file/verdicts.md"])
def test_ledger_checks_its_output_path_first(tmp_path, monkeypatch, capsys, out):
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("x")
    monkeypatch.setattr(ledger, "collect", _no_work)
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["ledger", "--out", str(tmp_path / out), "--readme", str(tmp_path / "README.md")])
    assert exit_info.value.code == 2 and "--out=" in capsys.readouterr().err


def test_check_refuses_a_budget_that_cannot_finish(capsys):
    with pytest.raises(SystemExit):
        cli.main(["check", "lemma1.upper", "--max-examples", str(10**12)])
    err = capsys.readouterr().err
    assert "1000000000000 examples per search cannot finish" in err and "--seed" in err
