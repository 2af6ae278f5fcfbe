"""pytest plugin (entry point ``pytest11``): statements and derivations as ordinary ``theory`` tests.

Installed with the package, like Hypothesis's own plugin: it registers the ``theory`` marker and
the Hypothesis profiles ``theorems-dev``, ``theorems-ci``, ``theorems-thorough`` (prefixed, so that they
clash with no one's ``ci``), and collects, from every test module, each module-level name that

- holds a :class:`~theorems.engine.statement.Statement`, a :class:`~theorems.engine.derivation.Derivation` or an
  :class:`~theorems.engine.derivation.Expectation` (:func:`~theorems.engine.derivation.expect`), and
- is **defined** there: bound at the top level by ``name = <call>`` (``Statement(...)``,
  ``dataclasses.replace(...)``, ``expect(...)``), not by ``import`` and not as an alias of an
  existing object (``X = STATEMENTS["id"]``, ``X = other``), and not starting with ``_``.

The rule keeps a test module that merely imports or aliases statements from running them again. Two different
statements or derivations collected under one id both fail, naming the id and both tests, before any search (a
pin ``expect(s)`` of a collected ``s`` shares its id and runs).
Each collected test is marked ``theory`` and matches ``-k`` on its statement's id as well as on its name;
a statement passes when the engine's verdict matches its ``expected`` (a statement expected "refuted"
passes when refuted), a derivation when every link and its conclusion do.

Options: ``--hypothesis-seed`` seeds the search (a non-negative integer, default 0, so verdicts are
reproducible; anything else is a usage error, exit 4); the profile named by ``--hypothesis-profile`` or,
without it, ``$HYPOTHESIS_PROFILE`` sets the budget of statements without their own (an unknown name is a
usage error); ``--hypothesis-show-statistics`` prints examples and time per theory test. A "theory verdicts"
section of the terminal summary gives each theory test's verdict, tightness and counts (certified /
candidates / inconclusive), ``-v`` shows the verdict next to PASSED, ``-rA`` shows it in the passes
section, and JUnit XML carries them as ``theory.*`` properties.

Nothing heavy is imported at pytest start (the engine, python-flint, mpmath, the catalogue): only when a
theory test runs.

A statement that holds and declares ``prove=`` (a domain) is also proved there
(:func:`~theorems.engine.prove.prove`): a refuted proof fails the test, an undecided one passes with a warning
that says so.
"""

from __future__ import annotations

import ast
import os
import time
import warnings
from pathlib import Path

import pytest

from theorems.app import profiles
from theorems.errors import TheoryFailure

profiles.register()  # at import, before Hypothesis's plugin loads the profile named on the command line

MARKER = "theory: property-based checks of statements and derivations (`pytest -m theory`)"
DEFAULT_SEED = 0
PROPERTY = "theory."
"""Prefix of the JUnit properties (``item.user_properties``) a theory test records."""
_TARGETS = {("theorems.engine.statement", "Statement"), ("theorems.engine.derivation", "Derivation"),
            ("theorems.engine.derivation", "Expectation")}


@pytest.hookimpl(tryfirst=True)  # before Hypothesis's plugin loads the profile: bad input is a usage error
def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", MARKER)
    seed(config)
    _load_profile(config)


def seed(config: pytest.Config) -> int:
    """The search seed of theory tests: ``--hypothesis-seed`` as a non-negative integer, default 0."""
    given = config.getoption("hypothesis_seed", default=None)
    if given is None:
        return DEFAULT_SEED
    try:
        value = int(given)
    except ValueError:
        value = -1
    if value < 0:
        raise pytest.UsageError(f"--hypothesis-seed={given!r} must be a non-negative integer "
                                "(the search seed of theory tests), e.g. --hypothesis-seed=0")
    return value


def _load_profile(config: pytest.Config) -> None:
    named = config.getoption("hypothesis_profile", default=None)
    source = "--hypothesis-profile"
    if not named:
        named, source = os.environ.get("HYPOTHESIS_PROFILE") or None, "HYPOTHESIS_PROFILE"
    if named is None:
        return
    if not profiles.registered(named):
        hint = f" (this package's are prefixed: {profiles.full_name(named)!r})" if named in profiles.PROFILES else ""
        raise pytest.UsageError(f"{source}={named!r} is not a registered Hypothesis profile{hint}; this package "
                                f"registers {tuple(map(profiles.full_name, profiles.PROFILES))}")
    if source == "HYPOTHESIS_PROFILE":  # Hypothesis's plugin reads only the option (loaded after this)
        from hypothesis import settings

        settings.load_profile(named)


def defined_names(source: str) -> frozenset[str]:
    """Module-level names bound by ``name = <call>`` (or ``name: T = <call>``) in ``source``, also inside a
    module-level ``if``, ``try`` or ``with`` block (``if torch is not None: s = Statement(...)`` is still the
    module's statement, and a gate that skipped it silently would say nothing failed).

    >>> sorted(defined_names("from m import S\\nA = S['x']\\nB = make(1)\\nC: int = f()\\nD = B\\nif x:\\n    E = g()"))
    ['B', 'C', 'E']
    """
    names = set()
    for node in _module_level(ast.parse(source).body):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.value, ast.Call) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return frozenset(names)


