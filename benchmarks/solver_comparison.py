"""Side by side: the raw-logit bounds of tests/unit/raw_logit_bounds.py given to general solvers and to `prove`.

Each bound (and its 2 % mutant) is translated into nonlinear real arithmetic with exp and asked as "is there a point
of the box where the claim fails?": unsat is a proof, sat a counterexample. What each solver is asked:

  cvc5  SMT-LIB 2.6, (set-logic ALL), exp the transcendental `exp`; `log a` a fresh variable y with (= (exp y) a)
        (every logarithm's argument here is positive on the box: an exact encoding). A sat model is re-checked by the
        suite's `certify` in ball arithmetic at the model's point.
  z3    the same text with exp an uninterpreted function `e` and true facts about exp as axioms (e(a) > 0,
        e(a) ≥ 1 + a, and a ≤ b ⇒ e(a) ≤ e(b) for every pair of arguments that occur): unsat is a proof (exp
        satisfies every axiom); sat is no counterexample (the model's `e` need not be exp), reported "sat*".
  prove the suite's prover on the statement as written, slack 1e-4, at most 50,000 boxes and --timeout seconds.

The stable softmax's max shift is removed in the translation where it is an identity (exp((l_i − m)/T) / Σ_j
exp((l_j − m)/T) = exp(l_i/T) / Σ_j exp(l_j/T), and m + T·log Σ exp((l − m)/T) = T·log Σ exp(l/T), for any m);
every other max stays (an if-then-else). The box is the statement's `prove=` domain with its decimals as written
(0.1 is 1/10), T > 0 on it. dReal (`pip install dreal`) installs here but does not load (its wheel needs the shared
library libibex.so, which neither Debian nor PyPI provides), so it has no column.

Examples:
  python benchmarks/solver_comparison.py                       # print the table (60 s per question)
  python benchmarks/solver_comparison.py --write --timeout 60  # and replace it in docs/proofs.md
  python benchmarks/solver_comparison.py --only raw.collision --solvers cvc5 --show-smtlib
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import os
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import sympy as sp

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "unit"), str(Path(__file__).resolve().parent)]

import raw_logit_bounds as bounds  # noqa: E402  (the bounds live beside the tests that check them)
from doc_table import machine, replace  # noqa: E402
from smt_solvers import ask, missing, version  # noqa: E402

MARKERS = "solver-comparison"
"""``--write`` replaces the table between ``<!-- solver-comparison: begin -->`` and ``… end -->`` (docs/proofs.md)."""
SLACK = 1e-4
MAX_BOXES = 50_000
"""The suite's box budget for one proof (``SUITE_BOXES``)."""
SOLVERS = ("cvc5", "z3", "prove")


# ---- the bounds as formulas --------------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Encoding:
    """One bound as formulas: ``lhs relation rhs`` over ``l0 … l{n−1}, T`` and ``E0 … E{n−1}``, where ``E_i``
    stands for ``exp(l_i/T)`` (``exps``: each ``E_i``'s argument), on ``box`` (exact rational ends)."""

    statement: object
    lhs: sp.Expr
    rhs: sp.Expr
    box: dict
    exps: dict

    @property
    def relation(self) -> str:
        return self.statement.relation


def _softmax(E):
    """exp(l_i/T)/Σ exp(l_j/T): the stable softmax with its max shift cancelled (an identity)."""
    return [e / sp.Add(*E) for e in E]


def _lse(E, T):
    """T·log Σ exp(l/T): the stable ``max l + T·log Σ exp((l − max l)/T)``, its max cancelled (an identity)."""
    return T * sp.log(sp.Add(*E))


