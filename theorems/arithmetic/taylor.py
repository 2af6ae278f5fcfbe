"""Second-order Taylor forms over arb balls on a box: the enclosure ``prove`` turns to where the mean-value form stalls.

A :class:`Taylor` carries, for one quantity ``f`` of a box ``x ∈ c ± r``, five enclosures: ``centre`` ⊇ {f(c)},
``slope`` ⊇ {∇f(c)} (at the centre, so nearly exact), ``value`` ⊇ f(box), ``gradient`` ⊇ ∇f(box) and
``hessian`` ⊇ ∇²f(box) (all on the box). Each operation propagates the five by the chain rule (``∇²φ(u) = φ'(u)∇²u +
φ''(u)∇u∇uᵀ``, ``∇²(uv) = v∇²u + u∇²v + ∇u∇vᵀ + ∇v∇uᵀ``), then tightens ``value`` by Taylor's theorem with the
Lagrange remainder, ``f(c + h) = f(c) + ∇f(c)·h + ½hᵀ∇²f(ξ)h`` for a ``ξ`` on the segment, and ``gradient`` by the
mean-value form of each ``∂_k f``. Near a point where the bound is attained (``∇f(c) ≈ 0``) the quadratic is bounded
at its vertex, coordinate by coordinate, so a concave ``f`` is enclosed to ``O(r³)``: the dependence of a ratio on
``T`` and on tied logits that the first-order :class:`~theorems.arithmetic.dual.Dual` loses to ``O(r²)``.

Taylor's theorem needs ``f`` twice differentiable on the box: an undecided ``max``, ``abs`` at 0 or ``‖x‖`` at
``x = 0`` raises :class:`NotSmooth` (the prover keeps the mean-value form on such a box), and so does an operation
without a second-order rule (the spectral norm).

>>> import flint
>>> from theorems.arithmetic.taylor import TAYLOR, on_box
>>> with on_box([(flint.arb(0), flint.arb("0.1"))]) as (x,):
...     y = TAYLOR.exp(x) - x          # 1 + x²/2 + …: in [1, 1.0052] on [-0.1, 0.1]
>>> y.value.upper() < 1.0056, y.value.lower() > 0.9999    # the mean-value form gives 1 ± 0.0105
(True, True)
"""

from __future__ import annotations

import contextlib
import numbers
from typing import Any

import flint
import numpy as np

from theorems.arithmetic.dual import BoxEnclosure, DualArray, box_space
from theorems.arithmetic.precision import Ball, Undecided, increasing_image, meet
from theorems.errors import InvalidArgument, InvalidArgumentType

_BOXES: list[tuple[tuple, tuple]] = []
"""The current box: its radii as balls ``[−r, r]`` and its exact half-widths ``r`` (arb rounds a ball's radius up)."""

ZERO = flint.arb(0)


class NotSmooth(Undecided):
    """The quantity may not be twice differentiable on the box (a kink inside it), or has no second-order rule."""


