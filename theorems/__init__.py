"""The statements of "Limitations of Normalization in Attention Mechanism" as executable predicates.

>>> from theorems import STATEMENTS, check
>>> check(STATEMENTS["lemma1.upper"], max_examples=50, seed=0).found
'holds'
"""

from theorems.catalogue import STATEMENTS, select
from theorems.search import Counterexample, Necessity, SearchReport, Verdict, check, necessity, refute, search
from theorems.statement import Hypothesis, Statement

__all__ = [
    "STATEMENTS", "Counterexample", "Hypothesis", "Necessity", "SearchReport", "Statement", "Verdict",
    "check", "necessity", "refute", "search", "select",
]
