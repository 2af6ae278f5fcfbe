"""A side with no value somewhere in the domain (nan, a raising side) is never "proved" there."""

import numpy as np
from hypothesis import strategies as st

from theorems import Statement
from theorems.engine.prove import SUITE_BOXES, prove

_LOG = dict(paper_ref="-", reading="-", formula="log x <= x", relation="<=", expected="holds", reason="-",
            instances=st.fixed_dictionaries({"x": st.floats(0.1, 2).map(np.float64)}),
            lhs=lambda i, xp: xp.log(i["x"]), rhs=lambda i, xp: i["x"])


def test_a_nan_side_inside_the_domain_is_undecided_and_says_so():
    proof = prove(Statement(id="test.log-below-identity", title="-", **_LOG), {"x": (-1.0, 2.0)},
                  max_seconds=None, max_boxes=SUITE_BOXES)
    assert proof.status == "undecided" and "ill-defined" in proof.detail


def test_the_same_bound_where_it_is_defined_is_proved():
    assert prove(Statement(id="test.log-below-identity", title="-", **_LOG), {"x": (0.1, 2.0)},
                  max_seconds=None, max_boxes=SUITE_BOXES).status == "proved"
