"""The checker's public screen of a claimed reduction (``theorems.checker.screen``, what the prover calls before it
proves a base domain): one graded evaluation of the sides on the whole base box passes for homogeneous sides, fails
for sides whose degrees differ (the paper's capped ``min{1/(4T), √2}``: a ``min`` of degrees −1 and 0) and for a
side that is no real number; it is a screen, never a proof."""

import dataclasses

import pytest

from theorems import STATEMENTS
from theorems.checker import screen
from theorems.engine.prove import reduction

SPECTRAL = STATEMENTS["corollary3.spectral.corrected"]
DOMAIN = {"gaps": [(0.0, 10.0)], "T": (0.5, 2.0)}
DEGREES = {"gaps": 1, "T": 1}


def _capped(i, xp):
    quarter, root2 = 1 / (4 * i["T"]), xp.sqrt(xp.number(2))
    return quarter if quarter < root2 else root2


def _certificate(statement):
    base = reduction.base_domain(DOMAIN, DEGREES)
    data = reduction.certificate_json(statement=statement, domain=DOMAIN, slack=1e-6, leaves=[],
                                      reduction=reduction.reduction_json(DOMAIN, DEGREES))
    data["boxes"] = [{"low": [base["gaps"][0][0]], "high": [base["gaps"][0][1]]}]
    return data


def test_homogeneous_sides_pass_the_screen():
    assert screen(_certificate(SPECTRAL), SPECTRAL) is True
    assert reduction.plausible(SPECTRAL, DOMAIN, DEGREES, 1e-6) is True


@pytest.mark.parametrize("rhs, why", [(_capped, "degrees -1 and 0"),
                                      (lambda i, xp: None, "a side that is no real number")],
                         ids=["capped", "not a number"])
def test_sides_the_reduction_cannot_hold_for_fail_it(rhs, why):
    statement = dataclasses.replace(SPECTRAL, id="corollary3.spectral.screened", rhs=rhs)
    assert screen(_certificate(statement), statement) is False, why
    assert reduction.plausible(statement, DOMAIN, DEGREES, 1e-6) is False
