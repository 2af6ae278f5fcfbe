"""The domain of a proof: named intervals, arrays of intervals and fixed values; boxes in it, and bisection.

A domain maps each instance key (or, for a statement with ``parameters``, each free parameter) to

- an interval ``(low, high)``: a tuple of two finite reals, ``low ≤ high``;
- an array of intervals: a list of such pairs or an array of shape ``[n, 2]`` (a fixed length ``n``);
- a fixed value: anything else (a float, an integer, a numpy array, a normaliser).

A *box* is the pair ``(lows, highs)`` of float64 vectors over the free coordinates, in key order. An endpoint means
the number written (:func:`as_written`: ``0.1`` is 1/10, and the interval is widened outward to the float below it),
and a domain is printed with the shortest decimals inside it (:mod:`theorems.arithmetic.decimals`).

>>> domain = Domain.parse({"logits": [(-2, 2), (-2, 2)], "T": (0.5, 2.0), "L0": 2})
>>> domain.size, domain.describe()
(3, 'logits ∈ [-2, 2]^2, T ∈ [0.5, 2], L0 = 2')
"""

from __future__ import annotations

import contextlib
import dataclasses
import numbers
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import flint
import numpy as np

from theorems.arithmetic.decimals import domain_text, outward, written
from theorems.arithmetic.box_jet import ARRAYS, on_box
from theorems.errors import InvalidArgument, InvalidArgumentType


def is_interval(value) -> bool:
    """Whether a domain entry is one interval ``(low, high)`` of real numbers (a tuple; a list is an array of them)."""
    return (isinstance(value, tuple) and len(value) == 2
            and all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value))


def interval_bounds(name: str, value) -> np.ndarray | None:
    """``value`` as a float array of shape ``[..., 2]`` when it is an array of intervals, else ``None``."""
    if isinstance(value, list):
        try:
            bounds = np.array(value, dtype=float)
        except (TypeError, ValueError):
            bounds = None
        if bounds is None or bounds.ndim < 2 or bounds.shape[-1] != 2:
            raise InvalidArgument(f"domain[{name!r}]={value!r}: a list must hold (low, high) pairs (nested for a matrix); "
                             "pass a numpy array for a fixed vector")
        return bounds
    if isinstance(value, np.ndarray) and value.ndim >= 2 and value.shape[-1] == 2 and value.dtype.kind in "fi":
        return value.astype(float)
    return None


@dataclasses.dataclass(frozen=True)
class Domain:
    """Free coordinates (``keys[k]`` of shape ``shapes[k]``), their bounds, and the fixed values."""

    keys: tuple[str, ...]
    shapes: tuple[tuple[int, ...], ...]
    lows: np.ndarray
    highs: np.ndarray
    fixed: Mapping[str, Any]
    order: tuple[str, ...]
    written: tuple[tuple[Fraction, ...], tuple[Fraction, ...]] | None = None
    """The ends as written (exact rationals) when the bounds were widened to hold them (:meth:`widened`)."""

    @classmethod
    def widened(cls, domain: Mapping[str, Any]) -> "Domain":
        """The domain widened to hold every end as written (:func:`as_written`), remembering those ends: a point
        outside them (the float just below a written ``0.1``) is no instance of the domain asked about.

        >>> d = Domain.widened({"T": (0.1, 10.0)})
        >>> bool(d.lows[0] < 0.1), d.holds(d.lows), d.holds([0.1])
        (True, False, True)
        """
        parsed = cls.parse(as_written(domain))
        ends = [written(x) for name in parsed.keys for x in _ends(domain[name])]
        return dataclasses.replace(parsed, written=(tuple(ends[0::2]), tuple(ends[1::2])))

    def holds(self, point) -> bool:
        """Whether ``point`` (free coordinates) lies in the domain as written."""
        if self.written is None:
            return bool(np.all(self.lows <= point) and np.all(np.asarray(point) <= self.highs))
        return all(low <= Fraction(float(x)) <= high for x, low, high in zip(point, *self.written))

    @classmethod
    def parse(cls, domain: Mapping[str, Any]) -> "Domain":
        if not isinstance(domain, Mapping) or not domain:
            raise InvalidArgumentType(f"domain={domain!r} must be a non-empty mapping of instance keys to intervals or values")
        keys, shapes, lows, highs, fixed = [], [], [], [], {}
        for name, value in domain.items():
            if not isinstance(name, str):
                raise InvalidArgumentType(f"domain keys must be strings, got {name!r}")
            bounds = np.array([float(value[0]), float(value[1])]) if is_interval(value) else interval_bounds(name, value)
            if bounds is None:
                fixed[name] = value
                continue
            shape = bounds.shape[:-1]
            bounds = bounds.reshape(-1, 2)
            if not np.all(np.isfinite(bounds)) or np.any(bounds[:, 0] > bounds[:, 1]):
                raise InvalidArgument(f"domain[{name!r}]={value!r}: every interval must be finite with low <= high")
            keys.append(name)
            shapes.append(shape)
            lows.extend(bounds[:, 0])
            highs.extend(bounds[:, 1])
        if not keys:
            raise InvalidArgument(f"domain={domain!r} has no interval: nothing to prove over (give at least one (low, high))")
        return cls(tuple(keys), tuple(shapes), np.array(lows), np.array(highs), dict(fixed), tuple(domain))

    @property
    def size(self) -> int:
        return len(self.lows)

    def assemble(self, coordinates, *, wrap: Callable[[np.ndarray], Any] | None = None) -> dict[str, Any]:
        """The instance (or parameters) whose free coordinates are ``coordinates`` (a flat sequence): float arrays,
        or object arrays passed through ``wrap`` when given."""
        values, at = {}, 0
        for key, shape in zip(self.keys, self.shapes):
            n = int(np.prod(shape)) if shape else 1
            chunk = list(coordinates[at:at + n])
            at += n
            if not shape:
                values[key] = chunk[0]
            elif wrap is None:
                values[key] = np.array(chunk, dtype=float).reshape(shape)
            else:
                values[key] = wrap(np.array(chunk, dtype=object).reshape(shape))
        return {key: values[key] if key in values else self.fixed[key] for key in self.order}

    def point(self, coordinates) -> dict[str, Any]:
        """The float64 instance at a point of the box."""
        return self.assemble([float(x) for x in coordinates])

    def describe(self, lows=None, highs=None) -> str:
        """The domain (or the box ``[lows, highs]`` of it) as text (:func:`~theorems.arithmetic.decimals.domain_text`)."""
        return domain_text(order=self.order, shapes=dict(zip(self.keys, self.shapes)), fixed=self.fixed,
                           lows=self.lows if lows is None else lows, highs=self.highs if highs is None else highs)


