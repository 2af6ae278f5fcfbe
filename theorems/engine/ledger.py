"""The verdict ledger: every statement, its reading, expected and found verdict, the minimal
certified counterexample (and how it was certified), the tightness of each bound that holds,
and the hypotheses shown necessary, as Markdown.

``python -m theorems ledger`` writes ``docs/verdicts.md`` and refreshes the verdict table in the
README between the markers ``<!-- verdicts:start -->`` and ``<!-- verdicts:end -->``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import hypothesis
import numpy as np

from theorems.engine.proof import Proof, prove
from theorems.engine.search import Necessity, Verdict, check, necessity
from theorems.engine.statement import Statement

START, END = "<!-- verdicts:start -->", "<!-- verdicts:end -->"
PROVE_SECONDS = 60
"""Time limit of each statement's proof in the ledger (the declared domains close in seconds)."""


@dataclasses.dataclass(frozen=True)
class Entry:
    statement: Statement
    verdict: Verdict
    necessities: tuple[Necessity, ...]
    proof: Proof | None = None


def collect(statements: Iterable[Statement], *, max_examples: int | None, seed: int,
            progress: Callable[[str], None] = lambda _: None,
            search_progress: Callable[[str], Callable[[int, float], None]] | None = None) -> list[Entry]:
    entries = []
    for statement in statements:
        progress(statement.id)
        verdict = check(statement, max_examples=max_examples, seed=seed,
                        progress=search_progress(statement.id) if search_progress else None)
        # a refuted statement is refuted whatever its hypotheses: probing them would show nothing
        probes = tuple(necessity(statement, h.name, max_examples=max_examples, seed=seed)
                       for h in statement.hypotheses if h.violated_by is not None and verdict.found == "holds")
        proof = (prove(statement, max_seconds=PROVE_SECONDS, seed=seed)
                 if statement.prove is not None and verdict.found == "holds" else None)
        entries.append(Entry(statement, verdict, probes, proof))
    return entries


def _value(value) -> str:
    if isinstance(value, np.ndarray):
        return np.array2string(np.asarray(value, dtype=float), precision=6, separator=", ", threshold=24)
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def describe_instance(instance) -> str:
    return "; ".join(f"`{k}` = `{_value(v)}`" for k, v in instance.items())


def _counterexample(cx) -> str:
    return (f"{describe_instance(cx.instance)} — lhs = {cx.lhs:.6g}, rhs = {cx.rhs:.6g}, margin = {cx.margin:.3g} "
            f"(size {cx.size}; certified: {cx.method})")


def _evidence(verdict: Verdict) -> str:
    """How the verdict is backed: the tightness of a bound that holds, the certificate of a refutation."""
    report = verdict.report
    if report.counterexample is not None:
        method = report.counterexample.method
        return "certified: " + ("ball arithmetic" if method.startswith("arb") else
                                "exact infinity" if method.startswith("exact") else method.split(",")[0])
    if report.ill_defined is not None:
        return f"{report.ill_defined.side}: {report.ill_defined.reason}"
    return report.tightness.describe() if report.tightness else "—"


def table(entries: list[Entry]) -> str:
    rows = ["| statement | formula | expected | found | tightness / certificate | hypotheses shown necessary |",
            "|---|---|---|---|---|---|"]
    for e in entries:
        needed = ", ".join(n.hypothesis for n in e.necessities if n.needed) or "—"
        mark = "" if e.verdict.matches else " ⚠"
        tag = " [R]" if e.statement.source == "R" else ""
        proved = f"; **{e.proof.status}** on a box (slack {e.proof.slack:g})" if e.proof is not None else ""
        rows.append(f"| `{e.statement.id}` | {e.statement.formula}{tag} | {e.verdict.expected} | "
                    f"**{e.verdict.found}**{mark} | {_evidence(e.verdict)}{proved} | {needed} |")
    return "\n".join(rows)


def _proof(proof: Proof) -> str:
    """A proof's line: machine-independent (the box count, not the seconds, of a proof that closed)."""
    if proof.status == "proved":
        return (f"**proved** for {proof.domain}: the claim holds within a factor 1 + {proof.slack:g} everywhere there "
                f"({proof.boxes} boxes; proved sup of the ratio ∈ [{proof.sup[0]:.9g}, {proof.sup[1]:.9g}])"
                if proof.sup else f"**proved** for {proof.domain}, slack {proof.slack:g} ({proof.boxes} boxes)")
    if proof.status == "refuted":
        return f"**refuted** on {proof.domain}: {_counterexample(proof.counterexample)}"
    return f"undecided on {proof.domain} ({proof.detail})"


