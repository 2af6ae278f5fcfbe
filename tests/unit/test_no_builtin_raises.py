"""No module raises a bare ``ValueError``, ``TypeError`` or ``RuntimeError``: every error the suite raises on
purpose is a ``TheoremsError`` (``docs/errors.md``), so that a user can catch them as one family. The sources are
read with ``ast``, so a raise inside any function, method or branch is seen."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("theorems", "strategies", "empirical")
BUILTINS = {"ValueError", "TypeError", "RuntimeError"}

ALLOWED: Counter = Counter()  # (file, builtin) -> how many such raises may stay, each explained: none today


def builtin_raises(tree: ast.AST) -> list[tuple[str, int]]:
    """``(name, line)`` of each ``raise ValueError``, ``raise ValueError(...)`` (and the other two) in ``tree``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(target, ast.Name) and target.id in BUILTINS:
                found.append((target.id, node.lineno))
    return found


def project_raises() -> dict[tuple[str, str], list[int]]:
    raises: dict[tuple[str, str], list[int]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for name, line in builtin_raises(ast.parse(path.read_text(encoding="utf-8"))):
                raises.setdefault((path.relative_to(ROOT).as_posix(), name), []).append(line)
    return raises


def test_the_walk_sees_raises_in_functions_bare_and_called():
    tree = ast.parse("def f(x):\n    if x:\n        raise ValueError\n    try:\n        pass\n"
                     "    except KeyError:\n        raise TypeError('no') from None\n"
                     "raise RuntimeError('top')\nraise KeyError('a mapping may')\n")
    assert sorted(builtin_raises(tree)) == [("RuntimeError", 8), ("TypeError", 7), ("ValueError", 3)]


def test_no_bare_builtin_raise_but_the_allowed_ones():
    raises = project_raises()
    extra = {key: lines for key, lines in raises.items() if len(lines) > ALLOWED[key]}
    assert not extra, ("raise a class of theorems.errors (InvalidArgument for a bad value, InvalidArgumentType for a "
                       f"wrong type, a ModelError for a failing model), not a builtin: {extra}")


def test_the_allow_list_is_not_stale():
    raises = project_raises()
    stale = {key: count for key, count in ALLOWED.items() if len(raises.get(key, [])) < count}
    assert not stale, f"these allowed raises are gone: lower ALLOWED {stale}"
