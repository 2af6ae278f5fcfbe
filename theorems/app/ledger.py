"""The verdict ledger: every statement, its reading, expected and found verdict, the minimal
certified counterexample (and how it was certified), the tightness of each bound that holds,
and the hypotheses shown necessary, as Markdown.

``python -m theorems ledger`` writes two renderings of one run:

- the **tracked** ledger (``docs/verdicts.md``, and the README's verdict table between the markers
  ``<!-- verdicts:start -->`` and ``<!-- verdicts:end -->``): only what does not move with the search path —
  verdicts, how a refutation was certified, the tight/loose class of each bound that holds, the hypotheses shown
  necessary, the first failing step of each proof. Any machine regenerates it byte for byte: numpy's vectorised
  ``exp``/``log`` differ by an ulp across CPUs, which moves Hypothesis's search (its ``target()`` scores) and so
  the witnesses, ratios and counts it meets, never these;
- the **detailed** ledger (``--details``, default ``out/ledger/verdicts.md``, untracked): the same with the
  machine's witnesses — minimal counterexamples, tightness ratios and where they were met, example counts, the
  Hypothesis release.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import hypothesis
import numpy as np

from theorems.engine.prove import SUITE_BOXES, Proof, prove
from theorems.engine.prove.certificate import checked_if_small
from theorems.engine.search import Necessity, Tightness, Verdict, check, describe_instance, necessity, tightness_class
from theorems.engine.statement import Statement

START, END = "<!-- verdicts:start -->", "<!-- verdicts:end -->"
DETAILS = Path("out/ledger/verdicts.md")
"""Where ``python -m theorems ledger`` writes the detailed (machine-dependent, untracked) ledger."""
_TIGHT = Tightness.TIGHT


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
        proof = (checked_if_small(prove(statement, max_seconds=None, max_boxes=SUITE_BOXES, seed=seed), statement)
                 if statement.prove is not None and verdict.found == "holds" else None)
        entries.append(Entry(statement, verdict, probes, proof))
    return entries


def _counterexample(cx) -> str:
    return (f"{describe_instance(cx.instance)} — lhs = {cx.lhs:.6g}, rhs = {cx.rhs:.6g}, margin = {cx.margin:.3g} "
            f"(size {cx.size}; certified: {cx.method})")


def _evidence(verdict: Verdict, detail: bool = True) -> str:
    """How the verdict is backed: the tightness of a bound that holds, the certificate of a refutation."""
    report = verdict.report
    if report.counterexample is not None:
        method = report.counterexample.method
        return "certified: " + ("ball arithmetic" if method.startswith("arb") else
                                "exact infinity" if method.startswith("exact") else method.split(",")[0])
    if report.ill_defined is not None:
        return f"{report.ill_defined.side}: {report.ill_defined.reason}"
    if report.engine_inconsistency is not None:
        engine = report.engine_inconsistency
        return (f"engine inconsistency (a bug in the suite): {engine.side} is {engine.ball} in balls, "
                f"{engine.value!r} in {engine.reference}")
    if report.candidates:
        count = f"{report.candidate_count} " if detail else ""
        return f"{count}candidate(s), not certified: {report.candidates[0].reason}"
    if not detail:
        return tightness_class(report.tightness) if report.tightness else "—"
    return report.tightness.describe() if report.tightness else "—"


def table(entries: list[Entry], *, detail: bool = False) -> str:
    rows = ["| statement | formula | expected | found | tightness / certificate | hypotheses shown necessary |",
            "|---|---|---|---|---|---|"]
    for e in entries:
        needed = ", ".join(n.hypothesis for n in e.necessities if n.needed) or "—"
        mark = "" if e.verdict.matches else " ⚠"
        tag = " [R]" if e.statement.source == "R" else ""
        proved = f"; **{e.proof.status}** on a box (slack {e.proof.slack:g})" if e.proof is not None else ""
        rows.append(f"| `{e.statement.id}` | {e.statement.formula}{tag} | {e.verdict.expected} | "
                    f"**{e.verdict.found}**{mark} | {_evidence(e.verdict, detail)}{proved} | {needed} |")
    return "\n".join(rows)


def _proof(proof: Proof, *, detail: bool) -> str:
    """A proof's line: the box count and the proved enclosure of the sup (to 9 digits in the detailed ledger, 6 in
    the tracked one), never the seconds."""
    digits = 9 if detail else 6
    if proof.status == "proved":
        return (f"**proved** for {proof.domain}: the claim holds within a factor 1 + {proof.slack:g} everywhere there "
                f"({proof.boxes} boxes; proved sup of the ratio ∈ [{proof.sup[0]:.{digits}g}, {proof.sup[1]:.{digits}g}]; "
                f"{proof.scope()})"
                if proof.sup else f"**proved** for {proof.domain}, slack {proof.slack:g} ({proof.boxes} boxes; "
                f"{proof.scope()})")
    if proof.status == "refuted":
        shown = _counterexample(proof.counterexample) if detail else "a certified counterexample (detailed ledger)"
        return f"**refuted** on {proof.domain}: {shown}"
    return f"undecided on {proof.domain} ({proof.detail})"


def section(entry: Entry, *, detail: bool = False) -> str:
    s, v = entry.statement, entry.verdict
    found = f"- Found: **{v.found}**"
    if detail:
        found += (f" ({v.report.examples} examples"
                  + (f", {v.report.float_artefacts} float artefacts discarded" if v.report.float_artefacts else "")
                  + (f", {v.report.certified} certified violations" if v.report.certified else "")
                  + (f", {v.report.candidate_count} uncertified candidates" if v.report.candidate_count else "")
                  + (f", {v.report.inconclusive} instances inconclusive at 1024 bits" if v.report.inconclusive else "")
                  + ")")
    lines = [f"### `{s.id}` — {s.title}", "",
             f"- Paper: {s.paper_ref}; formula {'reconstructed [R]' if s.source == 'R' else 'as published [P]'}: {s.formula}",
             f"- Reading: {s.reading}",
             f"- Expected: **{s.expected}** — {s.reason}",
             found]
    if v.report.tightness is not None:
        t = v.report.tightness
        lines.append(f"- Tightness: {t.describe()} (largest ratio met, lhs = {t.lhs:.6g}, rhs = {t.rhs:.6g}; "
                     f"at {describe_instance(t.instance)})" if detail else f"- Tightness: {tightness_class(t)}")
    if entry.proof is not None:
        lines.append(f"- Proof: {_proof(entry.proof, detail=detail)}")
    elif v.found == "holds":
        lines.append("- Proof: none on a box (no declared domain; why, per statement: docs/proofs.md)")
    if v.report.ill_defined is not None:
        lines.append(f"- Ill-defined: {v.report.ill_defined}" if detail else
                     f"- Ill-defined: {v.report.ill_defined.side} {v.report.ill_defined.reason}")
    if v.report.engine_inconsistency is not None:
        lines.append(f"- Engine inconsistency (a bug in the suite, not in the bound): {v.report.engine_inconsistency}")
    if v.report.counterexample:
        lines.append(f"- Minimal counterexample: {_counterexample(v.report.counterexample)}" if detail else
                     f"- Counterexample: {_evidence(v)} (the instance: `python -m theorems ledger`'s detailed ledger)")
    for candidate in v.report.candidates[:1]:
        lines.append(f"- Candidate at {describe_instance(candidate.instance)}: {candidate.describe()}" if detail else
                     f"- Candidate, not certified: {candidate.reason}")
    for h in s.hypotheses:
        probe = next((n for n in entry.necessities if n.hypothesis == h.name), None)
        if v.found == "refuted":
            status = "not probed (the statement fails with every hypothesis satisfied)"
        elif probe is None:
            status = "not probed (no violating instances defined)"
        elif probe.needed:
            status = f"**needed**: {_counterexample(probe.counterexample)}" if detail else \
                "**needed** (a certified counterexample once it is broken)"
        else:
            status = "no counterexample found when it is broken"
        lines.append(f"- Hypothesis `{h.name}` ({h.text}): {status}")
    return "\n".join(lines)


def render(entries: list[Entry], *, seed: int, max_examples: int | None, proof_section: str,
           detail: bool = False) -> str:
    """The ledger's Markdown: tracked (``detail=False``) or detailed. ``proof_section``: the proofs step by step,
    rendered by the caller (:func:`theorems.statements.proofs.ledger_section` with the same ``detail``): the
    engine does not import the statements, the CLI above both passes them."""
    budget = "each statement’s own" if max_examples is None else max_examples
    provenance = (f"seed {seed}, {budget} examples, Hypothesis {hypothesis.__version__}, numpy {np.__version__}; "
                  "the witnesses, ratios and counts below move with the machine (numpy's vectorised exp/log differ by "
                  "an ulp across CPUs) and the Hypothesis release; `docs/verdicts.md` keeps only what does not"
                  if detail else
                  f"seed {seed}, {budget} examples; only what does not move with the machine or the search path: "
                  "verdicts, certificates, tight/loose classes, hypotheses shown necessary. The witnesses — minimal "
                  "counterexamples, tightness ratios and where they were met, counts — are in the detailed ledger "
                  "it writes beside, untracked (`out/ledger/verdicts.md`)")
    header = ["# Verdict ledger" + (" (detailed)" if detail else ""), "",
              f"Generated by `python -m theorems ledger` ({provenance}). Formulas marked [R] are reconstructed from "
              "the paper's prose (see `../shared/spec/STATEMENTS.md`); every counterexample was certified before being "
              "reported: in arb ball arithmetic (the ball of the violation lies strictly above 0) unless its "
              "certificate names a statistical confirmation. "
               "A float64 violation far above rounding that balls cannot certify is a *candidate* (found "
               "**candidate**, which never matches the expected verdict); only rounding-level residue is counted "
               "as inconclusive (`docs/soundness.md`). Tightness is the largest ratio lhs/rhs (rhs/lhs for ≥) "
              f"the search met, in float64; tight means at least {_TIGHT:g}.", "",
              table(entries, detail=detail), ""]
    return "\n".join(header + [section(e, detail=detail) + "\n" for e in entries] + [proof_section])


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
