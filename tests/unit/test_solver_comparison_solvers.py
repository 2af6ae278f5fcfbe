"""The solvers of benchmarks/solver_comparison.py read its questions as meant (each test skipped where its solver is
not installed: the suite does not need them)."""

import importlib
import sys
from pathlib import Path

import pytest

from raw_logit_bounds import BY_ID, TIGHT, TRUE

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
comparison = importlib.import_module("solver_comparison")
solvers = importlib.import_module("smt_solvers")


def _question(statement_id, **options):
    return comparison.smtlib(comparison.encode(BY_ID[statement_id]), **options)


def test_z3_proves_the_collision_bound_and_not_its_mutant():
    pytest.importorskip("z3")
    proved, _, _ = solvers.ask("z3", _question("raw.collision", uninterpreted_exp=True), 30)
    mutant, _, _ = solvers.ask("z3", _question("raw.collision.tight", uninterpreted_exp=True), 30)
    assert (proved, mutant) == ("unsat", "sat")


def test_cvc5_reads_every_question():
    pytest.importorskip("cvc5")
    questions = [comparison.smtlib(comparison.encode(s)).replace("(check-sat)\n", "") for s in TRUE + TIGHT]
    answer, _, _ = solvers.ask("cvc5", "(reset)\n".join(questions), 30)
    assert answer == ""  # every declaration and assertion accepted (an error would be the answer)


def test_cvc5_reports_a_parse_error_as_an_answer():
    pytest.importorskip("cvc5")
    answer, _, _ = solvers.ask("cvc5", "(set-logic ALL)\n(assert (> x 0))\n(check-sat)\n", 10)
    assert answer.startswith("error:"), answer
