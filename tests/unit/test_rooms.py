"""The house's rooms: no folder holds most of the code, and no module imports another by name while it is imported.

A room is a folder's own ``.py`` files (not its subfolders); the project is ``theorems``, ``strategies`` and
``empirical``. A string import at import time (``importlib.import_module`` or ``__import__`` outside any function)
hides an arrow from the floors test (``test_import_floors.py``), which reads import statements.
"""

import ast
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("theorems", "strategies", "empirical")
BIGGEST_SHARE = 0.30


def rooms() -> Counter:
    """Lines of Python per folder (its own files), over the three packages."""
    lines = Counter()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            lines[str(path.parent.relative_to(ROOT))] += len(path.read_text(encoding="utf-8").splitlines())
    return lines


def string_imports_at_import_time(tree: ast.AST) -> list[int]:
    """Line numbers of ``importlib.import_module(...)`` / ``__import__(...)`` calls outside every function body.

    >>> string_imports_at_import_time(ast.parse("import importlib\\nm = importlib.import_module('x')"))
    [2]
    """
    inside = {id(node) for function in ast.walk(tree) if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                                  ast.Lambda))
              for node in ast.walk(function)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and id(node) not in inside:
            function = node.func
            name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
            if name in ("import_module", "__import__"):
                found.append(node.lineno)
    return found


def test_the_biggest_room_holds_under_thirty_percent_of_the_lines():
    lines = rooms()
    folder, biggest = lines.most_common(1)[0]
    assert biggest / sum(lines.values()) < BIGGEST_SHARE, (folder, biggest, sum(lines.values()))


def test_the_string_import_finder_sees_module_level_calls_only():
    tree = ast.parse("import importlib\ndef f():\n    importlib.import_module('a')\nx = __import__('b')\n")
    assert string_imports_at_import_time(tree) == [4]


def test_no_module_of_theorems_imports_by_name_at_import_time():
    found = {str(path.relative_to(ROOT)): lines for path in sorted((ROOT / "theorems").rglob("*.py"))
             if (lines := string_imports_at_import_time(ast.parse(path.read_text(encoding="utf-8"))))}
    assert found == {}


def test_the_catalogue_imports_its_statement_modules_by_import_statements():
    tree = ast.parse((ROOT / "theorems" / "catalogue.py").read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "importlib" not in {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                               for alias in node.names}
    assert {module for module in imported if module and module.startswith("theorems.statements.")}