class Taylor(BoxEnclosure):
    """``f`` on a box: ``centre`` ⊇ {f(c)}, ``slope[k]`` ⊇ {∂_k f(c)}, ``value`` ⊇ f(box), ``gradient[k]`` ⊇
    ∂_k f(box), ``hessian[k][l]`` ⊇ ∂_k ∂_l f(box); arb balls."""

    __slots__ = ("centre", "slope", "value", "gradient", "hessian")

    def _coerce(self, other):
        return _taylor(other)

    def __init__(self, centre, slope, value, gradient, hessian) -> None:
        self.centre, self.slope, self.value = centre, tuple(slope), value
        self.gradient, self.hessian = tuple(gradient), tuple(tuple(row) for row in hessian)
        if _BOXES and _finite(self):
            balls, half_widths = _BOXES[-1]
            self.gradient = tuple(meet(g, s + _dot(row, balls)) for g, s, row in
                                  zip(self.gradient, self.slope, self.hessian))
            self.value = meet(self.value, self.centre + _dot(self.gradient, balls))
            self.value = meet(self.value, _quadratic(self.centre, self.slope, self.hessian, half_widths))

    # arithmetic --------------------------------------------------------------------------------------
    def __add__(self, other):
        other = _taylor(other)
        if other is NotImplemented:
            return other
        return Taylor(self.centre + other.centre, _sums(self.slope, other.slope), self.value + other.value,
                      _sums(self.gradient, other.gradient), map(_sums, self.hessian, other.hessian))

    __radd__ = __add__

    def __sub__(self, other):
        other = _taylor(other)
        return other if other is NotImplemented else self + (-other)

    def __rsub__(self, other):
        other = _taylor(other)
        return other if other is NotImplemented else other + (-self)

    def __mul__(self, other):
        other = _taylor(other)
        if other is NotImplemented:
            return other
        u, v = self, other
        value = u.value * v.value
        if u is v:
            value = value.nonnegative_part()  # a ball square may reach below 0 by its radius; the exact one cannot
        n = len(u.gradient)
        hessian = [[u.hessian[k][l] * v.value + u.value * v.hessian[k][l] + u.gradient[k] * v.gradient[l]
                    + v.gradient[k] * u.gradient[l] for l in range(n)] for k in range(n)]
        return Taylor(u.centre * v.centre, (a * v.centre + u.centre * b for a, b in zip(u.slope, v.slope)), value,
                      (a * v.value + u.value * b for a, b in zip(u.gradient, v.gradient)), hessian)

    __rmul__ = __mul__

    def __truediv__(self, other):
        other = _taylor(other)
        return other if other is NotImplemented else self * reciprocal(other)

    def __rtruediv__(self, other):
        other = _taylor(other)
        return other if other is NotImplemented else other * reciprocal(self)

    def __pow__(self, other):
        if isinstance(other, (int, np.integer)) and not isinstance(other, bool):
            n = int(other)
            if n < 0:
                return reciprocal(self ** -n)
            result = _taylor(1)
            for _ in range(n):  # products, not exp(n·log x): a box around 0 has powers too
                result = result * self
            if n % 2 == 0 and n:
                result.value = result.value.nonnegative_part()
            return result
        if isinstance(other, (Taylor, numbers.Real)):
            return exp(log(self) * other)
        return NotImplemented

    def __neg__(self):
        return Taylor(-self.centre, (-s for s in self.slope), -self.value, (-g for g in self.gradient),
                      [[-h for h in row] for row in self.hessian])

    def __pos__(self):
        return self.fresh()

    def __abs__(self):
        if self.value >= 0:
            return self.fresh()
        if self.value <= 0:
            return -self
        raise NotSmooth(f"|x| with x in {self.value}: a kink inside the box")

    def __repr__(self) -> str:
        return f"Taylor(value={self.value}, gradient={list(self.gradient)})"


numbers.Real.register(Taylor)


def _finite(t: Taylor) -> bool:
    return (t.centre.is_finite() and all(s.is_finite() for s in t.slope) and all(g.is_finite() for g in t.gradient)
            and all(h.is_finite() for row in t.hessian for h in row))


def _sums(a, b) -> tuple:
    return tuple(x + y for x, y in zip(a, b))


def _dot(coefficients, balls):
    return sum((a * b for a, b in zip(coefficients, balls)), ZERO)


