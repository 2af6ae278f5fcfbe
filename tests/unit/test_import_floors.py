"""The packages' import graph has no circle and no arrow from a lower floor to a higher one
(``docs/architecture.md``, "Dependencies"). The graph is read with ``ast`` from the sources, imports inside
functions included (a lazy import is still a dependency), so neither a cycle hidden in a function body nor an
upward arrow can come back unseen."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("theorems", "strategies", "empirical")

FLOORS = (  # low to high: one floor per package (a module's floor is its package's), no exception
    ("theorems.errors", -1),  # the error tree: it imports no project module, so every module may raise from it
    ("theorems.arithmetic", 0),  # the ground floor: the numeric checks, the xp backends, balls, the prover's jets
    ("theorems.maths", 1),
    ("strategies", 2),
    ("theorems.checker", 3),  # re-checks a certificate over the arithmetic only, sharing no prover code
    ("theorems.engine", 4),  # statements as data, the search, the prover (over the arithmetic and the checker)
    ("theorems.statements", 5),
    ("theorems.catalogue", 6),  # imports every statement module
    ("theorems.figures", 7),
    ("theorems.app", 8),  # the application layer: CLI, ledger, pytest plugin, profiles, verify_proof by id
    ("theorems", 8),  # the public API (`from theorems import ...`, `python -m theorems`): above all it re-exports
    ("empirical", 9),
)


KNOWN_CIRCLES: list[list[str]] = []  # none: a new circle fails; an entry here would be an engineering debt, with its reason


def floor(module: str) -> int:
    for prefix, level in FLOORS:
        if module == prefix or module.startswith(prefix + "."):
            return level
    raise LookupError(f"{module} has no floor in FLOORS: add one")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    return {module_name(path): path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))}


def imported(tree: ast.AST, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The project modules ``module`` imports anywhere in its source (``from a import b`` names ``a.b`` when
    that is a module, else ``a``)."""
    targets = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package this module is in (or is)
                anchor = module.split(".")[: len(module.split(".")) - node.level + (1 if is_package else 0)]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                targets.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {target for target in targets if target in known}


def project_graph() -> dict[str, set[str]]:
    modules = project_modules()
    known = set(modules)
    return {module: imported(ast.parse(path.read_text(encoding="utf-8")), module, path.name == "__init__.py", known)
            - {module} for module, path in modules.items()}


def upward_arrows(graph: dict[str, set[str]]) -> list[str]:
    return sorted(f"{a} -> {b}" for a, targets in graph.items() for b in targets if floor(b) > floor(a))


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_the_walk_sees_imports_inside_functions_and_relative_ones():
    tree = ast.parse("def f():\n    from theorems.maths import secular\n\nfrom . import ledger\nimport strategies\n")
    known = {"theorems.maths", "theorems.maths.secular", "theorems.engine.ledger", "strategies"}
    assert imported(tree, "theorems.engine.proof", False, known) == {"theorems.maths.secular", "theorems.engine.ledger",
                                                                   "strategies"}


def test_a_synthetic_circle_and_upward_arrow_are_caught():
    graph = {"theorems.engine.derivation": {"theorems.engine.ledger"},
             "theorems.engine.ledger": {"theorems.statements.proofs"},
             "theorems.statements.proofs": {"theorems.engine.derivation"},
             "theorems.maths.distance": {"theorems.arithmetic.validation"}, "theorems.arithmetic.validation": set()}
    assert circles(graph) == [["theorems.engine.derivation", "theorems.engine.ledger", "theorems.statements.proofs"]]
    assert upward_arrows(graph) == ["theorems.engine.ledger -> theorems.statements.proofs"]
    graph["theorems.statements.proofs"] = set()
    del graph["theorems.engine.ledger"]
    assert circles(graph) == [] and upward_arrows(graph) == []


def test_every_module_has_a_floor():
    for module in project_modules():
        floor(module)


def test_the_packages_have_no_import_circle_but_the_known_ones():
    assert circles(project_graph()) == KNOWN_CIRCLES


def test_no_import_goes_up_a_floor():
    assert upward_arrows(project_graph()) == []
