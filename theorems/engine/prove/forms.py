"""The enclosures of a claim on a box: a :class:`Method` (the jets of one order of :mod:`theorems.arithmetic.box_jet`:
:data:`MEAN_VALUE`, order 1; :data:`TAYLOR2`, order 2) and the claim ``g`` it encloses for ``small ≤ big +
slack·|big|``: ``small/big − (1 + slack)`` where ``big > 0`` is certain (a common factor of both sides cancels, as
``1/T`` does), ``small − (1 − slack)·big`` where ``big ≤ 0`` is, ``small − (1 + slack)·big`` elsewhere; and what is
read off an enclosure (certainly ``≤ 0``, its upper end, the ratio it proves).
"""

from __future__ import annotations

import dataclasses

import flint
import numpy as np

from theorems.arithmetic.box_jet import JETS, SPACES, BoxJet, as_jet
from theorems.arithmetic.precision import Ball, Undecided
from theorems.errors import nothing_hidden
from theorems.engine.prove.domain import Domain, jet_instance
from theorems.engine.prove.state import BranchAndBound, ordered, sides


@dataclasses.dataclass(frozen=True)
class Method:
    """An enclosure of the sides on a box: its name (the certificate's method) and the order of its jets;
    ``declines``: what its evaluation raises where it cannot enclose the sides on a box (then the box is bisected)."""

    name: str
    order: int
    declines: tuple

    @property
    def xp(self):
        """The backend its sides are evaluated against (``DUAL``, ``TAYLOR``)."""
        return SPACES[self.order]

    def instance(self, domain: Domain, lows, highs):
        """The instance of jets on the box (a context manager: the box is the jets' context)."""
        return jet_instance(domain, lows, highs, order=self.order)

    def convert(self, value) -> BoxJet:
        """A side's element as a jet of this order (a constant too: an exact ball)."""
        return as_jet(value, JETS[self.order])


MEAN_VALUE = Method("mean-value", 1, (Undecided, ZeroDivisionError, ValueError, OverflowError))
TAYLOR2 = Method("taylor2", 2, (Exception,))
"""The second-order form only tightens what the mean-value form leaves open: where it cannot evaluate a side (an
operation without a second-order rule, a kink), the box is left to the mean-value form and to bisection."""


def evaluate(search: BranchAndBound, lows, highs, method: Method = MEAN_VALUE, forms=None):
    """``(g, small, big)`` as flat arrays of ``method``'s enclosures on the box, ``g`` the claim in whichever form is
    provable (:func:`claim`; ``forms``: ``{element: form}`` to keep, as on a face); each is ``≤ 0`` only where
    ``small ≤ big + slack·|big|`` holds."""
    with method.instance(search.domain, lows, highs) as instance:
        return claims(search, instance, method, forms)


def claims(search: BranchAndBound, instance, method: Method, forms=None):
    """``(g, small, big)`` of :func:`evaluate` on an instance of ``method``'s jets (inside its box's context). An
    ``Undecided`` (or another exception the watch sees) raised while the sides run fails the
    evaluation even where a side caught it (``try: ... except ArithmeticError: return 0``): it is raised again."""
    with nothing_hidden():
        _, (lhs, rhs) = sides(search.statement, instance, method.xp)
    small, big = (np.atleast_1d(np.asarray(side, dtype=object)) for side in ordered(search.statement, lhs, rhs))
    small, big = (np.array([method.convert(x) for x in side.ravel()], dtype=object)  # constants too: exact balls
                  for side in np.broadcast_arrays(small, big))
    forms = forms or {}  # in the box's context: a jet's arithmetic needs its box (a constant's empty Hessian too)
    g = np.array([claim(s, b, search.slack, forms.get(at)) for at, (s, b) in enumerate(zip(small, big))], dtype=object)
    return g, small, big


def claim(small, big, slack: float, form: str | None = None):
    """``g`` for ``small ≤ big + slack·|big|`` in the form ``form`` (``None``: :func:`form_of` ``big`` on the box),
    smooth on the box: ``"ratio"``, ``small/big − (1 + slack)`` (only where ``big > 0`` is certain: the same sign as
    the claim); ``"nonpositive"``, ``small − (1 − slack)·big``; ``"difference"``, ``small − (1 + slack)·big``. Each of
    the last two is ``≤ 0`` only where the claim holds (``∓slack·big ≤ slack·|big|``), whatever the sign of ``big``;
    a face of the box keeps the box's form (a face argument bounds the box's ``g``, not another form's)."""
    form = form or form_of(big)
    one, margin = flint.arb(1), flint.arb(slack)  # exactly 1 ± slack (a float sum would round)
    if form == "ratio":
        return small / big - (one + margin)
    return small - big * (one - margin if form == "nonpositive" else one + margin)


def form_of(big) -> str:
    """The form of the claim on a box where the enclosure of ``big`` is ``big`` (:func:`claim`): ``"ratio"`` where
    ``big > 0`` is certain, ``"nonpositive"`` where ``big ≤ 0`` is (``small − (1 + slack)·big`` would claim *more*
    than the statement there, false on a tight set with ``big < 0``), ``"difference"`` elsewhere."""
    if certainly_positive(big):
        return "ratio"
    return "nonpositive" if certainly_nonpositive(big) else "difference"


def enclosure(value):
    """A jet's value (on the box), or a constant's ball."""
    return value.value if isinstance(value, BoxJet) else Ball(value).arb


def certainly_positive(value) -> bool:
    return bool(enclosure(value) > 0)


def certainly_nonpositive(g) -> bool:
    value = enclosure(g)
    return bool(value.is_finite() and value.upper() <= 0)


def upper_of(value) -> float:
    value = enclosure(value)
    upper = float(value.upper()) if value.is_finite() else np.inf
    return np.nextafter(upper, np.inf)


def centre_of(value):
    return value.centre if isinstance(value, BoxJet) else Ball(value).arb


def ratio_upper(search: BranchAndBound, small, big) -> float:
    ceiling = 1 + search.slack
    big_value, small_value = enclosure(big), enclosure(small)
    if not big_value > 0:
        search.ratio_known = False
        return ceiling
    ratio = small_value / big_value
    return min(ceiling, float(np.nextafter(float(ratio.upper()), np.inf))) if ratio.is_finite() else ceiling


__all__ = ["MEAN_VALUE", "Method", "TAYLOR2", "certainly_nonpositive", "centre_of", "certainly_positive", "claim",
           "claims", "enclosure", "evaluate", "form_of", "ratio_upper", "upper_of"]
