"""A proof's domain checked against its statement before any work: what ``prove`` refuses, and why.

``prove`` answers only the question the statement asks. Before the search, the domain must

- be well formed (:class:`~theorems.engine.prove.domain.Domain`: intervals finite with ``low <= high``), with every fixed
  number finite (``T = inf`` or ``nan`` is no instance);
- give ``T``, the temperature of ``softmax(l/T)`` in every statement of the suite (the paper's hypothesis
  ``T > 0``, and the key the homogeneity reduction scales), only finite, normal, positive values (the suite's
  rule for a temperature, :func:`~theorems.arithmetic.validation.check_temperature`: ``1/T`` of a subnormal
  overflows);
- hold every key the statement reads and no other: the statement knows its keys — its ``parameters`` (or, without
  them, its sides) read them — so the sides are run once in float64 at the domain's centre and corners with an
  instance that records what is read. A key read but absent is missing; a key never read (and not in the
  statement's declared domain) is unknown, a misspelling the proof would otherwise print as if proved over it.

Each refusal is an :class:`~theorems.errors.InvalidArgument` naming the key.

>>> from theorems import STATEMENTS
>>> check_domain(STATEMENTS["corollary3.row.corrected"], {"gaps": [(0.0, 10.0)], "T": (-1.0, 2.0)})
Traceback (most recent call last):
    ...
theorems.errors.InvalidArgument: domain['T']=(-1.0, 2.0): T is a temperature (softmax(l/T) with T > 0): every value must be a finite number > 0 and normal (at least 2.23e-308); -1.0 is not
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from theorems.arithmetic.precision import F64
from theorems.arithmetic.validation import SMALLEST_TEMPERATURE
from theorems.engine.prove.domain import Domain, interval_bounds, is_interval
from theorems.errors import InvalidArgument

TEMPERATURE = "T"


def check_domain(statement, domain: Mapping[str, Any]) -> Domain:
    """``domain`` parsed, after every check of the module's docstring (an :class:`InvalidArgument` naming the key
    otherwise)."""
    parsed = Domain.parse(domain)
    for key, value in domain.items():
        _finite(key, value)
    if TEMPERATURE in domain:
        _temperature(domain[TEMPERATURE])
    _keys(statement, domain, parsed)
    return parsed


def _numbers(value) -> np.ndarray | None:
    """The numbers of a domain entry (an interval's ends, an array of intervals, a fixed number or numeric array),
    or ``None`` for an object (a normaliser)."""
    if is_interval(value):
        return np.array([float(value[0]), float(value[1])])
    bounds = interval_bounds("domain", value) if isinstance(value, (list, np.ndarray)) else None
    if bounds is not None:
        return bounds.ravel()
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, (int, float, np.integer, np.floating)):
        return np.array([float(value)])
    if isinstance(value, np.ndarray) and value.dtype.kind in "fiu":
        return value.astype(float).ravel()
    return None


def _finite(key, value) -> None:
    numbers = _numbers(value)
    if numbers is not None and not np.all(np.isfinite(numbers)):
        raise InvalidArgument(f"domain[{key!r}]={value!r}: every value must be a finite number, not inf or nan "
                              "(no instance has one)")


def _temperature(value) -> None:
    numbers = _numbers(value)
    if numbers is None:
        raise InvalidArgument(f"domain[{TEMPERATURE!r}]={value!r}: T is a temperature: give a number or an interval "
                              "(low, high) of positive numbers")
    for number in numbers:
        if not (np.isfinite(number) and number >= SMALLEST_TEMPERATURE):
            raise InvalidArgument(f"domain[{TEMPERATURE!r}]={value!r}: T is a temperature (softmax(l/T) with T > 0): "
                                  f"every value must be a finite number > 0 and normal (at least "
                                  f"{SMALLEST_TEMPERATURE:.3g}); {float(number)!r} is not")


class _Missing(KeyError):
    """A key the statement read that the domain does not hold."""


class _Reads(dict):
    """An instance (or parameters) that records which keys are read; iterating or copying it reads them all."""

    def __init__(self, values) -> None:
        super().__init__(values)
        self.read: set = set()
        self.everything = False

    def __getitem__(self, key):
        if not dict.__contains__(self, key):
            raise _Missing(key)
        self.read.add(key)
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        self.read.add(key)
        return dict.get(self, key, default)

    def __contains__(self, key) -> bool:
        self.read.add(key)
        return dict.__contains__(self, key)

    def _all(self):
        self.everything = True
        return self

    def __iter__(self):
        return dict.__iter__(self._all())

    def keys(self):
        return dict.keys(self._all())

    def items(self):
        return dict.items(self._all())

    def values(self):
        return dict.values(self._all())

    def copy(self):
        return dict(self._all().items())


def _keys(statement, domain: Mapping[str, Any], parsed: Domain) -> None:
    """Every key the statement reads is in ``domain`` and every key of ``domain`` is read (or declared)."""
    what = "parameters" if statement.parameters is not None else "sides"
    read, complete = set(), False
    for point in (0.5 * (parsed.lows + parsed.highs), parsed.lows, parsed.highs):
        reads = _Reads(parsed.point(point))
        try:
            with np.errstate(all="ignore"):
                if statement.parameters is not None:
                    statement.parameters(reads, F64)
                else:
                    statement.sides(reads, F64)
        except _Missing as missing:
            key = missing.args[0]
            looked = sorted(str(k) for k in reads.read - set(domain) - {key})  # `in`, .get(): what may stand in for it
            also = f"; it also looks for {', '.join(map(repr, looked))}" if looked else ""
            raise InvalidArgument(f"domain has no key {key!r}, which {statement.id!r} reads (its {what}{also}): give "
                                  f"it an interval (low, high), a list of them or a value; the domain has "
                                  f"{sorted(map(str, domain))}") from None
        except Exception:  # noqa: BLE001 - a side raising here is the search's to judge (ill-defined, refuted)
            read |= reads.read
            continue
        if reads.everything:
            return
        read |= reads.read
        complete = True
    known = read | set(statement.prove or ())
    unknown = [key for key in domain if key not in known]
    if complete and unknown:
        raise InvalidArgument(f"domain[{unknown[0]!r}]: {statement.id!r} does not read the key {unknown[0]!r} (its "
                              f"{what} read {sorted(map(str, read))}); a misspelt key would be printed as proved over: "
                              "remove it or use the statement's own name")
