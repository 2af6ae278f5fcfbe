"""A run that fails late keeps the results of the algorithms that finished."""

import json

import pytest

import empirical.algorithms
from empirical.reproduce import run

pytestmark = pytest.mark.empirical


def test_a_late_failure_leaves_the_finished_algorithms_in_results_partial_json(tiny_gpt2_dir, tmp_path, monkeypatch):
    def fail(*args, **kwargs):
        raise RuntimeError("Alg. 2 broke")
    monkeypatch.setattr(empirical.algorithms, "distance_vs_n", fail)
    with pytest.raises(RuntimeError, match="Alg. 2 broke"):
        run(model=str(tiny_gpt2_dir), text=None, out=tmp_path, which=(1, 2), lengths=(8, 16), ns=(1,),
            progress=False)
    partial = json.loads((tmp_path / "results.partial.json").read_text())
    assert list(partial) == ["distance_vs_length"]
    assert [p["length"] for p in partial["distance_vs_length"]["points"]] == [8, 16]
