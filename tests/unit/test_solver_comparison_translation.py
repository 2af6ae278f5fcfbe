"""benchmarks/solver_comparison.py asks general solvers the same question as the statement: its SMT-LIB text, read
back by a small evaluator here (no solver needed), gives the statement's own sides at points of the box, the box's
bounds, the relation's failure and true axioms about exp."""

import importlib
import itertools
import sys
from pathlib import Path

import mpmath
import numpy as np
import pytest

from raw_logit_bounds import BY_ID, TIGHT, TRUE

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
comparison = importlib.import_module("solver_comparison")

# ---- a reader of the SMT-LIB the script writes (s-expressions, real arithmetic, exp) ----------------------------


def _parse(text):
    tokens = text.replace("(", " ( ").replace(")", " ) ").split()
    stack = [[]]
    for token in tokens:
        if token == "(":
            stack.append([])
        elif token == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(token)
    return stack[0]


_OPERATIONS = {
    "+": lambda *a: mpmath.fsum(a), "*": lambda *a: mpmath.fprod(a),
    "-": lambda a, b=None: -a if b is None else a - b, "/": lambda a, b: a / b,
    ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, "<": lambda a, b: a < b,
    "=": lambda a, b: a == b, "and": lambda *a: all(a), "=>": lambda a, b: (not a) or b,
    "exp": mpmath.exp, "e": mpmath.exp,
}


def _value(expr, env):
    if isinstance(expr, str):
        return env[expr] if expr in env else mpmath.mpf(expr)
    if expr[0] == "ite":
        return _value(expr[2] if _value(expr[1], env) else expr[3], env)
    return _OPERATIONS[expr[0]](*(_value(x, env) for x in expr[1:]))


def read_back(text, point):
    """The assertions of ``text`` at ``point``: each definition ``(= (exp y) a)`` sets ``y = log a``; returns the
    truth of every other assertion and the two sides of the last one (the relation's failure)."""
    env = {f"l{k}": mpmath.mpf(x) for k, x in enumerate(point["l"])} | {"T": mpmath.mpf(point["T"])}
    assertions = [c[1] for c in _parse(text) if c[0] == "assert"]
    truths = []
    for assertion in assertions[:-1]:
        if assertion[0] == "=" and isinstance(assertion[1], list) and assertion[1][0] in ("exp", "e"):
            env[assertion[1][1]] = mpmath.log(_value(assertion[2], env))
        else:
            truths.append((assertion, _value(assertion, env)))
    failure = assertions[-1]
    return truths, failure[0], _value(failure[1], env), _value(failure[2], env)


# ---- the tests ------------------------------------------------------------------------------------------------


def _points(statement, count, seed=0):
    rng = np.random.default_rng(seed)
    lows, highs = np.array(statement.prove["l"]).T
    t_low, t_high = statement.prove["T"]
    points = [{"l": rng.uniform(lows, highs), "T": float(np.exp(rng.uniform(np.log(t_low), np.log(t_high))))}
              for _ in range(count)]
    corners = [{"l": np.full(len(lows), c), "T": t} for c, t in itertools.product((lows[0], highs[0]), (t_low, t_high))]
    return points + corners


@pytest.mark.parametrize("statement", TRUE + TIGHT, ids=lambda s: s.id)
@pytest.mark.parametrize("uninterpreted_exp", [False, True], ids=["exp", "uninterpreted-exp"])
def test_the_smtlib_question_reads_back_as_the_statement(statement, uninterpreted_exp):
    text = comparison.smtlib(comparison.encode(statement), uninterpreted_exp=uninterpreted_exp)
    with mpmath.workdps(40):
        for point in _points(statement, 25):
            truths, failure, lhs, rhs = read_back(text, point)
            assert all(truth for _, truth in truths), [a for a, truth in truths if not truth]  # box, axioms
            assert failure == (">" if statement.relation == "<=" else "<")
            expected = [float(x) for x in statement.sides(point, np)]
            assert [float(lhs), float(rhs)] == pytest.approx(expected, rel=1e-12, abs=1e-12), point


@pytest.mark.parametrize("statement", TRUE + TIGHT, ids=lambda s: s.id)
def test_the_box_is_the_domain_as_written(statement):
    text = comparison.smtlib(comparison.encode(statement))
    (low, high), (t_low, t_high) = statement.prove["l"][0], statement.prove["T"]
    n = len(statement.prove["l"])
    outside = [{"l": np.full(n, low - 1e-9), "T": t_low}, {"l": np.full(n, high), "T": t_high * (1 + 1e-12)},
               {"l": np.full(n, high), "T": t_low * (1 - 1e-12)}]
    for point in outside:
        truths, *_ = read_back(text, point)
        assert not all(truth for _, truth in truths), point


def test_the_jacobian_bound_in_smtlib():
    text = comparison.smtlib(comparison.encode(BY_ID["raw.jacobian-two"]))
    assert text.splitlines() == [
        "(set-logic ALL)", "(set-option :produce-models true)",
        "(declare-const l0 Real)", "(declare-const l1 Real)", "(declare-const T Real)",
        "(assert (and (<= (- 5) l0) (<= l0 5)))", "(assert (and (<= (- 5) l1) (<= l1 5)))",
        "(assert (and (<= (/ 1 10) T) (<= T 10)))",
        "(assert (> (/ (* 2 (exp (/ l0 T)) (+ 1 (/ (* (- 1) (exp (/ l0 T))) (+ (exp (/ l0 T)) (exp (/ l1 T))))))"
        " (* T (+ (exp (/ l0 T)) (exp (/ l1 T))))) (/ (/ 1 2) T)))",
        "(check-sat)"]


def test_the_mutant_differs_only_in_its_constant():
    true, tight = (comparison.smtlib(comparison.encode(BY_ID[name]))
                   for name in ("raw.lse-upper", "raw.lse-upper.tight"))
    changed = [(a, b) for a, b in zip(true.splitlines(), tight.splitlines()) if a != b]
    assert "(assert (= (exp y0) 3))" in true.splitlines()  # y0 is log 3
    assert len(changed) == 1 and changed[0][1] == changed[0][0].replace("(* y0 T)", "(* (/ 49 50) y0 T)"), changed


@pytest.mark.parametrize(("solver", "module", "command"), [("cvc5", "cvc5", "pip install cvc5"),
                                                         ("z3", "z3", "pip install z3-solver")])
def test_a_missing_solver_is_refused_before_any_work(monkeypatch, capsys, solver, module, command):
    monkeypatch.setitem(sys.modules, module, None)  # an import of it now raises ImportError
    with pytest.raises(SystemExit) as stopped:
        comparison.main(["--solvers", solver, "--only", "raw.collision"])
    message = capsys.readouterr()
    assert stopped.value.code == 2 and not message.out, message.out  # no row was computed
    assert f"{solver}: the Python package {module!r}" in message.err and command in message.err, message.err


@pytest.mark.parametrize(("statement_id", "cell"), [("raw.jacobian-two.tight", "sat, model certified"),
                                                     ("raw.jacobian-two", "sat, model inconclusive")])
def test_a_solver_model_is_certified_before_it_is_called_a_counterexample(monkeypatch, statement_id, cell):
    model = {"l0": "1/2", "l1": "1/2", "T": "3/2", "y0": "0"}  # equal logits: the mutant fails, the bound is tight
    monkeypatch.setattr(comparison, "ask", lambda name, text, seconds: ("sat", model, 0.5))
    assert comparison.solver_cell("cvc5", comparison.encode(BY_ID[statement_id]), 60) == f"{cell}, 0.5 s"
