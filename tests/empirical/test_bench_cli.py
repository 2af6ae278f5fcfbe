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


@pytest.mark.parametrize("workers", ["0", "-2"])
def test_bad_workers_are_named_before_any_work(tmp_path, capsys, monkeypatch, workers):
    from empirical import bench
    monkeypatch.setattr(bench, "run", lambda **_: pytest.fail("the benchmark ran"))
    assert main(["bench", "--workers", workers, "--out", str(tmp_path / "b.md")]) == 2
    assert f"--workers={workers} must be a positive integer" in capsys.readouterr().err
    assert not (tmp_path / "b.md").exists()


def test_the_workers_reach_every_algorithm_process(tmp_path, monkeypatch):
    from empirical import bench
    seen = {}
    monkeypatch.setattr(bench, "run", lambda **kwargs: seen.update(kwargs) or [
        {"algorithm": 1, "name": "x", "seconds": 1.0, "peak_gib": 1.0, "paper_seconds": 60}])
    assert main(["bench", "--workers", "3", "--algorithms", "1", "--out", str(tmp_path / "b.md")]) == 0
    assert seen["spec"].workers == 3


def test_a_model_that_is_not_a_local_folder_is_refused_before_any_work(tmp_path, capsys, monkeypatch):
    from empirical import bench
    monkeypatch.setattr(bench, "run", lambda **_: pytest.fail("the benchmark ran"))
    assert main(["bench", "--model", str(tmp_path / "absent"), "--out", str(tmp_path / "b.md")]) == 2
    assert "does not exist" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["bench", "--dtype", "float8", "--out", str(tmp_path / "b.md")])


def test_a_model_folder_is_benchmarked_with_its_dtype_and_a_per_token_table(tiny_gpt2_dir, tmp_path):
    out = tmp_path / "b.md"
    assert main(["bench", "--model", str(tiny_gpt2_dir), "--scale", "small", "--lengths", "16,32", "--algorithms", "5",
                 "--dtype", "bfloat16", "--weights", "disk", "--out", str(out)]) == 0
    import json
    [record] = [json.loads(line) for line in out.with_suffix(".jsonl").read_text().splitlines()]
    assert record["dtype"] == "bfloat16" and record["streamed"] and record["tokens"] == 32
    assert record["model"]["layers"] == 2 and "algorithm / forward" in out.read_text()
