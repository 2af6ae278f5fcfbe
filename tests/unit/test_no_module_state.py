"""The arithmetic and the checker keep no state in their modules: no ``global`` statement, and no module-level list, dict
or set that a function mutates (a box, a precision, a stack of open blocks, a counter). Such state lives in a context
object for the block that needs it (``contextvars``, as mpmath's and decimal's contexts), which nested blocks and
threads cannot clobber. Tables built once at import (the dispatch tables, the rules) are fine: nothing mutates them
when the code runs (``ball_forms.replaced`` swaps an entry for a test, through the table it is given)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("theorems/arithmetic", "theorems/checker")

CONTAINERS = {"list", "dict", "set", "defaultdict", "OrderedDict", "Counter", "deque", "WeakKeyDictionary",
              "WeakValueDictionary", "WeakSet"}
MUTATORS = {"append", "extend", "insert", "pop", "popitem", "remove", "clear", "update", "setdefault", "add",
            "discard", "appendleft", "popleft", "sort", "reverse", "__setitem__", "__delitem__"}


def _is_container(value: ast.AST | None) -> bool:
    if isinstance(value, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)):
        return True
    if isinstance(value, ast.Call):
        function = value.func
        name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", None)
        return name in CONTAINERS
    return False


def _module_containers(tree: ast.Module) -> set[str]:
    """The module's own containers, and the names it imports from another module (``from jet import HULLS``): a
    function that mutates one of those changes another module's state."""
    names = {alias.asname or alias.name for node in tree.body if isinstance(node, ast.ImportFrom) for alias in node.names}
    for node in tree.body:
        if isinstance(node, ast.Assign) and _is_container(node.value):
            names.update(target.id for target in node.targets if isinstance(target, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and _is_container(node.value):
            names.add(node.target.id)
    return names


def _root(node: ast.AST) -> str | None:
    """The name a subscript or attribute chain starts from (``X`` of ``X[k]``, ``X[k][j]``, ``X.append``)."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _mutations(function: ast.AST, names: set[str]) -> list[str]:
    found = []
    for node in ast.walk(function):
        targets = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Subscript) and _root(target) in names:
                found.append(f"line {node.lineno}: {_root(target)}[...] changed")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS
                and isinstance(node.func.value, (ast.Name, ast.Subscript)) and _root(node.func.value) in names):
            found.append(f"line {node.lineno}: {_root(node.func.value)}.{node.func.attr}(...)")
    return found


def module_state(source: str) -> list[str]:
    """Why a module's source keeps state in the module: each ``global`` statement, each mutation of a module-level
    container inside a function (or a method)."""
    tree = ast.parse(source)
    problems = [f"line {node.lineno}: global {', '.join(node.names)}" for node in ast.walk(tree)
                if isinstance(node, ast.Global)]
    names = _module_containers(tree)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            problems.extend(_mutations(node, names))
    return sorted(set(problems))


def _modules() -> list[Path]:
    return sorted(path for folder in FOLDERS for path in (ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("path", _modules(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_level_state(path):
    assert module_state(path.read_text(encoding="utf-8")) == [], f"{path.relative_to(ROOT)} keeps state in the module"


def test_the_walk_sees_each_kind_of_module_state():
    source = ("STACK: list = []\nTABLE = {}\nCOUNT = [0]\nSEEN = set()\nFIXED = {1: 2}\nFIXED[3] = 4\n"
              "from jet import BITS\ndef ask(bits):\n    BITS[0] = bits\n"
              "def push(x):\n    STACK.append(x)\n"
              "def put(k, v):\n    TABLE[k] = v\n"
              "def tick():\n    COUNT[0] += 1\n"
              "class Box:\n    def see(self, x):\n        SEEN.add(x)\n"
              "def reset():\n    global LIMIT\n    LIMIT = 0\n"
              "def read(k):\n    return FIXED[k]\n")
    assert module_state(source) == ["line 11: STACK.append(...)", "line 13: TABLE[...] changed",
                                    "line 15: COUNT[...] changed", "line 18: SEEN.add(...)", "line 20: global LIMIT",
                                    "line 9: BITS[...] changed"]  # FIXED, filled at import and only read: no state
