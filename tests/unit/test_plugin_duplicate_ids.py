"""Two different statements collected under one id both fail, naming the id and both tests, before any search;
a pin (`expect(s)`) of a collected statement shares its id on purpose and runs."""

from downstream import BOUND, project, pytest_run

TWIN = BOUND + 'twin = dataclasses.replace(square, rhs=lambda i, xp: 10 + 0 * i["x"])\n'
PIN = BOUND + 'pinned = expect(square, tightness=0.99)\n'


def test_two_statements_with_one_id_both_fail_naming_the_id(tmp_path):
    run = pytest_run(project(tmp_path, "import dataclasses\n" + TWIN), "-rA")
    assert run.returncode == 1, run.stdout + run.stderr
    message = ("id='my.square' names 2 different statements or derivations (tests/test_bounds.py::square, "
               "tests/test_bounds.py::twin): give each its own id")
    assert run.stdout.count(message) >= 2 and "2 failed" in run.stdout, run.stdout
    assert "examples" not in run.stdout.split("theory verdicts")[-1]  # neither was searched


def test_a_pin_of_a_collected_statement_shares_its_id_and_runs(tmp_path):
    run = pytest_run(project(tmp_path, PIN))
    assert run.returncode == 0 and "2 passed" in run.stdout, run.stdout + run.stderr
