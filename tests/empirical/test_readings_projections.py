"""``x=output`` on a grouped-query llama: the α-weighted contributions of every head sum to o_proj's output."""

import pytest
import torch

from setups import setup_of
from empirical.heads.projections import NoOutputProjectionError, output_projections
from empirical.readings.derive import derive
from empirical.readings.grid import parse

pytestmark = pytest.mark.empirical


def test_llama_contributions_sum_to_the_output_projection(tiny_gguf):
    setup = setup_of(tiny_gguf, text=None, windows=1, progress=False)
    heads = setup.heads(16)
    derived = derive(heads, parse("x=output"), projections=output_projections(tiny_gguf))
    for layer, block in enumerate(tiny_gguf.model.layers):
        merged = torch.matmul(heads.alpha[:, layer], heads.v[:, layer])  # [B, H, L, d_head], v per query head
        merged = merged.permute(0, 2, 1, 3).reshape(1, 16, -1)
        with torch.no_grad():
            expected = block.self_attn.o_proj(merged)
        ours = torch.matmul(heads.alpha[:, layer], derived.v[:, layer]).sum(1)
        torch.testing.assert_close(ours, expected, rtol=1e-4, atol=1e-5)


def test_an_architecture_without_a_known_projection_is_refused(tiny_gpt2, monkeypatch):
    monkeypatch.setattr(tiny_gpt2.model.config, "model_type", "unknown-architecture")
    with pytest.raises(NoOutputProjectionError, match="known for model types"):
        output_projections(tiny_gpt2)
