"""A derivation that declares a domain has each holding link proved there, and ``describe_report`` says so;
a link that is false on the domain (but not on the searched instances) is refuted by its proof."""

import numpy as np
from hypothesis import strategies as st

from theorems import Derivation, Link, Term, gate
from theorems.engine.derivation import describe_report

X = st.fixed_dictionaries({"x": st.floats(0, 1).map(np.float64)})
EXP = Term("e^x", lambda i, xp: xp.exp(i["x"]))
LINEAR = Term("1 + x", lambda i, xp: 1 + i["x"])


def _chain(last: Term, domain) -> Derivation:
    return Derivation(id="test.exp-chain", title="e^x bounded below", instances=X, start=EXP,
                      links=(Link(">=", LINEAR, "convexity of exp"), Link(">=", last, "x >= 0")), prove=domain,
                      max_examples=50)


def test_every_link_is_proved_on_the_domain():
    report = gate(_chain(Term("1", lambda i, xp: xp.number(1)), {"x": (0.0, 2.0)}), seed=0)
    assert [p.status for r in report.links for p in r.proofs] == ["proved", "proved"]
    assert describe_report(report).count("proved on x ∈ [0, 2]") == 2


def test_a_link_false_on_the_domain_is_refuted_by_its_proof():
    # 1 + x >= 1.5 x holds for x <= 2 (the searched x <= 1) and fails on x ∈ (2, 3]
    report = gate(_chain(Term("1.5 x", lambda i, xp: 1.5 * i["x"]), {"x": (0.0, 3.0)}), seed=0)
    assert report.links[1].verdicts[0].found == "holds"  # the search over x <= 1 finds nothing
    assert report.links[1].proofs[0].status == "refuted"
    assert report.links[1].found == "refuted" and report.first_failure.index == 2
    assert report.links[1].counterexample.instance["x"] > 2
