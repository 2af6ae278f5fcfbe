"""``theorems.verify_proof(path)``: a certificate re-checked by the independent checker, its statement looked up in the
catalogue by the certificate's id (the checker itself, below the catalogue, takes the statement or a mapping of them).

>>> verify_proof("no-such-proof.json")
Traceback (most recent call last):
...
theorems.errors.InvalidArgument: ...
"""

from __future__ import annotations

from collections.abc import Callable

from theorems import checker
from theorems.catalogue import STATEMENTS
from theorems.checker import REFINE, ProofCheck


def verify_proof(path, *, statement=None, refine: int = REFINE,
                 progress: Callable[[int, int], None] | None = None) -> ProofCheck:
    """Re-check the certificate at ``path``; ``statement`` defaults to the catalogue's statement of the
    certificate's id. Everything else is :func:`theorems.checker.verify_proof`'s."""
    return checker.verify_proof(path, statement=statement, refine=refine, progress=progress,
                                known=None if statement is not None else STATEMENTS)


__all__ = ["verify_proof"]
