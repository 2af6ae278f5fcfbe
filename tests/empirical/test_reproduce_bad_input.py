"""`python -m empirical reproduce` names the bad option before loading any model, and the grids before any work."""

import pytest

import empirical.reproduce
from empirical.__main__ import main
from empirical.heads.loading import ModelRequest

pytestmark = pytest.mark.empirical


@pytest.fixture
def no_model(monkeypatch):
    """Fail the test if a model is loaded: every error below must come first."""
    def refuse(*args, **kwargs):
        raise AssertionError("the model was loaded before the bad input was noticed")
    monkeypatch.setattr(ModelRequest, "load", refuse)


@pytest.fixture
def text(tmp_path):
    path = tmp_path / "text.txt"
    path.write_text("some words " * 50)
    return path


def run(capsys, *arguments):
    code = main(["reproduce", "--quiet", "--model", "minilm", *arguments])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("extra, message", [
    (["--algorithms", "7"], "--algorithms=(7,) must be a non-empty subset of (1, 2, 3, 4, 5); 7 is not"),
    (["--windows", "0"], "--windows=0 must be an integer >= 1"),
    (["--distance-tokens", "-1"], "--distance-tokens=-1 must be a positive integer"),
    (["--layers-per-block", "0"], "--layers-per-block=0 must be a positive integer (or None: as many as fit STREAM_BYTES)"),
    (["--workers", "0"], "--workers=0 must be a positive integer"),
    (["--embeddings", "values", "--algorithms", "1", "--lengths", "32"], None),  # the text holds 32 tokens
])
def test_bad_options_are_named_before_the_model_loads(no_model, capsys, tmp_path, text, extra, message):
    if message is None:  # a good option reaches the (refused) model load: the fixture can fail
        with pytest.raises(AssertionError, match="model was loaded"):
            run(capsys, "--text", str(text), "--out", str(tmp_path / "o"), *extra)
        return
    code, err = run(capsys, "--text", str(text), "--out", str(tmp_path / "o"), *extra)
    assert code == 2 and message in err


def test_a_nan_temperature_is_refused_by_the_parser(capsys, tmp_path, text):
    with pytest.raises(SystemExit):
        run(capsys, "--text", str(text), "--out", str(tmp_path / "o"), "--temperatures", "0.1,nan")
    assert "must hold finite positive numbers" in capsys.readouterr().err


@pytest.mark.parametrize("content, message", [
    ("hello".encode("utf-16"), "is UTF-16"),
    (b"\x7fELF\x00\x01binary", "holds NUL bytes"),
    (b"caf\xe9 latin-1", "is not UTF-8 text (byte 0xe9 at offset 3)"),
])
def test_a_text_that_is_not_utf8_is_named_with_the_option(no_model, capsys, tmp_path, content, message):
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    code, err = run(capsys, "--text", str(path), "--out", str(tmp_path / "o"))
    assert code == 2 and f"--text={str(path)!r}" in err and message in err


def test_a_missing_text_is_named_before_the_model_loads(no_model, capsys, tmp_path):
    code, err = run(capsys, "--text", str(tmp_path / "none.txt"), "--out", str(tmp_path / "o"))
    assert code == 2 and "does not exist" in err


def test_out_onto_an_existing_file_is_refused_before_any_work(no_model, capsys, tmp_path, text):
    code, err = run(capsys, "--text", str(text), "--out", str(text))
    assert code == 2 and "is not a directory (an existing file)" in err


@pytest.mark.parametrize("extra, message", [
    (["--lengths", "32,100000"], "--lengths=(32, 100000) must be at most the model's 64 positions; 100000 is not"),
    (["--lengths", "32", "--ns", "1,32"], "--ns=(1, 32) must stay below the longest --lengths value L = 32"),
    (["--lengths", "32", "--algorithms", "4", "--separability-ns", "8,40"], "--separability-ns=(8, 40) must stay"),
    (["--lengths", "4,32", "--algorithms", "1"], "Alg. 1's N=(5,) must stay below every --lengths value"),
])
def test_grids_that_do_not_fit_are_refused_before_any_forward_pass(tiny_gpt2_dir, capsys, tmp_path, text, extra,
                                                                   message, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("an algorithm ran before the grids were checked")
    monkeypatch.setattr(empirical.reproduce, "run_algorithms", refuse)
    code = main(["reproduce", "--quiet", "--model", str(tiny_gpt2_dir),
                 "--text", str(text), "--out", str(tmp_path / "o"), *extra])
    err = capsys.readouterr().err
    assert code == 2 and message in err
    assert not (tmp_path / "o" / "results.json").exists()
