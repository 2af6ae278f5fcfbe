"""The proof checker: :func:`verify_proof` re-checks a certificate written by ``prove(..., certificate=PATH)``
with its own interval arithmetic and derivative rules (second-order jets over arb at its own precision), its own
exact coverage check and its own proofs of the reductions the certificate claims; :func:`screen` is its cheap
screen of a claimed reduction. It imports none of the prover's bounding code (``theorems.engine.prove``,
``box_jet``, ``ball``, ``ballarray``, ``ball_linalg``, ``precision``): ``tests/unit/test_checker_independence.py``.
See ``docs/proofs.md``, "Re-checking a proof".

The package sits below the engine (the prover has it re-check what it writes): it takes the statement a certificate
names, or a mapping of ids to statements to look it up in; ``theorems.verify_proof`` (the application layer's,
:mod:`theorems.app.verify`) passes the catalogue."""

from __future__ import annotations

from theorems.checker.verify import REFINE, ProofCheck, screen, verify_proof

__all__ = ["REFINE", "ProofCheck", "screen", "verify_proof"]
