"""The attention normalisers the paper's statements quantify over, in float64 and in mpmath.

Every normaliser maps logits ``[..., L]`` to weights ``[..., L]`` along the last axis, written
once against the backend ``xp`` (:mod:`theorems.arithmetic.precision`). Those of the paper's general form
``α_i = F(l_i) / Σ_j F(l_j)`` carry their ``F``, its derivative and its range on ``[−a, a]``.

>>> import numpy as np
>>> from theorems.maths.normalisers import softmax, sparsemax
>>> softmax(temperature=1.0)(np.array([0.0, 0.0])).tolist()
[0.5, 0.5]
>>> sparsemax()(np.array([1.0, -1.0])).tolist()
[1.0, 0.0]
"""

from __future__ import annotations

import dataclasses
import itertools
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np

from theorems.arithmetic.precision import F64
from theorems.arithmetic.validation import (check_callable, check_integer, check_logits, check_number, check_positive,
                                            check_temperature)
from theorems.errors import InvalidArgument, InvalidArgumentType


@dataclasses.dataclass(frozen=True)
class Normaliser:
    """A map from logits to attention weights.

    ``F(l, L, xp)``, ``dF(l, L, xp)`` and ``F_range(a, L, xp) -> (min F, max F) on [−a, a]`` are
    set for normalisers of the general form; ``length_dependent`` says whether they depend on ``L``.
    """

    name: str
    map: Callable[[Any, Any], Any]
    F: Callable | None = None
    dF: Callable | None = None
    F_range: Callable | None = None
    length_dependent: bool = False
    exact_zeros: bool = False
    sums_to_one: bool = True

    def __call__(self, logits, *, xp=F64):
        return self.map(check_logits(logits), xp)

    def __repr__(self) -> str:
        return self.name

    @property
    def general_form(self) -> bool:
        return self.F is not None


def _shifted(logits, xp):
    return logits - np.max(logits, axis=-1, keepdims=True)


def _normalise(weights):
    return weights / np.sum(weights, axis=-1, keepdims=True)


def _exp_form(name: str, scale: Callable[[int], Any], *, length_dependent: bool) -> Normaliser:
    """``F(l) = exp(c·l)`` with ``c = scale(L)``: softmax and Scalable-Softmax."""

    def F(l, L, xp):
        return xp.exp(scale(L, xp) * l)

    def dF(l, L, xp):
        return scale(L, xp) * xp.exp(scale(L, xp) * l)

    def F_range(a, L, xp):
        return xp.exp(-scale(L, xp) * a), xp.exp(scale(L, xp) * a)

    def mapping(logits, xp):
        return _normalise(xp.exp(scale(logits.shape[-1], xp) * _shifted(logits, xp)))

    return Normaliser(name, mapping, F, dF, F_range, length_dependent=length_dependent)


def softmax(*, temperature: float = 1.0) -> Normaliser:
    """``α = softmax(l / T)``, the paper's ``F(l) = exp(l/T)``."""
    check_temperature(temperature)
    return _exp_form(f"softmax(T={float(temperature):g})", lambda L, xp: 1 / xp.number(temperature), length_dependent=False)


def softmax_on_box(*, temperature=1.0) -> Normaliser:
    """``softmax(l / T)`` with ``T`` a number of the backend the weights are computed in (a proof's box coordinate:
    a dual or a jet), where :func:`softmax` takes a float; at a float ``T`` it is :func:`softmax` (the same name and
    float64 operations, ``exp((1/T)·(l − max l))``, validated as there). A backend number is the prover's or the
    checker's, on a box of the domain they parsed; anything that is not a real number is refused.

    >>> softmax_on_box(temperature=2.0)(np.array([0.0, 0.0])).tolist()
    [0.5, 0.5]
    """
    if isinstance(temperature, (float, int, np.floating, np.integer)):  # bool too: softmax refuses it
        return softmax(temperature=temperature)
    if not isinstance(temperature, numbers.Real):  # balls, duals and jets register as real numbers
        raise InvalidArgumentType(f"temperature must be a real number (a float, or a ball, dual or jet on a box), "
                                  f"not {type(temperature).__name__} {temperature!r}")
    return _exp_form("softmax(T on a box)", lambda L, xp: 1 / xp.number(temperature), length_dependent=False)


def scalable_softmax(*, s: float = 1.0) -> Normaliser:
    """Scalable-Softmax ``softmax(s·log(L)·l)`` (Nakanishi 2025): its ``F`` depends on ``L``."""
    check_positive(s, name="s")
    return _exp_form(f"ssmax(s={s:g})", lambda L, xp: xp.number(s) * xp.log(xp.number(L)), length_dependent=True)


