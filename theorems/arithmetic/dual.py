"""Forward-mode differentiation over arb balls on a box: a side's value *and* gradient enclosed on the whole box.

A :class:`Dual` carries three arb balls for one quantity ``f`` of a box of free coordinates
``x ∈ c ± r``: ``centre`` (``f(c)``), ``value`` (every ``f(x)`` on the box) and ``gradient`` (every
``∇f(x)`` on the box, one ball per coordinate). Each operation propagates all three (chain rule on
the box's balls) and then tightens ``value`` by the *mean-value form*
``f(box) ⊆ f(c) + ∇f(box)·(box − c)``: near the point where a tight bound is attained, that
enclosure shrinks like ``r²`` where plain interval evaluation shrinks like ``r``. Comparisons and
``max``/``min`` decide on the tightened difference, so ``c ≥ c − d`` with ``d ≥ 0`` is certain even
when ``c`` is a wide ball.

Soundness: every side built from these operations is Lipschitz on a box where its gradient
enclosure is finite, so along any segment ``f(x) − f(c) = ∫ ∇f·(x − c)`` with ``∇f`` (where it
exists) inside the enclosure; at a kink (``abs`` at 0, an undecided ``max``) the enclosure is the
convex hull of the one-sided derivatives, which contains every derivative met along the segment.

>>> import flint
>>> from theorems.arithmetic.dual import DUAL, on_box
>>> with on_box([(flint.arb(0), flint.arb("0.1"))]) as (x,):
...     y = DUAL.exp(x) - x          # on [-0.1, 0.1]: plain intervals give [0.80, 1.21]
>>> y.value.upper() < 1.011, y.gradient[0].lower() < 0 < y.gradient[0].upper()   # mean-value form: 1 ± 0.0105
(True, True)
"""

from __future__ import annotations

import contextlib
import numbers
from types import SimpleNamespace
from typing import Any

import flint
import numpy as np

from theorems.arithmetic.ball_linalg import arb_spectral_norm as _arb_spectral_norm
from theorems.arithmetic.ballarray import wrap_object_arrays
from theorems.arithmetic.precision import (Ball, Undecided, START_BITS, increasing_image, meet, working_bits,
                                          root_of_squares)
from theorems.errors import InvalidArgument, InvalidArgumentType

_RADII: list[tuple] = []
_HALF_WIDTHS: list[tuple] = []
"""The box's exact half-widths (``_RADII`` holds them as balls ``[−r, r]``, whose radii arb rounds up to 30 bits)."""


class BoxEnclosure:
    """What an enclosure of ``f`` on a box decides: a comparison is certain on the tightened difference (``value``
    of ``self − other``) or raises ``Undecided``; ``float()`` only of a constant. Subclasses (:class:`Dual`, the
    second-order :class:`~theorems.arithmetic.taylor.Taylor`) give ``_coerce``, which makes a number one of them."""

    __slots__ = ()

    def _coerce(self, other):
        raise NotImplementedError

    def fresh(self):
        """A new object with the same parts: what ``max``, ``abs`` and ``+x`` return, as float64's ``np.maximum``,
        ``abs`` and ``+`` do, so that a side's identity test (``np.max(l) is l[0]``) reads as it does in float64
        (always False) and never picks one branch for the whole box."""
        twin = object.__new__(type(self))
        for name in type(self).__slots__:
            setattr(twin, name, getattr(self, name))
        return twin

    def _compare(self, other, name: str, sign: int, strict: bool) -> bool:
        if isinstance(other, np.ndarray) and other.ndim:
            return NotImplemented
        theirs = self._coerce(other)
        difference = (self - theirs).value * sign  # sign·(self − other) > 0 (or ≥ 0) is the claim
        if (difference > 0) if strict else (difference >= 0):
            return True
        if (difference <= 0) if strict else (difference < 0):
            return False
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
        theirs = self._coerce(other)
        if theirs is NotImplemented:
            return NotImplemented
        difference = (self - theirs).value
        if difference.is_zero():
            return True
        if not difference.contains(0):
            return False
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
        raise Undecided(f"truth of {self.value} is undecided on this box")

    def __float__(self) -> float:
        # a float of a quantity that varies over the box would silently evaluate the side at one point
        if not (self.value.is_exact() and all(g.is_zero() for g in self.gradient)):
            raise InvalidArgumentType(f"float() of {self.value}, which varies over the box: this side needs a fixed value here")
        return float(self.value)


