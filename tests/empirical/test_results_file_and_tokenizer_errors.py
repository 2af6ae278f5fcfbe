"""Model-side bad input: a results file without the model's description and a
`--tokenizer` path that is not there are named as such, before anything is drawn or loaded."""

import json

import pytest

from empirical.__main__ import main
from empirical.heads.loading import check_tokenizer, load_model
from theorems.errors import ModelUnavailableError

pytestmark = pytest.mark.empirical


@pytest.mark.parametrize("content, lacks", [({"model": {}}, "lacks model.name, model.model_type"),
                                            ({"model": "gpt2"}, "lacks model, text, settings, versions")])
def test_figures_names_what_a_results_file_lacks_instead_of_a_key_error(tmp_path, capsys, content, lacks):
    results = tmp_path / "results.json"
    results.write_text(json.dumps(content))
    assert main(["figures", "--results", str(results), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert f"--results='{results}' is JSON but not the results.json" in err and lacks in err
    assert not any((tmp_path / "o").glob("*"))  # nothing drawn, no report


@pytest.mark.parametrize("command", ["reproduce", "readings"])
def test_a_missing_tokenizer_path_is_named_before_the_model_loads(tmp_path, capsys, command, monkeypatch):
    monkeypatch.setattr("empirical.heads.loading.resolve", lambda *a, **k: pytest.fail("the model was looked up"))
    text = tmp_path / "text.txt"
    text.write_text("word " * 5000)
    missing = tmp_path / "no" / "tokenizer"
    assert main([command, "--model", "minilm", "--tokenizer", str(missing), "--text", str(text),
                 "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"--tokenizer='{missing}' is not a folder or file on this machine" in err
    assert "Repo id must be" not in err


@pytest.mark.parametrize("tokenizer", ["gpt2", "openai-community/gpt2", None])
def test_hub_ids_and_none_pass_the_tokenizer_check(tokenizer):
    check_tokenizer(tokenizer)


def test_load_model_checks_the_tokenizer_first():
    with pytest.raises(ModelUnavailableError, match=r"^--tokenizer='\.\./nowhere' is not a folder or file"):
        load_model("minilm", tokenizer="../nowhere")
