"""Corollary 3 on real heads: which checks Algorithm 5 tallies, their right sides, and their mpmath re-check.

Each check compares an exact Jacobian norm (or ``g(T, ε)``) with the right side of a catalogue statement,
evaluated on the ``T`` (x ``ε``) grid from the same closed forms the statement's ``rhs`` calls
(:mod:`theorems.maths.corollary3_bounds`), so the two cannot drift apart. :func:`empirical.algorithms.sensitivity`
runs them.

>>> [check.statement for check in sensitivity_checks()][:2]
['corollary3.spectral', 'corollary3.frobenius']
"""

from __future__ import annotations

import numpy as np

from empirical.checks import Check
from empirical.heads.extraction import Heads
from theorems.maths import corollary3_bounds as forms

CONFIRM_KEYS = 128
"""Rows with more visible keys are not re-checked in mpmath (50-digit arithmetic on L² entries is slow)."""
CONFIRM_KEYS_SPECTRAL = 16
"""The same for a spectral norm: an mpmath SVD of a 16 x 16 matrix takes a second, of 64 x 64 a minute."""

COROLLARY3_READINGS = ("spectral", "frobenius", "row", "entry")


def sensitivity_checks() -> tuple[Check, ...]:
    """Corollary 3's readings, the paper's bound and the corrected suprema, per token and ``T`` (and ``ε``).

    The right side of each check is the statement's own ``rhs`` (it depends on ``T`` and ``ε`` only),
    evaluated on the grid: see :func:`statement_bounds`.
    """
    checks = []
    for suffix, note in (("", "Corollary 3 [P]: min{1/(4T), √2}"), (".corrected", "the proven supremum")):
        checks += [Check(f"corollary3.{reading}{suffix}", f"jacobian_{reading}", f"rhs:corollary3.{reading}{suffix}",
                         extra=("T",), note=f"exact norm of (diag α − ααᵀ)/T against {note}")
                   for reading in COROLLARY3_READINGS]
        checks.append(Check(f"corollary3.finite-difference{suffix}", "g", f"rhs:corollary3.finite-difference{suffix}",
                            extra=("T", "epsilon"), note=f"g(T, ε) of Algorithm 5 against {note}"))
    return tuple(checks)


def bound_forms() -> dict:
    """Each Corollary 3 statement's right side as the closed form its ``rhs`` calls
    (``theorems.maths.corollary3_bounds``), a function of ``T`` (and ``ε`` for the finite difference)."""
    corrected = {"spectral": forms.half_over_t, "frobenius": forms.half_over_t, "row": forms.root2_over_4t,
                 "entry": forms.quarter_over_t}
    bounds = {f"corollary3.{reading}": forms.paper_bound for reading in COROLLARY3_READINGS}
    bounds |= {f"corollary3.{reading}.corrected": form for reading, form in corrected.items()}
    bounds["corollary3.finite-difference"] = lambda t, e: forms.paper_bound(t)
    bounds["corollary3.finite-difference.corrected"] = forms.finite_difference_bound
    return bounds


def statement_bounds(check: Check, temperatures, epsilons) -> np.ndarray | None:
    """The right side of ``check.statement`` on the ``T`` (x ``ε``) grid: ``[n_T, n_ε]`` or ``[n_T]``.

    None when the statement is not in the catalogue (a filtered registry).

    >>> check = next(c for c in sensitivity_checks() if c.statement == "corollary3.spectral.corrected")
    >>> statement_bounds(check, [0.5, 1.0], [0.1]).tolist()
    [1.0, 0.5]
    """
    from theorems import STATEMENTS  # the catalogue (python-flint, mpmath) loads when Algorithm 5 runs, not on import

    if check.statement not in STATEMENTS.keys():
        return None
    form = bound_forms()[check.statement]
    if "epsilon" in check.extra:  # a loop over the grid of T and ε, not over tokens
        return np.array([[float(form(float(t), float(e))) for e in epsilons] for t in temperatures])  # [n_T, n_ε]
    return np.array([float(form(float(t))) for t in temperatures])  # [n_T]


def sensitivity_confirmer(heads: Heads):
    """Re-check a Corollary 3 violation on the statement's own sides in mpmath (``{logits, T}``)."""
    # the catalogue and the search engine (python-flint, mpmath) load when Algorithm 5 runs, not on import
    from theorems import STATEMENTS
    from theorems.engine.search import confirm_in_high_precision

    def confirm(statement_id: str, example: dict) -> bool | None:
        if statement_id not in STATEMENTS.keys() or "epsilon" in example:
            return None  # g(T, ε) used a random direction v drawn per block: not rebuilt here
        w, layer, head, token = example["window"], example["layer"], example["head"], example["token"]
        keys = heads.visible[w, token].numpy()
        if keys.sum() > (CONFIRM_KEYS_SPECTRAL if statement_id.startswith("corollary3.spectral") else CONFIRM_KEYS):
            return None  # an mpmath SVD (or L² mpmath entries) of a longer row takes minutes
        instance = {"logits": heads.layer_logits(layer)[w, head, token].double().numpy()[keys], "T": example["T"]}
        return confirm_in_high_precision(STATEMENTS[statement_id], instance) is not None
    return confirm
