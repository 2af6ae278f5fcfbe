"""The checker's own enclosures: second-order forward-mode jets over arb intervals on a box.

The proof checker shares no bounding code with the prover (``tests/unit/test_checker_independence.py``): its
intervals are python-flint arb balls at its own precision (:data:`BITS`, the prover works at 128), and its
derivative rules are the ones below. A :class:`Jet` is a quantity ``f`` of the box's coordinates ``x ∈ B``,
``B = C + h`` (``C`` a point of the box, ``h_k ∈ [low_k − C_k, high_k − C_k]``)::

    c ⊇ {f(C)}    d_k ⊇ {∂_k f(C)}                                 at the point C
    v ⊇ f(B)      g_k ⊇ ∂_k f(B)    H_kl ⊇ ∂_k ∂_l f(B)             on the box (H is None where f is not C² on B)

Each operation applies the chain rule to all five, then tightens the box's value and gradient by Taylor's
theorem along the segment from ``C`` to ``x`` (which stays in the box)::

    v ⊆ c + Σ_k g_k h_k                          mean value (f Lipschitz: at a kink g holds every one-sided slope)
    v ⊆ c + Σ_k d_k h_k + ½ Σ_kl H_kl h_k h_l    Lagrange remainder (f twice differentiable on B)
    g_k ⊆ d_k + Σ_l H_kl h_l

``c`` and ``d`` are nearly exact, so the second form overestimates by ``O(width³)`` where plain intervals
overestimate by ``O(width)``: a box around a point where a tight bound is attained closes. A ``max`` or ``abs``
undecided on the box has no second derivative there: its gradient is the hull of both sides' and ``H`` is None.

``deg`` (when the box is *graded*) is each quantity's degree of homogeneity in the scaled coordinates: the
checker's proof that a statement is homogeneous. ``s`` (when the box is *shifting*) is each quantity's *shift
tag*: the exact rational ``a`` with ``f(l + c·1) = f(l) + a·c`` for every ``c`` when the shifted key ``l`` moves by
``c·1`` (``l_i``: 1, ``max l``: 1, ``l_i − max l``: 0, ``T``: 0), on the path the evaluation took. An operation
that cannot name its result's tag (``exp`` of a quantity that moves, ``T·l`` with ``T`` no exact number) or a
decision on a quantity that moves (``l[0] > 0``, ``max(l[0], 0)``) raises :class:`NotInvariant`: every decision
of a tagged evaluation is on a quantity of tag 0, so the path taken at ``l`` is the path taken at ``l + c·1``
(the checker's proof of a shift reduction).

>>> with on_box(Box([Fraction(-1, 10)], [Fraction(1, 10)])) as (x,):
...     y = (x.exp() - x)                    # 1 + x²/2 + ...: plain intervals give [0.80, 1.21]
>>> 1 <= y.lo and y.hi < 1.0056
True
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import numbers
from fractions import Fraction

import flint
import numpy as np

from theorems.errors import InvalidArgumentType, NotHomogeneous, NotInvariant, Undecided

BITS = 96
"""The checker's working precision in bits (at least: a certificate may ask for more, ``"bits"``, where ``l/T``
is large enough that ``1 − α = e^(−l/T)`` is lost to rounding at 96 bits)."""

_REQUESTED_BITS: contextvars.ContextVar[int] = contextvars.ContextVar("checker_requested_bits", default=0)
"""The certificate's requested precision while it is checked (:func:`at_least_bits`)."""
_BOX: contextvars.ContextVar["Box | None"] = contextvars.ContextVar("checker_box", default=None)
"""The box of the innermost :func:`on_box` block."""
_BRANCH: contextvars.ContextVar["Choices | None"] = contextvars.ContextVar("checker_branch", default=None)
"""The choices of the innermost :func:`branching` block (``None``: an undecided ``max`` takes the hull)."""
_HULLS: contextvars.ContextVar["HullCount | None"] = contextvars.ContextVar("checker_hulls", default=None)
"""The innermost :func:`counting_hulls` block's count."""
_UNCHECKED: contextvars.ContextVar[bool] = contextvars.ContextVar("checker_unchecked", default=False)
"""Whether degrees and shift tags are set aside (:func:`unchecked`)."""


@contextlib.contextmanager
def at_least_bits(bits: int):
    """Within this block jets are computed at ``max(BITS, bits)`` bits (a certificate's ``"bits"``)."""
    token = _REQUESTED_BITS.set(int(bits))
    try:
        yield
    finally:
        _REQUESTED_BITS.reset(token)


