"""False statements whose sides branch on a tie, an equality, a membership or an identity (a helper of
``test_prove_adversarial_*.py``). Each is false at every point of its domain in float64 (its left side is 2 there,
its right side 1), so neither ``prove`` nor the checker may ever say proved: a comparison that fell back to
Python's identity (``x - x == 0`` False, ``(x - x) in [0]`` False, ``max(l) is l[0]`` True) would send the side down
the branch never taken (left side 0) and "prove" it. Domains away from ties where the branch must be decided (``l_0``
certainly the largest)."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from theorems import Statement

TOP_FIRST = {"l": [(1.0, 2.0), (-1.0, 0.0)]}
"""``l_0`` is the largest at every point: ``max(l)`` is decided, and is ``l_0``."""
ANY_PAIR = {"l": [(-1.0, 1.0), (-1.0, 1.0)]}
UNIT = {"x": (0.0, 1.0)}


def _first_index_of_max(l):
    top = np.max(l)
    return next(k for k in range(len(l)) if l[k] == top)


BRANCHES = {
    # name: (left side of the instance, 2 where the claim "lhs ≤ 1" fails, i.e. everywhere in float64; domain)
    "tie-with-max": (lambda i: 2.0 if i["l"][0] - max(i["l"]) == 0 else 0.0, TOP_FIRST),
    "tie-with-np-max": (lambda i: 2.0 if i["l"][0] - np.max(i["l"]) == 0 else 0.0, TOP_FIRST),
    "first-index-of-the-max": (lambda i: 2.0 if _first_index_of_max(i["l"]) == 0 else 0.0, TOP_FIRST),
    "abs-x-minus-x-equals-0": (lambda i: 2.0 if abs(i["x"]) - i["x"] == 0 else 0.0, UNIT),
    "x-minus-x-in-list-of-0": (lambda i: 2.0 if (i["x"] - i["x"]) in [0] else 0.0, UNIT),
    "x-minus-x-not-equal-0": (lambda i: 0.0 if (i["x"] - i["x"]) != 0 else 2.0, UNIT),
    "np-where-a-equals-b": (lambda i: np.where(i["l"] + 0 == i["l"], 2.0, 0.0), ANY_PAIR),
    # bitwise: these sides branch on exact equality on purpose (the adversarial tie tests), never as a float claim
    "np-equal": (lambda i: 2.0 if bool(np.all(np.equal(i["l"] * 1, i["l"]))) else 0.0, ANY_PAIR),
    "np-array-equal": (lambda i: 2.0 if np.array_equal(i["l"], i["l"] + 0) else 0.0, ANY_PAIR),
    "max-is-not-l0": (lambda i: 2.0 if np.max(i["l"]) is not i["l"][0] else 0.0, TOP_FIRST),
    "abs-y-is-not-y": (lambda i: (lambda y: 2.0 if abs(y) is not y else 0.0)(i["x"] + 1), UNIT),
    "sorted-by-a-key": (lambda i: 2.0 if sorted(range(2), key=lambda k: i["l"][k])[0] == 1 else 0.0, TOP_FIRST),
}


def statement(name: str) -> Statement:
    """The false statement ``lhs ≤ 1`` of ``BRANCHES[name]``."""
    branch, domain = BRANCHES[name]
    key = next(iter(domain))
    draws = (st.lists(st.floats(-1, 1), min_size=2, max_size=2).map(np.array) if key == "l" else st.floats(0, 1))
    return Statement(id=f"adversarial.{name}", title=name, paper_ref="-", reading="-", formula=f"{name} branch ≤ 1",
                     relation="<=", instances=st.fixed_dictionaries({key: draws}), expected="refuted", reason="-",
                     lhs=lambda i, xp: branch(i), rhs=lambda i, xp: 1.0)


def domain(name: str) -> dict:
    return BRANCHES[name][1]
