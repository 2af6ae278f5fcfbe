"""The literature bounds of ``test_literature_bounds.py`` proved on boxes at small ``L``, their 2 % mutants
refuted by ``prove``. Sparsemax is enclosed without a sort (its threshold as a ``max`` of affine forms): its ratio
is exactly 1 on an open region (both supports full, ``x − y ⟂ 1``). It is proved at slack ``1e-6`` since the dual
norm's unit vector and quotients are enclosed to second order there (``theorems/arithmetic/box_jet.py``) and the line
where ``y``'s support changes is a bisection line of its parametrisation (a ``max`` tied on a box's edge is decided).

Domains: logits ``x = (0, −gaps)`` (every vector up to a shift and a permutation, which the sides are
invariant under); for the Lipschitz bounds ``y = x + h·(1, −1)`` with ``h ≥ 0.05`` (at ``L = 2`` every difference
is this one up to a shift of ``y``, which can only lengthen ``‖x − y‖``; the ratio tends to 1 only as
``h → 0``, where both sides vanish and no enclosure decides ``0 ≤ 0``).
"""

import dataclasses

import numpy as np
import pytest
from hypothesis import strategies as st

from test_literature_bounds import BOUNDS, _statement
from theorems import Statement
from theorems.engine.prove.domain import below_zero
from theorems.engine.prove import SUITE_BOXES, prove
from theorems.maths.normalisers import softmax

pytestmark = pytest.mark.theory


def _single(p, xp):
    return {"x": below_zero(p["gaps"])}


def _pair(p, xp):
    x = below_zero(p["gaps"])
    return {"x": x, "y": x + p["h"] * np.array([1.0, -1.0]), "T": p["T"]}


def _kink_aligned(p, xp):
    """``x = (0, 2h − s)``, ``y = x + h·(1, −1)``: ``y``'s logit difference is ``s``, so its support changes on the
    line ``s = 1``, a bisection line of ``s ∈ [0, 16]``, where ``(0, −gaps)`` puts it on a slanted line."""
    x = below_zero(p["s"] - 2 * p["h"])
    return {"x": x, "y": x + p["h"] * np.array([1.0, -1.0]), "T": p["T"]}


_GAPS_H = {"gaps": [(0.0, 10.0)], "h": (0.05, 2.0), "T": 1.0}
DOMAINS = {  # id: pieces (parameters, domain) whose union is proved; the first piece refutes the 2 % mutant
    "logsumexp.upper": [(_single, {"gaps": [(0.0, 10.0)] * 2})],
    "softmax.lipschitz.infinity": [(_pair, _GAPS_H)],
    "softmax.lipschitz.two": [(_pair, _GAPS_H)],
    # gaps ∈ [0, 10], h ∈ [0.05, 2] (T unused) in two pieces: for h ≤ 1/2, s = gaps + 2h ∈ [0, 16] (g = s − 2h ≥ −1:
    # x's support changes at g = −1 only at the corner s = 0, h = 1/2); for h ≥ 1/2, y's support is one logit
    "sparsemax.lipschitz.two": [(_kink_aligned, {"s": [(0.0, 16.0)], "h": (0.05, 0.5), "T": 1.0}),
                                (_pair, {**_GAPS_H, "h": (0.5, 2.0)})],
}
CASES = [pytest.param(b, id=b[0]) for b in BOUNDS if b[0] in DOMAINS]


def _with_domain(bound, constant, piece=0):
    bound_id, lhs, rhs, relation, instances = bound
    parameters, domain = DOMAINS[bound_id][piece]
    return dataclasses.replace(_statement(bound_id, lhs, rhs, relation, instances, constant), parameters=parameters), domain


@pytest.mark.parametrize("bound", CASES)
def test_true_bound_is_proved_and_tightened_by_two_percent_is_refuted(bound):
    for piece in range(len(DOMAINS[bound[0]])):
        statement, domain = _with_domain(bound, 1.0, piece)
        proof = prove(statement, domain, max_seconds=None, max_boxes=SUITE_BOXES)
        assert proof.status == "proved", proof.describe()
    tightened, domain = _with_domain(bound, 0.98)
    refutation = prove(tightened, domain, max_seconds=None, max_boxes=SUITE_BOXES)
    assert refutation.status == "refuted", refutation.describe()
    assert refutation.counterexample.method.startswith("arb ball arithmetic")


def test_sparsemax_pieces_cover_the_gaps_h_domain():
    """The two pieces' union holds every ``(gaps, h) ∈ [0, 10] × [0.05, 2]`` (as the same ``x``, ``y``)."""
    (_, first), (_, second) = DOMAINS["sparsemax.lipschitz.two"]
    rng = np.random.default_rng(0)
    for gap, h in zip(rng.uniform(0, 10, 500).tolist() + [0, 10, 0, 10], rng.uniform(0.05, 2, 500).tolist() + [0.05, 0.05, 2, 2]):
        s = gap + 2 * h
        in_first = first["h"][0] <= h <= first["h"][1] and first["s"][0][0] <= s <= first["s"][0][1]
        in_second = second["h"][0] <= h <= second["h"][1] and second["gaps"][0][0] <= gap <= second["gaps"][0][1]
        assert in_first or in_second, (gap, h)
    point = {"s": np.array([0.7 + 2 * 0.3]), "h": 0.3, "T": 1.0}
    assert np.allclose(_kink_aligned(point, None)["x"], _pair({"gaps": np.array([0.7]), "h": 0.3, "T": 1.0}, None)["x"])


def test_sparsemax_is_not_proved_where_both_sides_vanish():
    bound = next(b for b in BOUNDS if b[0] == "sparsemax.lipschitz.two")
    statement = _statement(*bound, 1.0)
    proof = prove(statement, {"x": [(-1.0, 1.0)] * 2, "y": [(-1.0, 1.0)] * 2}, max_seconds=None,
                  max_boxes=1000)
    assert proof.status == "undecided"  # the box holds x = y, where 0 ≤ 0 is never decided: never "proved"


def _variance(i, xp):
    weights = softmax(temperature=1.0)(i["x"], xp=xp)
    return np.sum(weights * i["v"] ** 2) - np.sum(weights * i["v"]) ** 2


@pytest.mark.parametrize("values", [[1.0, -1.0], [1.0, -1.0, 0.5]], ids=["L2", "L3"])
def test_popoviciu_variance_bound_is_proved_and_tightened_by_two_percent_is_refuted(values):
    """``Var_α(v) ≤ (max v − min v)²/4`` (Popoviciu) for softmax weights: a bound the catalogue does not hold, whose
    sides square a dual (integer powers by products, even ones clipped at 0); tight at ``α = (1/2, 1/2)``."""
    v = np.array(values)

    def statement(constant):
        def rhs(i, xp):
            return xp.number(constant) * (np.max(i["v"]) - np.min(i["v"])) ** 2 / 4
        return Statement(id="literature.popoviciu", title="-", paper_ref="literature", reading="-", formula="-",
                         lhs=_variance, rhs=rhs, relation="<=", expected="holds", reason="-",
                         instances=st.just({"x": np.zeros(len(v)), "v": v}),
                         parameters=lambda p, xp: {"x": below_zero(p["gaps"]), "v": v})
    domain = {"gaps": [(0.0, 10.0)] * (len(v) - 1)}
    proof = prove(statement("1"), domain, max_seconds=None, max_boxes=SUITE_BOXES)
    assert proof.status == "proved", proof.describe()
    refutation = prove(statement("0.98"), domain, max_seconds=None, max_boxes=SUITE_BOXES)
    assert refutation.status == "refuted" and refutation.counterexample.method.startswith("arb ball arithmetic")
