"""The largest eigenvalue of ``diag α − ααᵀ`` on the secular equation, two ways: :func:`bisection` (64 geometric
steps, the reference, behind the checked public :func:`theorems.maths.gradient_sensitivity.largest_eigenvalue`)
and :func:`newton`, a safeguarded Newton iteration (the fast solver of the spectral norms).

:func:`newton` finds the same root as :func:`bisection` (agreement to float64 rounding is tested in
``tests/unit/test_secular.py``) in a few passes
over ``α``: for ``α`` summing to one, ``λ ∈ [a_2, a_1]`` (the two largest weights) solves
``f(λ) = Σ_k α_k/(α_k − λ) = 0``, ``f`` increasing there with poles at both ends. Newton runs on the
pole-free ``F(λ) = (a_1 − λ)(λ − a_2)·f(λ)`` (same sign, smooth on the bracket, so it converges
quadratically), from the same two sums ``Σ α_k q_k`` and ``Σ α_k q_k²`` (``q_k = 1/(α_k − λ)``); the
bracket ``[low, high]`` is kept by the sign of ``f`` and a step that leaves it is replaced by the
geometric midpoint. A row stops when its step is below four ulps of ``λ``; converged rows leave the
working set.

>>> import numpy as np
>>> float(newton(np.array([0.5, 0.5, 0.0])))
0.5
>>> round(float(newton(np.array([0.7, 0.2, 0.1]))), 12)
0.334403065089
"""

from __future__ import annotations

import numpy as np

from theorems.errors import InvalidArgument

BISECTION_STEPS = 64
"""Geometric bisection steps of :func:`bisection`: relative accuracy ``ln(a_1/a_2)·2^-64``
(below 1e-16 unless ``a_2/a_1 < 1e-300``), checked against mpmath in the tests."""
MAX_STEPS = 128
"""Newton-or-bisection steps at most (the geometric bisection alone needs about 64)."""
TINY = 1e-250
"""Rows whose second weight is below this go to the reference bisection (products of such weights underflow)."""
TOLERANCE = 4 * np.finfo(float).eps
"""Relative step (or bracket width) at which a row stops."""


def bisection(alpha: np.ndarray) -> np.ndarray:
    """``λ_max(diag α − ααᵀ)`` for weights ``α [..., L]`` already checked to sum to one (zeros allowed): ``[...]``,
    by geometric bisection on the secular equation (see
    :func:`theorems.maths.gradient_sensitivity.largest_eigenvalue`, which checks the weights first)."""
    if alpha.shape[-1] < 2:
        return np.zeros(alpha.shape[:-1])
    top = -np.partition(-alpha, 1, axis=-1)[..., :2]  # [..., 2]: the two largest weights
    low, high = top[..., 1:2].copy(), top[..., 0:1].copy()  # [..., 1]
    zero = low[..., 0] == 0
    low = np.where(low > 0, low, high)  # rows with a_2 = 0 are answered by `zero` below
    for _ in range(BISECTION_STEPS):
        middle = np.clip(np.sqrt(low) * np.sqrt(high), low, high)  # geometric: relative accuracy
        with np.errstate(divide="ignore", invalid="ignore"):
            secular = np.sum(alpha / (alpha - middle), axis=-1, keepdims=True)  # [..., 1]; α_k = 0 adds 0
        right = ~(secular >= 0)  # the root lies right of middle (also when middle hits a weight: nan/inf)
        low, high = np.where(right, middle, low), np.where(right, high, middle)
    return np.where(zero, 0.0, np.clip(np.sqrt(low) * np.sqrt(high), low, high)[..., 0])


def newton(alpha: np.ndarray, *, top_two: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """``λ_max(diag α − ααᵀ)`` for weights ``α [..., L]`` summing to one (zeros allowed): ``[...]``.

    ``top_two = (a_1, a_2)``, each ``[...]``, are the two largest weights when the caller already has them
    (``a_2`` the largest after one ``a_1`` is removed); they are found by a partition otherwise.

    >>> a = np.array([[0.7, 0.2, 0.1]])
    >>> bool(newton(a, top_two=(np.array([0.7]), np.array([0.2])))[0] == newton(a)[0])
    True
    """
    alpha = np.asarray(alpha, dtype=float)
    batch = alpha.shape[:-1]
    if alpha.shape[-1] < 2:
        return np.zeros(batch)
    flat = alpha.reshape(-1, alpha.shape[-1])  # [R, L]
    if top_two is None:
        top = -np.partition(-flat, 1, axis=-1)[:, :2]  # [R, 2]
        high, low = top[:, 0].copy(), top[:, 1].copy()
    else:
        high, low = (_given(value, batch=batch, name=name) for value, name in zip(top_two, ("a_1", "a_2")))
    out = np.where(low == 0, 0.0, low)  # a_2 = 0: λ = 0; a_1 = a_2: λ = a_2 exactly
    tiny = (low > 0) & (low < TINY) & (low < high)
    if tiny.any():  # near-subnormal a_2: Newton's products lose the digits; the reference's bisection keeps them
        out[tiny] = bisection(flat[tiny])
    active = np.flatnonzero((low >= TINY) & (low < high))
    low, high = low[active], high[active]
    a1, a2 = high.copy(), low.copy()  # the poles, fixed
    lam = np.clip(np.sqrt(low) * np.sqrt(high), low, high)  # [A]
    rows = flat[active]  # [A, L]
    for _ in range(MAX_STEPS):
        if not len(active):
            break
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            q = np.subtract(rows, lam[:, None])  # [A, L]
            np.divide(1.0, q, out=q)  # in place: the same operations, no temporaries
            aq = np.multiply(rows, q)
            f = np.sum(aq, axis=-1)  # f(λ)
            slope = np.sum(np.multiply(aq, q, out=q), axis=-1)  # f′(λ)
            u = (a1 - lam) * (lam - a2)  # F = u·f, F′ = u′·f + u·f′
            step = lam - u * f / ((a1 + a2 - 2 * lam) * f + u * slope)
        right = ~(f >= 0)  # the root lies right of λ (also when λ hits a weight: nan/inf)
        low, high = np.where(right, lam, low), np.where(right, high, lam)
        middle = np.clip(np.sqrt(low) * np.sqrt(high), low, high)
        inside = np.isfinite(step) & (step > low) & (step < high)
        new = np.where(inside, step, middle)
        # converged: the Newton step itself is below four ulps (it may sit on the bracket's edge), or the bracket is
        near = (step >= low) & (step <= high) & (np.abs(step - lam) <= TOLERANCE * lam)
        done = near | (high - low <= TOLERANCE * high) | (f == 0)
        out[active[done]] = np.where(f[done] == 0, lam[done], np.clip(np.where(inside, step, lam), low, high)[done])
        if not done.any():  # the early steps: no row finished, so the working set (a copy of its rows) stays
            lam = new
            continue
        keep = ~done
        active, lam, low, high, rows, a1, a2 = (v[keep] for v in (active, new, low, high, rows, a1, a2))
    out[active] = lam  # not reached in practice: MAX_STEPS exceeds the bisection's 64 halvings
    return out.reshape(batch)


def _given(value, *, batch: tuple, name: str) -> np.ndarray:
    """One of :func:`newton`'s ``top_two``, flattened to ``[R]`` (a copy: the solver writes its bracket)."""
    array = np.asarray(value, dtype=float)
    if array.shape != batch:
        raise InvalidArgument(f"top_two's {name} must have the weights' leading shape {batch}, got {array.shape}")
    return array.reshape(-1).copy()
