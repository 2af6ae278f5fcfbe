"""The tracked ledger does not depend on the machine: another CPU's numpy exp/log (an ulp apart) moves the search,
and so the witnesses of the detailed ledger, but not one byte of `docs/verdicts.md` or README's table; and what
this machine regenerates for a few statements is what is committed."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import settings

from theorems import STATEMENTS
from theorems.arithmetic import precision
from theorems.app import ledger, profiles
from theorems.statements.proofs import gate_all, ledger_section

ROOT = Path(__file__).resolve().parents[2]
IDS = ["corollary1.max-key.upper", "corollary1.own-key.upper"]  # a tight bound whose witness moves; a refuted one


def _render(ids, *, max_examples=None):
    entries = ledger.collect([STATEMENTS[i] for i in ids], max_examples=max_examples, seed=0)
    proofs = gate_all(ids, max_examples=max_examples, seed=0)
    return entries, {detail: ledger.render(entries, seed=0, max_examples=max_examples, detail=detail,
                                           proof_section=ledger_section(ids, seed=0, max_examples=max_examples,
                                                                        detail=detail, reports=proofs))
                     for detail in (False, True)}


def _another_cpu(monkeypatch):
    """numpy's exp and log one ulp up, as another CPU's vectorised routines may round."""
    for name in ("exp", "log"):
        exact = getattr(np, name)

        def bumped(*args, _exact=exact, **kwargs):
            result = _exact(*args, **kwargs)
            return np.nextafter(result, np.inf) if np.asarray(result).dtype.kind == "f" else result

        monkeypatch.setattr(np, name, bumped)
        monkeypatch.setattr(precision.F64, name, bumped)


@pytest.fixture
def ci_profile():
    """The profile `python -m theorems ledger` uses."""
    previous = settings.get_current_profile_name()
    profiles.load("ci")
    yield
    settings.load_profile(previous)


@pytest.mark.slow  # two ledgers
def test_an_ulp_in_exp_and_log_moves_the_witnesses_not_the_tracked_ledger(monkeypatch, ci_profile):
    _, here = _render(IDS)
    _another_cpu(monkeypatch)
    _, there = _render(IDS)
    assert here[True] != there[True], "the perturbation no longer moves the search: pick a statement whose witness moves"
    assert here[False] == there[False]


@pytest.mark.slow  # the whole ledger
def test_the_committed_ledger_is_what_this_machine_regenerates(ci_profile):
    entries, rendered = _render(IDS)
    committed = (ROOT / "docs" / "verdicts.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for entry in entries:
        row = next(line for line in ledger.table([entry]).splitlines() if line.startswith(f"| `{entry.statement.id}`"))
        assert row in committed and row in readme, row
        assert ledger.section(entry) in committed, entry.statement.id
    proofs = rendered[False].split("## Proofs step by step", 1)[1]
    for account in proofs.split("\n### ")[1:]:
        assert "### " + account.strip() in committed, account
