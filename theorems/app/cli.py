"""``python -m theorems``: list the statements, check them (the CI gate), write the ledger."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys
import time
from pathlib import Path

from theorems.arithmetic.files import check_output_path
from theorems.catalogue import STATEMENTS, select
from theorems.app import ledger, profiles
from theorems.app.verify import verify_proof
from theorems.checker import REFINE
from theorems.engine.prove import SUITE_BOXES, prove
from theorems.engine.prove.certificate import checked_if_small
from theorems.engine.search import MAX_EXAMPLES, check
from theorems.errors import InvalidArgument, TheoremsError
from theorems.statements.proofs import gate_all, ledger_section  # an entry point: above the statements

EPILOG = """examples:
  python -m theorems list
  python -m theorems check                      # every statement; exit 1 if a verdict differs from `expected`
  python -m theorems check corollary1 --json    # an id or an id prefix; JSON for machines
  python -m theorems check lemma1 --prove       # also prove each holding statement on its declared domain
  python -m theorems ledger                     # writes docs/verdicts.md and the README's verdict table
  python -m theorems proofs                     # prints the proofs step by step (the ledger's last section)
  python -m theorems verify-proof proof.json    # re-check a certificate of prove(..., certificate=PATH)
"""

VERIFY_HELP = """re-check a proof certificate written by prove(..., certificate=PATH) with an independent checker: its
own interval arithmetic (second-order jets over arb balls at 96 bits), its own derivative rules, an exact check
that the boxes tile the domain, and its own proofs of every face reduction and homogeneity reduction the
certificate claims (homogeneity, shift invariance). It shares no bounding code with the prover. The statement is
the catalogue's of the certificate's id; for a statement of your own, the module the certificate names ("source",
written by prove) is IMPORTED, and importing a module runs its code: re-check only certificates whose module you
would run yourself, or name the statement with --statements, or refuse with --no-import. Exit status: 0 proved,
1 rejected (the reason names the box and what failed), 2 bad input (a missing file, not a certificate, a newer
format, an unknown statement, a module that does not import)."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m theorems", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Property-based verification of the statements of 'Limitations of Normalization in "
                    "Attention Mechanism' (arXiv 2508.17821): each statement is searched for a counterexample, "
                    "which is shrunk to a minimal instance and certified in ball arithmetic.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="{list,check,ledger,proofs,verify-proof}")
    commands.add_parser("list", help="list every statement with its expected verdict")
    for name, text in (("check", "search every named statement and compare with its expected verdict"),
                       ("ledger", "check every statement, probe every hypothesis, write the verdict ledger"),
                       ("proofs", "gate every proof step by step and print it as the ledger does (its detailed "
                                  "rendering)")):
        sub = commands.add_parser(name, help=text, description=text)
        if name == "check":
            sub.add_argument("ids", nargs="*", metavar="ID", help="statement ids or id prefixes (default: all)")
            sub.add_argument("--json", action="store_true", help="print one JSON document instead of a table")
            sub.add_argument("--prove", action="store_true",
                             help="also prove, by branch-and-bound in balls, every statement found to hold that declares "
                                  "a proof domain (exit 1 if a proof is refuted)")
            sub.add_argument("--prove-boxes", type=_boxes, default=SUITE_BOXES,
                             help="box budget of each proof: the same result on any machine at any load "
                                  "(default: %(default)s)")
            sub.add_argument("--prove-seconds", type=_seconds, default=None,
                             help="also a time limit of each proof in seconds (default: none; a proof stopped by "
                                  "time depends on the machine and its load)")
        elif name == "ledger":
            sub.add_argument("--out", type=Path, default=Path("docs/verdicts.md"), help="ledger path (default: %(default)s)")
            sub.add_argument("--readme", type=Path, default=Path("README.md"), help="README whose verdict table to refresh")
            sub.add_argument("--details", type=Path, default=ledger.DETAILS,
                             help="the detailed ledger, with this machine's witnesses, untracked (default: %(default)s)")
        sub.add_argument("--max-examples", type=_examples, default=None,
                         help="examples per search (default: each statement's own budget)")
        sub.add_argument("--seed", type=_seed, default=0, help="search seed, for reproducible verdicts (default: 0)")
        sub.add_argument("--profile", choices=tuple(profiles.PROFILES), default="ci",
                         help="Hypothesis settings profile (default: %(default)s)")
    verify = parser.verify = commands.add_parser("verify-proof", help="re-check a proof certificate with the independent checker",
                                 description=VERIFY_HELP)
    verify.add_argument("path", metavar="PATH", help="the certificate (JSON) that prove(..., certificate=PATH) wrote")
    verify.add_argument("--json", action="store_true", help="print the result as one JSON document")
    verify.add_argument("--refine", type=_refine, default=REFINE,
                        help="how many times in depth the checker may bisect a box its enclosure does not close at "
                             "once (0: every box must close as given; default: %(default)s)")
    verify.add_argument("--statements", metavar="MODULE", default=None,
                        help="a module (dotted name or .py file) whose module-level Statement the certificate proves, "
                             "for a statement of your own (default: the catalogue, then the module the certificate "
                             "names)")
    verify.add_argument("--no-import", action="store_true",
                        help="never import the module a certificate names (importing runs its code): a statement "
                             "outside the catalogue then needs --statements")
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
_boxes = _integer_argument(minimum=1)
_refine = _integer_argument(minimum=0, maximum=64, beyond="levels of bisection: at most 64")
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
            extra += f", {report.not_certifiable_note()}" if report.not_certifiable else ""
            print(f"{status:<8} {statement.id:<45} expected {verdict.expected:<7} found {verdict.found:<11} "
                  f"({report.examples} examples, {report.examples_per_second:.0f}/s{extra})", flush=True)
            if report.ill_defined is not None:
                print(f"         {report.ill_defined}", flush=True)
            if report.engine_inconsistency is not None:
                print(f"         {report.engine_inconsistency}", flush=True)
            if report.candidates:
                print(f"         {report.candidates[0].describe()}", flush=True)
        if args.prove and verdict.found == "holds" and statement.prove is not None:
            proofs[statement.id] = checked_if_small(prove(statement, max_seconds=args.prove_seconds,
                                                          max_boxes=args.prove_boxes, seed=args.seed), statement)
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