def section(entry: Entry) -> str:
    s, v = entry.statement, entry.verdict
    lines = [f"### `{s.id}` — {s.title}", "",
             f"- Paper: {s.paper_ref}; formula {'reconstructed [R]' if s.source == 'R' else 'as published [P]'}: {s.formula}",
             f"- Reading: {s.reading}",
             f"- Expected: **{s.expected}** — {s.reason}",
             f"- Found: **{v.found}** ({v.report.examples} examples"
             + (f", {v.report.float_artefacts} float artefacts discarded" if v.report.float_artefacts else "")
             + (f", {v.report.inconclusive} instances inconclusive at 1024 bits" if v.report.inconclusive else "") + ")"]
    if v.report.tightness is not None:
        t = v.report.tightness
        lines.append(f"- Tightness: {t.describe()} (largest ratio met, lhs = {t.lhs:.6g}, rhs = {t.rhs:.6g}; "
                     f"at {describe_instance(t.instance)})")
    if entry.proof is not None:
        lines.append(f"- Proof: {_proof(entry.proof)}")
    elif v.found == "holds":
        lines.append("- Proof: none on a box (no declared domain; why, per statement: docs/proofs.md)")
    if v.report.ill_defined is not None:
        lines.append(f"- Ill-defined: {v.report.ill_defined}")
    if v.report.counterexample:
        lines.append(f"- Minimal counterexample: {_counterexample(v.report.counterexample)}")
    for h in s.hypotheses:
        probe = next((n for n in entry.necessities if n.hypothesis == h.name), None)
        if v.found == "refuted":
            status = "not probed (the statement fails with every hypothesis satisfied)"
        elif probe is None:
            status = "not probed (no violating instances defined)"
        elif probe.needed:
            status = f"**needed**: {_counterexample(probe.counterexample)}"
        else:
            status = "no counterexample found when it is broken"
        lines.append(f"- Hypothesis `{h.name}` ({h.text}): {status}")
    return "\n".join(lines)


def render(entries: list[Entry], *, seed: int, max_examples: int | None) -> str:
    header = ["# Verdict ledger", "",
              "Generated by `python -m theorems ledger` "
              f"(seed {seed}, {'each statement’s own' if max_examples is None else max_examples} examples, "
              f"Hypothesis {hypothesis.__version__}: another Hypothesis release draws other examples, so the counts "
              "and tightness witnesses below may differ with it). Formulas marked [R] are reconstructed from the paper's prose (see `../shared/spec/STATEMENTS.md`); "
              "every counterexample below was certified before being reported: in arb ball arithmetic (the ball of "
              "the violation lies strictly above 0) unless its `certified:` note names a statistical confirmation. "
              "Tightness is the largest ratio lhs/rhs (rhs/lhs for ≥) the search met, in float64.", "",
              table(entries), ""]
    from theorems.statements.proofs import ledger_section  # each proof step by step: first failing / loosest step (issue 13)
    proofs = ledger_section([e.statement.id for e in entries], seed=seed, max_examples=max_examples)
    return "\n".join(header + [section(e) + "\n" for e in entries] + [proofs])


def catalogue(statements: Iterable[Statement]) -> str:
    """The statement catalogue: what each statement claims, under which hypotheses, and why it is expected."""
    lines = ["# Statement catalogue", "",
             "Generated by `python -m theorems ledger` from `theorems.STATEMENTS`. [P]: the paper's own formula; "
             "[R]: reconstructed from the paper's prose and proofs (the published typography, and possibly a "
             "constant, may differ; see `../shared/spec/STATEMENTS.md`).", ""]
    for s in statements:
        lines += [f"## `{s.id}` [{s.source}]", "", f"**{s.title}** — {s.paper_ref}", "",
                  f"- Claim: {s.formula}", f"- Reading: {s.reading}",
                  f"- Expected: **{s.expected}** — {s.reason}"]
        lines += [f"- Hypothesis `{h.name}`: {h.text}" for h in s.hypotheses]
        lines.append("")
    return "\n".join(lines)


def refresh_readme(readme: Path, entries: list[Entry]) -> bool:
    """Replace the table between the markers; ``False`` when the README has no markers."""
    if not readme.exists():
        return False
    text = readme.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(START) + ".*?" + re.escape(END), re.DOTALL)
    if not pattern.search(text):
        return False
    readme.write_text(pattern.sub(lambda _: f"{START}\n{table(entries)}\n{END}", text), encoding="utf-8")
    return True
