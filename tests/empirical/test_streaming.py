"""Layer streaming: a model extracted one block of layers at a time gives the same numbers as all at once."""

import json

import pytest
import torch

from empirical import algorithms
from empirical.corollary3 import sensitivity_confirmer
from empirical.heads.extraction import extract
from empirical.heads.stream import HeadStream, layers_per_block
from setups import setup_of

pytestmark = pytest.mark.empirical


@pytest.fixture(scope="module")
def ids():
    return torch.randint(0, 50257, (2, 24), generator=torch.Generator().manual_seed(5))


def test_a_block_of_layers_equals_the_same_layers_of_the_whole_model(tiny_gpt2, ids):
    whole = extract(tiny_gpt2, ids)
    block = extract(tiny_gpt2, ids, layers=range(1, 2))
    assert block.sizes == (2, 1, 4, 24) and whole.sizes == (2, 2, 4, 24)
    # bitwise: a block is captured from the same forward pass of the same model on the same ids (same shapes, same
    # kernels), and the logits and alpha of a layer are one function of it: streaming must not change a bit
    for name in ("q", "k", "v", "hidden"):
        assert torch.equal(getattr(block, name)[:, 0], getattr(whole, name)[:, 1]), name
    assert torch.equal(block.layer_logits(0), whole.logits[:, 1]) and torch.equal(block.visible, whole.visible)
    assert torch.equal(whole.layer_alpha(1), whole.alpha[:, 1])  # bitwise: alpha stacks these same layer_alpha calls


def test_the_stream_holds_one_block_and_extracts_each_block_once_per_pass(tiny_gpt2, ids):
    held = []

    def extract_block(layers):
        held.append(layers)
        return extract(tiny_gpt2, ids, layers=layers)

    stream = HeadStream(extract_block, layers=2, per_block=1)
    whole = extract(tiny_gpt2, ids)
    assert stream.sizes == whole.sizes
    for layer in range(2):  # bitwise: as above, the same forward pass and the same function of it
        assert torch.equal(stream.layer_logits(layer), whole.layer_logits(layer))
        assert torch.equal(stream.layer_embeddings(layer, "hidden"), whole.layer_embeddings(layer, "hidden"))
    assert held == [range(0, 1), range(1, 2)] and stream.extractions == 2
    assert stream.attention_error <= 1e-5


def test_every_algorithm_gives_the_same_results_streamed_one_layer_at_a_time(tiny_gpt2, run_every_algorithm):
    whole = setup_of(tiny_gpt2, text=None, windows=2, progress=False)
    streamed = setup_of(tiny_gpt2, text=None, windows=2, progress=False, layers_per_block=1)
    assert isinstance(streamed.heads(24), HeadStream) and not isinstance(whole.heads(24), HeadStream)
    expected, got = run_every_algorithm(whole), run_every_algorithm(streamed)
    for number in expected:  # the same operations on the same tensors: the same bits
        assert json.dumps(got[number], sort_keys=True, default=str) == \
            json.dumps(expected[number], sort_keys=True, default=str), number


def test_block_sizes_follow_the_memory_budget():
    assert layers_per_block(batch=1, length=1024, heads=12, d_head=64, d_model=768, layers=12) == 12
    assert layers_per_block(batch=1, length=4096, heads=32, d_head=128, d_model=4096, layers=32,
                            budget=1 << 20) == 1  # never below one layer
    per_layer = 2 * 64 * (3 * 4 * 8 + 32) * 4
    assert layers_per_block(batch=2, length=64, heads=4, d_head=8, d_model=32, layers=9, budget=3 * per_layer) == 3


@pytest.mark.parametrize("call, message", [
    (lambda loaded, ids: extract(loaded, ids, layers=range(1, 3)), "layers=range"),
    (lambda loaded, ids: extract(loaded, ids, layers=[0]), "layers="),
    (lambda loaded, ids: HeadStream(lambda r: None, layers=2, per_block=0), "per_block=0"),
    (lambda loaded, ids: HeadStream(lambda r: None, layers=2, per_block=1).layer_logits(2), "layer=2"),
    (lambda loaded, ids: setup_of(loaded, text=None, layers_per_block=0), "--layers-per-block=0"),
    (lambda loaded, ids: layers_per_block(batch=1, length=0, heads=1, d_head=1, d_model=1, layers=1), "length=0"),
])
def test_bad_streaming_arguments_are_named(tiny_gpt2, ids, call, message):
    with pytest.raises(ValueError, match=message):
        call(tiny_gpt2, ids)


def test_the_mpmath_confirmers_read_one_layer_of_a_stream_as_of_the_whole_model(tiny_gpt2, ids):
    whole = extract(tiny_gpt2, ids)
    stream = HeadStream(lambda layers: extract(tiny_gpt2, ids, layers=layers), layers=2, per_block=1)
    example = {"window": 1, "layer": 1, "head": 2, "token": 4, "T": 0.5}
    answers = []
    for heads in (whole, stream):
        confirm = algorithms._confirmer(heads, "values", 3)
        answers.append((confirm("theorem1.fixed.sum.normalised", example),
                        sensitivity_confirmer(heads)("corollary3.row.corrected", example)))
    assert answers[0] == answers[1] == (False, False)  # these hold: no violation to confirm


def test_a_pipelined_stream_runs_each_layer_once_per_pass_with_the_same_tensors(tiny_gpt2, ids):
    calls = []

    def extract_block(layers, **pipeline):
        calls.append((layers, pipeline.get("pipeline", False)))
        return extract(tiny_gpt2, ids, layers=layers, **pipeline)

    stream = HeadStream(extract_block, layers=2, per_block=1, pipeline=True)
    whole = extract(tiny_gpt2, ids)
    for _ in range(2):  # two passes over the layers
        for layer in range(2):  # bitwise: one pipelined forward pass, the same operations as the whole one
            assert torch.equal(stream.layer_logits(layer), whole.layer_logits(layer))
            assert torch.equal(stream.layer_embeddings(layer, "hidden"), whole.layer_embeddings(layer, "hidden"))
    assert calls == [(range(0, 1), True), (range(1, 2), True)] * 2  # block 1 fed block 0's output each pass
    stream.layer_logits(1)
    assert len(calls) == 4  # held: no forward pass
    jumped = HeadStream(extract_block, layers=2, per_block=1, pipeline=True)
    jumped.layer_logits(1)  # no block before it is held: a whole forward pass
    assert calls[-1] == (range(1, 2), False)