LOG3, THIRD = sp.log(3), sp.Rational(1, 3)
FORMULAS = {  # id → (lhs, rhs) with a factor f on the tightened part of the right side (f = 1: the bound itself)
    "raw.jacobian-two": lambda l, E, T, f: (2 * _softmax(E)[0] * (1 - _softmax(E)[0]) / T, f / (2 * T)),
    "raw.lse-upper": lambda l, E, T, f: (_lse(E, T), sp.Max(*l) + f * T * LOG3),
    "raw.max-probability": lambda l, E, T, f: (sp.Max(*_softmax(E)), f * THIRD),
    "raw.min-probability": lambda l, E, T, f: (sp.Min(*_softmax(E)), f * THIRD),
    "raw.collision": lambda l, E, T, f: (sp.Add(*[p ** 2 for p in _softmax(E)]), f * THIRD),
    "raw.entropy": lambda l, E, T, f: (-sp.Add(*[p * sp.log(p) for p in _softmax(E)]), f * LOG3),
    "raw.jacobian-trace": lambda l, E, T, f: (sp.Add(*[p - p ** 2 for p in _softmax(E)]) / T, f * (1 - THIRD) / T),
    "raw.lse-excess": lambda l, E, T, f: (_lse(E, T) - sp.Max(*l), f * T * LOG3),
}
"""``E_i`` is a symbol, not ``sp.exp``, so that SymPy keeps ``exp(x)²`` a square (it would write ``exp(2x)``, a term
unrelated to ``exp(x)`` for a solver whose exp is uninterpreted); it is printed ``(exp (/ l_i T))``."""
MUTANT_FACTORS = {"raw.max-probability": sp.Rational(51, 50), "raw.collision": sp.Rational(51, 50)}
"""The mutants' factor where it is not 49/50 (a ``≥`` bound is tightened upwards)."""


def _exact(x) -> Fraction:
    """A domain end as the decimal written (``0.1`` is 1/10, as ``prove`` reads it)."""
    return Fraction(repr(float(x)))


def encode(statement) -> Encoding:
    """The statement (a bound of ``raw_logit_bounds`` or its ``.tight`` mutant) as formulas on its box.

    >>> e = encode(bounds.JACOBIAN_TWO)
    >>> e.rhs, e.box["T"], e.exps
    (1/(2*T), (Fraction(1, 10), Fraction(10, 1)), {E0: l0/T, E1: l1/T})
    """
    base = statement.id.removesuffix(".tight")
    if base not in FORMULAS:
        raise KeyError(f"no translation for {statement.id!r}; known: {', '.join(FORMULAS)}")
    factor = MUTANT_FACTORS.get(base, sp.Rational(49, 50)) if statement.id.endswith(".tight") else sp.Integer(1)
    n = len(statement.prove["l"])
    l, E, T = sp.symbols(f"l0:{n}", real=True), sp.symbols(f"E0:{n}", positive=True), sp.Symbol("T", positive=True)
    lhs, rhs = FORMULAS[base](list(l), list(E), T, factor)
    box = {str(x): tuple(map(_exact, end)) for x, end in zip(l, statement.prove["l"])}
    box["T"] = tuple(map(_exact, statement.prove["T"]))
    return Encoding(statement, lhs, rhs, box, {e: x / T for e, x in zip(E, l)})


def evaluate(encoding: Encoding, point: dict) -> tuple[float, float]:
    """The encoding's two sides in floating point at ``point`` ({"l": array, "T": float}), to compare with the
    statement's own sides."""
    values = {sp.Symbol(f"l{k}", real=True): x for k, x in enumerate(point["l"])}
    values[sp.Symbol("T", positive=True)] = point["T"]
    values |= {e: sp.exp(argument.subs(values)) for e, argument in encoding.exps.items()}
    return tuple(float(side.evalf(30, subs=values)) for side in (encoding.lhs, encoding.rhs))


# ---- SMT-LIB -----------------------------------------------------------------------------------------------------

def _number(q) -> str:
    q = Fraction(int(q.p), int(q.q)) if isinstance(q, sp.Rational) else Fraction(q)
    text = str(abs(q.numerator)) if q.denominator == 1 else f"(/ {abs(q.numerator)} {q.denominator})"
    return f"(- {text})" if q < 0 else text


def _product(terms):
    return "1" if not terms else terms[0] if len(terms) == 1 else f"(* {' '.join(terms)})"


def _ite_extremum(args, op):
    if len(args) == 1:
        return args[0]
    first, rest = args[0], _ite_extremum(args[1:], op)
    return f"(ite ({op} {first} {rest}) {first} {rest})"


