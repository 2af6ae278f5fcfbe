"""A run's options, checked once: :class:`RunSpec`, what ``python -m empirical reproduce`` and ``bench`` (and
:func:`empirical.reproduce.run`) are asked for, and what a cluster's workers receive.

Every option is checked when the spec is made, before any model loads; each error names the command-line option.
The spec is frozen: no module changes it, and a worker that unpickles it checks nothing again.
:meth:`empirical.setup.Setup.from_spec` builds the execution context from it.

>>> spec = RunSpec.from_options(model="minilm", text=None, lengths=(32, 64))
>>> spec.model.dtype, spec.grids.lengths, spec.windows
('float32', (32, 64), 1)
>>> RunSpec.from_options(model="minilm", text=None, windows=0)
Traceback (most recent call last):
    ...
theorems.errors.InvalidArgument: --windows=0 must be an integer >= 1
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from empirical.grids import Grids
from empirical.heads.device import resolve
from empirical.heads.extraction import EMBEDDINGS
from empirical.heads.loading import DEFAULT_DTYPE, ModelRequest
from empirical.heads.rows import check_backend, check_workers
from empirical.heads.stream import check_layers_per_block
from theorems.arithmetic.files import check_output_path, check_text_file
from theorems.arithmetic.validation import check_integer
from theorems.errors import InvalidArgument, InvalidArgumentType


def check_cluster(cluster) -> str | None:
    """``None``, ``"local"`` or a scheduler address (``tcp://host:port``, ``host:port``), checked before any work.

    >>> check_cluster("tcp://10.0.0.5:8786")
    'tcp://10.0.0.5:8786'
    >>> check_cluster("")
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: --cluster='' must be 'local' or a Dask scheduler address such as tcp://host:8786
    """
    if cluster is None or cluster == "local":
        return cluster
    if not isinstance(cluster, str) or ":" not in cluster or any(c.isspace() for c in cluster):
        raise InvalidArgument(f"--cluster={cluster!r} must be 'local' or a Dask scheduler address such as tcp://host:8786")
    return cluster


def every_token_or(count: int):
    """A ``--*-tokens`` count of the command line: 0 means every token (``None``); a negative count is refused by
    :class:`empirical.grids.Grids`.

    >>> every_token_or(0), every_token_or(16)
    (None, 16)
    """
    return None if count == 0 else count


MODEL_FIELDS = {"model": "name", "offline": "offline", "tokenizer": "tokenizer", "dtype": "dtype", "weights": "weights"}
"""The keywords of :meth:`RunSpec.from_options` that make its :class:`empirical.heads.loading.ModelRequest`."""


@dataclasses.dataclass(frozen=True)
class RunSpec:
    """Every option of a run: the model (and how it is loaded), the text and how it is cut, the grids, where and how
    the quantities run, and where the outputs go.

    ``model`` (:class:`empirical.heads.loading.ModelRequest`: name, offline, tokenizer, ``--dtype``, ``--weights``)
    and ``grids`` (:class:`empirical.grids.Grids`) are checked when they are made; the rest here. ``out`` is the
    folder ``reproduce`` writes (``None``: nothing is written, e.g. a benchmark's process); ``text=None`` feeds
    random token ids drawn from ``seed``; ``windows`` consecutive windows per length; ``embeddings`` the ``x_i``
    (:data:`empirical.heads.extraction.EMBEDDINGS`); ``device`` where the forward pass runs; ``backend`` where the
    quantities run (:data:`empirical.heads.rows.BACKENDS`); ``layers_per_block`` how many layers' vectors are held
    at once (``None``: as many as fit); ``workers`` threads over blocks of rows (``None``: the cores available, on a
    cluster each worker's own); ``cluster`` ``None``, ``"local"`` or a Dask scheduler's address; ``budget`` the
    entries of a block's largest work array (``None``: the backend's).

    Made by :meth:`from_options` (keywords, as :func:`empirical.reproduce.run` takes them) or :meth:`from_args`
    (``python -m empirical reproduce``'s command line).
    """

    model: ModelRequest
    out: Path | None = None
    text: str | None = None
    windows: int = 1
    embeddings: str = "values"
    device: str = "cpu"
    backend: str = "torch"
    layers_per_block: int | None = None
    workers: int | None = None
    cluster: str | None = None
    progress: bool = True
    budget: int | None = None
    seed: int = 0
    grids: Grids = Grids()

    def __post_init__(self) -> None:
        if not isinstance(self.model, ModelRequest) or not isinstance(self.grids, Grids):
            raise InvalidArgumentType("RunSpec's model must be a ModelRequest and its grids Grids: make a spec with "
                                      "RunSpec.from_options(...) or RunSpec.from_args(...)")
        check_layers_per_block(self.layers_per_block, name="--layers-per-block")
        check_workers(self.workers, name="--workers")
        check_backend(self.backend, name="--backend")
        if self.out is not None:
            object.__setattr__(self, "out", Path(check_output_path(self.out, name="--out", kind="directory")))
        if self.text is not None:
            check_text_file(self.text, name="--text")
            object.__setattr__(self, "text", os.fspath(self.text))
        check_integer(self.windows, name="--windows")
        if self.embeddings not in EMBEDDINGS:
            raise InvalidArgument(f"--embeddings={self.embeddings!r} must be one of {EMBEDDINGS}")
        if self.budget is not None:
            check_integer(self.budget, name="budget")
        check_integer(self.seed, name="seed", min_value=0)
        check_cluster(self.cluster)
        resolve(self.device)  # CUDA asked for and absent: named before the model is loaded

    @classmethod
    def from_options(cls, *, model, **options) -> RunSpec:
        """The spec of keyword options: ``model`` and :data:`MODEL_FIELDS` make its ``model``, the fields of
        :class:`empirical.grids.Grids` (``which``, ``lengths``, ``ns``, ...) its ``grids``, and the rest are its own
        fields; an unknown keyword is named."""
        fields = {field.name for field in dataclasses.fields(cls)} - {"model", "grids"}
        grid_fields = {field.name for field in dataclasses.fields(Grids)}
        unknown = set(options) - fields - grid_fields - set(MODEL_FIELDS)
        if unknown:
            raise InvalidArgumentType(f"unknown option(s) {sorted(unknown)}; expected some of "
                                      f"{sorted(fields | grid_fields | set(MODEL_FIELDS))}")
        request = ModelRequest(model, **{MODEL_FIELDS[key]: options.pop(key) for key in list(options)
                                         if key in MODEL_FIELDS})
        grids = Grids(**{key: options.pop(key) for key in list(options) if key in grid_fields})
        return cls(model=request, grids=grids, **options)

    @classmethod
    def from_args(cls, arguments, *, model: str) -> RunSpec:
        """The spec of ``python -m empirical reproduce``'s parsed command line (``model``: ``--model``, or the
        default model when none was given); a ``--*-tokens`` of 0 means every token."""
        tokens = {name: every_token_or(getattr(arguments, name))
                  for name in ("critical_tokens", "distance_tokens", "separability_tokens", "sensitivity_tokens")}
        return cls.from_options(
            model=model, offline=arguments.offline, tokenizer=arguments.tokenizer, dtype=arguments.dtype,
            weights=arguments.weights, out=arguments.out, text=arguments.text, windows=arguments.windows,
            embeddings=arguments.embeddings, device=arguments.device, backend=arguments.backend,
            layers_per_block=arguments.layers_per_block, workers=arguments.workers, cluster=arguments.cluster,
            progress=not arguments.quiet, which=arguments.algorithms, lengths=arguments.lengths, ns=arguments.ns,
            critical_lengths=arguments.critical_lengths, separability_ns=arguments.separability_ns,
            temperatures=arguments.temperatures, epsilons=arguments.epsilons, **tokens)

    def settings(self, grids: Grids) -> dict:
        """``results.json``'s ``settings``: the windows, the embeddings, ``grids`` (this spec's, fitted to the model:
        :meth:`empirical.grids.Grids.for_model`), the dtype where it is not the default, and the backend."""
        return {"windows": self.windows, "embeddings": self.embeddings, **grids.settings(),
                **({} if self.model.dtype == DEFAULT_DTYPE else {"dtype": self.model.dtype}), "backend": self.backend}