def _fraction_arb(value: Fraction):
    return flint.arb(flint.fmpq(value.numerator, value.denominator))


def arb_of(value):
    """An arb ball holding the real number ``value`` denotes. A float means its shortest decimal form or a
    rounded result, so it carries one ulp unless that decimal is its exact value (``0.5``: exact, ``0.1``: not),
    as the suite's ball backend reads side constants (``docs/soundness.md``)."""
    if isinstance(value, flint.arb):
        return value
    if isinstance(value, (bool, np.bool_, int, np.integer)):
        return flint.arb(int(value))
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if not np.isfinite(value) or Fraction(repr(value)) == Fraction(value):
            return flint.arb(value)
        return flint.arb(value, float(np.spacing(abs(value))))
    if isinstance(value, Fraction):
        return _fraction_arb(value)
    if isinstance(value, str):
        return _fraction_arb(Fraction(value))
    return None


class Box:
    """A box ``[lows, highs]`` (exact rationals) and the point ``C`` its jets expand around; ``graded``: track
    degrees of homogeneity. ``ends[k] = (p_k, q_k)``: exact bounds of ``h_k = x_k − C_k`` (an arb ball's radius is
    rounded up to 30 bits, so a ball of ``[0, w]`` reaches below 0: decisions use these ends, never the balls')."""

    def __init__(self, lows, highs, *, graded: bool = False, shifting: bool = False) -> None:
        self.lows, self.highs = tuple(lows), tuple(highs)
        self.n = n = len(self.lows)
        self.graded, self.shifting = graded, shifting
        with jet_precision():
            centre = [_point(lo, hi) for lo, hi in zip(self.lows, self.highs)]
            self.centre = tuple(_fraction_arb(c) for c in centre)
            self.ends = tuple((_fraction_arb(lo - c).lower(), _fraction_arb(hi - c).upper())
                              for lo, hi, c in zip(self.lows, self.highs, centre))
            self.h = tuple(p.union(q) for p, q in self.ends)
            self.intervals = tuple(c + h for c, h in zip(self.centre, self.h))
            self.pairs = tuple((k, m) for k in range(n) for m in range(k, n))
            self.quadratic = tuple(_half_square(self.h[k]) if k == m else self.h[k] * self.h[m] for k, m in self.pairs)
        where = {pair: p for p, pair in enumerate(self.pairs)}
        self.live = tuple(k for k in range(n) if self.lows[k] != self.highs[k])
        self.diagonal = tuple(where[k, k] for k in range(n))
        self.cross = tuple(where[k, m] for k in self.live for m in self.live if k < m)
        self.rows = tuple(tuple((where[min(k, m), max(k, m)], m) for m in range(n)) for k in range(n))
        self.zeros = (flint.arb(0),) * n
        self.zero_hessian = (flint.arb(0),) * len(self.pairs)

    def coordinates(self, degrees=None, shifts=None) -> tuple["Jet", ...]:
        """One jet per coordinate: ``x_k`` (``degrees[k]`` its degree when graded, ``shifts[k]`` its shift tag when
        shifting: 1 for an entry of the shifted key, else 0)."""
        unit = [tuple(flint.arb(int(j == k)) for j in range(self.n)) for k in range(self.n)]
        return tuple(Jet(c, unit[k], x, unit[k], self.zero_hessian,
                         (Fraction(degrees[k]) if degrees else Fraction(0)) if self.graded else None,
                         (c + p).lower(), (c + q).upper(),
                         s=(Fraction(shifts[k]) if shifts else Fraction(0)) if self.shifting else None)
                     for k, (c, x, (p, q)) in enumerate(zip(self.centre, self.intervals, self.ends)))


@contextlib.contextmanager
def jet_precision():
    saved = flint.ctx.prec
    flint.ctx.prec = max(BITS, _REQUESTED_BITS.get())
    try:
        yield
    finally:
        flint.ctx.prec = saved


def _point(low: Fraction, high: Fraction) -> Fraction:
    """A point of ``[low, high]`` near its midpoint that is a short dyadic (so exact in arb) where one is near."""
    middle = (low + high) / 2
    if middle.denominator & (middle.denominator - 1) == 0 and middle.denominator.bit_length() < BITS // 2:
        return middle
    mid = _fraction_arb(middle).mid()
    man, exp = mid.man_exp()
    exact = Fraction(int(man)) * Fraction(2) ** int(exp)
    return exact if low <= exact <= high else middle


