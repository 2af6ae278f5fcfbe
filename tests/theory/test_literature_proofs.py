"""The literature bounds of ``test_literature_bounds.py`` proved on boxes at small ``L``, their 2 % mutants
refuted by ``prove``; sparsemax (a sort of wide balls) has no proof here.

Domains: logits ``x = (0, −gaps)`` (every vector up to a shift and a permutation, which the sides are
invariant under); for the Lipschitz bounds ``y = x + h·(1, −1)`` with ``h ≥ 0.05`` (at ``L = 2`` every difference
is this one up to a shift of ``y``, which can only lengthen ``‖x − y‖``; the ratio tends to 1 only as
``h → 0``, where both sides vanish and no enclosure decides ``0 ≤ 0``).
"""

import dataclasses

import numpy as np
import pytest

from test_literature_bounds import BOUNDS, _statement
from theorems.engine.boxes import below_zero
from theorems.engine.proof import prove

pytestmark = pytest.mark.theory


def _single(p, xp):
    return {"x": below_zero(p["gaps"])}


def _pair(p, xp):
    x = below_zero(p["gaps"])
    return {"x": x, "y": x + p["h"] * np.array([1.0, -1.0]), "T": p["T"]}


DOMAINS = {  # id: (parameters, domain)
    "logsumexp.upper": (_single, {"gaps": [(0.0, 10.0)] * 2}),
    "softmax.lipschitz.infinity": (_pair, {"gaps": [(0.0, 10.0)], "h": (0.05, 2.0), "T": 1.0}),
    "softmax.lipschitz.two": (_pair, {"gaps": [(0.0, 10.0)], "h": (0.05, 2.0), "T": 1.0}),
}
CASES = [b for b in BOUNDS if b[0] in DOMAINS]


def _with_domain(bound, constant):
    bound_id, lhs, rhs, relation, instances = bound
    parameters, domain = DOMAINS[bound_id]
    return dataclasses.replace(_statement(bound_id, lhs, rhs, relation, instances, constant), parameters=parameters), domain


@pytest.mark.parametrize("bound", CASES, ids=[b[0] for b in CASES])
def test_true_bound_is_proved_and_tightened_by_two_percent_is_refuted(bound):
    statement, domain = _with_domain(bound, 1.0)
    proof = prove(statement, domain, max_seconds=60)
    assert proof.status == "proved", proof.describe()
    tightened, _ = _with_domain(bound, 0.98)
    refutation = prove(tightened, domain, max_seconds=60)
    assert refutation.status == "refuted", refutation.describe()
    assert refutation.counterexample.method.startswith("arb ball arithmetic")


def test_sparsemax_has_no_proof_on_a_box():
    bound = next(b for b in BOUNDS if b[0] == "sparsemax.lipschitz.two")
    statement = _statement(*bound, 1.0)
    proof = prove(statement, {"x": [(-1.0, 1.0)] * 2, "y": [(-1.0, 1.0)] * 2}, max_seconds=3)
    assert proof.status == "undecided"  # its sort compares overlapping balls: never "proved" by accident
