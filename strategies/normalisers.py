"""Normalisers of the catalogue, grouped by the hypotheses of Lemma 1 they satisfy.

>>> from strategies import normalisers
>>> normalisers(family="length-independent").example().general_form
True
"""

from __future__ import annotations

from hypothesis import strategies as st

from strategies.temperatures import temperatures
from strategies.arguments import validated_strategy
from theorems.arithmetic.validation import check_choice
from theorems.maths import normalisers as nz

FAMILIES = ("length-independent", "length-dependent", "exact-zeros", "any")


@validated_strategy
def normalisers(*, family: str = "any") -> st.SearchStrategy[nz.Normaliser]:
    """``length-independent``: strictly positive ``F`` not depending on ``L`` (Lemma 1's hypotheses);
    ``length-dependent``: Scalable-Softmax; ``exact-zeros``: sparsemax and entmax; ``any``: all."""
    check_choice(family, name="family", choices=FAMILIES)
    independent = st.one_of(
        temperatures(min_value=0.1, max_value=10.0).map(lambda t: nz.softmax(temperature=t)),
        st.floats(0.1, 3.0).map(lambda c: nz.exp_sine(c=c)),
    )
    dependent = st.floats(0.25, 2.0).map(lambda s: nz.scalable_softmax(s=s))
    zeros = st.sampled_from([nz.sparsemax(), nz.entmax15()])
    return {"length-independent": independent, "length-dependent": dependent, "exact-zeros": zeros,
            "any": st.one_of(independent, dependent, zeros)}[family]
