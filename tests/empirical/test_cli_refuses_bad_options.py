"""Model-side bad options: `figures`, `reproduce` and `bench` refuse bad options with a message naming
them, before the model loads (the checks that need the tokenizer or the config included) or any work starts."""

import json
import struct

import pytest

from empirical.__main__ import main
from empirical.heads.loading import ModelRequest, ModelUnavailableError, check_model_folder

pytestmark = pytest.mark.empirical


def _error(capsys) -> str:
    return capsys.readouterr().err


@pytest.mark.parametrize("content, message", [(None, "does not exist; it must be a JSON file"),
                                              ("not json", "is not valid JSON"),
                                              ('{"a": 1}', "is JSON but not the results.json")])
def test_figures_checks_its_results(tmp_path, capsys, content, message):
    results = tmp_path / "results.json"
    if content is not None:
        results.write_text(content)
    assert main(["figures", "--results", str(results), "--out", str(tmp_path / "o")]) == 2
    assert f"--results='{results}' {message}" in _error(capsys)


def test_figures_refuses_an_existing_file_as_out(tmp_path, capsys):
    results, existing = tmp_path / "results.json", tmp_path / "existing"
    results.write_text(json.dumps({"model": {}}))
    existing.write_text("x")
    assert main(["figures", "--results", str(results), "--out", str(existing)]) == 2
    assert "--out=" in (err := _error(capsys)) and "is not a directory" in err


@pytest.fixture
def no_model(monkeypatch):
    """A model load fails the test: the checks must come first."""
    def load(*args, **kwargs):
        raise AssertionError("the model was loaded before the options were checked")
    monkeypatch.setattr(ModelRequest, "load", load)


def _reproduce(tmp_path, *options, text="some words " * 50):
    path = tmp_path / "t.txt"
    path.write_text(text)
    return main(["reproduce", "--model", "minilm", "--text", str(path), "--quiet", *options])


def test_an_empty_out_is_refused(tmp_path, capsys, no_model):
    assert _reproduce(tmp_path, "--out", "") == 2 and "--out='' is empty" in _error(capsys)


def test_windows_times_lengths_beyond_memory_are_refused(tmp_path, capsys, no_model):
    assert _reproduce(tmp_path, "--out", str(tmp_path / "o"), "--windows", "100000", "--lengths", "512") == 2
    assert "lower --windows or --lengths" in _error(capsys)


def test_a_text_shorter_than_the_windows_is_refused_before_the_model_loads(tmp_path, capsys, no_model):
    assert _reproduce(tmp_path, "--out", str(tmp_path / "o"), "--lengths", "32", "--algorithms", "1",
                      text="one two three") == 2
    assert "has only 3 tokens" in _error(capsys)


def test_lengths_beyond_the_models_positions_are_refused_before_the_model_loads(tmp_path, capsys, no_model):
    assert _reproduce(tmp_path, "--out", str(tmp_path / "o"), "--lengths", "2048", "--algorithms", "1") == 2
    assert "--lengths=(2048,) must be at most the model's 512 positions" in _error(capsys)


def test_bench_refuses_an_unknown_algorithm_before_any_work(tmp_path, capsys):
    assert main(["bench", "--algorithms", "6", "--out", str(tmp_path / "b.md")]) == 2
    assert "--algorithms=(6,) must be a non-empty subset of (1, 2, 3, 4, 5)" in _error(capsys)
    assert not (tmp_path / "b.jsonl").exists()


def test_a_broken_config_json_is_named(tmp_path):
    (tmp_path / "config.json").write_text("{broken")
    with pytest.raises(ModelUnavailableError, match="config.json is not valid JSON"):
        check_model_folder(tmp_path, name="m")


TRUNCATED = b'{"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}'


@pytest.mark.parametrize("weights", [b"\xff" * 8 + b"abc", struct.pack("<Q", 5) + b"{bad}", b"abc",
                                     struct.pack("<Q", len(TRUNCATED)) + TRUNCATED + bytes(8)])
def test_a_broken_safetensors_file_is_named(tmp_path, weights):  # bad header, bad JSON, too short, tensors cut off
    (tmp_path / "config.json").write_text('{"model_type": "gpt2"}')
    (tmp_path / "model.safetensors").write_bytes(weights)
    with pytest.raises(ModelUnavailableError, match="model.safetensors is not a valid safetensors file"):
        check_model_folder(tmp_path, name="m")


def test_a_whole_safetensors_file_passes(tmp_path):
    import torch
    from safetensors.torch import save_file

    (tmp_path / "config.json").write_text('{"model_type": "gpt2"}')
    save_file({"w": torch.zeros(4), "b": torch.ones(2, 3)}, str(tmp_path / "model.safetensors"))
    check_model_folder(tmp_path, name="m")  # no error: the check fails only what is broken
