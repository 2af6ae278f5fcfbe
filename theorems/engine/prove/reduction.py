"""Invariances of a statement's sides — homogeneity in ``(l, T)``, shift invariance in a vector of logits — proved for
the statement's own sides before ``prove`` uses them to shrink the box.

- **Homogeneity.** Sides that scale as ``λ^k`` when the logits (or what builds them) and ``T`` are scaled by ``λ > 0``
  hold on a domain with ``T ∈ [t₀, t₁]`` exactly when they hold at ``T = 1`` on the domain's image ``key ↦ key/T``.
- **Shift.** Sides that do not move when a vector key ``l`` moves by ``c·1`` (the softmax of ``l``, ``l_i − max l``)
  hold on a domain exactly when they hold at ``l − (max l)·1``: the largest entry 0, every other in ``[a_j − b_i, 0]``.
  Where entry ``i`` is the largest that is the *piece* ``l_i = 0`` (one per entry that can be the largest: ``L``
  boxes of one coordinate fewer, each with its tight set of equal logits at a corner). Where only ``lhs − rhs`` does
  not move (``T·LSE(l/T) ≤ max l + T log L``: both sides move by ``c``), the claim proved at the shifted instance is
  ``lhs − rhs ≤ slack·|rhs(l − max l)|``: the slack is measured there (``sides = "difference"``).

The homogeneity is applied first (to ``T = 1``), then the shift at ``T = 1``: ``(l, T) ↦ (l/T − max(l/T), 1)``.
``prove`` uses a reduction only when it is proved for the statement's sides: the independent checker evaluates both
sides *graded* (each operation homogeneous, both sides of one degree) and *tagged* (each quantity's motion under
``l → l + c·1`` an exact ``a·c``, every decision on a quantity that does not move, so that the path taken at ``l`` is
the path taken at ``l + c·1``: :mod:`theorems.checker.jet`) on every box of the base proof, and checks exactly that
the domain maps into the base. A statement that is not invariant (a side reading ``l[0]`` alone, ``max l`` on one
side only, ``min{1/(4T), √2}``) fails that and is proved, if at all, on its own box. Nothing is assumed from a
docstring. Permutation symmetry is not used: the ``L`` pieces cover every ordering, at ``L`` times the work of one.

This module proposes the reductions (:func:`proposals`), screens each by one evaluation of the checker on every
whole piece (a cheap filter, not the proof: :func:`plausible`), and builds the base domains and their JSON.

>>> base_domain({"gaps": [(0.0, 10.0)], "T": (0.1, 10.0)}, {"gaps": 1, "T": 1})
{'gaps': [(0.0, 100.0)], 'T': 1.0}
>>> [(top, piece["l"]) for top, piece in Reduction(shift="l").pieces({"l": [(-1.0, 1.0)] * 2, "T": 1.0})]
[(0, [(0.0, 0.0), (-2.0, 0.0)]), (1, [(-2.0, 0.0), (0.0, 0.0)])]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np

from theorems.arithmetic.decimals import float_above, float_below
from theorems.checker import screen
from theorems.engine.prove.certificate import certificate_json, domain_spec
from theorems.engine.prove.domain import interval_bounds, is_interval

SCALE = "T"
BASE_T = 1.0


@dataclasses.dataclass(frozen=True)
class Reduction:
    """A homogeneity reduction (``degrees``, ``None``: none), then a shift of the vector key ``shift`` (``None``:
    none) claiming ``sides`` do not move (``"each"`` or ``"difference"``)."""

    degrees: Mapping[str, int] | None = None
    shift: str | None = None
    sides: str = "each"

    def base(self, domain: Mapping[str, Any]) -> dict[str, Any]:
        """The domain after the homogeneity reduction (the domain itself without one)."""
        return base_domain(domain, self.degrees) if self.degrees else dict(domain)

    def pieces(self, domain: Mapping[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
        """The domains the base proof tiles, each with the entry that is largest and 0 there (``None``: no shift)."""
        base = self.base(domain)
        return shift_pieces(base, self.shift) if self.shift else [(None, base)]

    def fields(self, domain: Mapping[str, Any]) -> dict[str, Any]:
        """The certificate's ``reduction`` and ``shift`` fields."""
        shift = None
        if self.shift:
            shift = {"key": self.shift, "sides": self.sides,
                     "pieces": [{"top": top, "domain": domain_spec(piece)} for top, piece in self.pieces(domain)]}
        return {"reduction": reduction_json(domain, self.degrees) if self.degrees else None, "shift": shift}

    def describe(self) -> str:
        """What the reduction does, for a proof's method."""
        parts = []
        if self.degrees:
            scaled = ", ".join(f"{key}^{d}" for key, d in self.degrees.items())
            parts.append(f"homogeneity in ({scaled}) to T = 1")
        if self.shift:
            what = "each side" if self.sides == "each" else "lhs − rhs (slack measured at the shifted instance)"
            parts.append(f"shift invariance of {what} in {self.shift} to max {self.shift} = 0")
        return ", then ".join(parts)