def _verify(args, parser) -> int:
    try:
        statement = _user_statement(args.statements, args.path) if args.statements else None
        check = verify_proof(args.path, statement=statement, refine=args.refine,
                             progress=None if args.json else _box_progress(), imports=not args.no_import)
    except TheoremsError as error:
        parser.verify.error(str(error))
    print(json.dumps(check.to_json(), indent=2) if args.json else check.describe())
    return 0 if check.proved else 1


def _box_progress():
    """A line on stderr every few seconds of a long check: boxes done out of all."""
    last = [time.perf_counter()]

    def report(done: int, total: int) -> None:
        if time.perf_counter() - last[0] > 5 or done == total and total > 1000:
            last[0] = time.perf_counter()
            print(f"  verify-proof: {done}/{total} boxes checked ...", file=sys.stderr, flush=True)
    return report


def _user_statement(module: str, path: str):
    """The module-level Statement of ``module`` (a dotted name or a ``.py`` file) that the certificate names."""
    from theorems.checker.certificate import read
    from theorems.engine.statement import Statement

    wanted = read(path).statement_id
    try:
        if module.endswith(".py"):
            spec = importlib.util.spec_from_file_location(Path(module).stem, module)
            if spec is None or not Path(module).is_file():
                raise InvalidArgument(f"--statements={module!r}: no such file")
            loaded = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(loaded)
        else:
            loaded = importlib.import_module(module)
    except ImportError as error:
        raise InvalidArgument(f"--statements={module!r} cannot be imported: {error}") from None
    found = [v for v in vars(loaded).values() if isinstance(v, Statement) and v.id == wanted]
    if not found:
        raise InvalidArgument(f"--statements={module!r} has no module-level Statement with id {wanted!r}")
    return found[0]


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "list":
        return _list()
    if args.command == "verify-proof":
        return _verify(args, parser)
    profiles.load(args.profile)
    if args.command == "proofs":
        print(ledger_section(seed=args.seed, max_examples=args.max_examples))
        return 0
    return _check(args, parser) if args.command == "check" else _ledger(args, parser)
