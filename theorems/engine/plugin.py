"""pytest plugin (entry point ``pytest11``): statements and derivations as ordinary ``theory`` tests.

Installed with the package, like Hypothesis's own plugin: it registers the ``theory`` marker and
the Hypothesis profiles ``dev``, ``ci``, ``thorough`` (so ``--hypothesis-profile=ci`` works in any
repository), and collects, from every test module, each module-level name that

- holds a :class:`~theorems.engine.statement.Statement`, a :class:`~theorems.engine.derivation.Derivation` or an
  :class:`~theorems.engine.derivation.Expectation` (:func:`~theorems.engine.derivation.expect`), and
- is **defined** there: bound at the top level by ``name = <call>`` (``Statement(...)``,
  ``dataclasses.replace(...)``, ``expect(...)``), not by ``import`` and not as an alias of an
  existing object (``X = STATEMENTS["id"]``, ``X = other``), and not starting with ``_``.

The rule keeps a test module that merely imports or aliases statements from running them again.
Each collected test is marked ``theory``; a statement passes when the engine's verdict matches its
``expected`` (a statement expected "refuted" passes when refuted), a derivation when every link and
its conclusion do. ``--hypothesis-seed`` seeds the search (default 0, so verdicts are
reproducible); the active Hypothesis profile sets the budget of statements without their own;
``--hypothesis-show-statistics`` prints examples and time per theory test. A statement that holds and
declares ``prove=`` (a domain) is also proved there (:func:`~theorems.engine.proof.prove`): a refuted proof fails
the test, an undecided one passes with a warning that says so.
"""

from __future__ import annotations

import ast
import time
import warnings
from pathlib import Path

import pytest

from theorems.engine import profiles

profiles.register()  # at import, before Hypothesis's plugin loads the profile named on the command line

MARKER = "theory: property-based checks of statements and derivations (`pytest -m theory`)"
DEFAULT_SEED = 0
_STATS = pytest.StashKey[list]()


class TheoryFailure(Exception):
    """A verdict that differs from the expected one; its text is the whole failure report."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", MARKER)
    config.stash[_STATS] = []


def defined_names(source: str) -> frozenset[str]:
    """Top-level names bound by ``name = <call>`` (or ``name: T = <call>``) in ``source``.

    >>> sorted(defined_names("from m import S\\nA = S['x']\\nB = make(1)\\nC: int = f()\\nD = B"))
    ['B', 'C']
    """
    names = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.value, ast.Call) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return frozenset(names)


def _module_names(collector: pytest.Module) -> frozenset[str]:
    cached = getattr(collector, "_theory_names", None)
    if cached is None:
        cached = defined_names(Path(collector.path).read_text(encoding="utf-8"))
        collector._theory_names = cached
    return cached


def pytest_pycollect_makeitem(collector, name, obj):
    if name.startswith("_") or not isinstance(collector, pytest.Module):
        return None
    from theorems.engine.derivation import Derivation, Expectation
    from theorems.engine.statement import Statement

    if not isinstance(obj, (Statement, Derivation, Expectation)) or name not in _module_names(collector):
        return None
    return TheoryItem.from_parent(collector, name=name, target=obj)


def _seed(config: pytest.Config) -> int:
    given = config.getoption("hypothesis_seed", default=None)
    if given is None:
        return DEFAULT_SEED
    try:
        return int(given)
    except ValueError:
        raise pytest.UsageError(f"--hypothesis-seed={given!r} must be an integer for theory tests") from None


class TheoryItem(pytest.Item):
    """One statement, derivation or pinned expectation, checked by the search engine."""

    def __init__(self, *, target, **kwargs) -> None:
        super().__init__(**kwargs)
        from theorems.engine.derivation import Expectation

        self.pin = target if isinstance(target, Expectation) else Expectation(target)
        self.add_marker(pytest.mark.theory)

    def runtest(self) -> None:
        from theorems.engine.derivation import Derivation, describe_report, describe_tightness, describe_verdict, gate
        from theorems.engine.search import check

        seed, target, expected = _seed(self.config), self.pin.target, self.pin.expected
        start = time.perf_counter()
        if isinstance(target, Derivation):
            report = gate(target, seed=seed)
            found, ok = report.found, report.first_mismatch is None and report.found == expected
            if report.first_failure is not None:
                found = f"first failing step {report.first_failure.index}, conclusion {found}"
            message, tightness = describe_report(report), None
            examples = sum(v.report.examples for r in report.links for v in r.verdicts)
            if self.pin.tightness is not None:
                loosest = report.loosest
                tightness = loosest.tightness if loosest else None
        else:
            verdict = check(target, seed=seed)
            found, ok = verdict.found, verdict.found == expected
            message = describe_verdict(target, verdict, expected=expected)
            tightness, examples = getattr(verdict.report, "tightness", None), verdict.report.examples
            if ok and verdict.found == "holds" and target.prove is not None:
                ok, message = self._prove(target, seed, message)
        self.config.stash[_STATS].append(f"{self.nodeid}: {found}, {examples} examples, "
                                         f"{time.perf_counter() - start:.2f} s, seed {seed}")
        reproduce = f"reproduce: pytest '{self.nodeid}' --hypothesis-seed={seed}"
        if not ok:
            raise TheoryFailure(f"{message}\n{reproduce}")
        if self.pin.tightness is not None and (tightness is None or not tightness.ratio >= self.pin.tightness):
            raise TheoryFailure(f"{message}\npinned tightness {self.pin.tightness:g} not reached: "
                                f"{describe_tightness(tightness)}\n{reproduce}")

    def _prove(self, statement, seed: int, message: str) -> tuple[bool, str]:
        from theorems.engine.proof import prove

        proof = prove(statement, seed=seed)
        if proof.status == "undecided":
            warnings.warn(f"{statement.id}: proof {proof.describe()}", stacklevel=1)
        return proof.status != "refuted", f"{message}\nproof: {proof.describe()}"

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, TheoryFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, None, f"theory: {self.name}"


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    lines = config.stash.get(_STATS, [])
    if lines and config.getoption("hypothesis_show_statistics", default=False):
        terminalreporter.section("theory statistics")
        for line in lines:
            terminalreporter.write_line(line)
