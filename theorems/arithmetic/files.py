"""Files and paths checked before any work: an output path writable (:func:`check_output_path`: a figure, a ledger, a
proof certificate), an input a UTF-8 text file (:func:`check_text_file`: a certificate, a text to run a model on) or
a JSON file (:func:`check_json_file`). A refusal names the argument (``--out``, ``certificate``) and what is wrong,
as :class:`~theorems.errors.InvalidArgument`.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from theorems.errors import InvalidArgument, InvalidArgumentType


def check_output_path(path, *, name: str = "--out", kind: str = "file") -> Path:
    """Check, before any computation, that ``path`` can be written: a ``file`` (its folder is created
    and probed) or a ``directory`` (created and probed). Returns the path.

    >>> check_output_path("/dev/null/figure.png")
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: --out='/dev/null/figure.png' cannot be written: '/dev/null' is not a directory
    """
    if isinstance(path, (bool, int, float)) or path is None:
        raise InvalidArgumentType(f"{name}={path!r} must be a path, not {type(path).__name__}")
    if isinstance(path, str) and not path.strip():
        raise InvalidArgument(f"{name}={path!r} is empty; name the {kind} to write (an empty path would write into the "
                         "working directory)")
    path = Path(path)
    if kind == "file" and path.is_dir():
        raise InvalidArgument(f"{name}='{path}' is a directory; it must be the path of the output file to write")
    if kind == "directory" and path.exists() and not path.is_dir():
        raise InvalidArgument(f"{name}='{path}' is not a directory (an existing file); it must be a directory, existing or new")
    folder = path.parent if kind == "file" else path
    for ancestor in (folder, *folder.parents):  # the nearest existing ancestor must be a directory
        if ancestor.exists():
            if not ancestor.is_dir():
                raise InvalidArgument(f"{name}='{path}' cannot be written: '{ancestor}' is not a directory")
            break
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise InvalidArgument(f"{name}='{path}' cannot be written: {error.strerror or error}") from None
    if kind == "file" and path.exists() and not os.access(path, os.W_OK):
        raise InvalidArgument(f"{name}='{path}' cannot be written: permission denied")
    return path


def check_json_file(path, *, name: str) -> Any:
    """The parsed content of an existing JSON file, or a ``ValueError`` naming the argument.

    >>> check_json_file("/no/such/results.json", name="--results")
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: --results='/no/such/results.json' does not exist; it must be a JSON file
    """
    check_text_file(path, name=name, kind="a JSON file")  # exists, is a file, UTF-8, not empty
    try:
        return json.loads(Path(path).read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as error:
        raise InvalidArgument(f"{name}={str(path)!r} is not valid JSON ({error})") from None


def check_text_file(path, *, name: str = "--text", kind: str = "a UTF-8 text file"):
    """An existing UTF-8 text file (a BOM allowed); binary or UTF-16 files are refused by name.

    >>> check_text_file("/no/such/file")
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: --text='/no/such/file' does not exist; it must be a UTF-8 text file
    """
    if isinstance(path, str) and not path.strip():
        raise InvalidArgument(f"{name}={path!r} is empty; it must name {kind}")
    path = Path(path)
    if not path.exists():
        raise InvalidArgument(f"{name}={str(path)!r} does not exist; it must be {kind}")
    if not path.is_file():
        raise InvalidArgument(f"{name}={str(path)!r} is not a file; it must be {kind}")
    data = path.read_bytes()
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise InvalidArgument(f"{name}={str(path)!r} is UTF-16 (byte-order mark {data[:2]!r}); it must be UTF-8: "
                         f"convert it, e.g. `iconv -f UTF-16 -t UTF-8 {path} > {path.stem}-utf8.txt`")
    nul = data.find(bytes(1))
    if nul >= 0:
        raise InvalidArgument(f"{name}={str(path)!r} holds NUL bytes (offset {nul}): a binary file, not "
                         "UTF-8 text")
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InvalidArgument(f"{name}={str(path)!r} is not UTF-8 text (byte {data[error.start]:#04x} at offset "
                         f"{error.start}); it must be {kind}") from None
    if not data.strip():
        raise InvalidArgument(f"{name}={str(path)!r} is empty; it must hold text")
    return path


__all__ = ["check_json_file", "check_output_path", "check_text_file"]
