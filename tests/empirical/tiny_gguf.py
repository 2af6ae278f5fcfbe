"""Write a tiny random llama model as a GGUF file with the ``gguf`` package (float32 tensors, no tokenizer)."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def write_tiny_llama(path: Path, *, layers: int = 2, heads: int = 4, kv_heads: int = 2, width: int = 32,
                     vocab: int = 64, context: int = 64, seed: int = 0) -> Path:
    """A llama with grouped-query attention (``heads`` query heads sharing ``kv_heads`` key/value heads)."""
    import gguf

    rng = np.random.default_rng(seed)
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_context_length(context)
    writer.add_embedding_length(width)
    writer.add_block_count(layers)
    writer.add_feed_forward_length(2 * width)
    writer.add_head_count(heads)
    writer.add_head_count_kv(kv_heads)
    writer.add_rope_dimension_count(width // heads)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_vocab_size(vocab)
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)
    d = width // heads

    def random(name: str, *shape: int) -> None:
        writer.add_tensor(name, (rng.standard_normal(shape) * 0.2).astype(np.float32))

    random("token_embd.weight", vocab, width)
    for block in range(layers):
        writer.add_tensor(f"blk.{block}.attn_norm.weight", np.ones(width, np.float32))
        random(f"blk.{block}.attn_q.weight", heads * d, width)
        random(f"blk.{block}.attn_k.weight", kv_heads * d, width)
        random(f"blk.{block}.attn_v.weight", kv_heads * d, width)
        random(f"blk.{block}.attn_output.weight", width, heads * d)
        writer.add_tensor(f"blk.{block}.ffn_norm.weight", np.ones(width, np.float32))
        random(f"blk.{block}.ffn_gate.weight", 2 * width, width)
        random(f"blk.{block}.ffn_up.weight", 2 * width, width)
        random(f"blk.{block}.ffn_down.weight", width, 2 * width)
    writer.add_tensor("output_norm.weight", np.ones(width, np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path
