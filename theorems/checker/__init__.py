"""The proof checker: ``verify_proof(path)`` re-checks a certificate written by ``prove(..., certificate=PATH)``
with its own interval arithmetic and derivative rules (second-order jets over arb at its own precision), its own
exact coverage check and its own proofs of the reductions the certificate claims. It imports none of the
prover's bounding code (``proof``, ``dual``, ``boxes``, ``ball``, ``ballarray``, ``ball_linalg``, ``precision``):
``tests/unit/test_checker_independence.py``. See ``docs/proofs.md``, "Re-checking a proof"."""

from theorems.checker.verify import REFINE, ProofCheck, verify_proof

__all__ = ["REFINE", "ProofCheck", "verify_proof"]
