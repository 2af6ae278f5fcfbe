"""--weights disk: each layer's weights read from the safetensors shards when the forward reaches it, freed after.

On the two-layer LLaMA-2-7B-wide checkpoint: the streamed model gives the same bits as the one loaded whole, in
bfloat16 and float32, and holds at most one layer's weights at any time.
"""

import json

import pytest
import torch

from setups import setup_of
from empirical.heads.extraction import extract
from empirical.heads.loading import load_model
from empirical.heads.offload import decoder_layers
from theorems.errors import InvalidArgument, ModelUnavailableError

pytestmark = [pytest.mark.empirical, pytest.mark.slow]

IDS = torch.randint(0, 30000, (2, 24), generator=torch.Generator().manual_seed(7))


def _real(layer) -> int:
    """Bytes of ``layer``'s weights that are not on the meta device."""
    return sum(p.numel() * p.element_size() for p in layer.parameters() if p.device.type != "meta")


@pytest.mark.parametrize("dtype", ["bfloat16", "float32"])
def test_streamed_heads_equal_the_heads_of_the_model_loaded_whole(llama_2_layers, dtype):
    whole = load_model(str(llama_2_layers), offline=True, dtype=dtype, weights="memory")
    streamed = load_model(str(llama_2_layers), offline=True, dtype=dtype, weights="disk")
    expected, got = extract(whole, IDS), extract(streamed, IDS)
    assert got.q.dtype == torch.float32 and got.sizes == (2, 2, 32, 24)
    for name in ("q", "k", "v", "hidden", "visible", "scaling"):  # bitwise: the same weights, read from disk instead of memory, through the same operations
        assert torch.equal(getattr(got, name), getattr(expected, name)), name
    assert got.attention_error == expected.attention_error
    assert streamed.describe()["parameters"] == whole.describe()["parameters"]


def test_a_streamed_model_holds_one_layers_weights_at_a_time(llama_2_layers):
    loaded = load_model(str(llama_2_layers), offline=True, dtype="bfloat16", weights="disk")
    _, layers = decoder_layers(loaded.model)
    held = []

    def during(module, args):
        held.append([_real(layer) for layer in layers])
    for layer in layers:
        layer.self_attn.register_forward_pre_hook(during)
    extract(loaded, IDS)
    one_layer = sum(p.numel() * 2 for p in layers[0].parameters())
    assert held == [[one_layer, 0], [0, one_layer]]  # layer 0's weights are gone when layer 1 runs
    assert [_real(layer) for layer in layers] == [0, 0]  # and nothing stays after the forward pass
    assert loaded.model.get_input_embeddings().weight.device.type == "cpu"  # the resident part


def test_every_algorithm_gives_the_same_results_with_streamed_weights(llama_2_layers, run_every_algorithm):
    results = {}
    for weights in ("memory", "disk"):
        loaded = load_model(str(llama_2_layers), offline=True, dtype="bfloat16", weights=weights)
        results[weights] = run_every_algorithm(setup_of(loaded, text=None, windows=1, progress=False))
    for number in results["memory"]:
        assert json.dumps(results["disk"][number], sort_keys=True, default=str) == \
            json.dumps(results["memory"][number], sort_keys=True, default=str), number


def test_auto_streams_only_above_the_threshold(llama_2_layers, tiny_gpt2_dir, monkeypatch):
    from empirical.heads import loading

    assert not hasattr(load_model(str(tiny_gpt2_dir), offline=True).model.h[0], "_hf_hook")  # today's path
    monkeypatch.setattr(loading, "STREAM_WEIGHTS", 10**9)  # the 2-layer checkpoint: 1.6 GB in bfloat16
    _, layers = decoder_layers(load_model(str(llama_2_layers), offline=True, dtype="bfloat16").model)
    assert hasattr(layers[0], "_hf_hook")


def test_bad_dtype_or_weights_are_refused_naming_the_option(tiny_gpt2_dir, tmp_path):
    with pytest.raises(InvalidArgument, match="--dtype='float8' must be one of float32, bfloat16, float16"):
        load_model(str(tiny_gpt2_dir), offline=True, dtype="float8")
    with pytest.raises(InvalidArgument, match="--weights='ram' must be one of auto, memory, disk"):
        load_model(str(tiny_gpt2_dir), offline=True, weights="ram")
    from transformers import GPT2Config, GPT2Model

    model = GPT2Model(GPT2Config(n_layer=1, n_head=2, n_embd=8, n_positions=16, vocab_size=100))
    model.config.save_pretrained(tmp_path)
    torch.save(model.state_dict(), tmp_path / "pytorch_model.bin")  # a checkpoint without safetensors
    with pytest.raises(ModelUnavailableError, match="--weights disk: .* no safetensors weights"):
        load_model(str(tmp_path), offline=True, weights="disk")


def test_a_bfloat16_forward_is_read_in_float32_within_its_own_rounding(tiny_gpt2):
    from empirical.heads.extraction import tolerance_for

    low = load_model(tiny_gpt2.path, offline=True, dtype="bfloat16")
    heads, reference = extract(low, IDS[:, :16] % 50257), extract(tiny_gpt2, IDS[:, :16] % 50257)
    assert heads.q.dtype == torch.float32 and 0 < heads.attention_error <= tolerance_for(torch.bfloat16)
    assert torch.allclose(heads.q, reference.q, atol=0.05 * float(reference.q.abs().max()))