class Dual(BoxEnclosure):
    """``f`` on a box: ``centre`` ⊇ {f(c)}, ``value`` ⊇ f(box), ``gradient[k]`` ⊇ ∂_k f(box); arb balls."""

    __slots__ = ("centre", "value", "gradient")

    def _coerce(self, other):
        return _dual(other)

    def __init__(self, centre, value, gradient) -> None:
        self.centre, self.value, self.gradient = centre, value, tuple(gradient)
        if _RADII and self.value.is_finite() and all(g.is_finite() for g in self.gradient):
            mean_value = self.centre + sum((g * r for g, r in zip(self.gradient, _RADII[-1])), flint.arb(0))
            if mean_value.overlaps(self.value):  # both contain f(box); disjoint would mean a bug, keep the plain one
                self.value = self.value.intersection(mean_value)

    # arithmetic --------------------------------------------------------------------------------------
    def __add__(self, other):
        other = _dual(other)
        if other is NotImplemented:
            return other
        return Dual(self.centre + other.centre, self.value + other.value, _zip(lambda a, b: a + b, self, other))

    __radd__ = __add__

    def __sub__(self, other):
        other = _dual(other)
        if other is NotImplemented:
            return other
        return Dual(self.centre - other.centre, self.value - other.value, _zip(lambda a, b: a - b, self, other))

    def __rsub__(self, other):
        other = _dual(other)
        return other if other is NotImplemented else other - self

    def __mul__(self, other):
        other = _dual(other)
        if other is NotImplemented:
            return other
        value = self.value * other.value
        if self is other or (self.value >= 0 and other.value >= 0) or (self.value <= 0 and other.value <= 0):
            value = value.nonnegative_part()  # a ball product may reach below 0 by its radius; the exact one cannot
        return Dual(self.centre * other.centre, value,
                    _zip(lambda a, b: a * other.value + self.value * b, self, other))

    __rmul__ = __mul__

    def __truediv__(self, other):
        other = _dual(other)
        if other is NotImplemented:
            return other
        quotient = self.value / other.value
        first = Dual(self.centre / other.centre, quotient,
                     _zip(lambda a, b: (a - quotient * b) / other.value, self, other))
        # ∇(s/b) = (∇s − (s/b)·∇b)/b holds with any enclosure of s/b on the box: the mean-value-tightened one
        # (width O(box²) where the plain quotient's is O(box)) gives a gradient tight enough for a ratio near 1
        tight = first.value
        second = (meet(g, (a - tight * b) / other.value) for g, a, b in zip(first.gradient, self.gradient, other.gradient))
        return Dual(first.centre, tight, second)

    def __rtruediv__(self, other):
        other = _dual(other)
        return other if other is NotImplemented else other / self

    def __pow__(self, other):
        if isinstance(other, (int, np.integer)) and not isinstance(other, bool):
            n = int(other)
            if n == 0:
                return _constant(flint.arb(1), len(self.gradient))
            if n > 0:
                derivative = n * _power(self.value, n - 1)
                return Dual(_power(self.centre, n), _power(self.value, n), (derivative * g for g in self.gradient))
            return 1 / self ** -n
        if isinstance(other, Dual) or isinstance(other, numbers.Real):
            return exp(log(self) * other)
        return NotImplemented

    def __neg__(self):
        return Dual(-self.centre, -self.value, (-g for g in self.gradient))

    def __pos__(self):
        return self.fresh()

    def __abs__(self):
        if _certain(self.value >= 0):
            return self.fresh()
        if _certain(self.value <= 0):
            return -self
        # |·| is 1-Lipschitz: its derivative along any segment is s·f' with s ∈ [−1, 1]
        return Dual(abs(self.centre), abs(self.value), (_hull_zero(g) for g in self.gradient))

    def __repr__(self) -> str:
        return f"Dual(value={self.value}, gradient={list(self.gradient)})"