def _quadratic(centre, slope, hessian, half_widths):
    """An enclosure of ``f(c) + s·h + ½hᵀHh`` over ``|h_k| ≤ r_k``: each coordinate's ``s_k h_k + ½H_kk h_k²``
    bounded on ``[−r_k, 0]`` and ``[0, r_k]`` at its ends and, where concave (convex), its vertex, with the
    coefficients' proved ends; each pair ``k ≠ l`` within ``±|H_kl|·r_k·r_l``."""
    upper, lower = ZERO, ZERO
    for k, r in enumerate(half_widths):
        if r.is_zero():
            continue
        s, a = slope[k], hessian[k][k]
        upper += _most(s.upper(), a.upper(), r).max(_most(-s.lower(), a.upper(), r))
        lower -= _most(-s.lower(), -a.lower(), r).max(_most(s.upper(), -a.lower(), r))
        for l in range(k + 1, len(half_widths)):
            if not half_widths[l].is_zero():
                cross = hessian[k][l].abs_upper() * r * half_widths[l]
                upper, lower = upper + cross, lower - cross
    low, high = (centre + lower).lower(), (centre + upper).upper()
    return flint.arb(low).union(flint.arb(high))


def _most(p, a, r):
    """An upper bound (an exact arb) of ``p·h + ½a·h²`` over ``h ∈ [0, r]`` (``p``, ``a``, ``r`` exact)."""
    end = (p * r + a * r * r / 2).upper()
    best = end.max(ZERO)
    if a < 0 and p > 0 and not (-p / a >= r):  # the vertex maybe inside (an undecided one too): the parabola's top
        best = best.max((-(p * p) / (2 * a)).upper())
    return best


def _constant(value, n: int) -> Taylor:
    zeros = (ZERO,) * n
    return Taylor(value, zeros, value, zeros, (zeros,) * n)


def _taylor(value):
    if isinstance(value, Taylor):
        return value
    if isinstance(value, np.ndarray) and value.ndim:
        return NotImplemented
    try:
        arb = Ball(value).arb
    except TypeError:
        return NotImplemented
    return _constant(arb, len(_BOXES[-1][0]) if _BOXES else 0)


def _unary(function, first, second, *, increasing: bool = False):
    """``function`` with ``first(x, f(x))`` and ``second(x, f(x))`` its first and second derivatives' balls; an
    ``increasing`` one's value is the hull of its values at the box value's ends (arb's own is far wider)."""
    def apply(x):
        x = x if isinstance(x, Taylor) else _taylor(x)
        value = increasing_image(function, x.value) if increasing else function(x.value)
        centre = function(x.centre)
        d1, d2, at_centre = first(x.value, value), second(x.value, value), first(x.centre, centre)
        n = len(x.gradient)
        hessian = [[d1 * x.hessian[k][l] + d2 * x.gradient[k] * x.gradient[l] for l in range(n)] for k in range(n)]
        return Taylor(centre, (at_centre * s for s in x.slope), value, (d1 * g for g in x.gradient), hessian)
    return apply


def _log_arb(x):
    if not x > 0:
        raise Undecided(f"log of {x}, which is not certainly positive on this box")
    return x.log()


def _sqrt_arb(x):
    if not x > 0:
        raise NotSmooth(f"sqrt of {x}, which is not certainly positive on this box")
    return x.sqrt()


def _inverse(x):
    if not (x > 0 or x < 0):
        raise Undecided(f"1/x with x in {x}, which may be 0 on this box")
    return 1 / x


_EXP = lambda x, fx: increasing_image(flint.arb.exp, x)  # noqa: E731 - expm1's derivatives
exp = _unary(flint.arb.exp, lambda x, fx: fx, lambda x, fx: fx, increasing=True)
log = _unary(_log_arb, lambda x, fx: 1 / x, lambda x, fx: -1 / (x * x), increasing=True)
sqrt = _unary(_sqrt_arb, lambda x, fx: 1 / (2 * fx), lambda x, fx: -1 / (4 * fx * x), increasing=True)
tanh = _unary(flint.arb.tanh, lambda x, fx: 1 - fx * fx, lambda x, fx: -2 * fx * (1 - fx * fx), increasing=True)
expm1 = _unary(flint.arb.expm1, _EXP, _EXP, increasing=True)
sin = _unary(flint.arb.sin, lambda x, fx: x.cos(), lambda x, fx: -fx)
cos = _unary(flint.arb.cos, lambda x, fx: -x.sin(), lambda x, fx: -fx)
reciprocal = _unary(_inverse, lambda x, fx: -fx * fx, lambda x, fx: 2 * fx * fx * fx)


