"""``verify_proof`` and ``python -m theorems verify-proof`` refuse bad input with an error naming it, before any
box is checked: a missing or unreadable file, not a certificate, a newer format version, an unknown statement,
a malformed field. A certificate that is well formed but wrong is not an error: it is ``rejected``."""

import json

import pytest

from checker_certificates import certificate, write
from theorems import STATEMENTS, InvalidArgument, InvalidArgumentType, TheoremsError
from theorems import verify_proof
from theorems.app.cli import main

GOOD = certificate("corollary3.row.corrected", {"gaps": [(0.0, 10.0)], "T": 1.0})


def _with(**changes):
    data = json.loads(json.dumps(GOOD))
    data.update(changes)
    return data


def test_a_missing_file_names_the_path(tmp_path):
    with pytest.raises(InvalidArgument, match="path='.*nowhere.json' does not exist"):
        verify_proof(tmp_path / "nowhere.json")


def test_a_directory_is_not_a_file(tmp_path):
    with pytest.raises(InvalidArgument, match="is not a file"):
        verify_proof(tmp_path)


@pytest.mark.parametrize("content, match", [
    (b"\x89PNG\r\n\x1a\n\x00\x00", "holds NUL bytes .*: a binary file"),
    (b"\xff\xfe{\x00}\x00", "is UTF-16"),
    (b"", "is empty"),
    (b"{\"format\": ", "not a proof certificate: not JSON"),
    (b"[1, 2, 3]", "is not a proof certificate \\(no \"format\""),
    (json.dumps({"statement": "lemma1.upper", "boxes": []}).encode(), "is not a proof certificate"),
])
def test_not_a_certificate(tmp_path, content, match):
    path = tmp_path / "proof.json"
    path.write_bytes(content)
    with pytest.raises(InvalidArgument, match=match):
        verify_proof(path)


def test_a_newer_format_version_asks_for_an_upgrade(tmp_path):
    with pytest.raises(InvalidArgument, match="format version 3; this checker reads versions 1 to 2: upgrade"):
        verify_proof(write(tmp_path / "proof.json", _with(version=3)))


def test_an_unknown_statement_is_named(tmp_path):
    with pytest.raises(InvalidArgument, match="unknown statement 'corollary3.nothing'.*statement=..."):
        verify_proof(write(tmp_path / "proof.json", _with(statement="corollary3.nothing")))


def test_a_statement_argument_must_match_the_certificate(tmp_path):
    path = write(tmp_path / "proof.json", GOOD)
    with pytest.raises(InvalidArgument, match="statement='lemma1.upper', but the certificate .* proves 'corollary3.row"):
        verify_proof(path, statement=STATEMENTS["lemma1.upper"])
    with pytest.raises(InvalidArgumentType, match="statement must be a theorems.Statement"):
        verify_proof(path, statement="corollary3.row.corrected")


@pytest.mark.parametrize("refine", [-1, 65, 1.5, True, "3"])
def test_refine_is_checked(tmp_path, refine):
    with pytest.raises(InvalidArgument, match="refine="):
        verify_proof(write(tmp_path / "proof.json", GOOD), refine=refine)


def test_path_must_be_a_path():
    with pytest.raises(InvalidArgumentType, match="path must be a str or a pathlib.Path"):
        verify_proof(42)


@pytest.mark.parametrize("changes, match", [
    ({"slack": "a lot"}, "'slack' must be a finite number"),
    ({"slack": 2.0}, "'slack' must lie in \\[0, 1\\]"),
    ({"boxes": []}, "'boxes' is empty"),
    ({"boxes": [{"low": [0.0]}]}, "boxes\\[0\\] must be an object with 'low' and 'high'"),
    ({"boxes": [{"low": [0.0, 1.0], "high": [1.0, 2.0]}]}, "must have 1 coordinates, got 2 and 2"),
    ({"boxes": [{"low": [2.0], "high": [1.0]}]}, "low must be <= high"),
    ({"boxes": [{"low": [0.0], "high": [10.0], "faces": [[3, "low"]]}]}, "each face must be \\[coordinate in 0..0"),
    ({"domain": {"gaps": [[0.0, 10.0]], "T": 1.0}}, "'domain'\\['gaps'\\] must be one of"),
    ({"domain": {"T": {"value": 1.0}}}, "has no interval"),
    ({"reduction": {"kind": "permutation"}}, "re-proves no other reduction"),
    ({"version": "1"}, "'version' must be"),
])
def test_malformed_fields_are_named(tmp_path, changes, match):
    with pytest.raises(InvalidArgument, match=match):
        verify_proof(write(tmp_path / "proof.json", _with(**changes)))


def test_every_error_is_a_theorems_error(tmp_path):
    for bad in (tmp_path / "nowhere.json", write(tmp_path / "v.json", _with(version=9))):
        with pytest.raises(TheoremsError):
            verify_proof(bad)


@pytest.mark.parametrize("make, match", [
    (lambda tmp: str(tmp / "nowhere.json"), "does not exist"),
    (lambda tmp: write(tmp / "v.json", _with(version=3)), "format version 3"),
    (lambda tmp: write(tmp / "s.json", _with(statement="lemma9.upper")), "unknown statement 'lemma9.upper'"),
])
def test_the_command_line_exits_2_naming_the_problem(tmp_path, capsys, make, match):
    with pytest.raises(SystemExit) as exit_info:
        main(["verify-proof", make(tmp_path)])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert "python -m theorems verify-proof: error:" in error and match in error
