"""The statements of "Limitations of Normalization in Attention Mechanism" as executable predicates.

>>> from theorems import STATEMENTS, check
>>> check(STATEMENTS["lemma1.upper"], max_examples=50, seed=0).found
'holds'
"""

from theorems.precision import Undecided
from theorems.search import (
    Certificate, Counterexample, IllDefined, Necessity, SearchReport, Tightness, Verdict, certify, check, investigate,
    necessity, refute,
)
from theorems.statement import Hypothesis, Statement

__all__ = [
    "STATEMENTS", "Certificate", "Counterexample", "Hypothesis", "IllDefined", "Necessity", "SearchReport",
    "Statement", "Tightness", "Undecided", "Verdict", "certify", "check", "investigate", "necessity", "refute",
    "select",
]


def __getattr__(name: str):
    # The catalogue imports the statement families, which import `strategies`, which imports
    # `theorems.normalisers`: loading it lazily keeps `import strategies` free of an import cycle.
    if name in ("STATEMENTS", "select"):
        from theorems import catalogue
        return getattr(catalogue, name)
    raise AttributeError(f"module 'theorems' has no attribute {name!r}")
