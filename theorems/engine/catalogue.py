"""Every built-in statement, by id. A family adds itself by appending its module to ``FAMILIES``."""

from __future__ import annotations

import importlib

from theorems.engine.statement import RESULTS, Statement
from theorems.errors import InvalidArgument

FAMILIES = ("statements.vanishing.lemma1", "statements.vanishing.corollary1", "statements.separability.theorem2",
            "statements.distance.theorem1", "statements.distance.corollary2", "statements.gradient.lemma2",
            "statements.gradient.corollary3")
"""The statement modules, under ``theorems``: ``statements.<result>.<paper name>``."""


def _collect() -> dict[str, Statement]:
    statements: dict[str, Statement] = {}
    for family in FAMILIES:
        for statement in importlib.import_module(f"theorems.{family}").STATEMENTS:
            if statement.id in statements:
                raise InvalidArgument(f"statement id {statement.id!r} is defined twice")
            if not any(statement.id == r or statement.id.startswith(r + ".") for r in RESULTS):
                raise InvalidArgument(f"statement id {statement.id!r} must start with one of {RESULTS}")
            statements[statement.id] = statement
    return statements


class Catalogue(dict):
    """A dict of statements whose missing keys get a helpful message."""

    def __missing__(self, key):
        close = [k for k in self if k.startswith(str(key).split(".")[0])]
        hint = f"; did you mean one of {close}?" if close else "; `python -m theorems list` shows them all"
        raise KeyError(f"unknown statement id {key!r}{hint}")


STATEMENTS = Catalogue(_collect())


def select(ids: list[str] | tuple[str, ...] = ()) -> list[Statement]:
    """The statements named by ``ids`` (an id or an id prefix such as ``corollary1``), or all of them."""
    if not ids:
        return list(STATEMENTS.values())
    chosen: dict[str, Statement] = {}
    for wanted in ids:
        matches = [s for k, s in STATEMENTS.items() if k == wanted or k.startswith(wanted + ".")]
        if not matches:
            STATEMENTS[wanted]  # raises the helpful KeyError
        chosen.update((s.id, s) for s in matches)
    return list(chosen.values())
