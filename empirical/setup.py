"""The execution context of the algorithms: the model, the text, how it is cut, where and how it runs.

:class:`Setup` is what :mod:`empirical.algorithms`, :mod:`empirical.runner`, :mod:`empirical.cluster`,
:mod:`empirical.bench` and :mod:`empirical.readings` read: a checked :class:`empirical.spec.RunSpec` and the model it
names, the heads of one length (a :class:`Heads` when every layer fits memory, else a pipelined
:class:`empirical.heads.stream.HeadStream`) and the row mapper that evaluates blocks of rows on threads or on a
cluster. It is made by :meth:`Setup.from_spec` and never changed: a cluster's driver or a reading gets another
setup from :meth:`Setup.with_sources`.

>>> setup = Setup.from_spec(RunSpec.from_options(model="minilm", text=WAR_AND_PEACE))      # doctest: +SKIP
>>> setup.heads(128).sizes                                                                 # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import torch
from tqdm.auto import tqdm

from empirical.heads.device import place
from empirical.heads.extraction import Heads, extract
from empirical.heads.loading import LoadedModel
from empirical.heads.rows import BUDGET, TORCH_BUDGET, RowMap, count_blocks, default_workers, map_rows
from empirical.heads.stream import HeadStream, layers_per_block
from empirical.heads.text import windows
from empirical.spec import RunSpec
from theorems.arithmetic.tensors import is_torch
from theorems.errors import InvalidArgument


@dataclasses.dataclass(frozen=True)
class Setup:
    """What every algorithm reads: the model ``loaded`` and the run's options ``spec`` (the text or random tokens,
    how it is cut, where and how the quantities run: :class:`empirical.spec.RunSpec`, read through the properties
    below), and ``workers``, the threads over blocks of rows (``spec.workers``, else the cores this process may use;
    a local cluster worker: its share).

    A model deeper than ``layers_per_block`` (default: as many as fit :data:`empirical.heads.stream.STREAM_BYTES`)
    is streamed (:class:`empirical.heads.stream.HeadStream`, one forward pass per block of layers and pass). The
    ``torch`` backend (the default) keeps the heads on ``device`` and computes there in float64, ``numpy`` brings them
    to the CPU (the reference path); the two agree to the rounding of each quantity
    (``tests/empirical/test_backends.py``). ``heads_source`` and ``row_mapper`` stand in for the forward passes and
    for :func:`empirical.heads.rows.map_rows` (the cluster's driver, a reading's derived heads): see
    :meth:`with_sources`.
    """

    loaded: LoadedModel
    spec: RunSpec
    workers: int
    heads_source: Callable | None = None
    row_mapper: Callable | None = None
    _cache: dict = dataclasses.field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def from_spec(cls, spec: RunSpec, *, loaded: LoadedModel | None = None, threads: int | None = None) -> Setup:
        """The execution context of ``spec``: its model loaded (or ``loaded``, already loaded from it), and
        ``spec.workers`` threads (``None``: ``threads`` where given, a local cluster worker's share of the cores,
        else the cores this process may use). Nothing of ``spec`` is checked again: it was when it was made."""
        loaded = spec.model.load() if loaded is None else loaded
        return cls(loaded=loaded, spec=spec, workers=spec.workers or threads or default_workers())

    def with_sources(self, *, heads: Callable | None = None, rows: Callable | None = None) -> Setup:
        """This setup reading the heads of a length from ``heads(length)`` instead of its own forward passes, and
        making each pass over the rows with ``rows`` (the arguments and ``RowMap`` of
        :func:`empirical.heads.rows.map_rows`) instead of its threads: a cluster's driver (:mod:`empirical.cluster`:
        both from the workers' tasks) or a reading's derived heads (:mod:`empirical.readings.runner`)."""
        return dataclasses.replace(self, heads_source=heads, row_mapper=rows)

    @property
    def text(self) -> str | None:
        return self.spec.text

    @property
    def windows(self) -> int:
        return self.spec.windows

    @property
    def embeddings(self) -> str:
        return self.spec.embeddings

    @property
    def seed(self) -> int:
        return self.spec.seed

    @property
    def progress(self) -> bool:
        return self.spec.progress

    @property
    def backend(self) -> str:
        return self.spec.backend

    @property
    def layers_per_block(self) -> int | None:
        return self.spec.layers_per_block

    @property
    def device(self) -> torch.device:
        return torch.device(self.spec.device)

    @property
    def budget(self) -> int:
        """Array entries of a block's largest work array: the spec's, else the backend's
        (:data:`empirical.heads.rows.TORCH_BUDGET`, :data:`empirical.heads.rows.BUDGET`)."""
        return self.spec.budget or (TORCH_BUDGET if self.backend == "torch" else BUDGET)

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
            self._cache[length] = (self.extract(ids) if per_block >= layers else
                                   HeadStream(lambda block, **pipe: self.extract(ids, layers=block, **pipe),
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

    def extract(self, ids: torch.Tensor, **keywords) -> Heads:
        """The forward pass of token ids ``ids`` on ``device`` (``keywords`` of
        :func:`empirical.heads.extraction.extract`: ``layers``, ``pipeline``, ``entering``; a cluster's forward task
        runs its block of layers so); the heads stay there with the torch backend and come to the CPU with numpy's
        (the same code on every device: on the CPU both are no-ops)."""
        device = self.device
        if device.type == "cpu":
            heads = extract(self.loaded, ids, **keywords)
        else:
            loaded = dataclasses.replace(self.loaded, model=place(self.loaded.model, device))
            keywords = {key: place(value, device) if is_torch(value) else value for key, value in keywords.items()}
            heads = extract(loaded, place(ids, device), **keywords)
        if self.backend == "torch":
            return heads
        return dataclasses.replace(heads, **{field.name: getattr(heads, field.name).cpu()
                                             for field in dataclasses.fields(heads)
                                             if is_torch(getattr(heads, field.name))})

    def map_rows(self, heads, function, **keywords) -> RowMap:
        """:func:`empirical.heads.rows.map_rows` on ``workers`` threads, or ``row_mapper`` when one is set
        (:meth:`with_sources`: the cluster's layer blocks, each worker process on its own threads)."""
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
        """A progress bar of ``total`` blocks (silent without ``progress``)."""
        return tqdm(total=total, desc=description, unit="block", leave=False, disable=not self.progress)