def _module_level(body):
    """The statements of a module body that run at module level: its own and those of its ``if``/``try``/``with``
    blocks (not of functions or classes)."""
    for node in body:
        yield node
        if isinstance(node, (ast.If, ast.With, ast.Try, ast.TryStar)):
            for block in ("body", "orelse", "finalbody"):
                yield from _module_level(getattr(node, block, []))
            for handler in getattr(node, "handlers", []):
                yield from _module_level(handler.body)


def _module_names(collector: pytest.Module) -> frozenset[str]:
    cached = getattr(collector, "_theory_names", None)
    if cached is None:
        cached = defined_names(Path(collector.path).read_text(encoding="utf-8"))
        collector._theory_names = cached
    return cached


def _is_target(obj) -> bool:
    # by class name, not isinstance: an isinstance test would import the engine at every pytest start
    return any((c.__module__, c.__qualname__) in _TARGETS for c in type(obj).__mro__)


def pytest_pycollect_makeitem(collector, name, obj):
    if name.startswith("_") or not isinstance(collector, pytest.Module) or not _is_target(obj):
        return None
    if name not in _module_names(collector):
        return None
    return TheoryItem.from_parent(collector, name=name, target=obj)


def pytest_collection_modifyitems(session, config, items) -> None:
    """Two different statements (or derivations) collected under one id both fail, before any search: ``-k``,
    the summary and the reproduce line could not tell them apart. A pin (``expect(s)``) of a collected ``s``
    shares its id on purpose and is not a second statement."""
    by_id: dict[str, dict[int, list[str]]] = {}
    for item in items:
        if isinstance(item, TheoryItem):
            by_id.setdefault(target_id(item.target), {}).setdefault(id(_pinned(item.target)), []).append(item.nodeid)
    for item in items:
        if isinstance(item, TheoryItem) and len(owners := by_id[target_id(item.target)]) > 1:
            places = ", ".join(nodeid for nodeids in owners.values() for nodeid in nodeids)
            item.clash = (f"id={target_id(item.target)!r} names {len(owners)} different statements or derivations "
                          f"({places}): give each its own id")


def _pinned(target):
    """The statement or derivation a collected object checks (an Expectation's target)."""
    return getattr(target, "target", target)


def target_id(target) -> str:
    """The statement or derivation id of a collected object (an Expectation's target's)."""
    return getattr(target, "id", None) or target.target.id


COUNTS = ("certified", "candidates", "inconclusive", "not_certifiable")


def counts(report) -> dict[str, int]:
    """certified / candidates / inconclusive / not certifiable (rounding shown at high precision) of one report."""
    return {"certified": report.certified, "candidates": report.candidate_count, "inconclusive": report.inconclusive,
            "not_certifiable": getattr(report, "not_certifiable", 0)}


class TheoryItem(pytest.Item):
    """One statement, derivation or pinned expectation, checked by the search engine."""

    def __init__(self, *, target, **kwargs) -> None:
        super().__init__(**kwargs)
        self.target = target
        self.add_marker(pytest.mark.theory)
        self.extra_keyword_matches.add(target_id(target))  # `-k lemma1.upper` selects it
        self.clash: str | None = None  # set at collection when another statement has this id

    def runtest(self) -> None:
        from theorems.engine.derivation import Expectation

        if self.clash:
            raise TheoryFailure(self.clash)

        pin = self.target if isinstance(self.target, Expectation) else Expectation(self.target)
        start = time.perf_counter()
        outcome = _run(pin, seed=seed(self.config))
        outcome["seconds"] = time.perf_counter() - start
        self._record(outcome)
        reproduce = f"reproduce: pytest '{self.nodeid}' --hypothesis-seed={outcome['seed']}"
        if not outcome["ok"]:
            raise TheoryFailure(f"{outcome['message']}\n{reproduce}")
        if outcome["pin_failure"]:
            raise TheoryFailure(f"{outcome['pin_failure']}\n{reproduce}")

    def _record(self, outcome: dict) -> None:
        properties = {"id": outcome["id"], "expected": outcome["expected"], "verdict": outcome["found"],
                      "tightness": outcome["tightness"], "examples": outcome["examples"], "seed": outcome["seed"],
                      "seconds": round(outcome["seconds"], 2), **outcome["counts"]}
        self.user_properties.extend((PROPERTY + k, "" if v is None else v) for k, v in properties.items())
        self.add_report_section("call", "theory", summary_line(dict(properties, nodeid=self.nodeid)))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, TheoryFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, None, f"theory: {self.name} ({target_id(self.target)})"


