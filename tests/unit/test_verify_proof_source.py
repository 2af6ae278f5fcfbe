"""A user's certificate is re-checked without ceremony: ``prove`` records where the statement lives (its module, its
name there, the module's file), and ``python -m theorems verify-proof PATH`` imports that module (by name, or from the
file where the name does not import: here ``tests/unit`` is not on the path) and finds the statement; ``--no-import``
refuses, and a module that cannot be found or lacks the statement is bad input naming what is missing."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import raw_logit_bounds as raw
from theorems import verify_proof
from theorems.engine.prove import prove
from theorems.errors import InvalidArgument

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args, cwd):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "theorems", "verify-proof", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    path = tmp_path_factory.mktemp("source") / "lse.json"
    proof = prove(raw.LSE_UPPER, slack=1e-4, max_seconds=None, max_boxes=1000, certificate=path)
    assert proof.status == "proved" and proof.checker == "proved", proof.describe()
    return path


def test_the_certificate_records_where_the_statement_lives(certificate):
    source = json.loads(certificate.read_text())["source"]
    assert source == {"module": "raw_logit_bounds", "name": "LSE_UPPER",
                      "file": str((ROOT / "tests" / "unit" / "raw_logit_bounds.py").resolve())}


def test_verify_proof_finds_it_from_another_folder(certificate, tmp_path):
    result = _cli(certificate, cwd=tmp_path)
    assert result.returncode == 0 and result.stdout.startswith("proved: raw.lse-upper"), result.stdout + result.stderr


def test_no_import_refuses_and_says_how(certificate, tmp_path):
    result = _cli("--no-import", certificate, cwd=tmp_path)
    assert result.returncode == 2 and "--statements" in result.stderr, result.stderr


def test_a_statement_in_a_module_level_tuple_is_found_by_its_id(certificate, tmp_path):
    data = json.loads(certificate.read_text())
    data["source"]["name"] = None
    data["statement"] = raw.LSE_UPPER.id  # found in TRUE, a module-level tuple, as well as by its own name
    path = tmp_path / "unnamed.json"
    path.write_text(json.dumps(data))
    assert verify_proof(path).status == "proved"


@pytest.mark.parametrize("source, missing", [
    ({"module": "no_such_module_anywhere", "name": None, "file": None}, "cannot be imported"),
    ({"module": "json", "name": None, "file": None}, "has no statement 'raw.lse-upper'"),
], ids=["no module", "no statement"])
def test_what_cannot_be_found_is_bad_input_naming_it(certificate, tmp_path, source, missing):
    data = {**json.loads(certificate.read_text()), "source": source}
    path = tmp_path / "moved.json"
    path.write_text(json.dumps(data))
    with pytest.raises(InvalidArgument, match=missing):
        verify_proof(path)
