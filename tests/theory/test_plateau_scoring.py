"""An element met with equality (the largest entmax entry bounded by itself, ratio exactly 1) does not hide
the other elements from the search: the score is the largest ratio past equality cases, and a bound on the
non-largest entries of an entmax output tightened by 2 % is refuted at every seed."""

import numpy as np
import pytest
from hypothesis import strategies as st

from strategies import logits
from theorems import Statement
from theorems.engine.search import float_outcome, check
from theorems.maths.normalisers import entmax15


def _sorted_weights(i, xp):
    return np.sort(entmax15()(i["l"], xp=xp))[::-1]


def _bound(c):
    # the largest entry is bounded by 1 (often met exactly: entmax is sparse), the k-th by c/k
    return lambda i, xp: np.where(np.arange(1, len(i["l"]) + 1) == 1, 1.0, c / np.arange(1, len(i["l"]) + 1))


_SORTED = Statement(id="my.entmax.sorted", title="t", paper_ref="p", reading="r", formula="p_(k) ≤ 1/k",
                    lhs=_sorted_weights, rhs=_bound(1.0), relation="<=", expected="holds", reason="k p_(k) ≤ Σ p",
                    instances=st.fixed_dictionaries({"l": logits(bound=5.0, min_length=2, max_length=6)}))


def test_the_score_looks_past_an_element_met_with_equality():
    one_hot = {"l": np.array([5.0, -5.0, -5.0])}  # entmax: (1, 0, 0), the first entry at ratio exactly 1
    relative, suspicious, ratio, lhs, rhs, score = float_outcome(_SORTED, one_hot)
    assert ratio == 1.0 and score == 0.0 and not suspicious
    near_tie = {"l": np.array([1.0, 0.9, -5.0])}
    *_, ratio, lhs, rhs, score = float_outcome(_SORTED, near_tie)
    assert 0 < score < 1 and score == pytest.approx(2 * lhs)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_two_percent_tighter_bound_on_the_smaller_entries_is_refuted(seed):
    import dataclasses

    tight = dataclasses.replace(_SORTED, id="my.entmax.tight", rhs=_bound(0.98))
    assert check(tight, seed=seed).found == "refuted"
    assert check(_SORTED, seed=seed).found == "holds"
