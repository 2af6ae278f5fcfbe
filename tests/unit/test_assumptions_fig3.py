"""The Fig. 3 experiment on Assumption 1 embeddings: runs small, shows the N = 1 refutation, writes a PNG."""

from drawn_figures import assert_drawn

from theorems.figures.separability import measure, plot


def test_small_run_reproduces_the_n1_refutation_and_plots(tmp_path):
    results = measure(rows=4, length=32, dim=8, sizes=(1, 2, 4), seed=0)
    for table in results["regimes"].values():
        first = table[0]
        # one selected token is always separable, while the paper's upper bound stays below 1
        assert first["n"] == 1 and first["fraction"] == 1.0 and first["upper_2M2"] < 1.0
        assert all(0.0 <= row["fraction"] <= 1.0 for row in table)
    out = plot(results, tmp_path / "fig3.png")
    assert_drawn(out, size_inches=(11, 4.8))  # theorems.figures.separability's figsize, at 130 dpi