def smt(expr, names=None) -> str:
    """``expr`` as an SMT-LIB term (+, ·, integer powers, quotients, max/min as if-then-else); ``names`` maps a
    symbol to the term it stands for (default: its name).

    >>> smt(sp.Max(*sp.symbols("a b")) / 2)
    '(* (/ 1 2) (ite (>= a b) a b))'
    """
    names = names or {}
    term = lambda e: smt(e, names)  # noqa: E731
    if isinstance(expr, sp.Symbol):
        return names.get(expr, expr.name)
    if isinstance(expr, sp.Rational):
        return _number(expr)
    if isinstance(expr, sp.Add):
        return f"(+ {' '.join(map(term, expr.args))})"
    if isinstance(expr, sp.Mul):
        inverse = lambda a: isinstance(a, sp.Pow) and a.exp.is_Integer and a.exp < 0  # noqa: E731
        above = [term(a) for a in expr.args if not inverse(a)]
        below = [term(a.base ** -a.exp) for a in expr.args if inverse(a)]
        return f"(/ {_product(above)} {_product(below)})" if below else _product(above)
    if isinstance(expr, sp.Pow) and expr.exp.is_Integer:
        n = int(expr.exp)
        power = _product([term(expr.base)] * abs(n))
        return power if n > 0 else f"(/ 1 {power})"
    if isinstance(expr, sp.Max):
        return _ite_extremum(list(map(term, expr.args)), ">=")
    if isinstance(expr, sp.Min):
        return _ite_extremum(list(map(term, expr.args)), "<=")
    raise TypeError(f"no SMT-LIB form for {type(expr).__name__}: {expr}")


def _without_logs(expressions):
    """Each ``log a`` replaced by a fresh symbol ``y`` with ``exp(y) = a`` (innermost first): the expressions and the
    definitions ``[(y, a)]``. Exact where every ``a`` is positive, as here (sums of exponentials, probabilities, 3)."""
    definitions = []
    while logs := sorted(set().union(*(e.atoms(sp.log) for e in expressions)), key=sp.default_sort_key):
        inner = next(g for g in logs if not g.args[0].atoms(sp.log))
        y = sp.Symbol(f"y{len(definitions)}", real=True)
        definitions.append((y, inner.args[0]))
        expressions = [e.xreplace({inner: y}) for e in expressions]
    return expressions, definitions


def smtlib(encoding: Encoding, *, uninterpreted_exp: bool = False) -> str:
    """The question "is there a point of the box where the claim fails?" in SMT-LIB 2.6 (unsat: the claim is proved).

    ``uninterpreted_exp``: exp is a declared function ``e`` with true facts about exp as axioms (z3, which has no
    exp); unsat is still a proof, sat is not a counterexample.
    """
    (lhs, rhs), definitions = _without_logs([encoding.lhs, encoding.rhs])
    exp = "e" if uninterpreted_exp else "exp"
    names = {e: f"({exp} {smt(argument)})" for e, argument in encoding.exps.items()}
    lines = ["(set-logic ALL)", "(set-option :produce-models true)"]
    lines += [f"(declare-const {name} Real)" for name in encoding.box]
    lines += [f"(declare-const {y.name} Real)" for y, _ in definitions]
    lines += ["(declare-fun e (Real) Real)"] if uninterpreted_exp else []
    lines += [f"(assert (and (<= {_number(low)} {name}) (<= {name} {_number(high)})))"
              for name, (low, high) in encoding.box.items()]
    lines += [f"(assert (= ({exp} {y.name}) {smt(a, names)}))" for y, a in definitions]
    if uninterpreted_exp:
        lines += _exp_axioms([smt(a) for a in encoding.exps.values()] + [y.name for y, _ in definitions])
    failure = ">" if encoding.relation == "<=" else "<"
    lines += [f"(assert ({failure} {smt(lhs, names)} {smt(rhs, names)}))", "(check-sat)"]
    return "\n".join(lines) + "\n"


def _exp_axioms(arguments):
    """True facts about exp at the terms it is applied to: positive, above its tangent at 0, increasing."""
    facts = [f"(assert (> (e {a}) 0))" for a in arguments] + [f"(assert (>= (e {a}) (+ 1 {a})))" for a in arguments]
    facts += [f"(assert (=> (<= {a} {b}) (<= (e {a}) (e {b}))))" for a, b in itertools.permutations(arguments, 2)]
    return facts


# ---- running the solvers -----------------------------------------------------------------------------------------

def _model_point(encoding, model):
    n = len(encoding.box) - 1
    return {"l": np.array([float(Fraction(model[f"l{k}"])) for k in range(n)]), "T": float(Fraction(model["T"]))}


def solver_cell(name, encoding, seconds) -> str:
    """One solver's verdict on one bound, as a table cell."""
    from theorems import certify

    answer, model, spent = ask(name, smtlib(encoding, uninterpreted_exp=name == "z3"), seconds)
    if answer == "unsat":
        return f"unsat (proved), {spent:.1f} s"
    if answer == "sat" and name == "z3":
        return f"sat* (no counterexample: exp uninterpreted), {spent:.1f} s"
    if answer == "sat":
        status = certify(encoding.statement, _model_point(encoding, model)).status if model else "no model"
        return f"sat, model {'certified' if status == 'violated' else status}, {spent:.1f} s"
    if (answer == "timeout" or answer.startswith("unknown")) and spent >= seconds * 0.9:
        return f"no answer in {seconds:g} s"
    return f"{answer}, {spent:.1f} s"