def _half_square(h):
    """``½h²`` over the interval ``h``: ``[0, ½ max|h|²]``."""
    top = h.abs_upper()
    return flint.arb(0).union(top * top / 2)


@contextlib.contextmanager
def on_box(box: Box, degrees=None, shifts=None):
    """Within this block, jets (and the constants they meet) live on ``box``; yields its coordinate jets."""
    token = _BOX.set(box)
    try:
        with jet_precision():
            yield box.coordinates(degrees, shifts)
    finally:
        _BOX.reset(token)


def current_box() -> Box:
    box = _BOX.get()
    if box is None:
        raise InvalidArgumentType("a jet exists only on a box: evaluate inside checker.jet.on_box(...)")
    return box


def _degree(a: "Jet", b: "Jet", operation: str):
    """The common degree of ``a`` and ``b`` (an exact 0 has every degree), or :class:`NotHomogeneous`."""
    if a.deg == b.deg or b.v.is_zero() or _UNCHECKED.get():
        return a.deg
    if a.v.is_zero():
        return b.deg
    raise NotHomogeneous(f"{operation} of quantities of degrees {a.deg} and {b.deg}")


def _exact_number(a: "Jet") -> Fraction | None:
    """The rational ``a`` is on the whole box when it is an exact number (no gradient, an exact ball), else ``None``."""
    if not (a.v.is_exact() and a.c.is_exact() and all(x.is_zero() for x in a.g)):
        return None
    man, exp = a.v.mid().man_exp()
    return Fraction(int(man)) * Fraction(2) ** int(exp)


def _tracked() -> bool:
    """Whether the current box tracks shift tags (then every jet on it carries one), outside :func:`unchecked`."""
    return current_box().shifting and not _UNCHECKED.get()


@contextlib.contextmanager
def unchecked():
    """Within this block neither degrees nor shift tags are checked: what is built from two sides whose degrees and
    tags were checked, to bound them (the claim ``g``, a ratio of two sides that move alike, which moves in no fixed
    way; ``g + λ·c`` with a branch's condition ``c``, of another degree), need not scale or stay put itself."""
    token = _UNCHECKED.set(True)
    try:
        yield
    finally:
        _UNCHECKED.reset(token)


def _same_shift(a: "Jet", b: "Jet", operation: str):
    """The common shift tag of ``a`` and ``b`` (``None`` when not tracked), or :class:`NotInvariant`: a decision
    between them (a ``max``, a comparison) is the same at ``l`` and ``l + c·1`` only when ``a − b`` does not move."""
    if not _tracked():
        return None
    if a.s is None or b.s is None or a.s != b.s:
        raise NotInvariant(f"{operation} of quantities that move by {a.s}·c and {b.s}·c under l → l + c·1")
    return a.s


def still(a: "Jet", operation: str):
    """Tag 0 for ``operation`` of ``a`` (``exp``, ``log``, ``abs``, ``1/x``, a truth value): only a quantity that does
    not move has an image that does not move; else :class:`NotInvariant`."""
    if not _tracked():
        return None
    if a.s != 0:
        raise NotInvariant(f"{operation} of a quantity that moves by {a.s}·c under l → l + c·1")
    return a.s


def _product_shift(a: "Jet", b: "Jet"):
    """The tag of ``a·b``: 0 when neither moves, ``k·s`` when one is the exact number ``k``, else :class:`NotInvariant`
    (``T·l``: its motion ``T·c`` is no fixed multiple of ``c``)."""
    if not _tracked():
        return None
    if a.s == 0 and b.s == 0:
        return Fraction(0)
    for number, other in ((a, b), (b, a)):
        k = _exact_number(number)
        if k is not None and number.s == 0 and other.s is not None:
            return k * other.s
    raise NotInvariant(f"a product of quantities that move by {a.s}·c and {b.s}·c under l → l + c·1")


def _meet(wide, narrow):
    """The intersection of two enclosures of one quantity (``wide`` alone where ``narrow`` is not finite)."""
    if not narrow.is_finite():
        return wide
    if not wide.is_finite():
        return narrow
    if not wide.overlaps(narrow):  # both hold the exact value: disjoint enclosures are a bug, never a result
        raise Undecided(f"internal: disjoint enclosures {wide} and {narrow}")
    return wide.intersection(narrow)


