"""Per head and token: does a single-instance statement of the catalogue hold on a real head?

A :class:`Check` names a statement of ``theorems.STATEMENTS`` and two arrays of a row map (its
left and right sides, computed by the theory modules' vectorised functions on every head and
token). :func:`tally` counts the tokens where the relation fails beyond rounding and keeps the
first violations with their window, layer, head and token, so that a report can print them.

The verdict expected from the catalogue travels with the count: a violation of a statement that
the suite itself refutes (``expected == "refuted"``) is a confirmation, not a surprise.

>>> tally(Check("theorem1.fixed.sum.normalised", "distance", "bound"), values, index)   # doctest: +SKIP
{'statement': 'theorem1.fixed.sum.normalised', 'evaluated': 36864, 'violations': 0, ...}
"""

from __future__ import annotations

import dataclasses

import numpy as np

RELATIVE_TOLERANCE = 1e-7
"""A margin below this fraction of the sides is float64 rounding (the distance module's norms are
computed by an expansion whose cancellation error is about 1e-8 of the largest term)."""
ABSOLUTE_TOLERANCE = 1e-12
EXAMPLES = 10
"""Violations kept, worst first, per statement and run."""
CONFIRMED = 1
"""Of those, how many are re-checked in mpmath (50 digits), worst first (plus the worst near miss)."""


@dataclasses.dataclass(frozen=True)
class Check:
    """``values[lhs] <relation> values[rhs]`` elementwise, claimed by statement ``statement``.

    ``extra`` names the trailing axes of the arrays beyond ``[B, layer, head, R]`` (e.g. ``("T",)``)
    and ``labels`` gives their coordinates, so that a violation reads "T = 0.01".
    """

    statement: str
    lhs: str
    rhs: str
    relation: str = "<="
    extra: tuple[str, ...] = ()
    note: str = ""

    def __post_init__(self) -> None:
        if self.relation not in ("<=", ">="):
            raise ValueError(f"relation={self.relation!r} must be '<=' or '>='")


def expected_verdict(statement_id: str) -> str | None:
    """``"holds"``/``"refuted"`` from the catalogue, ``None`` when the id is not (yet) there."""
    from theorems import STATEMENTS
    return STATEMENTS[statement_id].expected if statement_id in STATEMENTS.keys() else None


def tally(check: Check, values: dict[str, np.ndarray], index: np.ndarray, *, labels: dict | None = None,
          context: dict | None = None, confirm=None) -> dict:
    """Count the violations of ``check`` over every ``[B, layer, head, R, ...]`` entry that is not NaN.

    ``confirm(statement_id, example) -> bool | None``, when given, re-checks each kept example in
    high precision (``None``: no confirmation available); the answer is stored in the example.
    """
    lhs = np.asarray(values[check.lhs], dtype=float)
    rhs = np.broadcast_to(np.asarray(values[check.rhs], dtype=float), lhs.shape)
    present = np.isfinite(lhs) & np.isfinite(rhs)
    margin = (lhs - rhs) if check.relation == "<=" else (rhs - lhs)
    scale = np.maximum(np.abs(lhs), np.abs(rhs))
    with np.errstate(invalid="ignore"):
        violated = present & (margin > RELATIVE_TOLERANCE * scale + ABSOLUTE_TOLERANCE)
        relative = np.where(present, margin / np.where(scale > 0, scale, 1.0), -np.inf)
    near = present & (margin > 0) & ~violated  # within rounding: re-checked in mpmath below, the worst one
    where = np.argwhere(violated)
    order = np.argsort(-relative[violated], kind="stable")[:EXAMPLES] if len(where) else []
    examples = []

    def describe(at) -> dict:
        window, layer, head, row, *rest = (int(v) for v in at)
        example = {"window": window, "layer": layer, "head": head, "token": int(index[row]),
                   "lhs": float(lhs[tuple(at)]), "rhs": float(rhs[tuple(at)]),
                   "relative_margin": float(relative[tuple(at)])}
        for name, position in zip(check.extra, rest):
            coordinates = (labels or {}).get(name)
            example[name] = float(coordinates[position]) if coordinates is not None else position
        return example | (context or {})

    for rank, at in enumerate(where[order] if len(where) else []):
        example = describe(at)
        if confirm is not None and rank < CONFIRMED:
            example["confirmed_mpmath"] = confirm(check.statement, example)
        examples.append(example)
    near_miss = None
    if near.any():
        at = np.argwhere(near)[np.argmax(relative[near])]
        near_miss = describe(at)
        if confirm is not None:
            near_miss["confirmed_mpmath"] = confirm(check.statement, near_miss)
    worst = float(relative[present].max()) if present.any() else None
    return {"statement": check.statement, "expected": expected_verdict(check.statement),
            "relation": f"{check.lhs} {check.relation} {check.rhs}", "evaluated": int(present.sum()),
            "violations": int(violated.sum()), "worst_relative_margin": worst, "examples": examples,
            "near_misses": int(near.sum()), "worst_near_miss": near_miss, "note": check.note}


def merge(tallies: list[dict]) -> dict[str, dict]:
    """One tally per statement from several runs (e.g. one per context length), worst examples first."""
    merged: dict[str, dict] = {}
    for one in tallies:
        into = merged.setdefault(one["statement"], dict(one, evaluated=0, violations=0, examples=[],
                                                        worst_relative_margin=None, near_misses=0,
                                                        worst_near_miss=None))
        into["evaluated"] += one["evaluated"]
        into["violations"] += one["violations"]
        into["near_misses"] += one.get("near_misses", 0)
        candidates = [m for m in (into["worst_near_miss"], one.get("worst_near_miss")) if m]
        into["worst_near_miss"] = max(candidates, key=lambda m: m["relative_margin"]) if candidates else None
        into["examples"] = sorted(into["examples"] + one["examples"], key=lambda e: -e["relative_margin"])[:EXAMPLES]
        worst = [w for w in (into["worst_relative_margin"], one["worst_relative_margin"]) if w is not None]
        into["worst_relative_margin"] = max(worst) if worst else None
    return merged
