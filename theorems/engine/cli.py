"""``python -m theorems``: list the statements, check them (the CI gate), write the ledger."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from theorems.engine import ledger, profiles
from theorems.engine.proof import prove
from theorems.engine.catalogue import STATEMENTS, select
from theorems.engine.search import MAX_EXAMPLES, check
from theorems.engine.validation import check_output_path

EPILOG = """examples:
  python -m theorems list
  python -m theorems check                      # every statement; exit 1 if a verdict differs from `expected`
  python -m theorems check corollary1 --json    # an id or an id prefix; JSON for machines
  python -m theorems check lemma1 --prove       # also prove each holding statement on its declared domain
  python -m theorems ledger                     # writes docs/verdicts.md and the README's verdict table
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m theorems", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Property-based verification of the statements of 'Limitations of Normalization in "
                    "Attention Mechanism' (arXiv 2508.17821): each statement is searched for a counterexample, "
                    "which is shrunk to a minimal instance and certified in ball arithmetic.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="{list,check,ledger}")
    commands.add_parser("list", help="list every statement with its expected verdict")
    for name, text in (("check", "search every named statement and compare with its expected verdict"),
                       ("ledger", "check every statement, probe every hypothesis, write the verdict ledger")):
        sub = commands.add_parser(name, help=text, description=text)
        if name == "check":
            sub.add_argument("ids", nargs="*", metavar="ID", help="statement ids or id prefixes (default: all)")
            sub.add_argument("--json", action="store_true", help="print one JSON document instead of a table")
            sub.add_argument("--prove", action="store_true",
                             help="also prove, by branch-and-bound in balls, every statement found to hold that declares "
                                  "a proof domain (exit 1 if a proof is refuted)")
            sub.add_argument("--prove-seconds", type=_seconds, default=60,
                             help="time limit of each proof in seconds (default: %(default)s)")
        else:
            sub.add_argument("--out", type=Path, default=Path("docs/verdicts.md"), help="ledger path (default: %(default)s)")
            sub.add_argument("--readme", type=Path, default=Path("README.md"), help="README whose verdict table to refresh")
            sub.add_argument("--details", type=Path, default=ledger.DETAILS,
                             help="the detailed ledger, with this machine's witnesses, untracked (default: %(default)s)")
        sub.add_argument("--max-examples", type=_examples, default=None,
                         help="examples per search (default: each statement's own budget)")
        sub.add_argument("--seed", type=_seed, default=0, help="search seed, for reproducible verdicts (default: 0)")
        sub.add_argument("--profile", choices=tuple(profiles.PROFILES), default="ci",
                         help="Hypothesis settings profile (default: %(default)s)")
    return parser


def _integer_argument(*, minimum: int, maximum: int | None = None, beyond: str = ""):
    """An argparse ``type``: an integer at least ``minimum`` (1: positive, 0: non-negative) and at most
    ``maximum``, past which the error says ``beyond``."""
    kind = "positive" if minimum == 1 else "non-negative"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a {kind} integer, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be a {kind} integer, got {text}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"{text} {beyond}")
        return value

    return parse


_examples = _integer_argument(
    minimum=1, maximum=MAX_EXAMPLES,
    beyond=f"examples per search cannot finish (at 100–3000 examples/s that is hours to years); use at most "
           f"{MAX_EXAMPLES}, and several --seed values for a wider search")
_seconds = _integer_argument(minimum=1)
_seed = _integer_argument(minimum=0)


def _progress(statement_id: str):
    """Print a line to stderr every few seconds of a long search, so that a long run is seen to move."""
    return lambda examples, seconds: print(f"  {statement_id}: {examples} examples in {seconds:.0f} s ...",
                                           file=sys.stderr, flush=True)


def _list() -> int:
    width = max(map(len, STATEMENTS))
    for statement in STATEMENTS.values():
        print(f"{statement.id:<{width}}  {statement.expected:<7}  [{statement.source}]  {statement.title}")
    return 0


