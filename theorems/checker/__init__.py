"""The proof checker: ``verify_proof(path)`` re-checks a certificate written by ``prove(..., certificate=PATH)``
with its own interval arithmetic and derivative rules (second-order jets over arb at its own precision), its own
exact coverage check and its own proofs of the reductions the certificate claims. It imports none of the
prover's bounding code (``proof``, ``dual``, ``boxes``, ``ball``, ``ballarray``, ``ball_linalg``, ``precision``):
``tests/unit/test_checker_independence.py``. See ``docs/proofs.md``, "Re-checking a proof".

Its modules sit below the engine (the prover has them re-check what it writes); this package's own
:func:`verify_proof` sits above the catalogue, since it looks a certificate's statement up by its id."""

from __future__ import annotations

from collections.abc import Callable

from theorems.checker import verify
from theorems.checker.verify import REFINE, ProofCheck

__all__ = ["REFINE", "ProofCheck", "verify_proof"]


def verify_proof(path, *, statement=None, refine: int = REFINE,
                 progress: Callable[[int, int], None] | None = None) -> ProofCheck:
    """Re-check the certificate at ``path``; ``statement`` defaults to the catalogue's statement of the
    certificate's id. Everything else is :func:`theorems.checker.verify.verify_proof`'s.

    >>> verify_proof("no-such-proof.json")
    Traceback (most recent call last):
    ...
    theorems.errors.InvalidArgument: ...
    """
    known = None
    if statement is None:
        from theorems.catalogue import STATEMENTS as known  # the statements' modules load when a certificate names one
    return verify.verify_proof(path, statement=statement, refine=refine, progress=progress, known=known)
