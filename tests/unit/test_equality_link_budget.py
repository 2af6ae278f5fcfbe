"""An `=` link costs one link's budget, not two searches, stops at a refuted `≤`, and shows its inconclusive count."""

from hypothesis import strategies as st

from theorems import Derivation, Link, Term, gate
from theorems.engine import derivation
from theorems.engine.derivation import describe_report

X = st.fixed_dictionaries({"x": st.floats(0, 1)})
START = Term("x", lambda i, xp: i["x"])


def _budgets(monkeypatch, links, instances=X) -> list:
    seen, check = [], derivation.check

    def spy(statement, *, max_examples=None, seed=None):
        seen.append(max_examples)
        return check(statement, max_examples=max_examples, seed=seed)

    monkeypatch.setattr(derivation, "check", spy)
    report = gate(Derivation(id="my.eq", title="-", instances=instances, start=START, links=links), max_examples=40, seed=0)
    return seen, report


def test_both_directions_of_an_equality_share_the_links_budget(monkeypatch):
    seen, report = _budgets(monkeypatch, (Link("=", Term("x + 0", lambda i, xp: i["x"] + 0), "adding zero"),))
    assert seen == [20, 20] and report.links[0].found == "holds"


def test_a_refuted_le_direction_ends_the_equality_link(monkeypatch):
    seen, report = _budgets(monkeypatch, (Link("=", Term("x/2", lambda i, xp: i["x"] / 2), "wrong", expected="refuted"),))
    assert seen[0] == 20 and report.links[0].found == "refuted" and len(report.links[0].verdicts) == 1
    assert seen[1:] == [40]  # then the conclusion, searched directly because a link fails


def test_the_inconclusive_count_of_a_link_is_shown(monkeypatch):
    # exp(log x) is x up to rounding: float64 flags some instances, which ball arithmetic can only call inconclusive
    roundtrip = Term("exp(log x)", lambda i, xp: xp.exp(xp.log(i["x"])))
    _, report = _budgets(monkeypatch, (Link("=", roundtrip, "exp inverts log"),),
                         instances=st.fixed_dictionaries({"x": st.floats(0.1, 1)}))
    link = report.links[0]
    assert link.found == "holds" and link.inconclusive > 0
    assert link.inconclusive == sum(v.report.inconclusive for v in link.verdicts)
    assert f"exp inverts log: holds, {link.inconclusive} inconclusive" in describe_report(report)