def _check(args, parser) -> int:
    try:
        statements = select(args.ids)
    except KeyError as error:
        parser.error(error.args[0])
    verdicts, proofs = [], {}
    for statement in statements:
        verdict = check(statement, max_examples=args.max_examples, seed=args.seed, progress=_progress(statement.id))
        verdicts.append(verdict)
        if not args.json:
            report = verdict.report
            status = "ok" if verdict.matches else "MISMATCH"
            extra = f", counterexample after {report.seconds_to_counterexample:.2f} s" if report.counterexample else ""
            extra += f", {report.tightness.describe()}" if report.tightness else ""
            extra += f", {report.inconclusive} inconclusive" if report.inconclusive else ""
            extra += f", {report.candidate_count} uncertified candidates" if report.candidate_count else ""
            print(f"{status:<8} {statement.id:<45} expected {verdict.expected:<7} found {verdict.found:<11} "
                  f"({report.examples} examples, {report.examples_per_second:.0f}/s{extra})", flush=True)
            if report.ill_defined is not None:
                print(f"         {report.ill_defined}", flush=True)
            if report.candidates:
                print(f"         {report.candidates[0].describe()}", flush=True)
        if args.prove and verdict.found == "holds" and statement.prove is not None:
            proofs[statement.id] = prove(statement, max_seconds=args.prove_seconds, seed=args.seed)
            if not args.json:
                print(f"         {proofs[statement.id].describe()}", flush=True)
    mismatches = [v.statement_id for v in verdicts if not v.matches]
    mismatches += [sid for sid, proof in proofs.items() if proof.status == "refuted"]
    if args.json:
        print(json.dumps({"seed": args.seed, "verdicts": [v.to_json() for v in verdicts],
                          "proofs": {sid: proof.to_json() for sid, proof in proofs.items()},
                          "mismatches": mismatches}, indent=2))
    elif mismatches:
        print(f"\n{len(mismatches)} verdict(s) differ from expected: {', '.join(mismatches)}", file=sys.stderr)
    return 1 if mismatches else 0


def _ledger(args, parser) -> int:
    try:  # before the minutes of work, not after
        for path, name in ((args.out, "--out"), (args.out.parent / "catalogue.md", "--out's catalogue.md"),
                           (args.details, "--details")):
            check_output_path(path, name=name)
        if args.readme.exists():
            check_output_path(args.readme, name="--readme")
    except ValueError as error:
        parser.error(str(error))
    entries = ledger.collect(STATEMENTS.values(), max_examples=args.max_examples, seed=args.seed,
                             progress=lambda sid: print(f"checking {sid} ...", file=sys.stderr, flush=True),
                             search_progress=_progress)
    from theorems.statements.proofs import gate_all, ledger_section  # the statements' floor: loaded when asked

    ids = [e.statement.id for e in entries]
    proofs = gate_all(ids, max_examples=args.max_examples, seed=args.seed)  # gated once for both renderings
    for path, detail in ((args.out, False), (args.details, True)):
        path.parent.mkdir(parents=True, exist_ok=True)
        proof_section = ledger_section(ids, seed=args.seed, max_examples=args.max_examples, detail=detail,
                                       reports=proofs)
        path.write_text(ledger.render(entries, seed=args.seed, max_examples=args.max_examples, detail=detail,
                                      proof_section=proof_section), encoding="utf-8")
    (args.out.parent / "catalogue.md").write_text(ledger.catalogue(STATEMENTS.values()), encoding="utf-8")
    refreshed = ledger.refresh_readme(args.readme, entries)
    mismatches = [e.statement.id for e in entries if not e.verdict.matches]
    print(f"wrote {args.out}, {args.out.parent / 'catalogue.md'}, {args.details}" + (f" and the verdict table of {args.readme}" if refreshed else ""))
    print(ledger.table(entries))
    if mismatches:
        print(f"\n{len(mismatches)} verdict(s) differ from expected: {', '.join(mismatches)}", file=sys.stderr)
    return 1 if mismatches else 0


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "list":
        return _list()
    profiles.load(args.profile)
    return _check(args, parser) if args.command == "check" else _ledger(args, parser)
