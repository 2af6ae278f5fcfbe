"""Any GGUF model loads through the one loader: converted once, cached outside the repository, read back."""

import pytest
import torch

from empirical.heads.extraction import extract
from empirical.heads.loading import ModelUnavailableError, converted_gguf, load_model

pytestmark = pytest.mark.empirical


def test_a_tiny_gguf_llama_loads_as_a_causal_model_whose_recomputed_attention_matches(tiny_gguf):
    assert (tiny_gguf.n_layers, tiny_gguf.n_heads, tiny_gguf.d_head, tiny_gguf.causal) == (2, 4, 8, True)
    heads = extract(tiny_gguf, torch.arange(24) % 64)
    assert heads.alpha.shape == (1, 2, 4, 24, 24)
    assert heads.attention_error <= 1e-6
    # grouped-query attention: query heads 0 and 1 share key/value head 0 (bitwise: one tensor repeated, no arithmetic)
    assert torch.equal(heads.v[0, :, 0], heads.v[0, :, 1]) and not torch.equal(heads.v[0, :, 1], heads.v[0, :, 2])


def test_the_conversion_is_cached_outside_the_file_and_reused(tiny_gguf_file, gguf_cache):
    first = converted_gguf(tiny_gguf_file)
    assert first.is_relative_to(gguf_cache) and (first / "model.safetensors").is_file()
    stamp = (first / "model.safetensors").stat().st_mtime_ns
    assert converted_gguf(tiny_gguf_file) == first
    assert (first / "model.safetensors").stat().st_mtime_ns == stamp  # not converted again


def test_a_folder_holding_one_gguf_file_loads_the_same_weights(tiny_gguf, tiny_gguf_file):
    again = load_model(str(tiny_gguf_file.parent), offline=True)
    for mine, theirs in zip(again.model.state_dict().values(), tiny_gguf.model.state_dict().values()):
        assert torch.equal(mine, theirs)  # bitwise: the same weights read from the same converted file


def test_a_gguf_architecture_transformers_cannot_read_is_named(tmp_path, gguf_cache):
    import gguf
    import numpy as np

    path = tmp_path / "odd.gguf"
    writer = gguf.GGUFWriter(str(path), "notanarchitecture")
    writer.add_tensor("x.weight", np.ones(4, np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    with pytest.raises(ModelUnavailableError, match="cannot load or dequantise.*'notanarchitecture'"):
        load_model(str(path), offline=True)