numbers.Real.register(Dual)


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


def _certain(flag) -> bool:
    return bool(flag)


def _hull_zero(g):
    """The ball ``[−|g|, |g|]``: every ``s·g`` with ``s ∈ [−1, 1]``."""
    return flint.arb(0, g.abs_upper()) if g.is_finite() else g


def _zip(operation, a: Dual, b: Dual):
    return (operation(x, y) for x, y in zip(a.gradient, b.gradient))


def _constant(value, n: int) -> Dual:
    return Dual(value, value, (flint.arb(0),) * n)


def _dual(value):
    if isinstance(value, Dual):
        return value
    if isinstance(value, np.ndarray) and value.ndim:
        return NotImplemented
    try:
        arb = Ball(value).arb
    except TypeError:
        return NotImplemented
    return _constant(arb, len(_RADII[-1]) if _RADII else 0)


def _unary(function, derivative, *, increasing: bool = False):
    """``function`` on a dual, with ``derivative(value, function(value))`` the derivative's ball on the box; an
    ``increasing`` one's value is the hull of its values at the box value's ends (arb's own is far wider)."""
    def apply(x):
        if not isinstance(x, Dual):
            x = _dual(x)
        value = increasing_image(function, x.value) if increasing else function(x.value)
        slope = derivative(x.value, value)
        return Dual(function(x.centre), value, (slope * g for g in x.gradient))
    return apply


def _log_arb(x):
    return flint.arb.neg_inf() if x.is_zero() else x.log()


def _sqrt_arb(x):
    if x.is_finite() and x.lower() < 0 < x.upper():
        raise Undecided(f"sqrt of {x}, which straddles 0, is undecided on this box")
    return x.sqrt()


exp = _unary(flint.arb.exp, lambda x, fx: fx, increasing=True)
log = _unary(_log_arb, lambda x, fx: 1 / x, increasing=True)
sqrt = _unary(_sqrt_arb, lambda x, fx: 1 / (2 * fx), increasing=True)
tanh = _unary(flint.arb.tanh, lambda x, fx: 1 - fx * fx, increasing=True)
expm1 = _unary(flint.arb.expm1, lambda x, fx: increasing_image(flint.arb.exp, x), increasing=True)
sin = _unary(flint.arb.sin, lambda x, fx: x.cos())
cos = _unary(flint.arb.cos, lambda x, fx: -x.sin())


def maximum(a, b) -> Dual:
    """The sound ``max``: the certain larger one, else the hull (value: arb max; gradient: convex hull)."""
    a, b = _dual(a), _dual(b)
    lower, upper = _endpoints(a - b)
    if lower >= 0:
        return a.fresh()
    if upper <= 0:
        return b.fresh()
    return Dual(a.centre.max(b.centre), a.value.max(b.value), (x.union(y) for x, y in zip(a.gradient, b.gradient)))


def _endpoints(d: Dual):
    """Proved bounds ``(lower, upper)`` of ``d`` on the box, the mean-value form's taken from its endpoints
    (``d(c) ± Σ_k |∂_k d|·r_k`` with the box's exact half-widths ``r_k``, summed at the working precision) rather
    than from balls: arb rounds a ball's radius up to 30 bits, so ``d ≤ 0`` on a box whose edge is the kink
    ``d = 0`` (sparsemax's support changing along a bisection line) would otherwise read as undecided."""
    lower, upper = d.value.lower(), d.value.upper()
    if _HALF_WIDTHS and d.centre.is_finite() and all(g.is_finite() for g in d.gradient):
        spread = sum((g.abs_upper() * r.abs_upper() for g, r in zip(d.gradient, _HALF_WIDTHS[-1])), flint.arb(0))
        upper = upper.min((d.centre.upper() + spread).upper())
        lower = lower.max((d.centre.lower() - spread).lower())
    return lower, upper


def minimum(a, b) -> Dual:
    return -maximum(-_dual(a), -_dual(b))


