"""The search: find an instance that violates a statement, shrink it, certify it in ball arithmetic.

A counterexample is reported only when the violation is *proved* for its instance: both sides are
re-evaluated in arb ball arithmetic (:data:`theorems.arithmetic.precision.ARB`, python-flint) and the ball of
``lhs − rhs`` (``rhs − lhs`` for ``>=``) must lie strictly above 0. An undecided ball is retried at
128, 256, 512 and 1024 bits; still undecided, the instance is a *candidate* when its float64 violation
is far above rounding (:data:`CANDIDATE_MARGIN`) and stays so when both sides are evaluated again in interval
arithmetic at high precision (``check`` then finds ``"candidate"``, which fails the gate), *not certifiable* when it
vanishes there (counted and named), and *inconclusive* when it is rounding-level in float64 (counted, never a
counterexample). A side that is ``nan``, ``inf − inf``, or raises, makes the statement *ill-defined*
at that instance (:class:`IllDefined`), which is never "holds". Statements with their own
``confirm`` (statistical ones) are confirmed by it instead, and their ``method`` says how.

>>> from theorems import STATEMENTS, refute
>>> refute(STATEMENTS["corollary1.max-key.upper"], max_examples=50, seed=0) is None
True
>>> found = refute(STATEMENTS["corollary1.own-key.upper"], max_examples=200, seed=0)
>>> found.size, found.method.startswith("arb")
(2, True)

The search is a :class:`~theorems.engine.search.state.Search` object (its state) and one file per phase:
``generate`` (Hypothesis draws instances; each is examined), ``target`` (the float64 outcome and the scores
``target()`` climbs), ``confirm`` (certification, with ``balls`` and ``decide`` in ball arithmetic, and
``candidate`` for what balls cannot decide), ``shrink`` (consistent replays, the shrink budget) and ``optimise``
(the optimiser after Hypothesis); ``run`` runs them in order, ``verdicts`` turns a search into a verdict,
``report`` holds the results, ``limits`` the budgets and ``arguments`` the argument checks.
"""

from theorems.engine.search.arguments import check_search_arguments
from theorems.engine.search.balls import certify
from theorems.engine.search.candidate import candidate_at, worst
from theorems.engine.search.confirm import confirm_in_high_precision, confirmation
from theorems.engine.search.limits import (CANDIDATE_MARGIN, CANDIDATES_KEPT, HIGH_PRECISION_BITS, MAX_EXAMPLES,
                                           PROGRESS_SECONDS, SHRINK_EVALUATIONS, TARGET_CALLS_PER_EXAMPLE)
from theorems.engine.search.report import (FOUND, Candidate, Certificate, Counterexample, IllDefined, Necessity,
                                           SearchReport, Tightness, Verdict, describe_instance, tightness_class)
from theorems.engine.search.run import investigate
from theorems.engine.search.state import Search
from theorems.engine.search.target import float_outcome  # the name tests import
from theorems.engine.search.verdicts import check, necessity, refute

__all__ = [
    "CANDIDATES_KEPT", "CANDIDATE_MARGIN", "FOUND", "HIGH_PRECISION_BITS", "MAX_EXAMPLES", "PROGRESS_SECONDS",
    "SHRINK_EVALUATIONS", "TARGET_CALLS_PER_EXAMPLE", "Candidate", "Certificate", "Counterexample", "IllDefined",
    "Necessity", "Search", "SearchReport", "Tightness", "Verdict", "candidate_at", "certify", "check",
    "check_search_arguments", "confirm_in_high_precision", "confirmation", "describe_instance", "investigate",
    "necessity", "refute", "tightness_class", "worst",
]