def applies(domain: Mapping[str, Any]) -> bool:
    """Whether the domain has ``T`` on an interval of positive reals (what a reduction to ``T = 1`` would cover)."""
    value = domain.get(SCALE)
    return is_interval(value) and float(value[0]) > 0 and float(value[1]) > float(value[0])


def vector_keys(domain: Mapping[str, Any]) -> list[str]:
    """The keys a shift may act on: vectors of at least two intervals (logits written as they are)."""
    keys = []
    for key, value in domain.items():
        bounds = interval_bounds(key, value) if isinstance(value, (list, np.ndarray)) else None
        if bounds is not None and bounds.ndim == 2 and len(bounds) >= 2:
            keys.append(key)
    return keys


def reductions(domain: Mapping[str, Any], *, homogeneity: bool = True, shift: bool = True) -> list[Reduction]:
    """The reductions to try, the strongest first: a shift of each vector key after each homogeneity proposal (each
    side invariant, then only their difference), the shift alone, then homogeneity alone."""
    scalings = proposals(domain) if homogeneity and applies(domain) else []
    shifted = []
    for key in vector_keys(domain) if shift else []:
        for sides in ("each", "difference"):
            shifted += [Reduction(degrees, key, sides) for degrees in scalings] + [Reduction(None, key, sides)]
    return shifted + [Reduction(degrees) for degrees in scalings]


def proposals(domain: Mapping[str, Any]) -> list[dict[str, int]]:
    """Degrees to try: every numeric key (an interval, intervals or a number) of degree 1, then ``T`` with each
    one key alone."""
    numeric = [key for key, value in domain.items() if key != SCALE and _numeric(value)]
    options = [{**{key: 1 for key in numeric}, SCALE: 1}] if numeric else []
    scalars = [key for key in numeric if not isinstance(domain[key], np.ndarray)]  # a fixed direction: degree 0
    if scalars and scalars != numeric:
        options.append({**{key: 1 for key in scalars}, SCALE: 1})
    if len(numeric) > 1:
        options += [{key: 1, SCALE: 1} for key in numeric]
    return options


def _numeric(value) -> bool:
    if is_interval(value) or (isinstance(value, list) and interval_bounds("x", value) is not None):
        return True
    if isinstance(value, bool):
        return False
    return isinstance(value, (int, float, np.floating, np.integer)) or (
        isinstance(value, np.ndarray) and value.dtype.kind in "fi")


