"""The cluster's layer blocks as a pipeline: block k + 1 runs on block k's output, and reads only its own layers.

A block of layers run alone on the hidden state the previous block handed on gives the same tensors as one forward
pass over every layer (GPT-2, BERT, LLaMA streamed from disk); `--cluster local --layers-per-block 1` on the
two-layer LLaMA-2-7B-wide checkpoint in bfloat16 writes the single machine's results.json.
"""

import json

import pytest
import torch

from empirical import cluster, reproduce
from empirical.heads.extraction import extract
from empirical.heads.loading import load_model
from empirical.heads.offload import decoder_layers
from empirical.spec import RunSpec
from test_cluster import _assert_same
from theorems.errors import InvalidArgument

pytestmark = pytest.mark.empirical

IDS = torch.randint(0, 30000, (2, 20), generator=torch.Generator().manual_seed(3))


def _pipeline(loaded, cuts):
    entering, parts = None, []
    for start, stop in zip(cuts, cuts[1:]):
        heads = extract(loaded, IDS, layers=range(start, stop), pipeline=True, entering=entering)
        entering = heads.leaving
        parts.append(heads)
    return parts


@pytest.mark.parametrize("model, cuts", [("tiny_gpt2", (0, 1, 2)), ("minilm", (0, 1, 3, 6))])
def test_blocks_fed_the_previous_blocks_output_equal_one_forward_pass(model, cuts, request):
    loaded = request.getfixturevalue(model)
    parts = _pipeline(loaded, cuts)  # first: transformers installs its output hooks on the layers it holds then
    whole = extract(loaded, IDS)
    for name in ("q", "k", "v", "hidden"):  # bitwise: the same layers on the same inputs, one forward pass cut in parts
        assert torch.equal(torch.cat([getattr(part, name) for part in parts], dim=1), getattr(whole, name)), name
    assert [part.sizes[1] for part in parts] == [b - a for a, b in zip(cuts, cuts[1:])]
    assert whole.leaving is None and parts[-1].leaving.shape == (2, 20, whole.hidden.shape[-1])


@pytest.mark.slow
def test_a_streamed_block_reads_only_its_own_layers(llama_2_layers):
    loaded = load_model(str(llama_2_layers), offline=True, dtype="bfloat16", weights="disk")
    _, layers = decoder_layers(loaded.model)
    called = []
    for number, layer in enumerate(layers):
        layer.register_forward_pre_hook(lambda module, args, number=number: called.append(number))
    first = extract(loaded, IDS, layers=range(0, 1), pipeline=True)
    second = extract(loaded, IDS, layers=range(1, 2), pipeline=True, entering=first.leaving)
    assert called == [0, 1] and second.sizes == (2, 1, 32, 20)
    # bitwise: the same layers on the same inputs; block 1 starts from block 0's own output
    assert torch.equal(second.hidden[:, 0], first.leaving.float())
    assert torch.equal(torch.cat([first.q, second.q], dim=1), extract(loaded, IDS).q)


def test_a_pipeline_block_needs_the_previous_output_exactly_when_it_starts_later(tiny_gpt2):
    with pytest.raises(InvalidArgument, match="entering must be given exactly when"):
        extract(tiny_gpt2, IDS, layers=range(1, 2), pipeline=True)
    with pytest.raises(InvalidArgument, match="entering must be given exactly when"):
        extract(tiny_gpt2, IDS, layers=range(0, 1), pipeline=True, entering=torch.zeros(2, 20, 32))


OPTIONS = dict(which=(1, 2, 3, 4, 5), lengths=(8, 16), ns=(1, 3), separability_ns=(1, 2), temperatures=(0.1, 1.0),
               epsilons=(1e-3, 1.0))


@pytest.mark.slow
def test_a_local_cluster_pipeline_on_the_7b_wide_checkpoint_writes_the_single_machine_results(llama_2_layers, tmp_path):
    common = dict(model=str(llama_2_layers), text=None, offline=True, progress=False, dtype="bfloat16", **OPTIONS)
    reproduce.run(out=tmp_path / "single", **common)
    reproduce.run(out=tmp_path / "cluster", cluster="local", layers_per_block=1, **common)
    single = json.loads((tmp_path / "single" / "results.json").read_text())
    _assert_same(json.loads((tmp_path / "cluster" / "results.json").read_text()), single)
    assert single["settings"]["dtype"] == "bfloat16"
    # the workers stream the local checkpoint: each reads only its block's layer
    assert cluster.streams_on_workers(RunSpec.from_options(model=str(llama_2_layers), layers_per_block=1))
