"""The claims' measurements under the baseline equal reproduce's algorithms; the other readings change them."""

import numpy as np
import pytest

from empirical import algorithms
from setups import setup_of
from empirical.readings.claims import critical_point, ks_p_values, verdict
from empirical.readings.grid import parse
from empirical.readings.runner import Work, measure_all

pytestmark = pytest.mark.empirical
TEMPERATURES = (0.01, 0.03, 0.1, 1.0, 3.0)


@pytest.fixture(scope="module")
def setup(tiny_gpt2):
    return setup_of(tiny_gpt2, text=None, windows=2, progress=False)


def test_baseline_critical_n_equals_algorithm3(setup):
    readings = [parse(name) for name in ("baseline", "level=0.05", "ks=pooled", "sided=one")]
    parts, _ = measure_all(setup, {"fig2c": readings}, Work(lengths=(16, 32)), progress=False)
    reference = algorithms.critical_n(setup, lengths=(16, 32))["points"]
    for ours, theirs in zip(parts["fig2c"]["baseline"], reference):
        assert ours["p_values"] == pytest.approx([e["p_value"] for e in theirs["evaluated"]])
        assert ours["critical_n"] == theirs["critical_n"]["0.01"]
    for ours, theirs in zip(parts["fig2c"]["level=0.05"], reference):
        assert ours["critical_n"] == theirs["critical_n"]["0.05"]
    # pooling the (head, token) values tests far more samples than the 8 head means: other p-values
    assert parts["fig2c"]["ks=pooled"][0]["p_values"] != pytest.approx(parts["fig2c"]["baseline"][0]["p_values"])
    # one-sided in the direction d̃ > estimate: the p-value is at most the two-sided one here
    one, two = (np.array(parts["fig2c"][name][0]["p_values"]) for name in ("sided=one", "baseline"))
    assert np.all(one <= two + 1e-12)


def test_baseline_g_equals_algorithm5_and_query_perturbation_differs(setup):
    work = Work(lengths=(32,), temperatures=TEMPERATURES)
    chosen = {"fig4-slope": [parse("baseline"), parse("perturb=query"), parse("eps=relative")]}
    parts, _ = measure_all(setup, chosen, work, progress=False)
    reference = algorithms.sensitivity(setup, length=32, temperatures=TEMPERATURES)
    ours = parts["fig4-slope"]["baseline"][0]
    np.testing.assert_allclose(ours["g_max_over_heads"], reference["g_max_over_heads"], rtol=1e-12)
    assert ours["claims"]["slope_below_0.1"] == pytest.approx(reference["claims"]["slope_below_0.1"])
    for other in ("perturb=query", "eps=relative"):
        assert not np.allclose(parts["fig4-slope"][other][0]["g_max_over_heads"], ours["g_max_over_heads"])


def test_relative_epsilon_is_absolute_epsilon_times_the_logit_norm():
    from empirical.readings.sensitivity import finite_difference

    rng = np.random.default_rng(0)
    logits, direction = rng.normal(size=(3, 5)), rng.normal(size=(3, 5))
    mask = np.ones((3, 5), dtype=bool)
    norm = np.linalg.norm(logits, axis=-1, keepdims=True)
    relative = finite_difference(logits, direction, [0.5], [0.1], mask=mask, size=norm)[..., 0, 0]
    for row in range(3):
        absolute = finite_difference(logits[row:row + 1], direction[row:row + 1], [0.5], [0.1 * norm[row, 0]],
                                     mask=mask[:1])
        assert relative[row] == pytest.approx(absolute[0, 0, 0], rel=1e-12)


def test_ks_readings_on_known_samples():
    rng = np.random.default_rng(0)
    distance = rng.normal(1.0, 1.0, size=(1, 2, 3, 50, 1))  # [B, layer, head, R, G]
    estimate = rng.normal(0.0, 1.0, size=(1, 2, 3, 50, 1))
    pooled = ks_p_values(distance, estimate, parse("ks=pooled"))[0]
    means = ks_p_values(distance, estimate, parse("baseline"))[0]
    assert pooled < 1e-6 < means  # 300 pooled values against 6 head means
    point = critical_point(100, (1, 2), [1e-9, 0.02], parse("baseline"))
    assert point["critical_n"] == 2 and point["paper"] == pytest.approx(6.0)
    assert critical_point(100, (1, 2), [1e-9, 0.02], parse("level=0.05"))["critical_n"] is None


def test_criteria_accept_the_paper_figures_and_refuse_others():
    plateau = [{"n": n, "median": v} for n, v in ((8, 0.9), (16, 0.8), (32, 0.72))]
    assert verdict("fig3", plateau, parse("baseline"))["reproduced"]
    assert not verdict("fig3", plateau[:2] + [{"n": 32, "median": 0.69}], parse("baseline"))["reproduced"]
    linear = [{"length": length, "median": {"distance_sum": 3.0 * length, "distance_norm": 2.0,
                                             "estimate": 0.5 * length ** 0.9}} for length in (32, 64, 128)]
    assert verdict("fig2a", linear, parse("baseline"))["reproduced"]
    assert not verdict("fig2a", linear, parse("distance=norm"))["reproduced"]  # the norm reading stays flat
    critical = [{"length": 100, "critical_n": 12, "paper": 6.0}, {"length": 200, "critical_n": 25, "paper": 12.0}]
    assert not verdict("fig2c", critical, parse("baseline"))["reproduced"]  # 25 > 2·12
    assert verdict("fig2c", critical[:1], parse("baseline"))["reproduced"]


def test_shared_distance_pass_equals_algorithms_1_and_2_in_both_readings(setup):
    chosen = {"fig2a": [parse("baseline"), parse("distance=norm")], "fig2b": [parse("baseline")]}
    parts, _ = measure_all(setup, chosen, Work(lengths=(16, 32), ns=(1, 5, 10)), progress=False)
    for part in parts["fig2a"]["baseline"]:
        point = algorithms.distance_point(setup, length=part["length"], n=5, checks=False)
        for name in ("distance_sum", "distance_norm", "estimate"):
            assert part["median"][name] == pytest.approx(point["stats"][name]["median"], rel=1e-9)
    for part in parts["fig2b"]["baseline"]:
        point = algorithms.distance_point(setup, length=32, n=part["n"], checks=False)
        assert part["median"]["distance_sum"] == pytest.approx(point["stats"]["distance_sum"]["median"], rel=1e-9)
    assert [p["n"] for p in parts["fig2b"]["baseline"]] == [1, 5, 10]
