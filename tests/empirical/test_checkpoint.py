"""`python -m empirical checkpoint`: a random LLaMA-2-7B-shaped checkpoint written shard by shard, checked first."""

import json
import shutil

import pytest
import torch

from empirical import checkpoint
from empirical.__main__ import main
from theorems.errors import InvalidArgument

pytestmark = pytest.mark.empirical


def test_the_small_variant_has_llama_2_7b_widths_and_the_tokenizers_vocabulary(llama_2_layers):
    from transformers import AutoConfig, AutoTokenizer

    config = AutoConfig.from_pretrained(llama_2_layers)
    assert (config.model_type, config.num_hidden_layers, config.num_attention_heads, config.hidden_size,
            config.intermediate_size, config.dtype) == ("llama", 2, 32, 4096, 11008, torch.bfloat16)
    assert config.vocab_size == len(AutoTokenizer.from_pretrained(llama_2_layers))


def test_the_index_names_every_tensor_of_the_causal_lm_in_its_own_shard(llama_2_layers):
    from safetensors import safe_open

    index = json.loads((llama_2_layers / "model.safetensors.index.json").read_text())
    expected = dict(checkpoint.layout(checkpoint.config(like="llama-2-7b", layers=2, vocabulary=len_vocab(llama_2_layers))))
    assert set(index["weight_map"]) == set(expected)
    found, total = {}, 0
    for file in sorted(set(index["weight_map"].values())):
        with safe_open(llama_2_layers / file, framework="pt") as handle:
            for name in handle.keys():
                found[name] = tuple(handle.get_slice(name).get_shape())
                assert index["weight_map"][name] == file and handle.get_slice(name).get_dtype() == "BF16"
                total += 2 * torch.Size(found[name]).numel()
    assert found == expected and index["metadata"]["total_size"] == total
    # one shard per decoder layer: a streamed load reads one layer's file at a time
    layer_files = {index["weight_map"][name] for name in expected if name.startswith("model.layers.1.")}
    assert len(layer_files) == 1 and not any(
        index["weight_map"][name] in layer_files for name in expected if not name.startswith("model.layers.1."))


def len_vocab(folder):
    from transformers import AutoTokenizer

    return len(AutoTokenizer.from_pretrained(folder))


def test_tensors_are_seeded_per_tensor_and_scaled_like_the_initialiser():
    first = checkpoint.draw("w", (256, 64), seed=3, index=5, scale=0.02)
    # bitwise: the same seeded generator and index replayed must give the same bits; other seeds must not
    assert torch.equal(first, checkpoint.draw("w", (256, 64), seed=3, index=5, scale=0.02))
    assert not torch.equal(first, checkpoint.draw("w", (256, 64), seed=3, index=6, scale=0.02))
    assert not torch.equal(first, checkpoint.draw("w", (256, 64), seed=4, index=5, scale=0.02))
    assert first.dtype == torch.bfloat16 and 0.018 < float(first.float().std()) < 0.022
    # bitwise: a norm weight is written as exact ones
    assert torch.equal(checkpoint.draw("model.norm.weight", (8,), seed=0, index=0, scale=0.02), torch.ones(8).bfloat16())


def test_each_shard_is_written_from_its_own_tensors_only(tmp_path, checkpoint_tokenizer, monkeypatch):
    import safetensors.torch

    written = []

    def record(tensors, path, metadata=None):
        written.append(sorted(tensors))
        path.write_bytes(b"")
    monkeypatch.setattr(safetensors.torch, "save_file", record)
    monkeypatch.setattr(checkpoint, "draw", lambda name, shape, **_: torch.zeros(1))
    checkpoint.write(out=tmp_path / "m", layers=3, tokenizer=checkpoint_tokenizer)
    layers = [names for names in written if any(".layers." in name for name in names)]
    assert len(layers) == 3 and all(len({name.split(".")[2] for name in names}) == 1 for names in layers)
    assert sum(len(names) for names in written) == len(checkpoint.layout(
        checkpoint.config(like="llama-2-7b", layers=3, vocabulary=len_vocab(tmp_path / "m"))))


def test_a_disk_without_the_space_is_refused_before_anything_is_written(tmp_path, checkpoint_tokenizer, monkeypatch):
    monkeypatch.setattr(shutil, "disk_usage", lambda path: shutil._ntuple_diskusage(10**12, 10**12 - 10**9, 10**9))
    with pytest.raises(InvalidArgument, match=r"--out=.*needs 12\.\d GiB.*0\.9 GiB free"):
        checkpoint.write(out=tmp_path / "big", tokenizer=checkpoint_tokenizer)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("arguments, message", [
    (["--layers", "0"], "--layers=0 must be a positive integer"),
    (["--seed", "-1"], "--seed=-1 must be a non-negative integer"),
    (["--tokenizer", "/nonexistent/tokenizer"], "--tokenizer='/nonexistent/tokenizer' is not a directory"),
])
def test_bad_arguments_get_a_clear_error_naming_them(tmp_path, checkpoint_tokenizer, capsys, arguments, message):
    defaults = ["--tokenizer", str(checkpoint_tokenizer)] if "--tokenizer" not in arguments else []
    assert main(["checkpoint", "--out", str(tmp_path / "m"), *defaults, *arguments]) == 2
    assert message in capsys.readouterr().err and not (tmp_path / "m").exists()


def test_an_existing_folder_with_files_is_not_overwritten(tmp_path, checkpoint_tokenizer):
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(InvalidArgument, match="exists and is not an empty directory"):
        checkpoint.write(out=tmp_path, layers=1, tokenizer=checkpoint_tokenizer)
    assert (tmp_path / "keep.txt").read_text() == "mine"


def test_an_unknown_architecture_is_refused_by_the_parser(tmp_path):
    with pytest.raises(SystemExit):
        main(["checkpoint", "--like", "gpt-5", "--out", str(tmp_path / "m")])
    with pytest.raises(InvalidArgument, match="--like='gpt-5' must be one of"):
        checkpoint.config(like="gpt-5", layers=None, vocabulary=10)