def maximum(a, b) -> Taylor:
    """The larger of two, where one is certainly the larger on the box; else :class:`NotSmooth` (a kink inside)."""
    a, b = _taylor(a), _taylor(b)
    difference = (a - b).value
    if difference >= 0:
        return a.fresh()
    if difference <= 0:
        return b.fresh()
    raise NotSmooth(f"max of two whose difference is in {difference}: a kink inside the box")


def minimum(a, b) -> Taylor:
    return -maximum(-_taylor(a), -_taylor(b))


def norm(vector, axis=-1):
    """``‖x‖₂ = sqrt(Σ x_i²)`` along ``axis``, twice differentiable where ``x ≠ 0`` on the whole box."""
    vector = np.asarray(vector, dtype=object)
    if vector.ndim == 1:
        return _norm(list(vector))
    moved = np.moveaxis(vector, axis, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    return np.array([_norm(list(row)) for row in flat], dtype=object).reshape(moved.shape[:-1]).view(TaylorArray)


def _norm(entries) -> Taylor:
    entries = [_taylor(x) for x in entries]
    if len(entries) == 1:
        return abs(entries[0])
    return sqrt(sum(x * x for x in entries))


def taylor_max(values, axis=None):
    values = np.asarray(values, dtype=object)
    reduce = np.frompyfunc(maximum, 2, 1).reduce
    return reduce(values.ravel()) if axis is None else reduce(values, axis=axis)


def spectral_norm(matrix):
    raise NotSmooth("the spectral norm has no second-order form here (no SVD is differentiated)")


class TaylorArray(DualArray):
    """An object array of :class:`Taylor` values whose ``np.maximum``/``np.minimum`` (so ``np.max``) decide or
    raise :class:`NotSmooth` (the array protocol is :class:`~theorems.arithmetic.dual.DualArray`'s)."""


_SOUND = {np.maximum: np.frompyfunc(maximum, 2, 1), np.minimum: np.frompyfunc(minimum, 2, 1)}
_SOUND[np.fmax], _SOUND[np.fmin] = _SOUND[np.maximum], _SOUND[np.minimum]
TaylorArray.sound = _SOUND


TAYLOR = box_space("taylor", functions=dict(exp=exp, log=log, sqrt=sqrt, tanh=tanh, expm1=expm1, sin=sin, cos=cos),
                   norm=norm, max=taylor_max, spectral_norm=spectral_norm, number=lambda x: _taylor(x))
"""The backend ``xp`` of second-order evaluation on a box (the operations of ``DUAL``)."""


@contextlib.contextmanager
def on_box(intervals):
    """Within this block, :class:`Taylor` values refer to the box ``[(centre, radius), ...]`` (arb balls, the
    radius exact); yields one coordinate per interval (value ``centre ± radius``, gradient the unit vector)."""
    balls = tuple(flint.arb(0, r.upper()) if not r.is_zero() else ZERO for _, r in intervals)
    _BOXES.append((balls, tuple(r for _, r in intervals)))
    try:
        n = len(intervals)
        zeros = ((ZERO,) * n,) * n
        yield tuple(Taylor(c, _unit(k, n), c + balls[k], _unit(k, n), zeros) for k, (c, _) in enumerate(intervals))
    finally:
        _BOXES.pop()


def _unit(k: int, n: int) -> tuple:
    return tuple(flint.arb(int(j == k)) for j in range(n))


def as_taylor(value: Any) -> Taylor:
    """``value`` as a :class:`Taylor` of the current box (a number becomes an exact constant)."""
    taylor = _taylor(value)
    if taylor is NotImplemented:
        raise InvalidArgumentType(f"cannot make a Taylor form of {type(value).__name__} {value!r}")
    return taylor


__all__ = ["NotSmooth", "TAYLOR", "Taylor", "TaylorArray", "as_taylor", "on_box"]
