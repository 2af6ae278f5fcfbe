"""The grids of Algorithms 1-5: the paper's, and a run's (:class:`Grids`: ``L``, ``N``, ``T``, ``ε``, the query tokens
per head and which algorithms), checked once when made, and against the model's positions before a forward pass.

>>> Grids(which=(2,), lengths=(32,), ns=(1, 5)).for_model(64).lengths
(32,)
>>> Grids(lengths=(32,), ns=(1, 40)).for_model(64)
Traceback (most recent call last):
    ...
theorems.errors.InvalidArgument: --ns=(1, 40) must stay below the longest --lengths value L = 32; 40 does not
"""

from __future__ import annotations

import dataclasses

import numpy as np

from empirical.arguments import check_at_most, check_below, check_finite_grid, check_subset
from theorems.arithmetic.validation import check_integer
from theorems.errors import InvalidArgument

ALGORITHMS = (1, 2, 3, 4, 5)
PAPER_LENGTHS = (32, 64, 128, 256, 512, 1024)
PAPER_NS = (1, 5, 10, 20, 100)
"""Algorithm 2's ``N`` grid."""
SEPARABILITY_NS = (1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128)
TEMPERATURES = tuple(np.logspace(-2, 1, 16).round(6).tolist())
EPSILONS = (1e-3, 1e-1, 10.0)

OPTION_NAMES = {"which": "--algorithms", "lengths": "--lengths", "ns": "--ns", "critical_lengths": "--critical-lengths",
                "critical_tokens": "--critical-tokens", "separability_ns": "--separability-ns",
                "distance_tokens": "--distance-tokens", "separability_tokens": "--separability-tokens",
                "sensitivity_tokens": "--sensitivity-tokens", "temperatures": "--temperatures", "epsilons": "--epsilons"}
"""Each field of :class:`Grids` and the command-line option that sets it (errors name the option)."""


@dataclasses.dataclass(frozen=True)
class Grids:
    """Which algorithms run, on which grids: what ``python -m empirical reproduce`` and ``bench`` run, checked when
    made (each error names the command-line option, :data:`OPTION_NAMES`).

    ``lengths`` is Alg. 1 and 3's ``L`` grid, its longest Alg. 2, 4 and 5's ``L`` (``None``: the paper's lengths that
    fit the model, :meth:`for_model`); ``critical_lengths`` Alg. 3's own (``None``: ``lengths``); ``ns`` Alg. 2's
    ``N``, ``separability_ns`` Alg. 4's, ``temperatures`` and ``epsilons`` Alg. 5's grid; each ``*_tokens`` keeps
    that many evenly spaced query tokens per head (``None``: every token). The field order is ``results.json``'s
    (``settings``).

    >>> Grids(which=(7,))
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: --algorithms=(7,) must be a non-empty subset of (1, 2, 3, 4, 5); 7 is not
    """

    which: tuple[int, ...] = ALGORITHMS
    lengths: tuple[int, ...] | None = None
    ns: tuple[int, ...] = PAPER_NS
    critical_lengths: tuple[int, ...] | None = None
    critical_tokens: int | None = None
    separability_ns: tuple[int, ...] = SEPARABILITY_NS
    distance_tokens: int | None = None
    separability_tokens: int | None = None
    sensitivity_tokens: int | None = None
    temperatures: tuple[float, ...] = TEMPERATURES
    epsilons: tuple[float, ...] = EPSILONS

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value, name = getattr(self, field.name), OPTION_NAMES[field.name]
            if field.name == "which":
                value = check_subset(value, ALGORITHMS, name=name)
            elif field.name.endswith("_tokens"):
                if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                    raise InvalidArgument(f"{name}={value!r} must be a positive integer (or 0 on the command line: "
                                          "every token)")
            elif field.name in ("temperatures", "epsilons"):
                value = check_finite_grid(value, name=name)
            elif value is not None:
                if not len(value):
                    raise InvalidArgument(f"{name}={value!r} must not be empty")
                for item in value:
                    check_integer(item, name=name)
                value = tuple(value)
            object.__setattr__(self, field.name, value)  # a list given: a tuple, so that a spec can be hashed

    def only(self, number: int) -> Grids:
        """These grids for Algorithm ``number`` alone (one process or one cluster task per algorithm)."""
        return dataclasses.replace(self, which=(number,))

    def for_model(self, max_length: int) -> Grids:
        """These grids on a model of ``max_length`` positions: ``lengths`` not given are the paper's that fit, and
        every grid is checked against the model (each ``L`` within its positions, each ``N`` below the ``L`` it
        is used at), before any forward pass."""
        grids = self if self.lengths is not None else dataclasses.replace(
            self, lengths=tuple(n for n in PAPER_LENGTHS if n <= max_length))
        what = f"the model's {max_length} positions"
        check_at_most(grids.lengths, max_length, name="--lengths", what=what)
        check_at_most(grids.critical_lengths or (), max_length, name="--critical-lengths", what=what)
        shortest, longest = min(grids.lengths), max(grids.lengths)
        if 1 in grids.which:
            check_below((5,), shortest, name="Alg. 1's N", what=f"every --lengths value (the shortest is {shortest})")
        if 2 in grids.which:
            check_below(grids.ns, longest, name="--ns", what=f"the longest --lengths value L = {longest}")
        if 4 in grids.which:
            check_below(grids.separability_ns, longest, name="--separability-ns",
                        what=f"the longest --lengths value L = {longest}")
        return grids

    def settings(self) -> dict:
        """Every field by name, in order (``results.json``'s ``settings``)."""
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}
