"""Downstream, a theory test shows what it found: a "theory verdicts" summary section with verdict, tightness and
counts, `-v` next to PASSED, JUnit properties; `-k` selects by statement id; a missed pinned tightness says so."""

import xml.etree.ElementTree as ET

from downstream import BOUND, project, pytest_run

PINNED = BOUND + 'too_tight = expect(dataclasses.replace(square, id="my.loose", rhs=lambda i, xp: 18 + 0 * i["x"]), ' \
                 'tightness=0.9)\n'
PINNED = "import dataclasses\n" + PINNED


def test_summary_junit_and_verbose_show_the_verdict_and_tightness(tmp_path):
    folder = project(tmp_path)
    run = pytest_run(folder, "-v", "--junitxml=out.xml")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "theory verdicts" in run.stdout
    assert "tests/test_bounds.py::square [my.square]: holds (expected holds); tight: 1 at x = " in run.stdout
    assert "certified 0, candidates" in run.stdout and "inconclusive 0" in run.stdout
    assert "PASSED (holds; tight: 1 at x = " in run.stdout
    properties = {p.get("name"): p.get("value") for p in ET.parse(folder / "out.xml").iter("property")}
    assert properties["theory.verdict"] == "holds" and properties["theory.id"] == "my.square"
    assert properties["theory.tightness"].startswith("tight: 1") and int(properties["theory.examples"]) > 0
    assert {"theory.certified", "theory.candidates", "theory.inconclusive", "theory.seed"} <= set(properties)


def test_k_selects_by_statement_id(tmp_path):
    folder = project(tmp_path, PINNED)
    run = pytest_run(folder, "-k", "my.square", "-rA")
    assert "1 passed, 1 deselected" in run.stdout, run.stdout + run.stderr


def test_a_missed_pinned_tightness_says_so_instead_of_expected_holds_found_holds(tmp_path):
    run = pytest_run(project(tmp_path, PINNED), "-k", "too_tight")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "my.loose: holds as expected, but pinned tightness 0.9 not reached: tightness ratio 0.5" in run.stdout
    assert "expected holds, found holds" not in run.stdout
