"""Every statement expected to hold has at least two mutants that the gate must refute."""

import importlib.util
from pathlib import Path

from theorems import STATEMENTS


def _all_mutants() -> dict:
    mutants: dict = {}
    for path in sorted(Path(__file__).parent.glob("test_*_mutants.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for statement_id, found in module.MUTANTS.items():
            mutants.setdefault(statement_id, []).extend(found)
    return mutants


def test_every_holding_statement_has_two_mutants():
    mutants = _all_mutants()
    missing = [s.id for s in STATEMENTS.values() if s.expected == "holds" and len(mutants.get(s.id, ())) < 2]
    assert not missing, f"statements that hold without two mutants: {missing}"
