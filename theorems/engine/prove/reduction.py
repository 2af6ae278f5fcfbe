"""Homogeneity in ``(l, T)``, proved for a statement's own sides before ``prove`` uses it.

A statement whose sides scale as ``λ^k`` when the logits (or what builds them) and ``T`` are scaled by ``λ > 0``
holds on a domain with ``T ∈ [t₀, t₁]`` exactly when it holds at ``T = 1`` on the domain's image
``key ↦ key/T``. ``prove`` uses that only when it is proved for the statement's sides: the independent checker
evaluates both sides *graded* on every box of the base proof (each operation shown homogeneous, both sides of one
degree: :mod:`theorems.checker.jet`) and checks that the domain scales into the base; a statement that is
not homogeneous (the paper's capped ``min{1/(4T), √2}``: ``min`` of degrees −1 and 0) fails that and is proved, if
at all, with ``T`` as a coordinate of the box. Nothing is assumed from a docstring.

This module proposes the degrees (every numeric key of degree 1, or ``T`` and one key), screens each proposal by
one graded evaluation on the whole base box (a cheap filter, not the proof), and builds the base domain.

>>> base_domain({"gaps": [(0.0, 10.0)], "T": (0.1, 10.0)}, {"gaps": 1, "T": 1})
{'gaps': [(0.0, 100.0)], 'T': 1.0}
"""

from __future__ import annotations

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


def applies(domain: Mapping[str, Any]) -> bool:
    """Whether the domain has ``T`` on an interval of positive reals (what a reduction to ``T = 1`` would cover)."""
    value = domain.get(SCALE)
    return is_interval(value) and float(value[0]) > 0 and float(value[1]) > float(value[0])


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


def plausible(statement, domain: Mapping[str, Any], degrees: Mapping[str, int], slack: float) -> bool:
    """Whether one graded evaluation of both sides on the whole base box leaves the reduction possible (the
    checker's public screen, :func:`theorems.checker.screen`: the proof is its graded evaluation on every box of
    the base proof)."""
    base = base_domain(domain, degrees)
    data = certificate_json(statement=statement, domain=domain, slack=slack, leaves=[],
                            reduction=reduction_json(domain, degrees))
    data["boxes"] = [{"low": _flat(base, 0), "high": _flat(base, 1)}]
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