def norm(vector, axis=-1):
    """``‖x‖₂`` along ``axis``; its gradient ``Σ (x_i/‖x‖)·∇x_i`` with each ``x_i/‖x‖`` kept inside [−1, 1],
    so that a box reaching ``x = 0`` (where ``‖·‖`` has a kink) still has a finite, sound gradient."""
    vector = np.asarray(vector, dtype=object)
    if vector.ndim == 1:
        return _norm(list(vector.ravel()))
    moved = np.moveaxis(vector, axis, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    return np.array([_norm(list(row)) for row in flat], dtype=object).reshape(moved.shape[:-1]).view(DualArray)


def _norm(entries) -> Dual:
    entries = [_dual(x) for x in entries]
    if len(entries) == 1:
        return abs(entries[0])
    squares = sum((x.value * x.value for x in entries), flint.arb(0)).nonnegative_part()
    value = squares.sqrt()
    centre = sum((x.centre * x.centre for x in entries), flint.arb(0)).nonnegative_part().sqrt()
    unit = flint.arb(0, 1)
    weights = [(x.value / value).intersection(unit) if value > 0 and (x.value / value).overlaps(unit) else unit
               for x in entries]
    if value > 0 and centre > 0 and _RADII:
        weights = _tightened_weights(entries, weights, value, centre)
    gradient = [sum((w * x.gradient[k] for w, x in zip(weights, entries)), flint.arb(0))
                for k in range(len(entries[0].gradient))]
    return Dual(centre, value, gradient)


def _tightened_weights(entries, weights, value, centre, *, rounds: int = 2):
    """The unit vector ``w = x/‖x‖`` on the box (``‖x‖ > 0`` there) by its mean-value form: ``w_i(c) + Σ_k
    ∂_k w_i·(x_k − c_k)`` with ``∂_k w_i = (∂_k x_i − w_i·Σ_j w_j ∂_k x_j)/‖x‖`` enclosed with the current ``w``,
    met with it (both contain every ``w(x)``). Where ``x``'s direction is fixed on the box (sparsemax's
    ``p(x) − p(y) = x − y`` along a direction) the plain ``x_i/‖x‖`` is ``O(box)`` wide and this is ``O(box²)``."""
    n = len(entries[0].gradient)
    for _ in range(rounds):
        pulled = [sum((w * x.gradient[k] for w, x in zip(weights, entries)), flint.arb(0)) for k in range(n)]
        tighter = []
        for w, x in zip(weights, entries):
            slopes = ((x.gradient[k] - w * pulled[k]) / value for k in range(n))
            mean_value = x.centre / centre + sum((g * r for g, r in zip(slopes, _RADII[-1])), flint.arb(0))
            tighter.append(meet(w, mean_value))
        weights = tighter
    return weights


def dual_max(values, axis=None):
    values = np.asarray(values, dtype=object)
    reduce = np.frompyfunc(maximum, 2, 1).reduce
    return reduce(values.ravel()) if axis is None else reduce(values, axis=axis)


class DualArray(np.ndarray):
    """An object array of :class:`Dual` values whose ``np.maximum``/``np.minimum`` (so ``np.max``) are sound: numpy's
    ufuncs in ``sound`` run their forms there (a subclass for another enclosure on a box names its own table)."""

    sound: dict = {}

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        kind = type(self)
        ufunc = kind.sound.get(ufunc, ufunc)
        inputs = tuple(x.view(np.ndarray) if isinstance(x, DualArray) else x for x in inputs)
        if "out" in kwargs:
            kwargs["out"] = tuple(x.view(np.ndarray) if isinstance(x, DualArray) else x for x in kwargs["out"])
        if ufunc in kind.sound.values() and method == "reduce":
            array = np.asarray(inputs[0], dtype=object)
            axis, keepdims = kwargs.get("axis", 0), kwargs.get("keepdims", False)
            if axis is None:
                result = ufunc.reduce(array.ravel())
                return np.array([result], dtype=object).reshape((1,) * array.ndim).view(kind) if keepdims else result
            result = ufunc.reduce(array, axis=axis)
            return wrap_object_arrays(np.expand_dims(np.asarray(result, dtype=object), axis) if keepdims else result,
                                      kind)
        return wrap_object_arrays(getattr(ufunc, method)(*inputs, **kwargs), kind)


_SOUND = {np.maximum: np.frompyfunc(maximum, 2, 1), np.minimum: np.frompyfunc(minimum, 2, 1)}
_SOUND[np.fmax], _SOUND[np.fmin] = _SOUND[np.maximum], _SOUND[np.minimum]
DualArray.sound = _SOUND


def spectral_norm(matrix) -> Dual:
    """``‖A‖₂`` of a matrix of duals. ``centre`` and ``value``: the ball spectral norm (the largest eigenvalue of
    ``AᵀA`` in arb, or its rigorous hull where the eigenvalues are not isolated) of the centre's and of the box's
    balls. ``gradient``: no sign is claimed. ``‖·‖₂`` is 1-Lipschitz in itself (triangle inequality), so along
    any segment ``|‖A(y)‖₂ − ‖A(x)‖₂| ≤ ‖A(y) − A(x)‖₂ ≤ Σ_k |y_k − x_k|·sup ‖∂_k A‖₂``, and ``‖∂_k A‖₂ ≤
    ‖∂_k A‖_F``: each ``∂_k`` gets ``[−b_k, b_k]`` with ``b_k`` the Frobenius norm of ``∂_k A``'s balls. Sound for
    any matrix, symmetric or not; the price of the lost signs is bisection instead of a move to a corner."""
    entries = np.asarray(matrix, dtype=object)
    if entries.ndim != 2 or entries.size == 0:
        raise InvalidArgument(f"spectral_norm needs a non-empty matrix, got shape {entries.shape}")
    duals = [[as_dual(x) for x in row] for row in entries]
    centre = _arb_spectral_norm(flint.arb_mat([[x.centre for x in row] for row in duals]))
    value = _arb_spectral_norm(flint.arb_mat([[x.value for x in row] for row in duals]))
    n = len(duals[0][0].gradient)
    bounds = (root_of_squares([x.gradient[k] for row in duals for x in row]) for k in range(n))
    return Dual(centre, value, (_hull_zero(b) for b in bounds))


class BoxSpace(SimpleNamespace):
    """A backend ``xp`` of evaluation on a box (``DUAL``, the second-order ``TAYLOR``); ``pi`` is its ``number`` of
    arb's π at the working precision."""

    @property
    def pi(self):
        return self.number(flint.arb.pi())


def box_space(name: str, *, functions, **entries) -> BoxSpace:
    """The backend of one kind of enclosure on a box: each of ``functions`` (``exp``, ``log``, …) elementwise over
    object arrays, ``abs`` and ``precision`` as every backend has them, and ``entries`` as given."""
    return BoxSpace(name=name, **{key: np.frompyfunc(f, 1, 1) for key, f in functions.items()}, abs=np.abs,
                    precision=lambda bits=START_BITS: working_bits(bits), **entries)


DUAL = box_space("dual", functions=dict(exp=exp, log=log, sqrt=sqrt, tanh=tanh, expm1=expm1, sin=sin, cos=cos),
                 norm=norm, max=dual_max, spectral_norm=spectral_norm, number=lambda x: _dual(x))
"""The backend ``xp`` of forward-mode evaluation on a box (the same operations as ``ARB``)."""


@contextlib.contextmanager
def on_box(intervals):
    """Within this block, ``Dual`` values refer to the box ``[(centre, radius), ...]`` (arb balls); yields one
    coordinate :class:`Dual` per interval (value ``centre ± radius``, gradient the unit vector)."""
    radii = tuple(flint.arb(0, r.upper()) if not r.is_zero() else flint.arb(0) for _, r in intervals)
    _RADII.append(radii)
    _HALF_WIDTHS.append(tuple(r for _, r in intervals))
    try:
        n = len(intervals)
        yield tuple(Dual(c, c + radii[k], (flint.arb(int(j == k)) for j in range(n)))
                    for k, (c, _) in enumerate(intervals))
    finally:
        _RADII.pop()
        _HALF_WIDTHS.pop()


def as_dual(value: Any) -> Dual:
    """``value`` as a :class:`Dual` of the current box (a number becomes an exact constant)."""
    dual = _dual(value)
    if dual is NotImplemented:
        raise InvalidArgumentType(f"cannot make a dual of {type(value).__name__} {value!r}")
    return dual
