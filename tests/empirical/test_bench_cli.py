"""`python -m empirical bench` refuses a bad --out or --device before building or running anything."""

import pytest

from empirical.__main__ import main

pytestmark = pytest.mark.empirical


def test_out_that_is_a_directory_is_refused_before_any_work(tmp_path, capsys, monkeypatch):
    from empirical import bench
    monkeypatch.setattr(bench, "run", lambda **_: pytest.fail("the benchmark ran"))
    assert main(["bench", "--out", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err


def test_out_under_a_file_is_refused_before_any_work(tmp_path, capsys, monkeypatch):
    from empirical import bench
    monkeypatch.setattr(bench, "run", lambda **_: pytest.fail("the benchmark ran"))
    (tmp_path / "file").write_text("")
    assert main(["bench", "--out", str(tmp_path / "file" / "b.md")]) == 2
    assert "cannot be written" in capsys.readouterr().err


def test_cuda_without_cuda_is_a_clear_error(tmp_path, capsys, monkeypatch):
    import torch
    from empirical import bench
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(bench, "run", lambda **_: pytest.fail("the benchmark ran"))
    assert main(["bench", "--device", "cuda", "--out", str(tmp_path / "b.md")]) == 2
    assert "sees no CUDA device" in capsys.readouterr().err
    assert not (tmp_path / "b.md").exists()
