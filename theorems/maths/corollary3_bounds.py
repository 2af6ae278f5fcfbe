"""The closed forms of Corollary 3's bounds, in a precision backend ``xp``.

``xp`` is :data:`theorems.arithmetic.precision.F64` (the default), ``MP`` or the balls: the statements' right
sides (:mod:`theorems.statements.gradient.corollary3`) and Algorithm 5's checks
(:func:`empirical.algorithms.sensitivity_checks`) both call these functions, so the two cannot drift apart.
Unchecked arithmetic on one temperature (and ``ε``): the public, checked and vectorised forms are
``theorems.maths.gradient_sensitivity.sup_spectral``, ``sup_finite_difference`` and ``paper_curve``.

>>> float(half_over_t(0.5)), float(quarter_over_t(0.5))
(1.0, 0.5)
"""

from __future__ import annotations

from theorems.arithmetic.precision import F64


def paper_bound(temperature, *, xp=F64):
    """The paper's ``min{1/(4T), √2}`` (Corollary 3) at one temperature.

    >>> float(paper_bound(1.0)), float(paper_bound(0.1))
    (0.25, 1.4142135623730951)
    """
    quarter = 1 / (4 * temperature)
    root2 = xp.sqrt(xp.number(2))
    return quarter if quarter < root2 else root2


def half_over_t(temperature, *, xp=F64):
    """``1/(2T)``: the exact supremum of ``‖J‖₂`` and of ``‖J‖_F`` (two weights 1/2).

    >>> half_over_t(0.5)
    1.0
    """
    return 1 / (2 * temperature)


def root2_over_4t(temperature, *, xp=F64):
    """``√2/(4T)``: the exact supremum of the largest row norm of ``J``.

    >>> round(float(root2_over_4t(1.0)), 12)
    0.353553390593
    """
    return xp.sqrt(xp.number(2)) / (4 * temperature)


def quarter_over_t(temperature, *, xp=F64):
    """``1/(4T)``: the exact supremum of the largest entry of ``J``.

    >>> quarter_over_t(0.25)
    1.0
    """
    return 1 / (4 * temperature)


def finite_difference_bound(temperature, epsilon, *, xp=F64):
    """``(√2/ε)·tanh(ε/(2√2·T))``: the exact supremum of ``g(T, ε)`` over logits and unit ``v``.

    >>> round(float(finite_difference_bound(1.0, 1e-6)), 9)  # 1/(2T) as ε -> 0
    0.5
    """
    root2 = xp.sqrt(xp.number(2))
    return root2 / epsilon * xp.tanh(epsilon / (2 * root2 * temperature))
