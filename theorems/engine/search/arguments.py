"""The argument checks of the search's entry points: clear errors naming the argument, before any search.

>>> check_statement("lemma1.upper")
Traceback (most recent call last):
    ...
theorems.errors.InvalidArgumentType: statement must be a Statement, not str 'lemma1.upper'; look it up first: STATEMENTS['lemma1.upper']
"""

from __future__ import annotations

from theorems.arithmetic.validation import check_integer
from theorems.engine.search.limits import MAX_EXAMPLES, SHRINK_EVALUATIONS
from theorems.engine.statement import Statement
from theorems.errors import InvalidArgumentType


def check_statement(statement) -> Statement:
    if not isinstance(statement, Statement):
        hint = (f"; look it up first: STATEMENTS[{statement!r}]" if isinstance(statement, str) else "")
        raise InvalidArgumentType(f"statement must be a Statement, not {type(statement).__name__} {statement!r}{hint}")
    return statement


def check_search_arguments(*, max_examples=None, seed=None, shrink_evaluations=SHRINK_EVALUATIONS,
                           progress=None) -> None:
    """The argument checks of :func:`investigate`, :func:`refute`, :func:`check` and :func:`necessity`.

    >>> check_search_arguments(seed=[1, 2])
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgumentType: seed=[1, 2] must be an integer, not list (or None for Hypothesis's own choice)
    """
    if max_examples is not None:
        check_integer(max_examples, name="max_examples", min_value=1, max_value=MAX_EXAMPLES,
                      hint=(f": a larger budget cannot finish (at 100–3000 examples/s, {MAX_EXAMPLES} already takes "
                            "minutes to hours); run several seeds instead (--seed 0, 1, 2 ...)"))
    if seed is not None:
        check_integer(seed, name="seed", min_value=0, hint=" (or None for Hypothesis's own choice)")
    check_integer(shrink_evaluations, name="shrink_evaluations", min_value=1,
                  hint=" (candidates evaluated while shrinking a counterexample; the default is "
                       f"{SHRINK_EVALUATIONS})")
    if progress is not None and not callable(progress):
        raise InvalidArgumentType(f"progress={progress!r} must be None or a function (examples, seconds) -> None, "
                                  f"called every few seconds of a long search; not {type(progress).__name__}")