def _dot(xs, ys):
    total = flint.arb(0)
    for x, y in zip(xs, ys):
        total += x * y
    return total


def make_jet(c, d, ends, g, H, deg, s=None) -> "Jet":
    """The jet of these parts; its value's exact ``ends`` (from the operation, by interval arithmetic on the ends
    of its arguments) met with the mean-value and Taylor forms."""
    box = current_box()
    d, g = tuple(d), tuple(g)
    if H is not None:
        g = tuple(_meet(gk, dk + _dot((H[p] for p, _ in row), (box.h[m] for _, m in row)))
                  for gk, dk, row in zip(g, d, box.rows))
    low, high = ends
    if c.is_finite():
        for form_low, form_high in (_linear(c, g, box),) + ((_taylor(c, d, H, box),) if H is not None else ()):
            low, high = max(low, form_low), min(high, form_high)
    if low > high:  # both hold the exact value: disjoint enclosures are a bug, never a result
        raise Undecided(f"internal: disjoint enclosures of one value ({ends}, [{low}, {high}])")
    value = low.union(high) if low.is_finite() and high.is_finite() else flint.arb(0).union(low).union(high)
    return Jet(c, d, value, g, H, deg, low, high, s=s)


def _ends(x) -> tuple:
    return x.lower(), x.upper()


def _times(a: "Jet", b: "Jet") -> tuple:
    """Exact ends of ``[a.lo, a.hi]·[b.lo, b.hi]`` (a product of balls overestimates a wide one's)."""
    corners = (a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi)
    return min(x.lower() for x in corners), max(x.upper() for x in corners)


def _squared(a: "Jet") -> tuple:
    low, high = a.lo * a.lo, a.hi * a.hi
    if a.lo >= 0:
        return low.lower(), high.upper()
    if a.hi <= 0:
        return high.lower(), low.upper()
    return flint.arb(0), max(low.upper(), high.upper())


def _linear(c, g, box):
    """Exact ends of ``c + Σ_k g_k h_k`` over the box (the mean-value form); ``h_k ∈ [p_k, q_k]``, ``p_k ≤ 0 ≤ q_k``."""
    low, high = c.lower(), c.upper()
    for k in box.live:
        if not g[k].is_finite():
            return flint.arb.neg_inf(), flint.arb.pos_inf()
        p, q = box.ends[k]
        g_low, g_high = g[k].lower(), g[k].upper()
        low += min((g_low * q).lower(), (g_high * p).lower())
        high += max((g_high * q).upper(), (g_low * p).upper())
    return low.lower(), high.upper()


def _taylor(c, d, H, box):
    """Exact ends of ``c + Σ_k d_k h_k + ½ Σ_kl H_kl h_k h_l`` over the box: each coordinate's
    ``d_k h_k + ½ H_kk h_k²`` bounded as the quadratic it is (at its vertex, not ``h_k`` and ``h_k²`` apart: they
    move together), the cross terms as intervals."""
    if not all(x.is_finite() for x in H) or not all(x.is_finite() for x in d):
        return flint.arb.neg_inf(), flint.arb.pos_inf()
    low, high = c.lower(), c.upper()
    for k in box.live:
        a, b = d[k], H[box.diagonal[k]] / 2
        p, q = box.ends[k]
        a_low, a_high, b_low, b_high = a.lower(), a.upper(), b.lower(), b.upper()
        high += max(_top(a_high, b_high, q), _top(-a_low, b_high, -p))  # h ∈ [0, q], and h = −u, u ∈ [0, −p]
        low -= max(_top(-a_low, -b_low, q), _top(a_high, -b_low, -p))
    for p in box.cross:
        term = H[p] * box.quadratic[p]
        low, high = low + term.lower(), high + term.upper()
    return low.lower(), high.upper()


def _top(A, B, t):
    """An exact upper bound of ``max_{h ∈ [0, t]} A·h + B·h²`` (``A``, ``B``, ``t ≥ 0`` exact)."""
    if B >= 0 or A <= 0 or (A + 2 * B * t) >= 0:  # convex, or decreasing, or increasing up to t: an end
        return max(flint.arb(0), (A * t + B * t * t).upper())
    return (A * A / (-4 * B)).upper()  # the vertex, inside (0, t)


