"""``prove`` refuses a domain that asks a meaningless question, before any work, with an error naming the key: a
missing or unknown key, a value that is not finite, a temperature that is not a positive normal number; and it
answers every well-formed domain within its limits: a domain needing more precision than the reduction allows, a
side with no enclosure (``np.hypot``), a time limit spent."""

import numpy as np
import pytest
from hypothesis import strategies as st

from theorems import STATEMENTS, Statement
from theorems.engine.prove import run
from theorems.engine.prove import prove
from theorems.errors import InvalidArgument

ROW = STATEMENTS["corollary3.row.corrected"]
LEMMA = STATEMENTS["lemma1.upper"]


@pytest.fixture
def no_search(monkeypatch):
    """A refused domain must be refused before the search: reaching it fails the test."""
    def reached(*args, **kwargs):
        raise AssertionError("the search started")
    monkeypatch.setattr(run, "search_on", reached)
    monkeypatch.setattr(run, "_reduced", reached)


@pytest.mark.parametrize("domain, message", [
    ({"gaps": [(0.0, 10.0)], "T": float("inf")}, "domain['T']=inf: every value must be a finite number, not inf or nan"),
    ({"gaps": [(0.0, 10.0)], "T": float("nan")}, "domain['T']=nan: every value must be a finite number"),
    ({"gaps": [(0.0, 10.0)], "T": -1.0}, "domain['T']=-1.0: T is a temperature (softmax(l/T) with T > 0)"),
    ({"gaps": [(0.0, 10.0)], "T": 0.0}, "domain['T']=0.0: T is a temperature"),
    ({"gaps": [(0.0, 10.0)], "T": (-1.0, 2.0)}, "domain['T']=(-1.0, 2.0): T is a temperature"),
    ({"gaps": [(0.0, 10.0)], "T": (1e-320, 1.0)}, "normal (at least 2.23e-308); 1e-320 is not"),
    ({"gaps": [(0.0, 10.0)]}, "domain has no key 'T', which 'corollary3.row.corrected' reads (its parameters)"),
    ({"T": (0.5, 2.0)}, "domain has no key 'gaps'"),
    ({"logits": [(0.0, 1.0), (0.0, 0.0)], "T": 1.0}, "domain has no key 'gaps'"),
    ({"gaps": [(0.0, 10.0)], "T": 1.0, "eps": (0.1, 1.0)}, "domain['eps']: 'corollary3.row.corrected' does not read"),
    ({"gaps": [(0.0, 10.0)], "temperature": 1.0, "T": 1.0}, "domain['temperature']"),
])
def test_a_meaningless_domain_is_refused_naming_the_key(no_search, domain, message):
    with pytest.raises(InvalidArgument) as error:
        prove(ROW, domain)
    assert message in str(error.value)


def test_a_statement_that_reads_either_of_two_keys_takes_either():
    """Lemma 1's parametrisation reads ``T`` when the domain has it, else ``normaliser``: both are its keys."""
    with_t = prove(LEMMA, {"T": (0.5, 2.0), "a": (0.001, 2.0), "L0": 2, "u": [(-1.0, 1.0)] * 2},
                   max_seconds=None, max_boxes=SMALL)
    assert with_t.status in ("proved", "undecided")
    with pytest.raises(InvalidArgument, match="domain has no key 'normaliser', which 'lemma1.upper' reads \\(its "
                                               "parameters; it also looks for 'T'\\)"):
        prove(LEMMA, {"a": (0.001, 2.0), "L0": 2, "u": [(-1.0, 1.0)] * 2})


SMALL = 50


def test_a_domain_beyond_the_reductions_precision_keeps_t_in_the_box_and_stops():
    """``T`` down to ``1e-7``: ``l/T`` up to ``10⁸`` at ``T = 1`` would need ``6·10⁸`` bits (the issue: 150 s and
    1.6 GB past a 10 s limit); the reduction is skipped and the box budget ends it."""
    proof = prove(ROW, {"gaps": [(0.0, 10.0)], "T": (1e-7, 1.0)}, max_seconds=None, max_boxes=SMALL)
    assert proof.status == "undecided" and proof.boxes == SMALL and "box budget" in proof.detail, proof.describe()
    assert "T a coordinate of the box" in proof.method


def test_a_spent_time_limit_stops_before_the_next_box():
    proof = prove(ROW, {"gaps": [(0.0, 10.0)], "T": (0.1, 10.0)}, max_seconds=1e-9)
    assert proof.status == "undecided" and proof.boxes <= 1 and "time limit" in proof.detail, proof.describe()


def _hypot():
    return Statement(id="test.hypot", title="-", paper_ref="-", reading="-", formula="hypot(x, y) ≤ x + y + 0.1",
                     relation="<=", instances=st.fixed_dictionaries({"x": st.floats(0, 1), "y": st.floats(0, 1)}),
                     expected="holds", reason="-", lhs=lambda i, xp: np.hypot(i["x"], i["y"]),
                     rhs=lambda i, xp: i["x"] + i["y"] + 0.1)


def test_an_operation_without_an_enclosure_is_undecided_with_its_reason():
    proof = prove(_hypot(), {"x": (0.0, 1.0), "y": (0.0, 1.0)}, max_seconds=None, max_boxes=SMALL)
    assert proof.status == "undecided" and "no ball form on a box" in proof.detail and "hypot" in proof.detail


def test_no_limit_at_all_is_refused():
    with pytest.raises(InvalidArgument, match="max_seconds=None needs max_boxes"):
        prove(ROW, max_seconds=None)