def prove_cell(statement, seconds) -> str:
    from theorems import prove

    proof = prove(statement, slack=SLACK, max_boxes=MAX_BOXES, max_seconds=seconds)
    text = f"{proof.status}, {proof.boxes} boxes, {proof.seconds:.1f} s"
    if proof.status == "undecided":
        text += f" ({proof.detail.split(':')[0]})"
    return text


# ---- the table ---------------------------------------------------------------------------------------------------

def _box_text(statement):
    (low, high), n, (t_low, t_high) = statement.prove["l"][0], len(statement.prove["l"]), statement.prove["T"]
    return f"l ∈ [{low:g}, {high:g}]^{n}, T ∈ [{t_low:g}, {t_high:g}]"


def rows(statements, solvers, seconds, progress=print):
    for statement in statements:
        encoding = encode(statement)
        load = os.getloadavg()[0]
        cells = [solver_cell(name, encoding, seconds) if name != "prove" else prove_cell(statement, seconds)
                 for name in solvers]
        kind = "2 % mutant (false)" if statement.id.endswith(".tight") else "true"
        row = [f"`{statement.formula}`", kind, _box_text(statement), *cells, f"{load:.1f}"]
        progress(" | ".join(row), flush=True)
        yield row


def table(rows_, solvers, seconds, started_load) -> str:
    headers = ["bound", "claim", "box", *[{"z3": "z3 (exp uninterpreted)",
                                           "prove": f"prove (slack {SLACK:g})"}.get(s, s) for s in solvers],
               "load at start"]
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(row) + " |" for row in rows_]
    lines.append("")
    named = ", ".join(version(s) for s in solvers if s != "prove")
    lines.append(f"`python benchmarks/solver_comparison.py --write --timeout {seconds:g}`: {named}; {seconds:g} s per "
                 f"question; one question at a time on {machine()}, shared with other work: load average "
                 f"{started_load:.1f} at the start (each row's in its last column).")
    return "\n".join(lines)


def _statements(only, mutants):
    chosen = [s for s in bounds.TRUE if not only or s.id in only]
    if mutants:
        chosen += [s for s in bounds.TIGHT if not only or s.id.removesuffix(".tight") in only or s.id in only]
    unknown = set(only or ()) - {s.id for s in bounds.TRUE + bounds.TIGHT}
    return chosen, unknown


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="replace the table between its markers in docs/proofs.md")
    parser.add_argument("--timeout", type=float, default=60.0, metavar="S",
                        help="seconds per question, for each solver and for prove (default 60)")
    parser.add_argument("--solvers", default=",".join(SOLVERS),
                        help=f"comma-separated, from {', '.join(SOLVERS)} (default all)")
    parser.add_argument("--only", nargs="+", metavar="ID", help="these bounds (and their mutants) only")
    parser.add_argument("--no-mutants", action="store_true", help="the true bounds only")
    parser.add_argument("--show-smtlib", action="store_true",
                        help="print each question's SMT-LIB text (cvc5's) and stop")
    args = parser.parse_args(argv)
    solvers = [s.strip() for s in args.solvers.split(",") if s.strip()]
    if unknown := set(solvers) - set(SOLVERS):
        parser.error(f"--solvers: unknown {', '.join(sorted(unknown))}; choose from {', '.join(SOLVERS)}")
    if not args.timeout > 0:
        parser.error(f"--timeout must be a positive number of seconds, got {args.timeout}")
    statements, unknown = _statements(args.only, not args.no_mutants)
    if unknown:
        parser.error(f"--only: no bound {', '.join(sorted(unknown))}")
    if args.show_smtlib:
        for statement in statements:
            print(f"; {statement.id}: {statement.formula}\n{smtlib(encode(statement))}")
        return 0
    if problems := missing([s for s in solvers if s != "prove"]):
        parser.error("\n".join(problems))
    started_load = os.getloadavg()[0]
    text = table(list(rows(statements, solvers, args.timeout)), solvers, args.timeout, started_load)
    print(text)
    if args.write:
        replace(MARKERS, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
