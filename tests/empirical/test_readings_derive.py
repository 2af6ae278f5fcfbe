"""Each reading of the heads computes what its name says, on tiny random GPT-2s (one with keys tied to values)."""

import numpy as np
import pytest
import torch

from empirical import algorithms
from setups import setup_of
from empirical.readings.derive import derive
from empirical.readings.grid import parse

pytestmark = pytest.mark.empirical
LENGTH = 24


@pytest.fixture(scope="module")
def tied_gpt2(tmp_path_factory):
    """A tiny GPT-2 whose value projection is a copy of its key projection: v = k in every head."""
    from transformers import GPT2Config, GPT2Model

    from empirical.heads.loading import load_model

    torch.manual_seed(1)
    model = GPT2Model(GPT2Config(n_layer=2, n_head=4, n_embd=32, n_positions=64, vocab_size=50257))
    with torch.no_grad():
        for block in model.h:
            block.attn.c_attn.weight[:, 64:96] = block.attn.c_attn.weight[:, 32:64]
            block.attn.c_attn.bias[64:96] = block.attn.c_attn.bias[32:64]
    directory = tmp_path_factory.mktemp("tied-gpt2")
    model.save_pretrained(directory)
    return load_model(str(directory), offline=True)


def _setup(loaded):
    return setup_of(loaded, text=None, windows=2, progress=False)


def _fractions(setup, reading):
    heads = derive(setup.heads(LENGTH), parse(reading))
    local = setup.with_sources(heads={LENGTH: heads}.__getitem__)
    result = algorithms.separability(local, length=LENGTH, ns=(2, 4, 8))
    return np.array([point["per_head"]["fraction"] for point in result["points"]])


def test_keys_and_values_give_different_separability_where_they_differ(tiny_gpt2):
    setup = _setup(tiny_gpt2)
    assert not np.allclose(_fractions(setup, "baseline"), _fractions(setup, "x=keys"))


def test_keys_and_values_give_the_same_separability_where_they_are_tied(tied_gpt2):
    setup = _setup(tied_gpt2)
    heads = setup.heads(LENGTH)
    # bitwise: k and v are two column blocks of one matmul with equal weights (each column summed in the same order),
    # and the fractions are then one computation run twice on the same tensors: any difference is a bug of derive.
    assert torch.equal(heads.k, heads.v)
    np.testing.assert_array_equal(_fractions(setup, "baseline"), _fractions(setup, "x=keys"))


def test_unscaled_logits_are_the_model_logits_without_the_one_over_root_d(tiny_gpt2):
    heads = _setup(tiny_gpt2).heads(LENGTH)
    derived = derive(heads, parse("logits=unscaled"))
    visible = heads.visible[:, None, None].expand_as(heads.logits)
    scaling = heads.scaling[None, :, None, None, None]
    assert float(heads.scaling[0]) == pytest.approx(8 ** -0.5)  # d_head = 8
    torch.testing.assert_close((derived.logits * scaling)[visible], heads.logits[visible])
    assert torch.isinf(derived.logits[~visible]).all()
    torch.testing.assert_close(derived.alpha.sum(-1), torch.ones(derived.alpha.shape[:-1]))


def test_dropping_the_sink_renormalises_the_attention_over_the_other_keys(tiny_gpt2):
    heads = _setup(tiny_gpt2).heads(LENGTH)
    derived = derive(heads, parse("sink=dropped"))
    # softmax over keys 1.. equals the full softmax divided by the mass left after key 0
    expected = heads.alpha[..., 1:, 1:] / (1 - heads.alpha[..., 1:, :1])
    torch.testing.assert_close(derived.alpha, expected, rtol=1e-5, atol=1e-6)
    # bitwise: dropping the sink slices v, no arithmetic
    assert derived.v.shape[-2] == LENGTH - 1 and torch.equal(derived.v, heads.v[..., 1:, :])


def test_query_readings_keep_the_last_row_or_the_rows_that_see_half_the_keys(tiny_gpt2):
    heads = _setup(tiny_gpt2).heads(LENGTH)
    last = derive(heads, parse("queries=last"))
    assert last.alpha.shape[-2] == 1
    # Not bitwise: the kept row's logits are recomputed by a [1, d] × [d, L] product, which BLAS may sum in another
    # order than the same row of the [L, d] × [d, L] product. A float32 dot product of d terms moves by at most
    # d·u·Σ|q_i k_i| when reordered (u = 2⁻²⁴), and softmax moves each weight by at most 2·α_i·max|Δlogit|, plus a
    # few ulp of its own exp and division.
    u = torch.finfo(torch.float32).eps / 2
    d = heads.q.shape[-1]
    reach = (heads.q[..., -1:, :].abs() @ heads.k.abs().transpose(-1, -2)) * heads.scaling[None, :, None, None, None]
    rtol = 2 * d * u * float(reach.max()) + 8 * u
    torch.testing.assert_close(last.alpha[..., 0, :], heads.alpha[..., -1, :], rtol=rtol, atol=0.0)
    context = derive(heads, parse("queries=context"))
    assert context.alpha.shape[-2] == LENGTH // 2 + 1  # causal rows 11..23 see at least 12 keys
    assert int(context.visible.sum(-1).min()) == LENGTH // 2


def test_residual_reading_is_the_hidden_state_entering_each_layer(tiny_gpt2):
    setup = _setup(tiny_gpt2)
    ids = setup.token_ids(LENGTH)
    with torch.no_grad():
        states = tiny_gpt2.model(input_ids=ids, output_hidden_states=True).hidden_states
    derived = derive(setup.heads(LENGTH), parse("x=residual"))
    for layer in range(2):
        for head in range(4):
            torch.testing.assert_close(derived.v[:, layer, head], states[layer])


def test_output_contributions_weighted_by_alpha_sum_to_the_attention_output(tiny_gpt2):
    from empirical.heads.projections import output_projections

    heads = _setup(tiny_gpt2).heads(LENGTH)
    derived = derive(heads, parse("x=output"), projections=output_projections(tiny_gpt2))
    for layer, block in enumerate(tiny_gpt2.model.h):
        merged = torch.matmul(heads.alpha[:, layer], heads.v[:, layer])  # [B, H, L, d_head]
        merged = merged.permute(0, 2, 1, 3).reshape(2, LENGTH, -1)  # heads side by side, as the model merges them
        with torch.no_grad():
            expected = block.attn.c_proj(merged)  # the model's own output projection, bias included
        ours = torch.matmul(heads.alpha[:, layer], derived.v[:, layer]).sum(1) + block.attn.c_proj.bias
        torch.testing.assert_close(ours, expected, rtol=1e-4, atol=1e-5)
