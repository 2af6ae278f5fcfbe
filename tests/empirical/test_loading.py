"""The loader: any model by path or alias, eager attention, clear errors offline."""

import pytest

from empirical.heads.loading import ModelUnavailableError, NoAttentionError, load_model, offline_requested, resolve

pytestmark = pytest.mark.empirical


def test_tiny_gpt2_loads_from_a_local_directory_as_a_causal_eager_model(tiny_gpt2):
    assert tiny_gpt2.model.config._attn_implementation == "eager"
    assert (tiny_gpt2.n_layers, tiny_gpt2.n_heads, tiny_gpt2.d_head, tiny_gpt2.causal) == (2, 4, 8, True)
    assert tiny_gpt2.tokenizer is None  # the saved directory holds no vocabulary


def test_minilm_alias_loads_the_packaged_bert_encoder(minilm):
    assert (minilm.n_layers, minilm.n_heads, minilm.causal, minilm.max_length) == (6, 12, False, 512)
    assert minilm.tokenizer is not None


def test_missing_model_offline_says_how_to_point_at_a_local_copy(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    with pytest.raises(ModelUnavailableError, match="--model /path/to/gpt2") as error:
        load_model("gpt2", offline=True)
    assert "minilm" in str(error.value)


def test_a_local_directory_without_config_is_refused(tmp_path):
    with pytest.raises(ModelUnavailableError, match="config.json"):
        resolve(str(tmp_path))


def test_a_model_without_attention_heads_is_refused(tmp_path):
    from transformers import MambaConfig, MambaModel

    MambaModel(MambaConfig(vocab_size=16, hidden_size=8, num_hidden_layers=1, state_size=4)).save_pretrained(tmp_path)
    with pytest.raises(NoAttentionError):
        load_model(str(tmp_path), offline=True)


def test_offline_flag_follows_the_environment(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert offline_requested() is True
    assert offline_requested(False) is False
    monkeypatch.delenv("HF_HUB_OFFLINE")
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    assert offline_requested() is False
