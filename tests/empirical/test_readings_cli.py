"""``python -m empirical readings``: bad names refused before the model loads; a tiny run writes both files."""

import json

import pytest

from empirical.__main__ import main
from empirical_paths import GPT2_TOKENIZER, needs_shared

pytestmark = pytest.mark.empirical


@pytest.fixture
def no_loading(monkeypatch):
    """Any attempt to load a model fails the test: refusals must come first."""
    import empirical.heads.loading as loading

    def refuse(*args, **kwargs):
        raise AssertionError("the model was loaded before the input was checked")
    monkeypatch.setattr(loading.ModelRequest, "load", refuse)


@pytest.fixture
def text(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("some words " * 200)
    return path


@pytest.mark.parametrize("arguments, message", [
    (["--claims", "fig9"], "valid claims: fig2a, fig2b, fig2c, fig3, fig4-slope, fig4-coincide"),
    (["--readings", "x=queries"], "valid readings: baseline, x=keys"),
    (["--claims", "fig4-slope", "--readings", "x=keys"], "changes nothing in the claims fig4-slope"),
    (["--readings", "queries=context"], "encoder without a causal mask"),
])
def test_bad_names_and_inapplicable_readings_are_refused_before_loading(arguments, message, no_loading, text,
                                                                        tmp_path, capsys):
    code = main(["readings", "--model", "minilm", "--text", str(text), "--out", str(tmp_path / "o"), *arguments])
    assert code == 2
    assert message in capsys.readouterr().err


def test_a_model_without_a_known_output_projection_refuses_x_output(no_loading, text, tmp_path, capsys):
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text(json.dumps({"model_type": "xlnet", "architectures": ["XLNetLMHeadModel"]}))
    code = main(["readings", "--model", str(model), "--text", str(text), "--out", str(tmp_path / "o"),
                 "--readings", "x=output"])
    assert code == 2
    err = capsys.readouterr().err
    assert "W_O is not exposed" in err and "'gpt2'" in err


@needs_shared(GPT2_TOKENIZER)
def test_a_tiny_run_writes_every_claim_under_at_least_four_readings(tiny_gpt2_dir, text, tmp_path, capsys):
    out = tmp_path / "o"
    code = main(["readings", "--model", str(tiny_gpt2_dir), "--offline", "--text", str(text), "--out", str(out),
                 "--tokenizer", str(GPT2_TOKENIZER), "--lengths", "16,32", "--tokens", "8", "--quiet"])
    assert code == 0
    results = json.loads((out / "readings.json").read_text())
    assert set(results["claims"]) == {"fig2a", "fig2b", "fig2c", "fig3", "fig4-slope", "fig4-coincide"}
    for claim in results["claims"].values():
        assert claim["tried"] >= 4
        for reading in claim["readings"].values():
            assert isinstance(reading["reproduced"], bool) and reading["measured"]["text"]
    table = (out / "readings.md").read_text()
    assert "| `fig3` | `x=keys` |" in table and "reproduced under" in capsys.readouterr().out
