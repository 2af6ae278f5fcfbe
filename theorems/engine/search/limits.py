"""The search's budgets and thresholds: counts, not times, so that a verdict does not depend on the machine's load.

>>> CANDIDATE_MARGIN < 1e-6 < PROGRESS_SECONDS
True
"""

MAX_EXAMPLES = 1_000_000
"""The largest budget one search accepts: at the search's usual 100–3000 examples/s, a larger one
would run for hours to years. Use several seeds instead."""

PROGRESS_SECONDS = 5.0
"""How often a long search calls its ``progress`` callback."""

TARGET_CALLS_PER_EXAMPLE = 2
"""Hypothesis's ``target()`` phase may run at most ``TARGET_CALLS_PER_EXAMPLE * max_examples`` test
cases (valid or not) per search; then the search ends. Its hill-climber accepts moves that leave
the score unchanged and retries proposals that overrun, so on a flat score (a relative margin of
exactly 1 wherever a side is rounding residue against an exact 0) it ran until Hypothesis's limit of
about 100 invalid test cases per valid one: 20,000 overruns, 140 s instead of 2 s for 200 examples
(Hypothesis 6.170). A count, not a time, so that the search does not depend on the machine's load."""

SHRINK_EVALUATIONS = 1000
"""Candidates evaluated after the first confirmed counterexample; past that, only instances already
confirmed still fail, so Hypothesis's last replay stays consistent and the shrinker winds down.
A count, not a time, so that the shrunk counterexample does not depend on the machine's load."""

CANDIDATE_MARGIN = 1e-8
"""A float64 violation that ball arithmetic cannot certify is a *candidate* counterexample when its relative
margin ``(lhs − rhs)/max(|lhs|, |rhs|)`` is at least this and the high-precision re-evaluation
(:data:`HIGH_PRECISION_BITS`) does not bring it below: far above float64 rounding (about 1e-16 per operation).
Below it in float64, the instance is rounding-level residue and only counted as inconclusive; below it at high
precision, it is counted as not certifiable."""

HIGH_PRECISION_BITS = (128, 256, 512)
"""The precisions, in bits, of the interval re-evaluation of a violation balls could not certify
(:mod:`theorems.engine.search.candidate`), tried in turn until the violation is rounding or stays."""

CANDIDATES_KEPT = 5
"""How many candidates a report keeps (all are counted)."""