def exp_sine(*, c: float = 1.0) -> Normaliser:
    """``F(l) = exp(c·sin l)``: smooth, strictly positive, length-independent, not monotone."""
    check_positive(c, name="c")

    def F(l, L, xp):
        return xp.exp(xp.number(c) * _sin(l, xp))

    def dF(l, L, xp):
        return xp.number(c) * _cos(l, xp) * F(l, L, xp)

    def F_range(a, L, xp):
        low = -1 if a >= np.pi / 2 else _sin(-xp.number(a), xp)
        return xp.exp(xp.number(c) * low), xp.exp(-xp.number(c) * low)

    return Normaliser(f"exp-sine(c={c:g})", lambda l, xp: _normalise(F(l, None, xp)), F, dF, F_range)


def _sin(x, xp):
    return xp.sin(x)


def _cos(x, xp):
    return xp.cos(x)


def sigmoid_attention() -> Normaliser:
    """Sigmoid attention with bias ``−log L``: ``α_i = σ(l_i − log L)``, not normalised to one."""

    def mapping(logits, xp):
        L = logits.shape[-1]
        return 1 / (1 + xp.number(L) * xp.exp(-logits))

    return Normaliser("sigmoid(-log L)", mapping, length_dependent=True, sums_to_one=False)


def relu_attention() -> Normaliser:
    """ReLU attention divided by the length: ``α_i = max(l_i, 0) / L``."""
    return Normaliser(
        "relu/L", lambda logits, xp: np.maximum(logits, np.zeros_like(logits)) / xp.number(logits.shape[-1]),
        length_dependent=True, exact_zeros=True, sums_to_one=False,
    )


def softpick(*, eps: float = 1e-6) -> Normaliser:
    """Softpick (Zuhri et al. 2025): ``relu(e^{l_i} − 1) / (Σ_j |e^{l_j} − 1| + eps)``."""
    check_positive(eps, name="eps")

    def mapping(logits, xp):
        shifted = xp.expm1(logits)
        return np.maximum(shifted, np.zeros_like(shifted)) / (np.sum(np.abs(shifted), axis=-1, keepdims=True) + xp.number(eps))

    return Normaliser(f"softpick(eps={eps:g})", mapping, exact_zeros=True, sums_to_one=False)


def _sorted_descending(logits):
    return -np.sort(-logits, axis=-1)


def _positions(logits, xp):
    return np.arange(1, logits.shape[-1] + 1).astype(float if xp is F64 else object)


def _threshold_without_sort(logits, xp):
    """Sparsemax's threshold ``τ`` (``Σ_i max(z_i − τ, 0) = 1``) as ``max over non-empty S of (Σ_S z − 1)/|S|``:
    for every ``S``, ``Σ_S z − 1 = Σ_S (z_i − τ) + |S|τ − 1 ≤ |S|τ``, with equality at the support. No sort:
    a ``max`` of ``2^L − 1`` affine forms, which the ball backends enclose soundly where it is undecided.
    ``[..., 1]``

    >>> from theorems.arithmetic.precision import F64
    >>> float(_threshold_without_sort(np.array([1.0, 0.5, -3.0]), F64)[0])   # support {0, 1}: (1.5 − 1)/2
    0.25
    """
    L = logits.shape[-1]
    candidates = [(np.sum(logits[..., list(subset)], axis=-1) - 1) / size
                  for size in range(1, L + 1) for subset in itertools.combinations(range(L), size)]
    stacked = np.stack([np.asarray(c, dtype=logits.dtype) for c in candidates], axis=-1)
    return np.asarray(xp.max(stacked, axis=-1), dtype=logits.dtype)[..., None]


def sparsemax() -> Normaliser:
    """Euclidean projection onto the simplex (Martins & Astudillo 2016); exact zeros."""

    def mapping(logits, xp):
        if xp.name in ("dual", "jet"):  # on a box (prover's balls, checker's jets) a sort is undecided at ties
            tau = _threshold_without_sort(logits, xp)
        else:
            z = _sorted_descending(logits)
            k = _positions(logits, xp)
            cumulative = np.cumsum(z, axis=-1)
            support = np.sum(1 + k * z > cumulative, axis=-1, keepdims=True)
            tau = (np.take_along_axis(cumulative, support - 1, axis=-1) - 1) / support
        return np.maximum(logits - tau, np.zeros_like(logits))

    return Normaliser("sparsemax", mapping, exact_zeros=True)


