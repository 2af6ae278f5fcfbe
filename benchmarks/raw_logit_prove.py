"""`prove` on the raw-logit bounds of tests/unit/raw_logit_bounds.py, one at a time: status, boxes, seconds, boxes
left open, the worst box and the load average at the start of each (the machine may be shared).

Each bound is proved as written (plain numpy: `np.exp`, `np.log`, `np.max`) and, with --through-xp, as its twin
written the suite's way (`xp.exp`, `xp.log`; the same formulas, checked equal to the statement's own sides in
float64 at 40 points of the box before any proof), which is how issue 37 measured them.

Examples:
  python benchmarks/raw_logit_prove.py                                  # as written, 120 s / 50,000 boxes each
  python benchmarks/raw_logit_prove.py --through-xp --write            # both, and the table into docs/proofs.md
  python benchmarks/raw_logit_prove.py --only raw.collision --seconds 30
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "unit"), str(ROOT / "benchmarks")]  # this checkout's theorems first

import raw_logit_bounds as bounds  # noqa: E402
from doc_table import machine, replace  # noqa: E402

SLACK = 1e-4
MARKERS = "raw-logit-prove"


def _softmax(i, xp):
    z = xp.exp((i["l"] - np.max(i["l"])) / i["T"])
    return z / np.sum(z)


def _lse(i, xp):
    top = np.max(i["l"])
    return top + i["T"] * xp.log(np.sum(xp.exp((i["l"] - top) / i["T"])))


def _entropy(i, xp):
    p = _softmax(i, xp)
    return -np.sum(p * xp.log(p))


def _log3(xp):
    return xp.log(xp.number(3))


THROUGH_XP = {  # id → (lhs, rhs), the statement's sides with exp and log through the backend
    "raw.jacobian-two": (lambda i, xp: 2 * _softmax(i, xp)[0] * (1 - _softmax(i, xp)[0]) / i["T"],
                         lambda i, xp: 1 / (2 * i["T"])),
    "raw.lse-upper": (_lse, lambda i, xp: np.max(i["l"]) + i["T"] * _log3(xp)),
    "raw.max-probability": (lambda i, xp: np.max(_softmax(i, xp)), lambda i, xp: 1 / 3),
    "raw.min-probability": (lambda i, xp: np.min(_softmax(i, xp)), lambda i, xp: 1 / 3),
    "raw.collision": (lambda i, xp: np.sum(_softmax(i, xp) ** 2), lambda i, xp: 1 / 3),
    "raw.entropy": (_entropy, lambda i, xp: _log3(xp)),
    "raw.jacobian-trace": (lambda i, xp: np.trace(np.diag(_softmax(i, xp)) - np.outer(_softmax(i, xp), _softmax(i, xp)))
                           / i["T"], lambda i, xp: (1 - 1 / 3) / i["T"]),
    "raw.lse-excess": (lambda i, xp: _lse(i, xp) - np.max(i["l"]), lambda i, xp: i["T"] * _log3(xp)),
}


class _Float64:
    """The float64 backend's two names the twins use."""

    exp, log = staticmethod(np.exp), staticmethod(np.log)

    @staticmethod
    def number(x):
        return float(x)


def through_xp(statement):
    """The statement with its sides written through ``xp``; refused unless both agree in float64 on its box."""
    lhs, rhs = THROUGH_XP[statement.id]
    twin = dataclasses.replace(statement, id=statement.id + ".through-xp", lhs=lhs, rhs=rhs)
    rng = np.random.default_rng(0)
    lows, highs = np.array(statement.prove["l"]).T
    for _ in range(40):
        point = {"l": rng.uniform(lows, highs), "T": rng.uniform(*statement.prove["T"])}
        mine, theirs = twin.sides(point, _Float64), statement.sides(point, np)
        if not np.allclose(np.array(mine, float), np.array(theirs, float), rtol=1e-13, atol=1e-13):
            raise AssertionError(f"{twin.id} differs from the statement at {point}: {mine} vs {theirs}")
    return twin


def row(statement, seconds, boxes):
    from theorems import prove

    load = os.getloadavg()[0]
    proof = prove(statement, slack=SLACK, max_boxes=boxes, max_seconds=seconds)
    detail = proof.detail if proof.status == "undecided" else ""
    worst = proof.worst_box if proof.status == "undecided" and "boxes open" in detail else ""
    return [f"`{statement.id}`", proof.status, str(proof.boxes), f"{proof.seconds:.1f}", detail, worst, f"{load:.1f}"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=120.0, help="time limit per proof (default 120)")
    parser.add_argument("--boxes", type=int, default=50_000, help="box budget per proof (default 50,000, the suite's)")
    parser.add_argument("--through-xp", action="store_true", help="also prove each bound's twin written with xp")
    parser.add_argument("--only", nargs="+", metavar="ID", help="these bounds only")
    parser.add_argument("--write", action="store_true", help="replace the table between its markers in docs/proofs.md")
    args = parser.parse_args(argv)
    if not (args.seconds > 0 and args.boxes > 0):
        parser.error(f"--seconds and --boxes must be positive, got {args.seconds} and {args.boxes}")
    chosen = [s for s in bounds.TRUE if not args.only or s.id in args.only]
    if unknown := set(args.only or ()) - {s.id for s in bounds.TRUE}:
        parser.error(f"--only: no true bound {', '.join(sorted(unknown))}")
    statements = chosen + ([through_xp(s) for s in chosen] if args.through_xp else [])
    started = os.getloadavg()[0]
    lines = ["| statement | status | boxes | s | detail | worst box | load at start |", "|---|---|---|---|---|---|---|"]
    for statement in statements:
        lines.append("| " + " | ".join(row(statement, args.seconds, args.boxes)) + " |")
        print(lines[-1], flush=True)
    lines += ["", f"`python benchmarks/raw_logit_prove.py{' --through-xp' if args.through_xp else ''} --seconds "
                  f"{args.seconds:g} --boxes {args.boxes}`: slack {SLACK:g}, one proof at a time on {machine()}, "
                  f"shared with other work: load average {started:.1f} at the start (each row's in its last column)."]
    text = "\n".join(lines)
    print(text)
    if args.write:
        replace(MARKERS, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
