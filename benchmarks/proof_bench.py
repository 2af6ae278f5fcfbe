"""``python -m benchmarks.proof_bench`` (from the repository's root): boxes and seconds per proof, on main's domains (before issue 29:
``T = 1``, ``L ≤ 3``) and on the domains the catalogue declares now (``T`` on an interval through the checked
reduction, larger ``L``), each new proof re-checked by the independent checker. ``--write`` replaces the table in
``docs/proofs.md`` (between its ``proof-bench`` markers).

>>> rows = [Row("s", "T = 1", 3, 0.01, "T ∈ [0.1, 10]", "proved", 5, 0.02, "proved")]
>>> table(rows).splitlines()[2]
'| `s` | T = 1 | 3 | 0.0 | T ∈ [0.1, 10] | proved | 5 | 0.0 | proved |'
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from theorems.catalogue import STATEMENTS
from theorems.engine.prove import prove

DOCS = Path(__file__).resolve().parents[1] / "docs" / "proofs.md"
BEGIN, END = "<!-- proof-bench: begin -->", "<!-- proof-bench: end -->"
MAX_SECONDS = 120


SECOND_ORDER = "second order"
"""A case's ``before`` that is its ``after`` domain proved with the mean-value form alone (``second_order=False``):
the before/after of the second-order Taylor form."""


def cases():
    """``(statement id, before: main's domain, SECOND_ORDER or None, after: the domain now[, prove's options])``."""
    def declared(sid):
        return STATEMENTS[sid].prove

    gaps = lambda n, T: {"gaps": [(0.0, 10.0)] * n, "T": T}  # noqa: E731 - a table's shorthand
    keys = lambda n, T=1.0, reach=2.0: {"q": np.array([1.0]), "keys": [[(-reach, reach)]] * n, "T": T}  # noqa: E731
    lemma = lambda n, T: {"T": T, "a": (0.001, 2.0), "L0": 2, "u": [(-1.0, 1.0)] * n}  # noqa: E731
    fd = lambda T: {"logits": [(-5.0, 5.0), (0.0, 0.0)], "T": T, "eps": 1.0, "v": np.array([1.0, -1.0])}  # noqa: E731
    rows = [(sid, gaps(1, 1.0), declared(sid)) for sid in
            ("corollary3.spectral.corrected", "corollary3.frobenius.corrected", "corollary3.row.corrected")]
    rows += [("corollary3.entry.corrected", gaps(2, 1.0), declared("corollary3.entry.corrected")),
             ("corollary3.finite-difference.corrected", fd(1.0), declared("corollary3.finite-difference.corrected")),
             ("corollary3.motivating.corrected", {**gaps(2, 1.0), "eps": (0.05, 2.0)},
              declared("corollary3.motivating.corrected"))]
    rows += [("corollary3.row.corrected", gaps(2, 1.0), gaps(2, (0.05, 20.0))),
             ("corollary3.entry.corrected", gaps(3, 1.0), gaps(3, (0.1, 10.0))),
             ("corollary3.entry.corrected", None, gaps(4, 1.0))]
    rows += [(sid, keys(2), declared(sid)) for sid in ("corollary1.max-key.upper", "corollary1.max-key.lower",
                                                       "corollary1.own-key.upper.corrected",
                                                       "corollary1.own-key.lower.corrected")]
    rows += [(sid, lemma(2, 1.0), declared(sid)) for sid in ("lemma1.upper", "lemma1.lower")]
    rows += [(sid, None, keys(4)) for sid in ("corollary1.max-key.upper", "corollary1.own-key.upper.corrected")]
    rows += [("lemma1.upper", None, lemma(4, 1.0)), ("lemma1.upper", None, lemma(4, (0.1, 10.0)))]
    rows += [("corollary1.max-key.upper", None, keys(4, (0.1, 10.0), 1.0))]
    rows += [(sid, None, gaps(3, T)) for sid, T in (("corollary3.row.corrected", (0.1, 10.0)),
                                                     ("corollary3.frobenius.corrected", (0.1, 10.0)),
                                                     ("corollary3.frobenius.corrected", 1.0),
                                                     ("corollary3.spectral.corrected", (0.1, 10.0)))]
    rows += [("lemma1.lower", None, lemma(4, (0.1, 10.0))), ("lemma1.lower", None, lemma(4, 1.0))]
    rows += [("corollary1.own-key.upper.corrected", None, keys(4, T, 1.0)) for T in ((0.1, 10.0), 1.0)]
    rows += [("corollary3.finite-difference.corrected", SECOND_ORDER, fd((0.1, 10.0)), {"homogeneity": False}),
             ("corollary3.motivating.corrected", SECOND_ORDER, {**gaps(2, (0.1, 10.0)), "eps": (0.5, 2.0)})]
    return rows


@dataclasses.dataclass(frozen=True)
class Row:
    statement: str
    before: str
    before_boxes: int | None
    before_seconds: float | None
    after: str
    status: str
    boxes: int
    seconds: float
    checker: str


def measure(*, max_seconds: float = MAX_SECONDS, only: str | None = None) -> list[Row]:
    rows = []
    for sid, before, after, *options in cases():
        if only and only not in sid:
            continue
        statement, options = STATEMENTS[sid], (options or [{}])[0]
        old = _before(statement, before, after, options, max_seconds)
        with tempfile.TemporaryDirectory() as folder:
            started = time.perf_counter()
            new = prove(statement, after, max_seconds=max_seconds, certificate=Path(folder) / "proof.json", **options)
            seconds = time.perf_counter() - started
        shown = "the same, mean-value form alone" if before == SECOND_ORDER else old.domain.split(" → ")[0] if old else ""
        rows.append(Row(sid, f"{shown} ({old.status})" if old else "—",
                        old.boxes if old else None, old.seconds if old else None,
                        new.domain.split(" → ")[0] + (f", L = {new.tokens}" if new.tokens else ""), new.status,
                        new.boxes, seconds, new.checker or "—"))
        print(f"{sid}: {rows[-1]}", file=sys.stderr, flush=True)
    return rows


def _before(statement, before, after, options, max_seconds):
    if before is None:
        return None
    if before == SECOND_ORDER:
        return prove(statement, after, max_seconds=max_seconds, second_order=False, **options)
    return prove(statement, before, max_seconds=max_seconds, **options)


def table(rows: list[Row]) -> str:
    lines = ["| statement | before: domain | boxes | s | after: domain | status | boxes | s (prove + check) | checker |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        before = f"{r.before_boxes} | {r.before_seconds:.1f}" if r.before_boxes is not None else "— | —"
        lines.append(f"| `{r.statement}` | {r.before} | {before} | {r.after} | {r.status} | {r.boxes} | "
                     f"{r.seconds:.1f} | {r.checker} |")
    return "\n".join(lines)


def write(text: str, *, path: Path = DOCS) -> None:
    docs = path.read_text(encoding="utf-8")
    block = f"{BEGIN}\n{text}\n{END}"
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    if not pattern.search(docs):
        raise SystemExit(f"{path} has no {BEGIN} … {END} block to replace")
    path.write_text(pattern.sub(lambda _: block, docs), encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.proof_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"replace the table in {DOCS.name}")
    parser.add_argument("--max-seconds", type=float, default=MAX_SECONDS, help="per proof (default %(default)s)")
    parser.add_argument("--only", default=None, help="only statements whose id contains this")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    text = table(measure(max_seconds=args.max_seconds, only=args.only))
    text += f"\n\nOne run each, load average {load:.1f} at the start ({os.cpu_count()} cores), slack 1e-6, " \
            f"{args.max_seconds:g} s per proof."
    print(text)
    if args.write:
        write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