def entmax15() -> Normaliser:
    """1.5-entmax by its exact sort-based threshold (Peters, Niculae & Martins 2019)."""

    def mapping(logits, xp):
        z = _sorted_descending(logits) / 2
        k = _positions(logits, xp)
        mean = np.cumsum(z, axis=-1) / k
        mean_square = np.cumsum(z * z, axis=-1) / k
        delta = (1 - k * (mean_square - mean * mean)) / k
        tau = mean - xp.sqrt(np.maximum(delta, np.zeros_like(delta)))
        support = np.sum(tau <= z, axis=-1, keepdims=True)
        tau_star = np.take_along_axis(tau, support - 1, axis=-1)
        gap = np.maximum(logits / 2 - tau_star, np.zeros_like(logits))
        return gap * gap

    return Normaliser("entmax1.5", mapping, exact_zeros=True)


def entmax_bisect(*, alpha: float = 1.5, iterations: int = 200) -> Normaliser:
    """α-entmax for any ``alpha > 1`` by bisection on the threshold (independent of :func:`entmax15`).

    ``iterations`` (at least 1) halvings of the threshold's bracket; 200 reach float64 resolution.

    >>> entmax_bisect(iterations=0)
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: iterations=0 must be an integer >= 1
    """
    check_number(alpha, name="alpha", min_value=1, exclude_min=True)
    iterations = check_integer(iterations, name="iterations")

    def mapping(logits, xp):
        power = 1 / (xp.number(alpha) - 1)
        z = (xp.number(alpha) - 1) * logits
        low = np.max(z, axis=-1, keepdims=True) - 1
        high = np.max(z, axis=-1, keepdims=True)
        for _ in range(iterations):
            middle = (low + high) / 2
            gap = np.maximum(z - middle, np.zeros_like(z))
            total = np.sum(_power(gap, power, xp), axis=-1, keepdims=True)
            low, high = np.where(total >= 1, middle, low), np.where(total >= 1, high, middle)
        return _normalise(_power(np.maximum(z - low, np.zeros_like(z)), power, xp))

    return Normaliser(f"entmax(alpha={alpha:g})", mapping, exact_zeros=True)


def _power(base, exponent, xp):
    return base ** float(exponent) if xp is F64 else base ** exponent


def general(*, name: str, F: Callable, F_range: Callable, dF: Callable | None = None,
            length_dependent: bool = False) -> Normaliser:
    """Your own ``F``-normaliser: ``F(l, L, xp)`` elementwise and ``F_range(a, L, xp) -> (min, max)``.

    >>> import numpy as np
    >>> square = general(name="1+l^2", F=lambda l, L, xp: 1 + l * l,
    ...                  F_range=lambda a, L, xp: (1, 1 + a * a))
    >>> square(np.array([0.0, 1.0])).tolist()
    [0.3333333333333333, 0.6666666666666666]
    """
    if not isinstance(name, str) or not name:
        raise InvalidArgumentType(f"name={name!r} must be a non-empty string")
    check_callable(F, name="F")
    check_callable(F_range, name="F_range")
    if dF is not None:
        check_callable(dF, name="dF")
    def mapping(logits, xp):
        values = F(logits, logits.shape[-1], xp)
        if xp is F64:
            _check_F_values(values, name=name)
        return _normalise(values)

    return Normaliser(name, mapping, F, dF, F_range, length_dependent=length_dependent)


def _check_F_values(values, *, name: str) -> None:
    """``F``'s float64 values must be finite, ``≥ 0`` and not all 0 on a row: else ``F/ΣF`` is ``nan``, not weights."""
    values = np.asarray(values, dtype=float)
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise InvalidArgument(f"F of the normaliser {name!r} must be finite and >= 0 at every logit, "
                              f"got {values.ravel()[:6].tolist()}")
    if np.any(np.sum(values, axis=-1) == 0):
        raise InvalidArgument(f"F of the normaliser {name!r} is 0 at every logit of a row, so F/ΣF is 0/0: "
                              "F must be positive somewhere on each row (Lemma 1 takes F > 0)")


def catalogue() -> dict[str, Normaliser]:
    """One representative of every family, by name."""
    members = [softmax(), scalable_softmax(), exp_sine(), sigmoid_attention(), relu_attention(), softpick(),
               sparsemax(), entmax15(), entmax_bisect(alpha=1.5)]
    return {member.name: member for member in members}