def base_domain(domain: Mapping[str, Any], degrees: Mapping[str, int]) -> dict[str, Any]:
    """The domain's image at ``T = 1``: each key of degree ``d`` over the hull of ``key·(1/t)^d``, ``t ∈ [t₀, t₁]``,
    every endpoint rounded outward (the checker compares exactly)."""
    t0, t1 = (Fraction(float(t)) for t in domain[SCALE])
    factors = [Fraction(1) / t0, Fraction(1) / t1]
    base = {}
    for key, value in domain.items():
        degree = degrees.get(key, 0)
        if key == SCALE:
            base[key] = BASE_T
        elif not degree:
            base[key] = value
        elif is_interval(value):
            base[key] = _scaled(value, factors, degree)
        elif isinstance(value, list):
            base[key] = [_scaled(pair, factors, degree) for pair in value] if not isinstance(value[0][0], (list, tuple)) \
                else [[_scaled(pair, factors, degree) for pair in row] for row in value]
        else:  # a fixed number or array of degree 1: an interval (each entry) at T = 1
            array = np.asarray(value, dtype=float)
            pairs = [_scaled((x, x), factors, degree) for x in array.ravel()]
            base[key] = pairs[0] if array.ndim == 0 else np.array(pairs, dtype=float).reshape(*array.shape, 2).tolist()
    return base


def _scaled(pair, factors, degree: int) -> tuple[float, float]:
    images = [Fraction(float(x)) * f ** degree for x in pair for f in factors]
    return float_below(min(images)), float_above(max(images))


def shift_pieces(domain: Mapping[str, Any], key: str) -> list[tuple[int, dict[str, Any]]]:
    """The shifted images of ``domain``, one per entry ``i`` of ``key`` that can be the largest: ``l_i = 0`` and
    ``l_j ∈ [a_j − b_i, min(0, b_j − a_i)]`` (rounded outward), every other key unchanged."""
    ranges = [(Fraction(float(lo)), Fraction(float(hi))) for lo, hi in np.asarray(domain[key], dtype=float)]
    floor = max(lo for lo, _ in ranges)
    pieces = []
    for i, (a_i, b_i) in enumerate(ranges):
        if b_i < floor:
            continue  # entry i is never the largest
        entries = [(0.0, 0.0) if j == i else (float_below(a_j - b_i), float_above(min(Fraction(0), b_j - a_i)))
                   for j, (a_j, b_j) in enumerate(ranges)]
        pieces.append((i, {**domain, key: entries}))
    return pieces


def plausible(statement, domain: Mapping[str, Any], degrees, slack: float, *, shift: str | None = None,
              sides: str = "each") -> bool:
    """Whether one evaluation of both sides on each whole piece of the reduction (graded, and tagged with a shift)
    leaves it possible (the checker's public screen, :func:`theorems.checker.screen`: the proof is its evaluation on
    every box of the base proof). ``degrees``: the homogeneity's (``None``: none)."""
    reduction = degrees if isinstance(degrees, Reduction) else Reduction(degrees, shift, sides)
    data = certificate_json(statement=statement, domain=domain, slack=slack, leaves=[], **reduction.fields(domain))
    data["boxes"] = [{"low": _flat(piece, 0), "high": _flat(piece, 1), "piece": p}
                     for p, (_, piece) in enumerate(reduction.pieces(domain))]
    return screen(data, statement)


def _flat(domain: Mapping[str, Any], side: int) -> list[float]:
    values = []
    for value in domain.values():
        if is_interval(value):
            values.append(float(value[side]))
        elif isinstance(value, list):
            values.extend(np.asarray(value, dtype=float).reshape(-1, 2)[:, side].tolist())
    return values


def reduction_json(domain: Mapping[str, Any], degrees: Mapping[str, int]) -> dict[str, Any]:
    """The certificate's ``reduction``: the degrees, the scale ``T`` and the base domain."""
    return {"kind": "homogeneity", "degrees": dict(degrees), "scale": SCALE,
            "base": domain_spec(base_domain(domain, degrees))}


__all__ = ["Reduction", "applies", "base_domain", "plausible", "proposals", "reduction_json", "reductions",
           "shift_pieces", "vector_keys"]