def as_written(domain: Mapping[str, Any]) -> dict[str, Any]:
    """``domain`` with every interval widened outward to the floats around the numbers written
    (:func:`theorems.arithmetic.decimals.outward`): ``(0.1, 10)`` becomes ``(0.09999999999999999, 10.0)``, which
    holds 1/10, so that a proof on it is a proof for ``T ∈ [1/10, 10]``; fixed values unchanged (a float constant
    is already the ball of one ulp around it, which holds its decimal).

    >>> as_written({"T": (0.1, 10.0), "gaps": [(0.0, 0.3)], "eps": 0.1})
    {'T': (0.09999999999999999, 10.0), 'gaps': [(0.0, 0.30000000000000004)], 'eps': 0.1}
    """
    widened = {}
    for name, value in domain.items():
        if is_interval(value):
            widened[name] = outward(*value)
        elif isinstance(value, list) and _pairs(value):
            widened[name] = _widened_pairs(value)
        elif isinstance(value, np.ndarray) and interval_bounds(str(name), value) is not None:
            widened[name] = np.array(_widened_pairs(value.tolist()), dtype=float)
        else:
            widened[name] = value
    return widened


def _ends(value) -> list:
    """The ends of an interval or of nested ``(low, high)`` pairs, as given, low and high alternating."""
    if isinstance(value, np.ndarray):
        return list(value.reshape(-1))
    if is_interval(tuple(value)):
        return list(value)
    return [x for pair in value for x in _ends(pair)]


def _pairs(value) -> bool:
    try:
        return interval_bounds("domain", value) is not None
    except InvalidArgument:
        return False  # Domain.parse says what is wrong with it


def _widened_pairs(value):
    """Nested lists of ``(low, high)`` pairs, each widened."""
    if len(value) == 2 and all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value):
        return outward(*value)
    return [_widened_pairs(v) for v in value]


def centre_radius(lows: np.ndarray, highs: np.ndarray) -> list[tuple]:
    """Each interval as exact arb balls ``(centre, radius)`` (the half-sum of two floats is exact at 128 bits)."""
    return [((flint.arb(float(a)) + flint.arb(float(b))) / 2, (flint.arb(float(b)) - flint.arb(float(a))) / 2)
            for a, b in zip(lows, highs)]


@contextlib.contextmanager
def jet_instance(domain: Domain, lows: np.ndarray, highs: np.ndarray, *, order: int):
    """Yield the instance (or parameters) of jets of ``order`` (:mod:`theorems.arithmetic.box_jet`: 1 the mean-value
    form, 2 the second-order form) on the box ``[lows, highs]``."""
    with on_box(centre_radius(lows, highs), order=order) as coordinates:
        yield domain.assemble(coordinates, wrap=lambda a: a.view(ARRAYS[order]))


def bisect(lows: np.ndarray, highs: np.ndarray, k: int) -> tuple[tuple, tuple]:
    """The two halves of the box along coordinate ``k``."""
    middle = 0.5 * (lows[k] + highs[k])
    left_high, right_low = highs.copy(), lows.copy()
    left_high[k] = right_low[k] = middle
    return (lows, left_high), (right_low, highs)


def centre(lows: np.ndarray, highs: np.ndarray) -> np.ndarray:
    return 0.5 * (lows + highs)


def below_zero(gaps):
    """Logits ``(0, −gaps_1, …, −gaps_{L−1})``, ``gaps ≥ 0``: every logit vector up to a shift and a permutation,
    for a statement invariant under both (the largest logit is 0, so a ball ``max`` is decided).

    >>> below_zero(np.array([1.0, 0.5])).tolist()
    [0.0, -1.0, -0.5]
    """
    logits = np.concatenate([gaps[:1] * 0, -gaps])
    return logits.view(type(gaps)) if logits.dtype == object else logits
