"""The statements of "Limitations of Normalization in Attention Mechanism" as executable predicates.

>>> from theorems import STATEMENTS, check
>>> check(STATEMENTS["lemma1.upper"], max_examples=50, seed=0).found
'holds'
"""

from theorems.engine.derivation import Derivation, Link, Term, expect, gate
from theorems.engine.precision import Undecided
from theorems.engine.proof import Proof, prove
from theorems.engine.search import (
    Certificate, Counterexample, IllDefined, Necessity, SearchReport, Tightness, Verdict, certify, check, investigate,
    necessity, refute,
)
from theorems.engine.statement import Hypothesis, Statement

__all__ = [
    "STATEMENTS", "Certificate", "Counterexample", "Derivation", "Hypothesis", "IllDefined", "Link", "Necessity",
    "Proof", "SearchReport", "Statement", "Term", "Tightness", "Undecided", "Verdict", "certify", "check", "expect", "gate",
    "investigate", "necessity", "prove", "refute", "select",
]


def __getattr__(name: str):
    # The catalogue imports the statement families, which import `strategies`, which imports
    # `theorems.maths.normalisers`: loading it lazily keeps `import strategies` free of an import cycle.
    if name in ("STATEMENTS", "select"):
        from theorems.engine import catalogue
        return getattr(catalogue, name)
    raise AttributeError(f"module 'theorems' has no attribute {name!r}")
