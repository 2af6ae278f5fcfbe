"""The execution context of the algorithms: the model, the text, how it is cut, where and how it runs.

:class:`Setup` is what :mod:`empirical.algorithms`, :mod:`empirical.runner`, :mod:`empirical.cluster`,
:mod:`empirical.bench` and :mod:`empirical.readings` read: the heads of one length (a :class:`Heads` when every
layer fits memory, else a pipelined :class:`empirical.heads.stream.HeadStream`) and the row mapper that evaluates
blocks of rows on threads or on a cluster.

>>> setup = Setup(load_model("minilm"), text=WAR_AND_PEACE)      # doctest: +SKIP
>>> setup.heads(128).sizes                                          # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import torch
from tqdm.auto import tqdm

from empirical.heads.device import place, resolve
from empirical.heads.extraction import Heads, extract
from empirical.heads.loading import LoadedModel
from empirical.heads.rows import BUDGET, TORCH_BUDGET, RowMap, check_backend, check_workers, count_blocks, map_rows
from empirical.heads.stream import HeadStream, check_layers_per_block, layers_per_block
from empirical.heads.text import windows
from theorems.arithmetic.tensors import is_torch
from theorems.errors import InvalidArgument


@dataclasses.dataclass
class Setup:
    """What every algorithm reads: the model, the text (or random tokens), and how to cut it.

    ``windows`` consecutive windows per length (statistics pool their tokens); ``embeddings`` picks
    the ``x_i`` (:data:`empirical.heads.extraction.EMBEDDINGS`); ``text=None`` feeds random token ids
    drawn from ``seed`` (the benchmark on random weights, and unit tests). ``row_mapper`` stands in for
    :func:`empirical.heads.rows.map_rows` (same arguments, same ``RowMap``; :mod:`empirical.cluster` sets it to
    compute blocks of layers on workers). ``layers_per_block`` bounds how
    many layers' vectors are held at once (default: as many as fit
    :data:`empirical.heads.stream.STREAM_BYTES`); a model deeper than that is streamed
    (:class:`empirical.heads.stream.HeadStream`, one forward pass per block of layers and pass).
    ``workers`` blocks of rows are evaluated at once on a pool of threads (default ``None``: the cores this
    process may use, :func:`empirical.heads.rows.default_workers`); the results do not depend on it.
    ``backend`` is where the quantities run (:data:`empirical.heads.rows.BACKENDS`): ``torch`` (the default) keeps
    the heads on ``device`` and computes there in float64, ``numpy`` brings them to the CPU (the reference path);
    the two agree to the rounding of each quantity (``tests/empirical/test_backends.py``). ``budget`` (array entries
    of a block's largest work array) defaults to the backend's (:data:`empirical.heads.rows.TORCH_BUDGET`,
    :data:`empirical.heads.rows.BUDGET`).
    """

    loaded: LoadedModel
    text: Path | str | None = None
    windows: int = 1
    embeddings: str = "values"
    budget: int | None = None
    seed: int = 0
    progress: bool = True
    device: str = "cpu"
    layers_per_block: int | None = None
    workers: int | None = None
    row_mapper: object = None
    heads_source: object = None
    backend: str = "torch"
    _cache: dict = dataclasses.field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.windows, int) or self.windows < 1:
            raise InvalidArgument(f"windows={self.windows!r} must be a positive integer")
        self.device = resolve(self.device)  # checked before any forward pass
        self.layers_per_block = check_layers_per_block(self.layers_per_block)
        self.workers = check_workers(self.workers)
        self.backend = check_backend(self.backend)
        if self.budget is None:
            self.budget = TORCH_BUDGET if self.backend == "torch" else BUDGET

    def lengths(self, wanted) -> list[int]:
        """The lengths of ``wanted`` the model accepts (BERT-family encoders stop at 512)."""
        kept = [int(length) for length in wanted if int(length) <= self.loaded.max_length]
        if not kept:
            raise InvalidArgument(f"no length of {tuple(wanted)} fits {self.loaded.name} (at most {self.loaded.max_length})")
        return kept

    def token_ids(self, length: int) -> torch.Tensor:
        """``[windows, length]`` token ids: consecutive windows of the text, or seeded random ids."""
        if self.text is None:
            vocabulary = int(self.loaded.model.config.vocab_size)
            generator = torch.Generator().manual_seed(self.seed + length)
            return torch.randint(0, vocabulary, (self.windows, length), generator=generator)
        return windows(self.text, tokenizer=self.loaded.tokenizer, length=length, count=self.windows)

    def heads(self, length: int) -> Heads | HeadStream:
        """Every head on the windows of ``length`` tokens (the last length is kept).

        A :class:`Heads` when every layer's vectors fit one block, else a :class:`HeadStream`; both
        answer the per-layer questions the algorithms ask (``sizes``, ``visible``, ``layer_logits``,
        ``layer_embeddings``).
        """
        if self.heads_source is not None:
            return self.heads_source(length)
        if length not in self._cache:
            self._cache.clear()  # free the previous heads before the next forward pass
            ids = self.token_ids(length)
            per_block = self.block_size(ids.shape[0], length)
            layers = self.loaded.n_layers
            self._cache[length] = (self._extract(ids) if per_block >= layers else
                                   HeadStream(lambda block, **pipe: self._extract(ids, layers=block, **pipe),
                                              layers=layers, per_block=per_block, pipeline=True))
        return self._cache[length]

    def block_size(self, batch: int, length: int) -> int:
        """Layers per block: ``layers_per_block``, or as many as fit :data:`empirical.heads.stream.STREAM_BYTES`."""
        if self.layers_per_block is not None:
            return self.layers_per_block
        config = self.loaded.model.config
        d_model = int(getattr(config, "hidden_size", None) or getattr(config, "n_embd", 0) or
                      self.loaded.n_heads * self.loaded.d_head)
        return layers_per_block(batch=batch, length=length, heads=self.loaded.n_heads, d_head=self.loaded.d_head,
                                d_model=d_model, layers=self.loaded.n_layers)

    def _extract(self, ids: torch.Tensor, **keywords) -> Heads:
        """The forward pass on ``self.device`` (``keywords`` of :func:`extract`: ``layers``, ``pipeline``,
        ``entering``); the heads stay there with the torch backend and come to the CPU with numpy's (the same code
        on every device: on the CPU both are no-ops)."""
        if self.device.type == "cpu":
            heads = extract(self.loaded, ids, **keywords)
        else:
            loaded = dataclasses.replace(self.loaded, model=place(self.loaded.model, self.device))
            keywords = {key: place(value, self.device) if is_torch(value) else value for key, value in keywords.items()}
            heads = extract(loaded, place(ids, self.device), **keywords)
        if self.backend == "torch":
            return heads
        return dataclasses.replace(heads, **{field.name: getattr(heads, field.name).cpu()
                                             for field in dataclasses.fields(heads)
                                             if is_torch(getattr(heads, field.name))})

    def map_rows(self, heads, function, **keywords) -> RowMap:
        """:func:`empirical.heads.rows.map_rows` on ``workers`` threads, or ``row_mapper`` when one is set (the
        cluster's layer blocks: each worker process uses its own threads)."""
        if self.row_mapper is not None:
            return self.row_mapper(heads, function, **keywords)
        return map_rows(heads, function, workers=self.workers, backend=self.backend, **keywords)

    def blocking(self, *, width: int | None = None, grid: int = 1) -> dict:
        """The block keywords of :meth:`map_rows` for a pass: numpy's ``width`` (its kernels' largest trailing size
        per (query, key) pair; ``d`` at least) or, on the torch backend, ``grid`` (how many ``N`` or ``T`` its kernels
        batch into one operation), with this setup's embeddings and budget."""
        return {"embeddings": self.embeddings, "budget": self.budget,
                "width": grid if self.backend == "torch" else width}

    def count_blocks(self, heads, index, **blocking) -> int:
        """How many blocks :meth:`map_rows` will evaluate with ``blocking`` (:meth:`blocking`): a progress bar's total."""
        return count_blocks(heads, index, backend=self.backend, **blocking)

    def bar(self, total: int, description: str):
        return tqdm(total=total, desc=description, unit="block", leave=False, disable=not self.progress)
