"""Every module's docstring examples run as written: the packages are walked, so that no module is left out.

Examples that need a model or data are written ``# doctest: +SKIP``; a module all of whose examples are such is
reported as a skip that says so (``-ra`` lists it), never passed silently. A module of ``empirical`` is marked
``empirical``."""

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("theorems", "strategies", "empirical", "benchmarks")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules_with_examples():
    """Found from the source text, not by importing: collection stays fast and an import error fails the test."""
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if ">>> " in path.read_text(encoding="utf-8"):
                name = _module_name(path)
                marks = [pytest.mark.empirical] if package == "empirical" else []
                yield pytest.param(name, id=name, marks=marks)


def _example_count(module) -> int:
    return sum(len(test.examples) for test in doctest.DocTestFinder().find(module))


@pytest.mark.parametrize("name", list(_modules_with_examples()))
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if result.attempted == 0:
        pytest.skip(f"{name}: all {_example_count(module)} examples need a model or data (doctest: +SKIP)")
