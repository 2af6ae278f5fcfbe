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

from theorems.errors import InvalidArgument

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
            raise InvalidArgument(f"relation={self.relation!r} must be '<=' or '>='")


def expected_verdict(statement_id: str) -> str | None:
    """``"holds"``/``"refuted"`` from the catalogue, ``None`` when the id is not (yet) there."""
    # here, not at the top: `import empirical.checks` stays free of the catalogue, the search engine
    from theorems import STATEMENTS
    return STATEMENTS[statement_id].expected if statement_id in STATEMENTS.keys() else None


EDGE_REASON = ("the query row sees at most N keys (a causal row t sees t + 1): I_N holds every visible key, "
               "so nothing lies outside the top N; this is the spec's degenerate N = L_row (N > L_row is outside "
               "1 <= N <= L and never evaluated). Counted apart, never in the violation rate")


def edge_rows(statement_id: str, counts: np.ndarray | None, context: dict | None) -> np.ndarray | None:
    """``[R]`` True where the row is outside the statement's main case, or ``None`` when every row is inside.

    Theorem 1's fixed-``I_N`` statements compare the keys outside ``I_N`` with those inside; at a row
    that sees ``≤ N`` keys there are none outside (``N = L`` for that row): the ``sum`` reading is then
    ``0 ≤ 0`` and the ``norm`` reading compares ``‖s‖`` with 0. Such rows exist only in causal models
    (rows ``t < N``), are counted apart, and their verdicts are reported separately.

    >>> edge_rows("theorem1.fixed.sum.normalised", np.array([1, 5, 6]), {"n": 5}).tolist()
    [True, True, False]
    """
    if counts is None or not statement_id.startswith("theorem1.fixed.") or "n" not in (context or {}):
        return None
    return np.asarray(counts) <= context["n"]


def tally(check: Check, values: dict[str, np.ndarray], index: np.ndarray, *, labels: dict | None = None,
          context: dict | None = None, confirm=None, counts: np.ndarray | None = None) -> dict:
    """Count the violations of ``check`` over every ``[B, layer, head, R, ...]`` entry that is not NaN.

    ``confirm(statement_id, example) -> bool | None``, when given, re-checks each kept example in
    high precision (``None``: no confirmation available); the answer is stored in the example.
    ``counts`` (``[R]``, visible keys per row) lets :func:`edge_rows` set apart the rows outside the
    statement's main case: they are tallied under ``outside_hypotheses``, not in ``evaluated``.
    """
    lhs = np.asarray(values[check.lhs], dtype=float)
    rhs = np.broadcast_to(np.asarray(values[check.rhs], dtype=float), lhs.shape)
    present = np.isfinite(lhs) & np.isfinite(rhs)
    outside = {}
    edge = edge_rows(check.statement, counts, context)
    if edge is not None and edge.any():
        shape = [1] * lhs.ndim
        shape[3] = len(edge)
        apart = present & edge.reshape(shape)  # [B, layer, head, R, ...]
        margin_apart = (lhs - rhs) if check.relation == "<=" else (rhs - lhs)
        with np.errstate(invalid="ignore"):
            bad = apart & (margin_apart > RELATIVE_TOLERANCE * np.maximum(np.abs(lhs), np.abs(rhs)) + ABSOLUTE_TOLERANCE)
        outside = {"rows_at_most_n_keys": {"entries": int(apart.sum()), "rows": int(edge.sum()),
                                           "violations": int(bad.sum()), "reason": EDGE_REASON}}
        present = present & ~apart
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
            "near_misses": int(near.sum()), "worst_near_miss": near_miss, "note": check.note,
            "outside_hypotheses": outside}


def merge(tallies: list[dict]) -> dict[str, dict]:
    """One tally per statement from several runs (e.g. one per context length), worst examples first."""
    merged: dict[str, dict] = {}
    for one in tallies:
        into = merged.setdefault(one["statement"], dict(one, evaluated=0, violations=0, examples=[],
                                                        worst_relative_margin=None, near_misses=0,
                                                        worst_near_miss=None, outside_hypotheses={}))
        for reason, part in one.get("outside_hypotheses", {}).items():
            total = into["outside_hypotheses"].setdefault(reason, {k: 0 for k in part if k != "reason"}
                                                          | {"reason": part.get("reason", "")})
            for key, value in part.items():
                if key != "reason":
                    total[key] = total.get(key, 0) + value
        into["evaluated"] += one["evaluated"]
        into["violations"] += one["violations"]
        into["near_misses"] += one.get("near_misses", 0)
        candidates = [m for m in (into["worst_near_miss"], one.get("worst_near_miss")) if m]
        into["worst_near_miss"] = max(candidates, key=lambda m: m["relative_margin"]) if candidates else None
        into["examples"] = sorted(into["examples"] + one["examples"], key=lambda e: -e["relative_margin"])[:EXAMPLES]
        worst = [w for w in (into["worst_relative_margin"], one["worst_relative_margin"]) if w is not None]
        into["worst_relative_margin"] = max(worst) if worst else None
    return merged


def outside_assumption2(delta: np.ndarray) -> dict:
    """Heads whose least pairwise embedding distance ``δ [B, layer, head]`` is 0: outside Theorem 2's Assumption 2.

    Repeated tokens give repeated value vectors before any position signal (layer 0 of a rotary
    model), so ``δ = 0`` there; Theorem 2 assumes ``δ > 0`` and its bounds are not computed for them.

    >>> outside_assumption2(np.array([[[0.0, 0.3]]]))["heads"]
    [{'window': 0, 'layer': 0, 'head': 0}]
    """
    where = np.argwhere(~(np.asarray(delta) > 0))
    return {"count": int(len(where)), "of": int(np.asarray(delta).size),
            "reason": "least pairwise distance δ = 0 between the head's unit embeddings (repeated vectors): "
                      "Theorem 2's Assumption 2 (δ > 0) fails; no bound computed, rows left out of the shares",
            "heads": [{"window": int(w), "layer": int(l), "head": int(h)} for w, l, h in where[:50]]}
