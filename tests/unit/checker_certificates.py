"""Certificates for the checker's tests (a helper of ``test_checker_*.py``): the JSON of a domain written as
``prove`` takes it, and a tiling of a domain into boxes that each close at ``refine=0`` (found by bisecting with the
checker itself, as a small prover would), so that a corruption of one box is the only thing wrong."""

from __future__ import annotations

import json
from fractions import Fraction

import flint
import numpy as np

from theorems.checker import certificate as certificates
from theorems.checker.verify import Checker


def domain_spec(domain) -> dict:
    """A domain in ``prove``'s conventions (a tuple is an interval, a list of pairs an array of intervals, an
    object with a ``name`` a named value, anything else a fixed value) as the certificate's JSON."""
    spec = {}
    for key, value in domain.items():
        if isinstance(value, tuple):
            spec[key] = {"interval": [float(value[0]), float(value[1])]}
        elif isinstance(value, list):
            spec[key] = {"intervals": np.asarray(value, dtype=float).tolist()}
        elif hasattr(value, "name"):
            spec[key] = {"name": value.name}
        else:
            spec[key] = {"value": np.asarray(value, dtype=float).tolist() if isinstance(value, np.ndarray) else value}
    return spec


def bounds(domain) -> tuple[list[float], list[float]]:
    """The domain's box: lows and highs over its free coordinates."""
    lows, highs = [], []
    for value in domain.values():
        if isinstance(value, tuple):
            lows.append(float(value[0]))
            highs.append(float(value[1]))
        elif isinstance(value, list):
            pairs = np.asarray(value, dtype=float).reshape(-1, 2)
            lows.extend(pairs[:, 0].tolist())
            highs.extend(pairs[:, 1].tolist())
    return lows, highs


def certificate(statement_id: str, domain, boxes=None, *, slack=1e-6, reduction=None, relation=None) -> dict:
    lows, highs = bounds(domain if reduction is None else reduction["base_domain"])
    data = {"format": certificates.FORMAT, "version": 1, "statement": statement_id, "slack": slack,
            "domain": domain_spec(domain), "boxes": boxes if boxes is not None else [{"low": lows, "high": highs}]}
    if relation is not None:
        data["relation"] = relation
    if reduction is not None:
        data["reduction"] = {"kind": "homogeneity", "degrees": reduction["degrees"], "scale": reduction["scale"],
                             "base": domain_spec(reduction["base_domain"])}
    return data


def write(path, data) -> str:
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def round_up(value: float) -> float:
    """``value`` raised by a relative 1e-9 (a claimed bound with a little room)."""
    return float(np.nextafter(value + abs(value) * 1e-9, np.inf))


def tiling(statement, data, *, limit: int = 20_000) -> list[dict]:
    """Boxes tiling the certificate's domain (its base, with a reduction), each closing at ``refine=0``, with its
    claimed bound (the checker's own enclosure of ``small/big``, rounded up). Float midpoints, as ``prove`` splits."""
    parsed = certificates.parse(data)
    checker = Checker(parsed, statement, 0, None)
    checker.bound = checker.one_plus_slack
    domain = parsed.proved_on
    stack, leaves = [(list(map(float, domain.lows)), list(map(float, domain.highs)))], []
    while stack:
        if len(leaves) + len(stack) > limit:
            raise AssertionError(f"{statement.id}: more than {limit} boxes")
        low, high = stack.pop()
        exact = (tuple(map(Fraction, low)), tuple(map(Fraction, high)))
        if checker._prove(*exact, None, {}, 0, None) is None:
            values, forms = checker._evaluate_path(*exact, None)
            one = flint.arb(flint.fmpq(checker.one_plus_slack.numerator, checker.one_plus_slack.denominator))
            ratios = [float((g.hi + one).upper()) for g, form in zip(values, forms) if form == "ratio"]
            bound = round_up(max(ratios)) if len(ratios) == len(values) else None
            leaves.append({"low": low, "high": high,
                           "bound": bound if bound is not None and bound <= checker.one_plus_slack else None})
            continue
        k = int(np.argmax(np.subtract(high, low)))
        middle = 0.5 * (low[k] + high[k])
        stack.append((low, high[:k] + [middle] + high[k + 1:]))
        stack.append((low[:k] + [middle] + low[k + 1:], high))
    return leaves
