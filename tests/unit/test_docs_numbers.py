"""Numbers the README and docs/ quote about the code are the code's: a test fails when one drifts.

What a command regenerates (the verdict table, docs/verdicts.md) is written by that command; the counts below are
prose, so each is read back here and compared with what the code holds. Timings are measurements, not checked.
"""

import ast
import pathlib
import re
import subprocess
import sys

import pytest

from theorems import STATEMENTS

ROOT = pathlib.Path(__file__).resolve().parents[2]
WORDS = {word: n for n, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _number(text: str) -> int:
    return int(text) if text.isdigit() else WORDS[text.lower()]


def _quoted(path: pathlib.Path, pattern: str) -> int:
    found = re.search(pattern, " ".join(path.read_text(encoding="utf-8").split()))  # prose wraps lines
    assert found, f"{path.name} no longer says {pattern!r}: update this test with the new wording"
    return _number(found.group(1))


def _declared_domains() -> int:
    return sum(statement.prove is not None for statement in STATEMENTS.values())


def _literature_domains() -> int:
    """The bounds of tests/theory/test_literature_proofs.py's ``DOMAINS`` (read, not imported: it is a test module)."""
    tree = ast.parse((ROOT / "tests" / "theory" / "test_literature_proofs.py").read_text(encoding="utf-8"))
    assigned = next(node.value for node in tree.body if isinstance(node, ast.Assign)
                    and any(getattr(target, "id", None) == "DOMAINS" for target in node.targets))
    return len(assigned.keys)


def test_the_readme_counts_the_proved_catalogue_statements_and_literature_bounds():
    assert _quoted(ROOT / "README.md", r"(\w+) catalogue statements \(every one that declares a domain\)") \
        == _declared_domains()
    assert _quoted(ROOT / "README.md", r"(\w+) literature bounds are proved") == _literature_domains()
    # and the ledger's table (written by `python -m theorems ledger`) shows that many proved
    assert (ROOT / "README.md").read_text(encoding="utf-8").count("**proved** on a box") == _declared_domains()


def test_the_proofs_table_counts_the_declared_domains():
    assert _quoted(ROOT / "docs" / "proofs.md", r"The first (\w+) rows are the catalogue's declared domains") \
        == _declared_domains()


def test_every_repository_path_the_docs_quote_exists():
    quoted = {(path.name, match) for path in DOCUMENTS for match in re.findall(
        r"`((?:theorems|tests|empirical|strategies|docs|\.ci)/[^`\s<>*{}]*)`", path.read_text(encoding="utf-8"))}
    assert len(quoted) > 100  # the pattern still reads the docs
    missing = sorted((name, path) for name, path in quoted if not (ROOT / path.split("::")[0].split("#")[0]).exists())
    assert not missing, f"paths quoted in the docs that are not in the tree: {missing}"


@pytest.mark.slow
def test_the_readme_counts_the_theory_tests():
    quoted = _quoted(ROOT / "README.md", r"\((\d+) tests, [\d.]+ s measured")
    run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "theory", "-n", "0",
                          "-p", "no:cacheprovider"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    collected = re.search(r"^(\d+)/\d+ tests collected", run.stdout, flags=re.MULTILINE)
    assert collected, run.stdout[-2000:] + run.stderr[-2000:]
    assert quoted == int(collected.group(1)), f"README says {quoted} theory tests, pytest collects {collected.group(1)}"
