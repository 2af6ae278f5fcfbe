"""A domain end means the decimal written: ``T ∈ (0.1, 10)`` is ``T ∈ [1/10, 10]``, though no float is 1/10 (the
float 0.1 is above it). The box proved is widened to hold it, a bound false at ``T = 1/10`` is never proved there, a
violation only in the widening (below 1/10) refutes nothing, and the printed theorem states the box proved: the
decimal written when the box holds it, never a rounded-looking number it does not hold."""

import json
from fractions import Fraction

import numpy as np
from hypothesis import strategies as st

from theorems import Statement
from theorems.arithmetic.decimals import interval_text, outward
from theorems import verify_proof
from theorems.engine.prove import prove

FLOAT_TENTH = 3602879701896397
"""``fl(0.1) = FLOAT_TENTH / 2⁵⁵``, just above 1/10: the sides below build it exactly (integers and a power of 2)."""


def _at_least(threshold, name: str) -> Statement:
    """``T ≥ threshold(xp)``, built in a function (the pytest plugin checks module-level statements)."""
    return Statement(id=f"test.t-at-least-{name}", title="-", paper_ref="-", reading="-", formula=f"T ≥ {name}",
                     relation=">=", instances=st.fixed_dictionaries({"T": st.floats(0.2, 10)}), expected="holds",
                     reason="-", lhs=lambda i, xp: i["T"], rhs=lambda i, xp: threshold(xp))


def _above_the_tenth():
    """``T ≥ fl(0.1)``: false at ``T = 1/10`` (and on ``[1/10, fl(0.1))``), true on ``[fl(0.1), 10]``."""
    return _at_least(lambda xp: xp.number(FLOAT_TENTH) / 2 ** 55, "float-tenth")


def _the_tenth():
    """``T ≥ 1/10`` exactly: true on ``[1/10, 10]``, false at the float just below 1/10."""
    return _at_least(lambda xp: xp.number(1) / 10, "tenth")


def test_a_bound_false_only_at_the_decimal_end_is_not_proved():
    proof = prove(_above_the_tenth(), {"T": (0.1, 10.0)}, slack=0.0, max_seconds=None, max_boxes=2000)
    assert proof.status != "proved", proof.describe()


def test_it_is_proved_where_it_holds_and_the_domain_printed_is_the_one_written():
    proof = prove(_above_the_tenth(), {"T": (0.1000004, 10.0)}, slack=0.0, max_seconds=None, max_boxes=2000)
    assert proof.status == "proved", proof.describe()
    assert proof.domain == "T ∈ [0.1000004, 10]" and proof.scope().startswith("T ∈ [0.1000004, 10]")


def test_a_violation_only_below_the_decimal_refutes_nothing():
    """The float below 1/10 is in the widened box, not in the domain asked about: ``T ≥ 1/10`` holds on
    ``[1/10, 10]`` and must not be refuted there (it cannot be proved on the widened box either)."""
    proof = prove(_the_tenth(), {"T": (0.1, 10.0)}, slack=0.0, max_seconds=None, max_boxes=2000)
    assert proof.status != "refuted", proof.describe()


def test_the_certificate_holds_the_decimal_and_the_checker_prints_it(tmp_path):
    path = tmp_path / "proof.json"
    proof = prove(_at_least(lambda xp: xp.number(0), "zero"), {"T": (0.1, 0.3)}, max_seconds=None, max_boxes=100,
                  certificate=path)
    assert proof.status == "proved" and proof.checker == "proved", proof.describe()
    low, high = json.loads(path.read_text(encoding="utf-8"))["domain"]["T"]["interval"]
    assert Fraction(low) <= Fraction("0.1") and Fraction(high) >= Fraction("0.3")
    assert (low, high) == outward(0.1, 0.3)
    assert verify_proof(path, statement=_at_least(lambda xp: xp.number(0), "zero")).domain == "T ∈ [0.1, 0.3]"


def _digits(text: str) -> int:
    return len(text.lstrip("-").split("e")[0].replace(".", "").strip("0"))


def test_what_is_printed_lies_in_the_box_proved():
    """The written decimal where it is printed as such (short ones: the usual), and at any rate a decimal no longer
    than it inside the box proved; the bare floats printed without claiming an end beyond them."""
    for low, high in [(0.1, 10.0), (0.05, 20.0), (0.1000004, 1.0), (1e-7, 1.0), (-0.3, 0.7), (2.5e-8, 3.14159)]:
        assert interval_text(*outward(low, high)) == (repr(low).replace("e-0", "e-"), repr(high).rstrip("0").rstrip("."))
    rng = np.random.default_rng(0)
    for low, high in [tuple(sorted(map(float, rng.uniform(-10, 10, 2)))) for _ in range(200)] + [
            tuple(sorted(map(float, rng.uniform(-10, 10, 2) * 10.0 ** rng.integers(-12, 12)))) for _ in range(200)]:
        box = outward(low, high)
        shown = interval_text(*box)
        assert Fraction(box[0]) <= Fraction(shown[0]) <= Fraction(shown[1]) <= Fraction(box[1]), (low, high, shown)
        assert _digits(shown[0]) <= _digits(repr(low)) and _digits(shown[1]) <= _digits(repr(high)), (low, high, shown)
        float_low, float_high = interval_text(low, high)
        assert Fraction(low) <= Fraction(float_low) <= Fraction(float_high) <= Fraction(high), (low, high)


def test_a_bound_false_only_at_an_end_is_refuted_at_that_end():
    """``x ≤ 2 − 2⁻⁴⁰`` on ``x ∈ [0, 2]``: false only within ``2⁻⁴⁰`` of the end, which no sampled point meets; the
    monotone face leads to the vertex ``x = 2``, where the violation is certified."""
    below_two = Statement(id="test.below-two", title="-", paper_ref="-", reading="-", formula="x ≤ 2 − 2⁻⁴⁰",
                          relation="<=", instances=st.fixed_dictionaries({"x": st.floats(0, 1)}), expected="holds",
                          reason="-", lhs=lambda i, xp: i["x"], rhs=lambda i, xp: 2 - xp.number(1) / 2 ** 40)
    proof = prove(below_two, {"x": (0.0, 2.0)}, slack=0.0, max_seconds=None, max_boxes=2000)
    assert proof.status == "refuted" and proof.counterexample.instance["x"] == 2.0 and proof.boxes <= 2, \
        proof.describe()