def _run(pin, *, seed: int) -> dict:
    """Check a pinned statement or derivation; what the summary, JUnit and the failure message need."""
    from theorems.engine.derivation import Derivation, describe_report, describe_tightness, describe_verdict, gate
    from theorems.engine.search import check

    target, expected = pin.target, pin.expected
    if isinstance(target, Derivation):
        report = gate(target, seed=seed)
        found, ok = report.found, report.first_mismatch is None and report.found == expected
        if report.first_failure is not None:
            found = f"first failing step {report.first_failure.index}, conclusion {found}"
        message = describe_report(report)
        verdicts = [v for r in report.links for v in r.verdicts] + ([report.conclusion] if report.conclusion else [])
        loosest = report.loosest
        tightness = loosest.tightness if loosest else None
    else:
        verdict = check(target, seed=seed)
        found, ok = verdict.found, verdict.found == expected
        message = describe_verdict(target, verdict, expected=expected)
        verdicts, tightness = [verdict], getattr(verdict.report, "tightness", None)
        if ok and verdict.found == "holds" and target.prove is not None:
            ok, message = _prove(target, seed, message)
    total = {k: sum(counts(v.report)[k] for v in verdicts) for k in COUNTS}
    pin_failure = None
    if ok and pin.tightness is not None and (tightness is None or not tightness.ratio >= pin.tightness):
        pin_failure = (f"{target.id}: {found} as expected, but pinned tightness {pin.tightness:g} not reached: "
                       f"{describe_tightness(tightness)}")
    return {"id": target.id, "expected": expected, "found": found, "ok": ok, "message": message, "seed": seed,
            "tightness": tightness.describe() if tightness is not None else "",
            "examples": sum(v.report.examples for v in verdicts), "counts": total, "pin_failure": pin_failure}


def _prove(statement, seed: int, message: str) -> tuple[bool, str]:
    """Prove a holding statement on its declared domain: a refuted proof fails, an undecided one warns."""
    from theorems.engine.prove import SUITE_BOXES, prove
    from theorems.engine.prove.certificate import checked_if_small

    proof = checked_if_small(prove(statement, seed=seed, max_seconds=None, max_boxes=SUITE_BOXES), statement)
    if proof.status == "undecided":
        warnings.warn(f"{statement.id}: proof {proof.describe()}", stacklevel=1)
    return proof.status != "refuted", f"{message}\nproof: {proof.describe()}"


def summary_line(properties: dict) -> str:
    """One theory test in the summary: verdict, tightness, counts.

    >>> summary_line({"nodeid": "t.py::b", "id": "my.b", "verdict": "holds", "expected": "holds",
    ...               "tightness": "tight: 1", "examples": 9, "certified": 0, "candidates": 0, "inconclusive": 2,
    ...               "not_certifiable": 3})
    't.py::b [my.b]: holds (expected holds); tight: 1; 9 examples, certified 0, candidates 0, inconclusive 2, not certifiable 3'
    """
    tightness = f"; {properties['tightness']}" if properties.get("tightness") else ""
    uncertifiable = (f", not certifiable {properties['not_certifiable']}"
                     if str(properties.get("not_certifiable", 0)) not in ("0", "") else "")
    return (f"{properties['nodeid']} [{properties['id']}]: {properties['verdict']} (expected {properties['expected']})"
            f"{tightness}; {properties['examples']} examples, certified {properties['certified']}, "
            f"candidates {properties['candidates']}, inconclusive {properties['inconclusive']}{uncertifiable}")


def _properties(report) -> dict | None:
    found = {k[len(PROPERTY):]: v for k, v in getattr(report, "user_properties", ()) if str(k).startswith(PROPERTY)}
    return found | {"nodeid": report.nodeid} if found else None


def pytest_report_teststatus(report, config):
    """``-v``: a passing theory test says what it found (``PASSED (holds; tight: 0.99997 at T = 10)``)."""
    if report.when != "call" or not report.passed or config.get_verbosity() < 1:
        return None
    properties = _properties(report)
    if properties is None:
        return None
    tightness = f"; {properties['tightness']}" if properties.get("tightness") else ""
    return "passed", ".", (f"PASSED ({properties['verdict']}{tightness})", {"green": True})


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    # from the reports, not the stash, so that it also works under pytest-xdist (the reports come back)
    reports = [r for key in ("passed", "failed") for r in terminalreporter.stats.get(key, ())
               if getattr(r, "when", None) == "call"]
    lines = [summary_line(p) for p in map(_properties, reports) if p is not None]
    if not lines:
        return
    terminalreporter.section("theory verdicts")
    for line in sorted(lines):
        terminalreporter.write_line(line)
    if config.getoption("hypothesis_show_statistics", default=False):
        terminalreporter.section("theory statistics")
        for p in sorted(filter(None, map(_properties, reports)), key=lambda p: p["nodeid"]):
            terminalreporter.write_line(f"{p['nodeid']}: {p['verdict']}, {p['examples']} examples, "
                                        f"{float(p['seconds']):.2f} s, seed {p['seed']}")
