"""Extraction: alpha recomputed from q, k with the model's scaling and mask equals the model's attentions."""

import numpy as np
import pytest
import torch

from empirical.heads.extraction import TOLERANCE, ExtractionMismatch, extract
from empirical.heads.loading import load_model

from empirical_paths import WAR_AND_PEACE, needs_shared

pytestmark = pytest.mark.empirical


def _model_attentions(loaded, ids):
    with torch.no_grad():
        output = loaded.model(input_ids=ids, output_attentions=True)
    return torch.stack(list(output.attentions), dim=1)  # [B, layer, head, L, L]


def _softmax_from_qk(heads):
    # an independent recomputation: plain scaled dot products, the causal mask, a softmax in float64
    scores = (heads.q.double() @ heads.k.double().transpose(-1, -2)) * heads.scaling.double()[None, :, None, None, None]
    scores = scores.masked_fill(~heads.visible[:, None, None], float("-inf"))
    return torch.softmax(scores, dim=-1)


def test_tiny_gpt2_alpha_from_q_k_matches_the_model(tiny_gpt2):
    ids = torch.randint(0, 50257, (2, 24), generator=torch.Generator().manual_seed(1))
    heads = extract(tiny_gpt2, ids)
    model = _model_attentions(tiny_gpt2, ids)
    assert heads.q.shape == (2, 2, 4, 24, 8) and heads.alpha.shape == (2, 2, 4, 24, 24)
    assert float((_softmax_from_qk(heads) - model.double()).abs().max()) < TOLERANCE
    assert heads.attention_error < TOLERANCE


def test_tiny_gpt2_is_causal_row_t_sees_t_plus_one_keys(tiny_gpt2):
    heads = extract(tiny_gpt2, torch.arange(10))
    assert heads.causal
    assert heads.visible[0].sum(-1).tolist() == list(range(1, 11))
    assert float(heads.alpha[..., 0, 1:].abs().max()) == 0.0  # the first query sees only itself
    assert torch.isinf(heads.logits[0, 0, 0, 0, 1]) and heads.finite_logits().isfinite().all()


def test_inverse_layer_scaling_is_read_from_the_model(tmp_path):
    from transformers import GPT2Config, GPT2Model

    torch.manual_seed(0)
    GPT2Model(GPT2Config(n_layer=3, n_head=2, n_embd=16, n_positions=32, vocab_size=100,
                         scale_attn_by_inverse_layer_idx=True)).save_pretrained(tmp_path)
    loaded = load_model(str(tmp_path), offline=True)
    heads = extract(loaded, torch.arange(12))
    expected = (8 ** -0.5) / np.arange(1, 4)
    assert np.allclose(heads.scaling.numpy(), expected, rtol=1e-6)
    assert float((_softmax_from_qk(heads) - _model_attentions(loaded, torch.arange(12)[None]).double()).abs().max()) < TOLERANCE


def test_embedding_options_have_the_documented_shapes(tiny_gpt2):
    heads = extract(tiny_gpt2, torch.arange(6))
    assert heads.embeddings("values").shape == (1, 2, 4, 6, 8)
    assert heads.embeddings("keys").shape == (1, 2, 4, 6, 8)
    assert heads.embeddings("hidden").shape == (1, 2, 4, 6, 32)
    with pytest.raises(ValueError, match="embeddings"):
        heads.embeddings("queries")


def test_bad_input_ids_are_refused_with_the_argument_named(tiny_gpt2):
    with pytest.raises(ValueError, match="input_ids"):
        extract(tiny_gpt2, torch.zeros(2, 3, 4, dtype=torch.long))
    with pytest.raises(ValueError, match="at most 64"):
        extract(tiny_gpt2, torch.zeros(65, dtype=torch.long))


def test_a_mismatch_beyond_tolerance_is_reported(tiny_gpt2):
    with pytest.raises(ExtractionMismatch):
        extract(tiny_gpt2, torch.arange(8), tolerance=-1.0)


def test_minilm_alpha_from_q_k_matches_the_model_and_is_bidirectional(minilm):
    ids = torch.tensor([[101] + list(range(2000, 2030)) + [102]])
    heads = extract(minilm, ids)
    assert not heads.causal and heads.q.shape == (1, 6, 12, 32, 32)
    assert float((_softmax_from_qk(heads) - _model_attentions(minilm, ids).double()).abs().max()) < TOLERANCE


@needs_shared()
def test_minilm_on_war_and_peace_matches_the_model(minilm):
    from empirical.heads.text import windows

    ids = windows(WAR_AND_PEACE, tokenizer=minilm.tokenizer, length=64, count=2)
    heads = extract(minilm, ids)
    assert float((_softmax_from_qk(heads) - _model_attentions(minilm, ids).double()).abs().max()) < TOLERANCE
