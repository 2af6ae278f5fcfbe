"""A --model path that is missing, half a model, or not a model is named as such, not as a hub id."""

import pytest

from empirical.heads.loading import ModelUnavailableError, load_model

pytestmark = pytest.mark.empirical


def test_a_missing_path_is_reported_as_missing(tmp_path):
    with pytest.raises(ModelUnavailableError, match="does not exist"):
        load_model(str(tmp_path / "nothere"), offline=True)


def test_a_directory_with_config_but_no_weights_is_reported_as_such(tmp_path, tiny_gpt2_dir):
    (tmp_path / "config.json").write_text((tiny_gpt2_dir / "config.json").read_text())
    with pytest.raises(ModelUnavailableError, match="holds config.json but no weights"):
        load_model(str(tmp_path), offline=True)


def test_a_file_that_is_not_gguf_is_refused(tmp_path):
    path = tmp_path / "weights.txt"
    path.write_text("x")
    with pytest.raises(ModelUnavailableError, match="not a .gguf file"):
        load_model(str(path), offline=True)


def test_a_tokenizer_larger_than_the_vocabulary_is_refused(tiny_gpt2_dir):
    from empirical_paths import GPT2_TOKENIZER

    if not GPT2_TOKENIZER.exists():
        pytest.skip(f"{GPT2_TOKENIZER} is absent (../shared)")
    from transformers import GPT2Config, GPT2Model

    # a GPT-2 embedding only 100 tokens, with GPT-2's 50257-token vocabulary
    small = tiny_gpt2_dir.parent / "small-vocabulary"
    GPT2Model(GPT2Config(n_layer=1, n_head=2, n_embd=8, n_positions=16, vocab_size=100)).save_pretrained(small)
    with pytest.raises(ModelUnavailableError, match="50257 tokens but model .* embeds only 100"):
        load_model(str(small), offline=True, tokenizer=str(GPT2_TOKENIZER))


def test_a_vision_model_is_refused_as_not_a_text_model(tmp_path):
    from transformers import ViTConfig, ViTModel

    ViTModel(ViTConfig(hidden_size=8, num_hidden_layers=1, num_attention_heads=2, intermediate_size=8,
                       image_size=8, patch_size=4)).save_pretrained(tmp_path)
    from empirical.heads.loading import NoAttentionError

    with pytest.raises(NoAttentionError, match="not a text model"):
        load_model(str(tmp_path), offline=True)
