"""What a number a user wrote means at an interval's end, and how an interval is printed without claiming more.

A float endpoint written ``0.1`` means the decimal 1/10, which no float holds: ``fl(0.1)`` is above it. An interval
is *widened* outward to the floats around what was written (:func:`outward`), so that the box proved contains the
decimal, as a constant ``0.1`` in a side means 1/10 ± an ulp (``docs/soundness.md``, "Constants mean what they
say"). Printed, each end of an interval is the shortest decimal inside the interval within one ulp of that end
(:func:`interval_text`): the decimal written when the box holds it, never a rounded-looking number it does not
hold (``0.1000004`` is not printed ``0.1``).

>>> low, high = outward(0.1, 10.0)
>>> Fraction(low) <= Fraction(1, 10) < Fraction(0.1), high
(True, 10.0)
>>> interval_text(low, high)
('0.1', '10')
>>> interval_text(0.1, 10.0)          # fl(0.1) is above 1/10: "0.1" would claim more than this box
('0.10000000000000001', '10')
"""

from __future__ import annotations

import math
from decimal import Context, Decimal
from fractions import Fraction

import numpy as np


def written(value) -> Fraction:
    """The rational number ``value`` denotes as written: a float its shortest decimal (``0.1`` is 1/10), an integer,
    a :class:`~fractions.Fraction` or a :class:`~decimal.Decimal` itself."""
    if isinstance(value, (float, np.floating)):
        return Fraction(repr(float(value)))
    return Fraction(value)


def float_below(value: Fraction) -> float:
    """The largest float ``≤ value``."""
    x = float(value)
    return math.nextafter(x, -math.inf) if Fraction(x) > value else x


def float_above(value: Fraction) -> float:
    """The smallest float ``≥ value``."""
    x = float(value)
    return math.nextafter(x, math.inf) if Fraction(x) < value else x


def outward(low, high) -> tuple[float, float]:
    """The float interval holding ``[low, high]`` as written: each end moved outward to the nearest float that
    holds the written number (unchanged where the float already does: ``0.5``, ``10.0``, or ``0.1`` as an upper
    end, since ``fl(0.1) > 1/10``)."""
    return float_below(written(low)), float_above(written(high))


def _shortest(low: Fraction, high: Fraction, *, near_high: bool) -> Fraction:
    """The decimal with the fewest digits in ``[low, high]`` (``low ≤ high``), nearest ``high`` (or ``low``) among
    those."""
    if low <= 0 <= high:
        return Fraction(0)
    if high < 0:
        return -_shortest(-high, -low, near_high=not near_high)
    exponent = len(str(high.numerator)) - len(str(high.denominator)) + 1  # 10^exponent > high
    while True:
        step = Fraction(10) ** exponent
        candidate = math.floor(high / step) * step if near_high else math.ceil(low / step) * step
        if low <= candidate <= high:
            return candidate
        exponent -= 1


def decimal_text(value: Fraction) -> str:
    """An exact decimal (a rational whose denominator divides a power of 10) as short text: ``'0.1'``, ``'20'``,
    ``'1.5e-20'``."""
    places = 0
    while (value * 10 ** places).denominator != 1:
        places += 1
    digits = int(value * 10 ** places)
    number = Decimal(f"{digits}E-{places}").normalize(Context(prec=len(str(abs(digits))) + 1))  # exact, no rounding
    if number == 0:
        return "0"
    if -5 <= number.adjusted() < 16:
        text = f"{number:f}"
        return text.rstrip("0").rstrip(".") if "." in text else text
    return f"{number:e}".replace("e+", "e")


def _next_above(value: Fraction) -> Fraction:
    x = float(value)
    x = math.nextafter(x, math.inf) if Fraction(x) <= value else x
    return Fraction(x) if math.isfinite(x) else value


def _next_below(value: Fraction) -> Fraction:
    x = float(value)
    x = math.nextafter(x, -math.inf) if Fraction(x) >= value else x
    return Fraction(x) if math.isfinite(x) else value


