"""Every built-in statement, by id. A family adds itself by an import here and its module in ``FAMILIES``."""

from __future__ import annotations

from theorems.engine.statement import RESULTS, Statement
from theorems.errors import InvalidArgument
from theorems.statements.distance import corollary2, theorem1
from theorems.statements.gradient import corollary3, lemma2
from theorems.statements.separability import theorem2
from theorems.statements.vanishing import corollary1, lemma1

FAMILIES = (lemma1, corollary1, theorem2, theorem1, corollary2, lemma2, corollary3)
"""The statement modules (``theorems.statements.<result>.<paper name>``), imported above: the catalogue is built
from them when this module is imported, with no import by name."""


def _collect() -> dict[str, Statement]:
    statements: dict[str, Statement] = {}
    for family in FAMILIES:
        for statement in family.STATEMENTS:
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
