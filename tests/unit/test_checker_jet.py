"""Every operation of the checker's jets (``theorems/checker/jet.py``) against its float original and a
50-digit reference (``checker_reference.py``): values, the centre's gradient, the box's gradient (mean value) and
Hessian (Taylor) enclosures. Operations made too narrow must fail the same check: the test has teeth."""

import numpy as np
import pytest

from checker_reference import check_expression
from theorems.checker import jet as jets

WIDE = ([-2.0, -2.0], [2.0, 2.0])
POSITIVE = ([0.05, 0.05], [3.0, 3.0])
FROM_ZERO = ([0.0, 0.0], [2.0, 2.0])

EXPRESSIONS = {  # name: (f(xp, x, y), domain)
    "add": (lambda xp, x, y: x + y + 1, WIDE),
    "sub": (lambda xp, x, y: x - 2 * y - 0.25, WIDE),
    "mul": (lambda xp, x, y: x * y, WIDE),
    "neg": (lambda xp, x, y: -x * y, WIDE),
    "div": (lambda xp, x, y: x / y, POSITIVE),
    "rdiv": (lambda xp, x, y: 3 / (x + y), POSITIVE),
    "square": (lambda xp, x, y: (x - y) * (x - y), WIDE),
    "power 2": (lambda xp, x, y: (x + y) ** 2, WIDE),
    "power 3": (lambda xp, x, y: (x - y) ** 3, WIDE),
    "power -1": (lambda xp, x, y: x ** -1, POSITIVE),
    "power -2": (lambda xp, x, y: (x + y) ** -2, POSITIVE),
    "real power": (lambda xp, x, y: x ** y, POSITIVE),
    "rpow": (lambda xp, x, y: 2 ** (x - y), WIDE),
    "abs": (lambda xp, x, y: xp.abs(x - y), WIDE),
    "exp": (lambda xp, x, y: xp.exp(x * y), WIDE),
    "expm1": (lambda xp, x, y: xp.expm1(x - y), WIDE),
    "log": (lambda xp, x, y: xp.log(x * y), POSITIVE),
    "sqrt": (lambda xp, x, y: xp.sqrt(x + y), POSITIVE),
    "sqrt from zero": (lambda xp, x, y: xp.sqrt(x * y + 1e-3), FROM_ZERO),
    "tanh": (lambda xp, x, y: xp.tanh(x - y), WIDE),
    "sin": (lambda xp, x, y: xp.sin(x * y), WIDE),
    "cos": (lambda xp, x, y: xp.cos(x + y), WIDE),
    "max": (lambda xp, x, y: xp.max(x, y), WIDE),
    "min": (lambda xp, x, y: xp.min(x * y, y), WIDE),
    "constant 0.1": (lambda xp, x, y: x * 0.1 + xp.number(0.25), WIDE),
    "softmax weight": (lambda xp, x, y: xp.exp(x) / (xp.exp(x) + xp.exp(y) + 1), WIDE),
    "tight product": (lambda xp, x, y: (1 / (1 + xp.exp(-x))) * (1 / (1 + xp.exp(x))), WIDE),
}


def _jet_space():
    """numpy-like names on jets: ``max``/``min`` of two values are the sound jet ones."""
    from types import SimpleNamespace

    from theorems.checker.space import JET

    return SimpleNamespace(**{k: getattr(JET, k) for k in ("exp", "expm1", "log", "sqrt", "tanh", "sin", "cos",
                                                           "abs", "number")},
                           max=jets.maximum, min=jets.minimum)


@pytest.mark.parametrize("name", EXPRESSIONS)
def test_jet_operation_encloses_values_gradients_and_curvature(name):
    expression, (lows, highs) = EXPRESSIONS[name]
    check_expression(expression, lows, highs, jet_space=_jet_space())


def test_a_constant_float_carries_its_ulp_and_a_short_decimal_is_exact():
    with jets.jet_precision():
        assert not jets.arb_of(0.1).is_exact() and jets.arb_of(0.1).contains(jets.arb_of("1/10"))
    assert jets.arb_of(0.25).is_exact() and jets.arb_of(3.0).is_exact()


@pytest.mark.parametrize("part", ["second derivative", "first derivative", "value"])
def test_an_exp_made_too_narrow_is_caught(monkeypatch, part):
    unary = jets._unary

    def narrow(a, f, f1, f2, deg, monotone=0, **named):
        if f is not jets.flint.arb.exp:
            return unary(a, f, f1, f2, deg, monotone=monotone, **named)
        if part == "second derivative":
            return unary(a, f, f1, lambda x, fx, s: fx * 0, deg, monotone=monotone, **named)
        if part == "first derivative":
            return unary(a, f, lambda x, fx: fx / 2, f2, deg, monotone=monotone, **named)
        return unary(a, lambda x: f(x.mid()), f1, f2, deg, **named)  # the value at the ball's centre claimed for the box
    monkeypatch.setattr(jets, "_unary", narrow)
    with pytest.raises(AssertionError, match="outside|in d"):
        check_expression(EXPRESSIONS["exp"][0], *WIDE, jet_space=_jet_space(), boxes=24)


def test_a_product_without_its_cross_term_is_caught(monkeypatch):
    original = jets.Jet.__mul__

    def narrow(self, other):
        result = original(self, other)
        if isinstance(other, jets.Jet) and result.H is not None:
            result.H = tuple(h * 0 for h in result.H)  # drops g_k g_l: a Hessian too narrow
        return result
    monkeypatch.setattr(jets.Jet, "__mul__", narrow)
    with pytest.raises(AssertionError, match="outside"):
        check_expression(EXPRESSIONS["mul"][0], *WIDE, jet_space=_jet_space(), boxes=24)


def test_comparisons_decide_on_exact_ends_or_stay_undecided():
    from fractions import Fraction

    with jets.on_box(jets.Box([Fraction(0)], [Fraction(3, 10)])) as (x,):
        assert x >= 0 and not x < 0 and x <= 0.5  # the box's ball reaches below 0: decided on its exact ends
        with pytest.raises(jets.Undecided):
            x > 0.1
        assert jets.maximum(x * 0, -x) .v.is_zero()  # 0 ≥ −x on the box: the certain larger one, exactly
        assert np.isclose(float(jets.maximum(x, 0.1 + 0 * x).hi), 0.3)