def interval_text(low, high) -> tuple[str, str]:
    """The ends of ``[low, high]`` (floats or rationals) as the shortest decimals inside it, each within one ulp of
    its end: what the interval proves about the numbers a reader sees (the decimal written, after
    :func:`outward`)."""
    low, high = Fraction(low), Fraction(high)
    if low == high:
        return (_point_text(low),) * 2
    return (_end_text(low, _next_above(low), low, min(high, _next_above(low))),
            _end_text(high, _next_below(high), max(low, _next_below(high)), high))


def _end_text(end: Fraction, inner: Fraction, low: Fraction, high: Fraction) -> str:
    """The shortest decimal in the window ``[low, high]`` at an end; of several that short, the end's own shortest
    form (the number written, where the end needed no widening), else its inner neighbour's (where it did), else
    the one nearest the end."""
    best = _shortest(low, high, near_high=inner < end)
    digits = len(decimal_text(best).lstrip("-").replace(".", "").lstrip("0").split("e")[0])
    for point in (end, inner):
        own = Fraction(repr(float(point)))
        text = decimal_text(own)
        if low <= own <= high and len(text.lstrip("-").replace(".", "").lstrip("0").split("e")[0]) <= digits:
            return text
    return decimal_text(best)


def _point_text(value: Fraction) -> str:
    """A point: its exact decimal (every float is one; ``fl(0.3)`` a long one), else (a rational such as 1/3 read
    from a certificate) the shortest text of its float, marked as rounded."""
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    return decimal_text(value) if denominator == 1 else f"≈{float(value)!r}"


def number_text(value: float) -> str:
    """A fixed float as what it means (its shortest decimal, which the ball of one ulp around it holds): ``:g``
    when that reads back as the same float (``1``, ``0.05``), else the full shortest form (``0.1000004``)."""
    value = float(value)
    short = f"{value:g}"
    return short if float(short) == value else repr(value)


def domain_text(*, order, shapes: dict, fixed, lows, highs) -> str:
    """A domain as text, as the prover and the checker print it: each key in ``order`` either free, of shape
    ``shapes[key]`` (``()`` for a number), its intervals the next entries of ``lows``/``highs`` (floats or exact
    rationals), or fixed, ``fixed[key]`` (:func:`fixed_text`).

    >>> domain_text(order=("gaps", "T", "eps"), shapes={"gaps": (2,), "T": ()}, fixed={"eps": 0.1},
    ...             lows=[0.0, 0.0, 0.5], highs=[10.0, 10.0, 2.0])
    'gaps ∈ [0, 10]^2, T ∈ [0.5, 2], eps = 0.1'
    """
    parts, at = [], 0
    for key in order:
        if key not in shapes:
            parts.append(f"{key} = {fixed_text(fixed[key])}")
            continue
        shape = tuple(shapes[key])
        n = int(np.prod(shape)) if shape else 1
        lo, hi = list(lows[at:at + n]), list(highs[at:at + n])
        at += n
        if shape and len(set(lo)) == 1 and len(set(hi)) == 1:
            parts.append(f"{key} ∈ {_interval(lo[0], hi[0])}^{'×'.join(map(str, shape))}")
        elif shape:
            parts.append(f"{key} ∈ " + " × ".join(_interval(a, b) for a, b in zip(lo, hi)))
        else:
            parts.append(f"{key} ∈ {_interval(lo[0], hi[0])}")
    return ", ".join(parts)


def _interval(low, high) -> str:
    """The interval as the shortest decimals inside it (the theorem proved holds on what is printed: an end
    ``fl(0.1)`` reads ``0.10000000000000001``, never ``0.1``, which it does not hold)."""
    return "[{}, {}]".format(*interval_text(low, high))


def fixed_text(value) -> str:
    """A fixed value as what it means: a float its shortest decimal (the ball of one ulp the backends make of it
    holds that decimal), never rounded to fewer digits; an array in full; an object by its ``name``."""
    if isinstance(value, np.ndarray):
        return np.array2string(value, separator=", ", floatmode="unique")
    if isinstance(value, (float, np.floating)):
        return number_text(value)
    return getattr(value, "name", None) or repr(value)
