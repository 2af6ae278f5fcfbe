"""The prover's one enclosure algebra: a side on a whole box of instances as a jet of a given order over arb balls.

A :class:`BoxJet` carries, for one quantity ``f`` of a box of free coordinates ``x ∈ c ± r``, the arb balls

- ``centre`` ⊇ {f(c)}, ``value`` ⊇ f(box), ``gradient[k]`` ⊇ ∂_k f(box) — every order;
- ``slope[k]`` ⊇ {∂_k f(c)} and ``hessian[k][l]`` ⊇ ∂_k ∂_l f(box) — order 2 (``None`` at order 1).

Its two orders are its two classes: :class:`Dual` (order 1, the *mean-value form*) and :class:`Taylor` (order 2, the
*second-order form*). Each operation is one rule (:data:`RULES`, and :data:`UNARY` for the elementwise functions,
JAX-style: one rule per primitive, for every order) that propagates the parts by the chain rule, then the result
tightens its ``value``:

- order 1: ``f(box) ⊆ f(c) + ∇f(box)·(box − c)``, which shrinks like ``r²`` near the point where a tight bound is
  attained, where plain interval evaluation shrinks like ``r``;
- order 2: also ``gradient`` by the mean-value form of each ``∂_k f``, and ``value`` by Taylor's theorem with the
  Lagrange remainder, ``f(c + h) = f(c) + ∇f(c)·h + ½hᵀ∇²f(ξ)h``, bounded at the quadratic's vertex coordinate by
  coordinate, so a concave ``f`` is enclosed to ``O(r³)``.

Soundness: every side built from these operations is Lipschitz on a box where its gradient enclosure is finite, so
along any segment ``f(x) − f(c) = ∫ ∇f·(x − c)`` with ``∇f`` (where it exists) inside the enclosure; at a kink (``abs``
at 0, an undecided ``max``) order 1's gradient is the convex hull of the one-sided derivatives, which contains every
derivative met along the segment. Taylor's theorem needs ``f`` twice differentiable on the box: at order 2 an
undecided ``max``, ``abs`` at 0, ``‖x‖`` at ``x = 0`` or an operation with no second-order rule (the spectral norm)
raises :class:`NotSmooth` (the prover keeps the mean-value form on such a box).

The box (its radii and exact half-widths) and the precision live in a :class:`BoxContext`, set for a block by
:func:`on_box` (a context variable, as mpmath's and decimal's contexts: no module-level state). Comparisons and
``max``/``min`` decide on the tightened difference, so ``c ≥ c − d`` with ``d ≥ 0`` is certain even when ``c`` is a
wide ball, or raise :class:`~theorems.errors.Undecided`.

>>> import flint
>>> with on_box([(flint.arb(0), flint.arb("0.1"))]) as (x,):
...     y = DUAL.exp(x) - x          # on [-0.1, 0.1]: plain intervals give [0.80, 1.21]
>>> y.value.upper() < 1.011, y.gradient[0].lower() < 0 < y.gradient[0].upper()   # mean-value form: 1 ± 0.0105
(True, True)
>>> with on_box([(flint.arb(0), flint.arb("0.1"))], order=2) as (x,):
...     y = TAYLOR.exp(x) - x        # 1 + x²/2 + …: in [1, 1.0052]
>>> y.value.upper() < 1.0056, y.value.lower() > 0.9999
(True, True)
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import functools
import numbers
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, ClassVar

import flint
import numpy as np

from theorems.arithmetic import box_branches
from theorems.arithmetic.ball_linalg import arb_spectral_norm
from theorems.arithmetic.ballarray import wrap_object_arrays
from theorems.arithmetic.precision import (Ball, START_BITS, Undecided, increasing_image, meet, root_of_squares,
                                          working_bits)
from theorems.errors import InvalidArgument, InvalidArgumentType, NoBallForm

ZERO = flint.arb(0)


class NotSmooth(Undecided):
    """The quantity may not be twice differentiable on the box (a kink inside it), or has no second-order rule."""


# the context: the box and the precision ------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class BoxContext:
    """The box the jets of a block refer to: ``radii[k]`` the ball ``[−r_k, r_k]`` (arb rounds its radius up to 30
    bits), ``half_widths[k]`` the exact ``r_k``; ``bits`` the working precision of the block."""

    radii: tuple
    half_widths: tuple
    bits: int

    @property
    def size(self) -> int:
        return len(self.radii)


_BOX: contextvars.ContextVar[BoxContext | None] = contextvars.ContextVar("box_jet_box", default=None)


def current_box() -> BoxContext | None:
    """The box of the innermost :func:`on_box` block (``None`` outside one: a jet is then a number's constant)."""
    return _BOX.get()


@contextlib.contextmanager
def on_box(intervals, *, order: int = 1, bits: int | None = None):
    """Within this block, jets refer to the box ``[(centre, radius), ...]`` (arb balls, the radius exact), computed at
    ``bits`` (default: the precision in force); yields one coordinate per interval as a jet of ``order`` (1:
    :class:`Dual`, 2: :class:`Taylor`): value ``centre ± radius``, gradient the unit vector."""
    kind = JETS.get(order)
    if kind is None:
        raise InvalidArgument(f"order={order!r} must be one of {sorted(JETS)}")
    radii = tuple(flint.arb(0, r.upper()) if not r.is_zero() else ZERO for _, r in intervals)
    precision = working_bits(bits) if bits is not None else contextlib.nullcontext()
    with precision:
        token = _BOX.set(BoxContext(radii, tuple(r for _, r in intervals), int(flint.ctx.prec)))
        try:
            yield tuple(kind.coordinate(c, radius, k, len(intervals)) for k, ((c, _), radius) in
                        enumerate(zip(intervals, radii)))
        finally:
            _BOX.reset(token)


# the jet ------------------------------------------------------------------------------------------------------

class BoxJet:
    """``f`` on the current box to :attr:`order` (see the module's docstring); subclasses :class:`Dual` and
    :class:`Taylor` name the orders. What a comparison decides: certain on the tightened difference (``value`` of
    ``self − other``) or ``Undecided``; ``float()`` only of a constant."""

    __slots__ = ("centre", "slope", "value", "gradient", "hessian")
    order: ClassVar[int]

    def __init__(self, centre, value, gradient, *, slope=None, hessian=None) -> None:
        self.centre, self.value, self.gradient = centre, value, tuple(gradient)
        self.slope = None if slope is None else tuple(slope)
        self.hessian = None if hessian is None else tuple(tuple(row) for row in hessian)
        box = _BOX.get()
        if box is not None:
            self._tighten(box)

    def _tighten(self, box: BoxContext) -> None:
        if self.hessian is None:  # order 1: value ∩ the mean-value form
            if self.value.is_finite() and all(g.is_finite() for g in self.gradient):
                mean_value = self.centre + _dot(self.gradient, box.radii)
                if mean_value.overlaps(self.value):  # both contain f(box); disjoint would mean a bug: keep the plain one
                    self.value = self.value.intersection(mean_value)
            return
        if _finite(self):  # order 2: the gradient by its own mean-value form, the value by both forms
            self.gradient = tuple(meet(g, s + _dot(row, box.radii))
                                  for g, s, row in zip(self.gradient, self.slope, self.hessian))
            self.value = meet(self.value, self.centre + _dot(self.gradient, box.radii))
            self.value = meet(self.value, _quadratic(self.centre, self.slope, self.hessian, box.half_widths))

    @classmethod
    def coordinate(cls, centre, radius, k: int, n: int) -> "BoxJet":
        """The ``k``-th of ``n`` coordinates of the box: ``centre + [−r, r]`` (``radius`` the ball ``[−r, r]``)."""
        unit = tuple(flint.arb(int(j == k)) for j in range(n))
        if cls.order == 1:
            return cls(centre, centre + radius, unit)
        return cls(centre, centre + radius, unit, slope=unit, hessian=((ZERO,) * n,) * n)

    @classmethod
    def constant(cls, value) -> "BoxJet":
        """The exact constant ``value`` (an arb ball) on the current box."""
        box = _BOX.get()
        zeros = (ZERO,) * (box.size if box is not None else 0)
        if cls.order == 1:
            return cls(value, value, zeros)
        return cls(value, value, zeros, slope=zeros, hessian=(zeros,) * len(zeros))

    @classmethod
    def lift(cls, value):
        """``value`` as a jet of this order (a number becomes an exact constant); ``NotImplemented`` for an array or
        anything that is no real number."""
        if isinstance(value, cls):
            return value
        if isinstance(value, np.ndarray) and value.ndim:
            return NotImplemented
        try:
            arb = Ball(value).arb
        except TypeError:
            return NotImplemented
        return cls.constant(arb)

    def fresh(self):
        """A new object with the same parts: what ``max``, ``abs`` and ``+x`` return, as float64's ``np.maximum``,
        ``abs`` and ``+`` do, so that a side's identity test (``np.max(l) is l[0]``) reads as it does in float64
        (always False) and never picks one branch for the whole box."""
        twin = object.__new__(type(self))
        for name in BoxJet.__slots__:
            setattr(twin, name, getattr(self, name))
        return twin

    # arithmetic: each operator is its rule ---------------------------------------------------------------------
    def __add__(self, other): return RULES["add"](self, other)
    def __radd__(self, other): return RULES["add"](self, other)
    def __sub__(self, other): return RULES["subtract"](self, other)
    def __rsub__(self, other): return _reflected(RULES["subtract"], self, other)
    def __mul__(self, other): return RULES["multiply"](self, other)
    def __rmul__(self, other): return RULES["multiply"](self, other)
    def __truediv__(self, other): return RULES["divide"](self, other)
    def __rtruediv__(self, other): return _reflected(RULES["divide"], self, other)
    def __pow__(self, other): return RULES["power"](self, other)
    def __neg__(self): return RULES["negative"](self)
    def __pos__(self): return self.fresh()
    def __abs__(self): return RULES["absolute"](self)

    # numpy's ufuncs on object arrays (``np.exp(l)`` in a side written with plain numpy) call these methods
    def exp(self): return UNARY["exp"](self)
    def log(self): return UNARY["log"](self)
    def sqrt(self): return UNARY["sqrt"](self)
    def tanh(self): return UNARY["tanh"](self)
    def expm1(self): return UNARY["expm1"](self)
    def sin(self): return UNARY["sin"](self)
    def cos(self): return UNARY["cos"](self)

    # comparisons: certain on the box, or Undecided --------------------------------------------------------------
    def _compare(self, other, name: str, sign: int, strict: bool) -> bool:
        if isinstance(other, np.ndarray) and other.ndim:
            return NotImplemented
        theirs = self.lift(other)
        jet = (self - theirs) * sign  # sign·(self − other) > 0 (or ≥ 0) is the claim
        difference = jet.value
        if (difference > 0) if strict else (difference >= 0):
            return True
        if (difference <= 0) if strict else (difference < 0):
            return False
        branches = box_branches.current()
        if branches is not None:  # true where sign·d ≥ 0 (its closure), false where −sign·d ≥ 0
            return branches.choose([[jet], [-jet]], continuous=False) == 0
        raise Undecided(f"{self.value} {name} {theirs.value} is undecided on this box")

    def __lt__(self, other): return self._compare(other, "<", -1, True)
    def __le__(self, other): return self._compare(other, "<=", -1, False)
    def __gt__(self, other): return self._compare(other, ">", 1, True)
    def __ge__(self, other): return self._compare(other, ">=", 1, False)

    def __eq__(self, other):
        # equal at every point of the box (the difference is exactly 0), at none (0 is outside it), or Undecided;
        # object identity (Python's default) would say x == 0 is False on a box holding 0
        if isinstance(other, np.ndarray) and other.ndim:
            return NotImplemented
        if other is self and self.value.is_finite():  # one finite function equals itself at every point (``p != p``)
            return True
        theirs = self.lift(other)
        if theirs is NotImplemented:
            return NotImplemented
        jet = self - theirs
        difference = jet.value
        if difference.is_zero():
            return True
        if not difference.contains(0):
            return False
        branches = box_branches.current()
        if branches is not None:  # equal where d ≥ 0 and −d ≥ 0; unequal on a set that is not closed: no condition
            return branches.choose([[jet, -jet], []], continuous=False) == 0
        raise Undecided(f"{self.value} == {theirs.value} is undecided on this box")

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None

    def __bool__(self) -> bool:
        if self.value != 0:
            return True
        if self.value.is_zero():
            return False
        branches = box_branches.current()
        if branches is not None:
            return branches.choose([[], [self, -self]], continuous=False) == 0
        raise Undecided(f"truth of {self.value} is undecided on this box")

    def __float__(self) -> float:
        # a float of a quantity that varies over the box would silently evaluate the side at one point
        if not (self.value.is_exact() and all(g.is_zero() for g in self.gradient)):
            raise InvalidArgumentType(f"float() of {self.value}, which varies over the box: this side needs a fixed value here")
        return float(self.value)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(value={self.value}, gradient={list(self.gradient)})"


class Dual(BoxJet):
    """A jet of order 1: ``centre`` ⊇ {f(c)}, ``value`` ⊇ f(box), ``gradient[k]`` ⊇ ∂_k f(box) (the mean-value form)."""

    __slots__ = ()
    order = 1


class Taylor(BoxJet):
    """A jet of order 2: ``Dual``'s parts, ``slope[k]`` ⊇ {∂_k f(c)} and ``hessian[k][l]`` ⊇ ∂_k ∂_l f(box) (the
    second-order form)."""

    __slots__ = ()
    order = 2


JETS: dict[int, type[BoxJet]] = {1: Dual, 2: Taylor}
"""The jet type of each order."""

numbers.Real.register(BoxJet)


# helpers of the rules -----------------------------------------------------------------------------------------

def _dot(coefficients, balls):
    return sum((a * b for a, b in zip(coefficients, balls)), ZERO)


def _finite(t: BoxJet) -> bool:
    return (t.centre.is_finite() and all(s.is_finite() for s in t.slope) and all(g.is_finite() for g in t.gradient)
            and all(h.is_finite() for row in t.hessian for h in row))


def _sums(a, b) -> tuple:
    return tuple(x + y for x, y in zip(a, b))


def _quadratic(centre, slope, hessian, half_widths):
    """An enclosure of ``f(c) + s·h + ½hᵀHh`` over ``|h_k| ≤ r_k``: each coordinate's ``s_k h_k + ½H_kk h_k²``
    bounded on ``[−r_k, 0]`` and ``[0, r_k]`` at its ends and, where concave (convex), its vertex, with the
    coefficients' proved ends; each pair ``k ≠ l`` within ``±|H_kl|·r_k·r_l``."""
    upper, lower = ZERO, ZERO
    for k, r in enumerate(half_widths):
        if r.is_zero():
            continue
        s, a = slope[k], hessian[k][k]
        upper += quadratic_top(s.upper(), a.upper(), r).max(quadratic_top(-s.lower(), a.upper(), r))
        lower -= quadratic_top(-s.lower(), -a.lower(), r).max(quadratic_top(s.upper(), -a.lower(), r))
        for l in range(k + 1, len(half_widths)):
            if not half_widths[l].is_zero():
                cross = hessian[k][l].abs_upper() * r * half_widths[l]
                upper, lower = upper + cross, lower - cross
    low, high = (centre + lower).lower(), (centre + upper).upper()
    return flint.arb(low).union(flint.arb(high))


def quadratic_top(p, a, r):
    """An upper bound (an exact arb) of ``p·h + ½a·h²`` over ``h ∈ [0, r]`` (``p``, ``a``, ``r`` exact)."""
    end = (p * r + a * r * r / 2).upper()
    best = end.max(ZERO)
    if a < 0 and p > 0 and not (-p / a >= r):  # the vertex maybe inside (an undecided one too): the parabola's top
        best = best.max((-(p * p) / (2 * a)).upper())
    return best


def _power(x, n: int):
    """``x**n`` of an arb ball by products (python-flint's ``**`` takes ``exp(n·log x)``: NaN on a ball around 0),
    an even power clipped at 0 (the product of a ball around 0 with itself reaches below 0 by its radius)."""
    if n == 0:
        return flint.arb(1)
    if n == 1:
        return x
    half = _power(x, n // 2)
    square = half * half
    square = square.nonnegative_part() if square.is_finite() else square
    return square * x if n % 2 else square


def _hull_zero(g):
    """The ball ``[−|g|, |g|]``: every ``s·g`` with ``s ∈ [−1, 1]``."""
    return flint.arb(0, g.abs_upper()) if g.is_finite() else g


def _reflected(rule, jet: BoxJet, number):
    """``number ∘ jet`` for a plain number on the left."""
    other = jet.lift(number)
    return other if other is NotImplemented else rule(other, jet)


# the rules: one per primitive, for every order -------------------------------------------------------------------

def add(a: BoxJet, b) -> BoxJet:
    b = a.lift(b)  # a number becomes a constant of a's order; NotImplemented for no real number
    if b is NotImplemented:
        return b
    if a.order == 1:
        return type(a)(a.centre + b.centre, a.value + b.value, _sums(a.gradient, b.gradient))
    return type(a)(a.centre + b.centre, a.value + b.value, _sums(a.gradient, b.gradient), slope=_sums(a.slope, b.slope),
                   hessian=map(_sums, a.hessian, b.hessian))


def subtract(a: BoxJet, b) -> BoxJet:
    b = a.lift(b)
    if b is NotImplemented:
        return b
    if a.order == 1:
        return type(a)(a.centre - b.centre, a.value - b.value, tuple(x - y for x, y in zip(a.gradient, b.gradient)))
    return add(a, negative(b))


def negative(a: BoxJet) -> BoxJet:
    if a.order == 1:
        return type(a)(-a.centre, -a.value, (-g for g in a.gradient))
    return type(a)(-a.centre, -a.value, (-g for g in a.gradient), slope=(-s for s in a.slope),
                   hessian=[[-h for h in row] for row in a.hessian])


def multiply(a: BoxJet, b) -> BoxJet:
    b = a.lift(b)
    if b is NotImplemented:
        return b
    value = a.value * b.value
    gradient = (x * b.value + a.value * y for x, y in zip(a.gradient, b.gradient))
    if a.order == 1:
        if a is b or (a.value >= 0 and b.value >= 0) or (a.value <= 0 and b.value <= 0):
            value = value.nonnegative_part()  # a ball product may reach below 0 by its radius; the exact one cannot
        return type(a)(a.centre * b.centre, value, gradient)
    if a is b:
        value = value.nonnegative_part()  # a ball square may reach below 0 by its radius; the exact one cannot
    n = len(a.gradient)
    hessian = [[a.hessian[k][l] * b.value + a.value * b.hessian[k][l] + a.gradient[k] * b.gradient[l]
                + b.gradient[k] * a.gradient[l] for l in range(n)] for k in range(n)]
    return type(a)(a.centre * b.centre, value, gradient, slope=(x * b.centre + a.centre * y for x, y in
                                                                 zip(a.slope, b.slope)), hessian=hessian)


def divide(a: BoxJet, b) -> BoxJet:
    b = a.lift(b)
    if b is NotImplemented:
        return b
    if a.order == 2:
        return multiply(a, reciprocal(b))
    quotient = a.value / b.value
    first = type(a)(a.centre / b.centre, quotient, ((x - quotient * y) / b.value for x, y in zip(a.gradient, b.gradient)))
    # ∇(s/b) = (∇s − (s/b)·∇b)/b holds with any enclosure of s/b on the box: the mean-value-tightened one (width
    # O(box²) where the plain quotient's is O(box)) gives a gradient tight enough for a ratio near 1
    tight = first.value
    second = (meet(g, (x - tight * y) / b.value) for g, x, y in zip(first.gradient, a.gradient, b.gradient))
    return type(a)(first.centre, tight, second)


def power(a: BoxJet, exponent) -> BoxJet:
    if isinstance(exponent, (int, np.integer)) and not isinstance(exponent, bool):
        n = int(exponent)
        if a.order == 2:
            if n < 0:
                return reciprocal(power(a, -n))
            result = a.lift(1)
            for _ in range(n):  # products, not exp(n·log x): a box around 0 has powers too
                result = result * a
            if n % 2 == 0 and n:
                result.value = result.value.nonnegative_part()
            return result
        if n == 0:
            return a.constant(flint.arb(1))
        if n > 0:
            derivative = n * _power(a.value, n - 1)
            return type(a)(_power(a.centre, n), _power(a.value, n), (derivative * g for g in a.gradient))
        return 1 / power(a, -n)
    if isinstance(exponent, (BoxJet, numbers.Real)):
        return exp(log(a) * exponent)
    return NotImplemented


def absolute(a: BoxJet) -> BoxJet:
    if a.value >= 0:
        return a.fresh()
    if a.value <= 0:
        return -a
    branches = box_branches.current()
    if branches is not None:  # |x| is x where x ≥ 0, −x where −x ≥ 0
        return a.fresh() if branches.choose([[a], [-a]], continuous=True) == 0 else -a
    if a.order == 2:
        raise NotSmooth(f"|x| with x in {a.value}: a kink inside the box")
    # |·| is 1-Lipschitz: its derivative along any segment is s·f' with s ∈ [−1, 1]
    return type(a)(abs(a.centre), abs(a.value), (_hull_zero(g) for g in a.gradient))


def maximum(a, b, *, kind: type[BoxJet] | None = None) -> BoxJet:
    """The sound ``max``: the certain larger one; else, in a branch evaluation (:mod:`~theorems.arithmetic.box_branches`),
    the one the branch takes (``a`` where ``a − b ≥ 0``); else at order 1 the hull (value: arb max, gradient: convex
    hull of both), at order 2 :class:`NotSmooth` (a kink inside the box). ``kind``: the order of plain numbers
    (default: the jets' own)."""
    kind = kind or _kind_of((a, b))
    a, b = kind.lift(a), kind.lift(b)
    difference = a - b
    if kind.order == 2:
        lower, upper = difference.value.lower(), difference.value.upper()
    else:
        lower, upper = _endpoints(difference)
    if lower >= 0:
        return a.fresh()
    if upper <= 0:
        return b.fresh()
    branches = box_branches.current()
    if branches is not None:
        return (a, b)[branches.choose([[difference], [-difference]], continuous=True)].fresh()
    if kind.order == 2:
        raise NotSmooth(f"max of two whose difference is in {difference.value}: a kink inside the box")
    return kind(a.centre.max(b.centre), a.value.max(b.value), (x.union(y) for x, y in zip(a.gradient, b.gradient)))


def _endpoints(d: BoxJet):
    """Proved bounds ``(lower, upper)`` of ``d`` on the box, the mean-value form's taken from its endpoints
    (``d(c) ± Σ_k |∂_k d|·r_k`` with the box's exact half-widths ``r_k``, summed at the working precision) rather
    than from balls: arb rounds a ball's radius up to 30 bits, so ``d ≤ 0`` on a box whose edge is the kink
    ``d = 0`` (sparsemax's support changing along a bisection line) would otherwise read as undecided."""
    lower, upper = d.value.lower(), d.value.upper()
    box = _BOX.get()
    if box is not None and d.centre.is_finite() and all(g.is_finite() for g in d.gradient):
        spread = sum((g.abs_upper() * r.abs_upper() for g, r in zip(d.gradient, box.half_widths)), ZERO)
        upper = upper.min((d.centre.upper() + spread).upper())
        lower = lower.max((d.centre.lower() - spread).lower())
    return lower, upper


def minimum(a, b, *, kind: type[BoxJet] | None = None) -> BoxJet:
    kind = kind or _kind_of((a, b))
    return -maximum(-kind.lift(a), -kind.lift(b), kind=kind)


def maximum_of(values, axis=None, *, kind: type[BoxJet] | None = None):
    """``xp.max``: the sound ``max`` reduced over ``axis`` (all of them: ``None``)."""
    values = np.asarray(values, dtype=object)
    reduce = np.frompyfunc(functools.partial(maximum, kind=kind or _kind_of(values)), 2, 1).reduce
    return reduce(values.ravel()) if axis is None else reduce(values, axis=axis)


def norm(vector, axis=-1, *, kind: type[BoxJet] | None = None):
    """``‖x‖₂`` along ``axis``. Order 1: its gradient ``Σ (x_i/‖x‖)·∇x_i`` with each ``x_i/‖x‖`` kept inside
    [−1, 1], so that a box reaching ``x = 0`` (where ``‖·‖`` has a kink) still has a finite, sound gradient. Order 2:
    ``sqrt(Σ x_i²)``, twice differentiable where ``x ≠ 0`` on the whole box (else :class:`NotSmooth`)."""
    vector = np.asarray(vector, dtype=object)
    kind = kind or _kind_of(vector)
    if vector.ndim == 1:
        return _norm(kind, list(vector.ravel()))
    moved = np.moveaxis(vector, axis, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    return np.array([_norm(kind, list(row)) for row in flat], dtype=object).reshape(moved.shape[:-1]).view(
        ARRAYS[kind.order])


def _kind_of(values) -> type[BoxJet]:
    """The jet type of the first jet among ``values`` (a box's order), :class:`Dual` where none is one."""
    for value in np.ravel(np.asarray(values, dtype=object)):
        if isinstance(value, BoxJet):
            return type(value)
    return Dual


def _norm(kind: type[BoxJet], entries) -> BoxJet:
    entries = [kind.lift(x) for x in entries]
    if len(entries) == 1:
        return abs(entries[0])
    if kind.order == 2:
        return sqrt(sum(x * x for x in entries))
    squares = sum((x.value * x.value for x in entries), ZERO).nonnegative_part()
    value = squares.sqrt()
    centre = sum((x.centre * x.centre for x in entries), ZERO).nonnegative_part().sqrt()
    unit = flint.arb(0, 1)
    weights = [(x.value / value).intersection(unit) if value > 0 and (x.value / value).overlaps(unit) else unit
               for x in entries]
    box = _BOX.get()
    if value > 0 and centre > 0 and box is not None:
        weights = _tightened_weights(entries, weights, value, centre, box)
    gradient = [sum((w * x.gradient[k] for w, x in zip(weights, entries)), ZERO)
                for k in range(len(entries[0].gradient))]
    return kind(centre, value, gradient)


def _tightened_weights(entries, weights, value, centre, box: BoxContext, *, rounds: int = 2):
    """The unit vector ``w = x/‖x‖`` on the box (``‖x‖ > 0`` there) by its mean-value form: ``w_i(c) + Σ_k
    ∂_k w_i·(x_k − c_k)`` with ``∂_k w_i = (∂_k x_i − w_i·Σ_j w_j ∂_k x_j)/‖x‖`` enclosed with the current ``w``,
    met with it (both contain every ``w(x)``). Where ``x``'s direction is fixed on the box (sparsemax's
    ``p(x) − p(y) = x − y`` along a direction) the plain ``x_i/‖x‖`` is ``O(box)`` wide and this is ``O(box²)``."""
    n = len(entries[0].gradient)
    for _ in range(rounds):
        pulled = [sum((w * x.gradient[k] for w, x in zip(weights, entries)), ZERO) for k in range(n)]
        tighter = []
        for w, x in zip(weights, entries):
            slopes = ((x.gradient[k] - w * pulled[k]) / value for k in range(n))
            mean_value = x.centre / centre + sum((g * r for g, r in zip(slopes, box.radii)), ZERO)
            tighter.append(meet(w, mean_value))
        weights = tighter
    return weights


def spectral_norm(matrix, *, kind: type[BoxJet] | None = None) -> BoxJet:
    """``‖A‖₂`` of a matrix of jets (order 1; order 2 has no rule: :class:`NotSmooth`, no SVD is differentiated).
    ``centre`` and ``value``: the ball spectral norm (the largest eigenvalue of ``AᵀA`` in arb, or its rigorous
    hull where the eigenvalues are not isolated) of the centre's and of the box's balls. ``gradient``: no sign is
    claimed. ``‖·‖₂`` is 1-Lipschitz in itself (triangle inequality), so along any segment ``|‖A(y)‖₂ − ‖A(x)‖₂| ≤
    ‖A(y) − A(x)‖₂ ≤ Σ_k |y_k − x_k|·sup ‖∂_k A‖₂``, and ``‖∂_k A‖₂ ≤ ‖∂_k A‖_F``: each ``∂_k`` gets ``[−b_k,
    b_k]`` with ``b_k`` the Frobenius norm of ``∂_k A``'s balls. Sound for any matrix, symmetric or not; the price
    of the lost signs is bisection instead of a move to a corner."""
    entries = np.asarray(matrix, dtype=object)
    kind = kind or _kind_of(entries)
    if kind.order == 2:
        raise NotSmooth("the spectral norm has no second-order form here (no SVD is differentiated)")
    if entries.ndim != 2 or entries.size == 0:
        raise InvalidArgument(f"spectral_norm needs a non-empty matrix, got shape {entries.shape}")
    jets = [[as_jet(x, kind) for x in row] for row in entries]
    centre = arb_spectral_norm(flint.arb_mat([[x.centre for x in row] for row in jets]))
    value = arb_spectral_norm(flint.arb_mat([[x.value for x in row] for row in jets]))
    n = len(jets[0][0].gradient)
    bounds = (root_of_squares([x.gradient[k] for row in jets for x in row]) for k in range(n))
    return kind(centre, value, (_hull_zero(b) for b in bounds))


RULES: dict[str, Callable] = {
    "add": add, "subtract": subtract, "negative": negative, "multiply": multiply, "divide": divide, "power": power,
    "absolute": absolute, "maximum": maximum, "minimum": minimum, "max": maximum_of, "norm": norm,
    "spectral_norm": spectral_norm,
}
"""The rule of each primitive that is no elementwise function of one argument (those: :data:`UNARY`)."""


# the elementwise functions: one rule each ----------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Unary:
    """The rule of an elementwise function ``f``: ``function`` its arb function (with the checks order 1 needs),
    ``first(x, f(x))`` and ``second(x, f(x))`` the balls of ``f'`` and ``f''`` on a ball ``x``; ``increasing``: its
    value is the hull of its values at the argument's ends (arb's own is far wider); ``smooth``: its arb function at
    order 2, where it must also be twice differentiable (default: ``function``)."""

    function: Callable
    first: Callable
    second: Callable
    increasing: bool = False
    smooth: Callable | None = None

    def __call__(self, x, *, kind: type[BoxJet] | None = None) -> BoxJet:
        """The rule on a jet (a number: a constant of ``kind``, default order 1)."""
        x = x if isinstance(x, BoxJet) else (kind or Dual).lift(x)
        function = self.function if x.order == 1 or self.smooth is None else self.smooth
        value = increasing_image(function, x.value) if self.increasing else function(x.value)
        slope = self.first(x.value, value)
        if x.order == 1:
            return type(x)(function(x.centre), value, (slope * g for g in x.gradient))
        centre = function(x.centre)
        curvature, at_centre = self.second(x.value, value), self.first(x.centre, centre)
        n = len(x.gradient)
        hessian = [[slope * x.hessian[k][l] + curvature * x.gradient[k] * x.gradient[l] for l in range(n)]
                   for k in range(n)]
        return type(x)(centre, value, (slope * g for g in x.gradient), slope=(at_centre * s for s in x.slope),
                       hessian=hessian)


def _log_arb(x):
    return flint.arb.neg_inf() if x.is_zero() else x.log()


def _log_positive(x):
    if not x > 0:
        raise Undecided(f"log of {x}, which is not certainly positive on this box")
    return x.log()


def _sqrt_arb(x):
    if x.is_finite() and x.lower() < 0 < x.upper():
        raise Undecided(f"sqrt of {x}, which straddles 0, is undecided on this box")
    return x.sqrt()


def _sqrt_positive(x):
    if not x > 0:
        raise NotSmooth(f"sqrt of {x}, which is not certainly positive on this box")
    return x.sqrt()


def _inverse(x):
    if not (x > 0 or x < 0):
        raise Undecided(f"1/x with x in {x}, which may be 0 on this box")
    return 1 / x


def _exp_of_argument(x, fx):
    return increasing_image(flint.arb.exp, x)  # expm1's derivatives


UNARY: dict[str, Unary] = {
    "exp": Unary(flint.arb.exp, lambda x, fx: fx, lambda x, fx: fx, increasing=True),
    "log": Unary(_log_arb, lambda x, fx: 1 / x, lambda x, fx: -1 / (x * x), increasing=True, smooth=_log_positive),
    "sqrt": Unary(_sqrt_arb, lambda x, fx: 1 / (2 * fx), lambda x, fx: -1 / (4 * fx * x), increasing=True,
                  smooth=_sqrt_positive),
    "tanh": Unary(flint.arb.tanh, lambda x, fx: 1 - fx * fx, lambda x, fx: -2 * fx * (1 - fx * fx), increasing=True),
    "expm1": Unary(flint.arb.expm1, _exp_of_argument, _exp_of_argument, increasing=True),
    "sin": Unary(flint.arb.sin, lambda x, fx: x.cos(), lambda x, fx: -fx),
    "cos": Unary(flint.arb.cos, lambda x, fx: -x.sin(), lambda x, fx: -fx),
    "reciprocal": Unary(_inverse, lambda x, fx: -fx * fx, lambda x, fx: 2 * fx * fx * fx),
}
"""The rule of each elementwise function (the backends' ``exp``, ``log``, …; ``reciprocal``: order 2's quotient)."""

exp, log, sqrt, reciprocal = UNARY["exp"], UNARY["log"], UNARY["sqrt"], UNARY["reciprocal"]


# arrays and backends -----------------------------------------------------------------------------------------

class BoxJetArray(np.ndarray):
    """An object array of jets whose ``np.maximum``/``np.minimum`` (so ``np.max``) are the sound rules: numpy's
    ufuncs in ``sound`` run their forms there (each order's array names its own table)."""

    sound: ClassVar[dict] = {}

    def __getitem__(self, key):
        # one element is a new object, as float64's ``l[0]`` is a new scalar: ``l[0] is l[0]`` reads False here too
        item = super().__getitem__(key)
        return item.fresh() if isinstance(item, BoxJet) else item

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        kind = type(self)
        ufunc = kind.sound.get(ufunc, ufunc)
        inputs = tuple(x.view(np.ndarray) if isinstance(x, BoxJetArray) else x for x in inputs)
        if "out" in kwargs:
            kwargs["out"] = tuple(x.view(np.ndarray) if isinstance(x, BoxJetArray) else x for x in kwargs["out"])
        if ufunc in kind.sound.values() and method == "reduce":
            array = np.asarray(inputs[0], dtype=object)
            axis, keepdims = kwargs.get("axis", 0), kwargs.get("keepdims", False)
            start = _plain_reduction(kwargs)
            if axis is None:
                result = ufunc.reduce(array.ravel(), **start)
                return np.array([result], dtype=object).reshape((1,) * array.ndim).view(kind) if keepdims else result
            result = ufunc.reduce(array, axis=axis, **start)
            return wrap_object_arrays(np.expand_dims(np.asarray(result, dtype=object), axis) if keepdims else result,
                                      kind)
        return wrap_object_arrays(getattr(ufunc, method)(*inputs, **kwargs), kind)


def _plain_reduction(kwargs) -> dict:
    """``{"initial": ...}`` where a sound ``max``/``min`` reduction was given one (an extra element: numpy's
    meaning), else ``{}``; a mask (``where=``) or an ``out=`` has no sound form here: :class:`NoBallForm`."""
    if kwargs.get("where", True) is not True or kwargs.get("out") not in (None, (None,)):
        raise NoBallForm("np.max/np.min with where= or out= on a box", "reduce the selected elements yourself")
    return {"initial": kwargs["initial"]} if "initial" in kwargs else {}


def _sound_extrema(kind: type[BoxJet]) -> dict:
    table = {np.maximum: np.frompyfunc(functools.partial(maximum, kind=kind), 2, 1),
             np.minimum: np.frompyfunc(functools.partial(minimum, kind=kind), 2, 1)}
    table[np.fmax], table[np.fmin] = table[np.maximum], table[np.minimum]
    return table


class DualArray(BoxJetArray):
    """An object array of :class:`Dual` values (order 1: an undecided ``max`` is the hull)."""

    sound = _sound_extrema(Dual)


class TaylorArray(BoxJetArray):
    """An object array of :class:`Taylor` values (order 2: an undecided ``max`` raises :class:`NotSmooth`)."""

    sound = _sound_extrema(Taylor)


ARRAYS: dict[int, type[BoxJetArray]] = {1: DualArray, 2: TaylorArray}
"""The array type of each order."""


class JetSpace(SimpleNamespace):
    """A backend ``xp`` of evaluation on a box (:data:`DUAL`, :data:`TAYLOR`); ``pi`` is its ``number`` of arb's π at
    the working precision."""

    @property
    def pi(self):
        return self.number(flint.arb.pi())


def jet_space(name: str, kind: type[BoxJet]) -> JetSpace:
    """The backend of the jets of one order: each rule of :data:`UNARY` the backends share elementwise over object
    arrays, ``norm``, ``max``, ``spectral_norm`` and ``number``, ``abs`` and ``precision`` as every backend has them."""
    functions = {key: elementwise(UNARY[key], kind) for key in ("exp", "log", "sqrt", "tanh", "expm1", "sin", "cos")}
    return JetSpace(name=name, **functions, abs=np.abs, precision=lambda bits=START_BITS: working_bits(bits),
                    norm=functools.partial(norm, kind=kind), max=functools.partial(maximum_of, kind=kind),
                    spectral_norm=functools.partial(spectral_norm, kind=kind), number=kind.lift)


def elementwise(rule: Unary, kind: type[BoxJet]) -> np.ufunc:
    """``rule`` over object arrays, a plain number lifted to ``kind`` (a backend's ``exp``, ``log``, …)."""
    return np.frompyfunc(functools.partial(rule, kind=kind), 1, 1)


DUAL = jet_space("dual", Dual)
"""The backend ``xp`` of the mean-value form on a box (the same operations as ``ARB``)."""

TAYLOR = jet_space("taylor", Taylor)
"""The backend ``xp`` of the second-order form on a box (the operations of ``DUAL``)."""

SPACES: dict[int, JetSpace] = {1: DUAL, 2: TAYLOR}


def as_jet(value: Any, kind: type[BoxJet] = Dual) -> BoxJet:
    """``value`` as a jet of ``kind``'s order on the current box (a number becomes an exact constant)."""
    jet = kind.lift(value)
    if jet is NotImplemented:
        raise InvalidArgumentType(f"cannot make a {kind.__name__} of {type(value).__name__} {value!r}")
    return jet


__all__ = ["ARRAYS", "BoxContext", "BoxJet", "BoxJetArray", "DUAL", "Dual", "DualArray", "JETS", "NotSmooth",
           "RULES", "SPACES", "TAYLOR", "Taylor", "TaylorArray", "UNARY", "Unary", "as_jet", "current_box", "on_box"]
