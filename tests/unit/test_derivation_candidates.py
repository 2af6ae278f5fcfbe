"""A derivation link whose violation balls cannot certify (a function with no ball form) fails as a
candidate, named as the first failing link: it never passes as "holds"."""

import scipy.special
from hypothesis import strategies as st

from theorems.engine.derivation import Derivation, Link, Term, describe_report, gate


def test_a_candidate_link_is_the_first_failure():
    chain = Derivation(
        id="my.erf-chain", title="erf(x) <= 0.9 <= 1", expected="holds",
        instances=st.fixed_dictionaries({"x": st.floats(0, 3)}),
        start=Term("erf(x)", lambda i, xp: scipy.special.erf(i["x"])),
        links=(Link("<=", Term("0.9", lambda i, xp: 0.9), "erf stays below 0.9 (false)"),
               Link("<=", Term("1", lambda i, xp: 1.0), "0.9 <= 1")))
    report = gate(chain, max_examples=100, seed=0)
    assert report.first_failure is not None and report.first_failure.index == 1
    assert report.first_failure.found == "candidate" and not report.first_failure.matches
    assert "scipy.special.erf has no ball form here" in describe_report(report)
