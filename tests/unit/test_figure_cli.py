"""The figure scripts check their options and their --out path before computing anything."""

import re

import pytest

from theorems.figures import distance as distance_figure
from theorems.figures import distance_bench
from theorems.figures import gradient as gradient_figure
from theorems.figures import separability as separability_figure


@pytest.fixture
def no_computation(monkeypatch):
    """Fail the test if a script starts computing: every check must come first."""
    def forbidden(*args, **kwargs):
        raise AssertionError("computation started before the arguments were checked")
    monkeypatch.setattr(separability_figure, "measure", forbidden)
    monkeypatch.setattr(distance_figure, "figures", forbidden)
    monkeypatch.setattr(gradient_figure, "make_figures", forbidden)
    monkeypatch.setattr(distance_bench, "benchmark", forbidden)


def _usage_error(main, argv, capsys) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("main, argv, message", [
    (distance_figure.main, ["--rows", "0"], "argument --rows: 0 must be an integer >= 1"),
    (distance_figure.main, ["--samples", "1"], "argument --samples: 1 must be an integer >= 2"),
    (distance_figure.main, ["--dim", "x"], "argument --dim: 'x' is not an integer"),
    (distance_figure.main, ["--rows", "10000000000"], "entries, more than the limit .* lower --samples, --rows or --dim"),
    (separability_figure.main, ["--length", "1"], "argument --length: 1 must be an integer >= 2"),
    (separability_figure.main, ["--seed", "-1"], "argument --seed: -1 must be an integer >= 0"),
    (separability_figure.main, ["--rows", "100000", "--length", "100000"], "lower --rows or --length"),
    (gradient_figure.main, ["--seed", "x"], "argument --seed: 'x' is not an integer"),
    (distance_bench.main, ["--bench", "--n", "9", "--keys", "4"], "argument --n: 9 must be <= --keys 4"),
    (distance_bench.main, ["--bench", "--chunk-heads", "0"], "argument --chunk-heads: 0 must be an integer >= 1"),
])
def test_bad_options_are_usage_errors(main, argv, message, capsys, no_computation, tmp_path):
    out = ["--out", str(tmp_path / "figures")] if main is not distance_bench.main else []
    if main is separability_figure.main:
        out = ["--out", str(tmp_path / "separability_figure.png")]
    assert re.search(message, _usage_error(main, argv + out, capsys))


@pytest.mark.parametrize("main", [distance_figure.main, gradient_figure.main])
def test_a_file_where_the_output_directory_should_be(main, tmp_path, capsys, no_computation):
    a_file = tmp_path / "taken"
    a_file.write_text("")
    assert f"'{a_file}' is not a directory" in _usage_error(main, ["--out", str(a_file)], capsys)
    assert "is not a directory" in _usage_error(main, ["--out", str(a_file / "sub")], capsys)


def test_fig3_refuses_a_directory_and_an_unwritable_path(tmp_path, capsys, no_computation):
    assert "is a directory; it must be the path of the output file to write" in _usage_error(separability_figure.main, ["--out", str(tmp_path)],
                                                                                  capsys)
    a_file = tmp_path / "taken"
    a_file.write_text("")
    assert "cannot be written" in _usage_error(separability_figure.main, ["--out", str(a_file / "sub" / "separability_figure.png")], capsys)