def _square_arb(x):
    if x.lower() >= 0 or x.upper() <= 0:
        return x * x
    top = x.abs_upper()
    return flint.arb(0).union(top * top)


def hull_zero(x):
    """``[−|x|, |x|]``: every ``s·x`` with ``s ∈ [−1, 1]``."""
    return flint.arb(0, x.abs_upper()) if x.is_finite() else x


class Jet:
    """``f`` on the current box: see the module's docstring."""

    __slots__ = ("c", "d", "v", "g", "H", "deg", "lo", "hi", "s")

    def __init__(self, c, d, v, g, H, deg, lo=None, hi=None, *, s=None) -> None:
        self.c, self.d, self.v, self.g, self.H, self.deg, self.s = c, tuple(d), v, tuple(g), H, deg, s
        self.lo = v.lower() if lo is None else lo  # exact ends: f(B) ⊆ [lo, hi]; v is the ball of them
        self.hi = v.upper() if hi is None else hi

    # arithmetic ------------------------------------------------------------------------------------------
    def __add__(self, other):
        other = jet(other)
        if other is None:
            return NotImplemented
        H = None if self.H is None or other.H is None else tuple(a + b for a, b in zip(self.H, other.H))
        return make_jet(self.c + other.c, (a + b for a, b in zip(self.d, other.d)),
                     ((self.lo + other.lo).lower(), (self.hi + other.hi).upper()),
                     tuple(a + b for a, b in zip(self.g, other.g)), H, _degree(self, other, "a sum"),
                     None if self.s is None or other.s is None else self.s + other.s)

    __radd__ = __add__

    def __neg__(self):
        return Jet(-self.c, (-a for a in self.d), -self.v, (-a for a in self.g),
                   None if self.H is None else tuple(-a for a in self.H), self.deg, -self.hi, -self.lo,
                   s=None if self.s is None else -self.s)

    def __pos__(self):
        return self.fresh()

    def fresh(self) -> "Jet":
        """A new jet with the same parts: what ``max``, ``abs`` and ``+x`` return (float64's return new objects),
        so that a side's identity test (``np.max(l) is l[0]``) reads as it does in float64, never as a branch taken
        on the whole box."""
        return Jet(self.c, self.d, self.v, self.g, self.H, self.deg, self.lo, self.hi, s=self.s)

    def __sub__(self, other):
        other = jet(other)
        return NotImplemented if other is None else self + (-other)

    def __rsub__(self, other):
        other = jet(other)
        return NotImplemented if other is None else other + (-self)

    def __mul__(self, other):
        if other is self:
            return self._square()
        other = jet(other)
        if other is None:
            return NotImplemented
        a, b = self, other
        H = None
        if a.H is not None and b.H is not None:
            H = tuple(ah * b.v + a.v * bh + a.g[k] * b.g[m] + a.g[m] * b.g[k]
                      for ah, bh, (k, m) in zip(a.H, b.H, current_box().pairs))
        deg = None if a.deg is None else a.deg + b.deg
        return make_jet(a.c * b.c, (x * b.c + a.c * y for x, y in zip(a.d, b.d)), _times(a, b),
                     tuple(x * b.v + a.v * y for x, y in zip(a.g, b.g)), H, deg, _product_shift(a, b))

    __rmul__ = __mul__

    def _square(self):
        a = self
        H = None if a.H is None else tuple(2 * (a.v * ah + a.g[k] * a.g[m]) for ah, (k, m) in zip(a.H, current_box().pairs))
        return make_jet(_square_arb(a.c), (2 * a.c * x for x in a.d), _squared(a), tuple(2 * a.v * x for x in a.g),
                     H, None if a.deg is None else 2 * a.deg, _product_shift(a, a))

    def __truediv__(self, other):
        other = jet(other)
        return NotImplemented if other is None else self * other._reciprocal()

    def __rtruediv__(self, other):
        other = jet(other)
        return NotImplemented if other is None else other * self._reciprocal()

    def _reciprocal(self):
        if not (self.lo > 0 or self.hi < 0):
            raise Undecided(f"1/x with x ∈ [{self.lo}, {self.hi}], which may be 0 on this box")
        return _unary(self, lambda x: 1 / x, lambda x, fx: -fx * fx, lambda x, fx, f1: 2 * fx * fx * fx,
                      None if self.deg is None else -self.deg, monotone=-1, operation="1/x")

    def __pow__(self, other):
        if isinstance(other, (int, np.integer)) and not isinstance(other, (bool, np.bool_)):
            n = int(other)
            if n < 0:
                return (self ** -n)._reciprocal()
            if n == 0:
                return jet(1)
            half = self ** (n // 2) if n > 1 else None
            result = self if n == 1 else half._square()
            return result * self if n > 1 and n % 2 else result
        exponent = jet(other)
        if exponent is None:
            return NotImplemented
        return (self.log() * exponent).exp()

    def __rpow__(self, other):
        base = jet(other)
        return NotImplemented if base is None else base ** self

    def __abs__(self):
        still(self, "|x|")
        if self.lo >= 0:
            return self.fresh()
        if self.hi <= 0:
            return -self
        choices = _BRANCH.get()
        if choices is not None:
            return (self, -self)[choices.choose(2, [[self], [-self]])].fresh()
        _took_hull()
        d = self.d if self.c.lower() >= 0 else tuple(-x for x in self.d) if self.c.upper() <= 0 else map(hull_zero, self.d)
        return make_jet(abs(self.c), d, (flint.arb(0), max(-self.lo, self.hi)), tuple(map(hull_zero, self.g)), None,
                     self.deg, self.s)

    # elementary functions (numpy's ufuncs call these methods on object arrays) ------------------------------
    def exp(self):
        return _unary(self, flint.arb.exp, lambda x, fx: fx, lambda x, fx, f1: fx, self._dimensionless("exp"), monotone=1,
                      operation="exp")

    def expm1(self):
        return _unary(self, flint.arb.expm1, lambda x, fx: x.exp(), lambda x, fx, f1: f1, self._dimensionless("expm1"),
                      monotone=1, operation="expm1")

    def log(self):
        if not (self.lo > 0 and self.v > 0):
            raise Undecided(f"log of [{self.lo}, {self.hi}], which is not certainly positive on the box")
        return _unary(self, flint.arb.log, lambda x, fx: 1 / x, lambda x, fx, f1: -f1 * f1, self._dimensionless("log"),
                      monotone=1, operation="log")

    def sqrt(self):
        if self.lo < 0:
            raise Undecided(f"sqrt of [{self.lo}, {self.hi}], which reaches below 0 on this box")
        return _unary(self._nonnegative(), flint.arb.sqrt, lambda x, fx: 1 / (2 * fx), lambda x, fx, f1: -f1 * f1 * f1 * 2,
                      None if self.deg is None else self.deg / 2, monotone=1, operation="sqrt")

    def tanh(self):
        return _unary(self, flint.arb.tanh, lambda x, fx: 1 - fx * fx, lambda x, fx, f1: -2 * fx * f1,
                      self._dimensionless("tanh"), monotone=1, operation="tanh")

    def sin(self):
        return _unary(self, flint.arb.sin, lambda x, fx: x.cos(), lambda x, fx, f1: -fx, self._dimensionless("sin"),
                      operation="sin")

    def cos(self):
        return _unary(self, flint.arb.cos, lambda x, fx: -x.sin(), lambda x, fx, f1: -fx, self._dimensionless("cos"),
                      operation="cos")

    def _nonnegative(self):
        """This jet with its value ball cut at 0 (``lo ≥ 0``: a ball of ``[0, w]`` reaches below 0 by rounding)."""
        if self.v.lower() >= 0 and self.c.lower() >= 0:
            return self
        return Jet(self.c.nonnegative_part(), self.d, self.v.nonnegative_part(), self.g, self.H, self.deg, self.lo,
                   self.hi, s=self.s)

    def square(self):
        return self._square()

    def _dimensionless(self, name: str):
        if self.deg not in (None, 0) and not _UNCHECKED.get():
            raise NotHomogeneous(f"{name} of a quantity of degree {self.deg}")
        return self.deg

    # comparisons: certain on the box, or Undecided ---------------------------------------------------------
    def _compare(self, other, *, strict: bool, sign: int):
        other = jet(other)
        if other is None:
            return NotImplemented  # an array: numpy compares element by element
        difference = self - other
        still(difference, "a comparison")
        decided = _decided(difference.lo, difference.hi, strict=strict, sign=sign)
        if decided is not None:
            return decided
        choices = _BRANCH.get()
        if choices is None:
            raise Undecided(f"the sign of [{difference.lo}, {difference.hi}] is undecided on this box")
        signed = difference if sign > 0 else -difference  # true where signed ≥ 0 (its closure), false elsewhere
        return choices.choose(2, [[signed], [-signed]], continuous=False) == 0

    def __lt__(self, other):
        return self._compare(other, strict=True, sign=-1)

    def __le__(self, other):
        return self._compare(other, strict=False, sign=-1)

    def __gt__(self, other):
        return self._compare(other, strict=True, sign=1)

    def __ge__(self, other):
        return self._compare(other, strict=False, sign=1)

    def __eq__(self, other):
        # equal at every point of the box (the difference is exactly 0), at none (0 is outside it), or Undecided;
        # Python's default (identity) would say x - x == 0 is False and send the side down a branch never taken
        other = jet(other)
        if other is None:
            return NotImplemented  # an array: numpy compares element by element
        difference = self - other
        still(difference, "an equality test")
        if (difference.lo == 0 and difference.hi == 0) or (other is self and self.v.is_finite()):  # p != p: False
            return True
        if difference.lo > 0 or difference.hi < 0:
            return False
        choices = _BRANCH.get()
        if choices is not None:  # equal where d ≥ 0 and −d ≥ 0; unequal on a set that is not closed: no condition
            return choices.choose(2, [[difference, -difference], []], continuous=False) == 0
        raise Undecided(f"whether [{difference.lo}, {difference.hi}] is 0 is undecided on this box")

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # a jet is no dict key or set member: hashing would decide equality by identity

    def __bool__(self) -> bool:
        still(self, "a truth value")
        if self.lo > 0 or self.hi < 0:
            return True
        if self.v.is_zero():
            return False
        choices = _BRANCH.get()
        if choices is not None:
            return choices.choose(2, [[], [self, -self]], continuous=False) == 0
        raise Undecided(f"the truth of [{self.lo}, {self.hi}] is undecided on this box")

    def __float__(self) -> float:
        if self.v.is_exact() and all(x.is_zero() for x in self.g) and self.deg in (None, 0) and self.s in (None, 0):
            return float(self.v)
        raise InvalidArgumentType(f"float() of {self.v}, which varies over the box (or has a degree): "
                                  "a side must not evaluate at one point")

    def __repr__(self) -> str:
        return f"Jet(v={self.v}, g={list(self.g)}{'' if self.H is not None else ', no Hessian'})"


numbers.Real.register(Jet)


def _decided(low, high, *, strict: bool, sign: int) -> bool | None:
    """``sign·x > 0`` (``≥ 0`` when not strict) for ``x ∈ [low, high]``, certain on the box, or ``None`` (no
    :class:`Undecided` is made: one made during an evaluation fails it, even where caught)."""
    low, high = (low, high) if sign > 0 else (-high, -low)
    if (low > 0) if strict else (low >= 0):
        return True
    if (high <= 0) if strict else (high < 0):
        return False
    return None


def _unary(a: Jet, f, f1, f2, deg, *, monotone: int = 0, operation: str = "a function") -> Jet:
    """``f(a)`` with ``f1(x, f(x))`` its derivative and ``f2(x, f(x), f'(x))`` its second derivative; ``monotone``:
    ``f`` increases (1) or decreases (−1) on the box's values, so its value's ends are those of the argument's."""
    value, centre = f(a.v), f(a.c)
    slope, slope_c = f1(a.v, value), f1(a.c, centre)
    H = None
    if a.H is not None:
        curvature = f2(a.v, value, slope)
        H = tuple(curvature * a.g[k] * a.g[m] + slope * ah for ah, (k, m) in zip(a.H, current_box().pairs))
    ends = _ends(value)
    if monotone:
        low, high = (f(a.lo), f(a.hi)) if monotone > 0 else (f(a.hi), f(a.lo))
        ends = (max(ends[0], low.lower()), min(ends[1], high.upper()))
    return make_jet(centre, (slope_c * x for x in a.d), ends, tuple(slope * x for x in a.g), H, deg,
                    still(a, operation))


def constant(value, deg=None) -> Jet:
    """The exact constant ``value`` (an arb ball) on the current box, of degree ``deg`` (0 on a graded box)."""
    box = current_box()
    deg = (Fraction(0) if deg is None else Fraction(deg)) if box.graded else None
    return Jet(value, box.zeros, value, box.zeros, box.zero_hessian, deg, s=Fraction(0) if box.shifting else None)


def jet(value) -> Jet | None:
    """``value`` as a jet of the current box (a number becomes an exact constant, a float its ulp ball);
    ``None`` for what is not a real number."""
    if isinstance(value, Jet):
        return value
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    ball = arb_of(value)
    return None if ball is None else constant(ball)


class Choices:
    """The choices of one *branch* evaluation: where a ``max``, ``abs`` or comparison is undecided on the box, take the
    outcome ``prefix`` says (then the first), and record each choice and how many there were; ``conditions``: jets
    ``c`` with ``c ≥ 0`` wherever the outcomes taken are the side's (``a − b`` for ``max`` taking ``a``);
    ``continuous``: no comparison was split (a ``max`` or ``abs`` is continuous across its branches, a comparison's
    outcome may make the side jump, and then no face of the box may be claimed)."""

    def __init__(self, prefix=()) -> None:
        self.prefix, self.made, self.conditions, self.continuous = list(prefix), [], [], True

    def choose(self, n: int, conditions=None, *, continuous: bool = True) -> int:
        pick = self.prefix[len(self.made)] if len(self.made) < len(self.prefix) else 0
        self.made.append((pick, n))
        if conditions is not None:
            self.conditions.extend(conditions[pick])
        self.continuous = self.continuous and continuous
        return pick

    def next_prefix(self) -> list[int] | None:
        """The choices of the next branch in depth-first order, or ``None`` after the last."""
        made = list(self.made)
        while made and made[-1][0] == made[-1][1] - 1:
            made.pop()
        return [pick for pick, _ in made[:-1]] + [made[-1][0] + 1] if made else None


@contextlib.contextmanager
def branching(choices: Choices):
    """Within this block an undecided ``max`` or ``abs`` is one of its arguments, as ``choices`` pick: each branch is
    smooth, and the true function is one branch at every point (``verify`` checks every branch)."""
    token = _BRANCH.set(choices)
    try:
        yield
    finally:
        _BRANCH.reset(token)


@dataclasses.dataclass
class HullCount:
    """How many undecided ``max``/``abs`` took the hull in a block (a branch evaluation is worth trying only after
    one did)."""

    taken: int = 0


@contextlib.contextmanager
def counting_hulls():
    """Count the hulls taken within this block; yields the :class:`HullCount`."""
    count = HullCount()
    token = _HULLS.set(count)
    try:
        yield count
    finally:
        _HULLS.reset(token)


def _took_hull() -> None:
    count = _HULLS.get()
    if count is not None:
        count.taken += 1


def maximum(a, b) -> Jet:
    """The sound ``max``: the certain larger one, else the hull of both (no second derivative on the box), or in a
    branch evaluation (:func:`branching`) the one the branch picks."""
    a, b = jet(a), jet(b)
    deg = _degree(a, b, "a maximum")
    s = _same_shift(a, b, "a maximum")
    difference = a - b
    if difference.lo >= 0:
        return a.fresh()
    if difference.hi <= 0:
        return b.fresh()
    choices = _BRANCH.get()
    if choices is not None:
        return (a, b)[choices.choose(2, [[difference], [-difference]])].fresh()
    _took_hull()
    d = a.d if difference.c.lower() > 0 else b.d if difference.c.upper() < 0 else (x.union(y) for x, y in zip(a.d, b.d))
    return make_jet(a.c.max(b.c), d, (max(a.lo, b.lo), max(a.hi, b.hi)), tuple(x.union(y) for x, y in zip(a.g, b.g)),
                 None, deg, s)


def minimum(a, b) -> Jet:
    return -maximum(-jet(a), -jet(b))


def maximum_of(values) -> Jet:
    """``max`` of several values: those certainly below another's lower end dropped, then one branch per remaining
    value in a branch evaluation, else the pairwise sound ``max``."""
    values = [jet(v) for v in values]
    for v in values[1:]:  # graded: one degree, one shift tag (a value dropped below must not hide another)
        _degree(values[0], v, "a maximum")
        _same_shift(values[0], v, "a maximum")
    floor = max(v.lo for v in values)
    live = [v for v in values if v.hi >= floor]
    choices = _BRANCH.get()
    if len(live) > 1 and choices is not None:
        larger = [[v - w for w in live if w is not v] for v in live]  # v is the max where v − w ≥ 0 for every w
        return live[choices.choose(len(live), larger)].fresh()
    result = live[0].fresh()
    for v in live[1:]:
        result = maximum(result, v)
    return result
