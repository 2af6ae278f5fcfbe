"""Replace a generated table in a document: the text between ``<!-- NAME: begin -->`` and ``<!-- NAME: end -->``."""

from __future__ import annotations

import os
import platform
from pathlib import Path

PROOFS = Path(__file__).resolve().parent.parent / "docs" / "proofs.md"


def markers(name: str) -> tuple[str, str]:
    return f"<!-- {name}: begin -->", f"<!-- {name}: end -->"


def replace(name: str, text: str, path: Path = PROOFS) -> None:
    """Put ``text`` between the markers ``name`` in ``path`` (an error naming them when they are missing)."""
    begin, end = markers(name)
    document = path.read_text()
    if document.count(begin) != 1 or document.count(end) != 1:
        raise SystemExit(f"{path} must hold {begin} and {end} once each")
    head, rest = document.split(begin)
    path.write_text(head + begin + "\n" + text + "\n" + end + rest.split(end)[1])


def machine() -> str:
    """The machine in words, for a table's footnote."""
    return f"{os.cpu_count()} cores ({platform.machine()}), Python {platform.python_version()}"
