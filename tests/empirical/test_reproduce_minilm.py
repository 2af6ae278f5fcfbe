"""Acceptance: ``python -m empirical reproduce`` on the real MiniLM heads and War and Peace (short windows)."""

import json

import pytest

from drawn_figures import assert_drawn

from empirical.__main__ import main
from empirical_paths import WAR_AND_PEACE, needs_shared

pytestmark = [pytest.mark.empirical, pytest.mark.slow, needs_shared()]

FIGURES = ("fig2a", "fig2b", "fig2c", "fig3", "fig4")


@pytest.fixture(scope="module")
def run(tmp_path_factory, minilm):
    out = tmp_path_factory.mktemp("minilm-run")
    code = main(["reproduce", "--model", "minilm", "--offline", "--text", str(WAR_AND_PEACE), "--out", str(out),
                 "--lengths", "16,32,64", "--ns", "1,5,10", "--critical-tokens", "16", "--separability-ns", "1,2,4,8",
                 "--temperatures", "0.01,0.1,1,10", "--quiet"])
    return code, out, json.loads((out / "results.json").read_text())


def test_reproduce_writes_results_five_figures_and_the_report(run):
    code, out, results = run
    assert code == 0
    for name in FIGURES:
        assert_drawn(out / f"{name}.png")
    report = (out / "report.md").read_text()
    assert "0.06·L" in report and "0.70–0.85" in report and "1/T" in report
    assert results["model"]["heads"] == 12 and results["model"]["causal"] is False
    assert {"torch", "transformers"} <= set(results["versions"])


def test_every_statement_expected_to_hold_has_zero_violations_on_real_heads(run):
    _, _, results = run
    holding = {s: c for s, c in results["checks"].items() if c["expected"] == "holds"}
    assert {"theorem1.fixed.sum.normalised", "corollary3.spectral.corrected"} <= set(holding)
    assert {s: c["violations"] for s, c in holding.items() if c["violations"]} == {}
    assert all(c["evaluated"] > 0 for c in holding.values())


def test_refuted_paper_bounds_are_violated_on_real_heads_with_a_location(run):
    _, _, results = run
    spectral = results["checks"]["corollary3.spectral"]
    assert spectral["violations"] > 0  # min{1/(4T), √2} fails at T = 0.01 on real heads
    example = spectral["examples"][0]
    assert {"window", "layer", "head", "token", "T"} <= set(example)


def test_figures_subcommand_redraws_from_results_json(run, tmp_path):
    _, out, _ = run
    assert main(["figures", "--results", str(out / "results.json"), "--out", str(tmp_path), "--prefix", "again_"]) == 0
    assert sorted(p.name for p in tmp_path.glob("again_*.png")) == sorted(f"again_{n}.png" for n in FIGURES)
