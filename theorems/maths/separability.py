"""Geometric separability (Theorem 2): ``ξ_i``, the count ``N_s``, the experiments' radius, both bounds.

Every function takes weights ``alpha [..., L]`` (and embeddings ``x [..., L, d]``) as numpy float64
arrays or torch tensors and returns the same kind (torch in, float64 torch out on the same device;
the arithmetic itself runs in numpy float64, so both kinds give identical numbers). Leading
dimensions are batch dimensions (heads, queries, Monte Carlo samples). ``mask [..., L]`` (True =
key present) lets causal rows with different numbers of valid keys share one batch: a masked key
is neither selected nor counted as non-selected, and ``L`` becomes the row's count of valid keys.

Conventions, decided here and documented in ``docs/separability.md``:

- ``I_N`` is the top-``n`` of ``alpha`` among the valid keys, descending; ties go to the lower
  index first (a stable sort of ``−alpha``). Selected quantities (``xi``) come in that order.
- ``N_s`` [R] counts the selected ``i`` with ``‖s − α_i x_i‖ ≤ r`` (the closed ball: a distance
  equal to ``r`` counts), and is 0 unless no non-selected ``α_j x_j`` lies strictly inside the
  ball (``‖s − α_j x_j‖ ≥ r`` for every valid ``j ∉ I_N``). The boundary is shared and a tie is
  resolved in favour of separability: this is what makes the experiments' radius
  ``r = min_{j∉I_N} ‖s − α_j x_j‖`` meaningful, since its closest non-selected token lies on the
  sphere by construction. ``gated=False`` drops the gate (the count the proof bounds).
- With no non-selected key (``n`` equal to the row's valid count) the experiments' radius is ``+inf``.

>>> import numpy as np
>>> alpha = np.array([0.5, 0.3, 0.2]); x = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
>>> int(separable_count(alpha, x, 2, default_radius(alpha, x, 2)))
2
>>> np.round(xi(alpha, 2, M=1.0, delta=0.0), 3)
array([0.3, 0.5])
"""

from __future__ import annotations

import dataclasses

import numpy as np

from theorems.arithmetic.validation import (check_array, check_integer, check_mask, check_number, check_parameter,
                                            check_positive, check_seed, check_top_n, check_weights)
from theorems.errors import InvalidArgument
from theorems.maths.batches import check_n, like, to_numpy, top_n_order

EXPONENTS = {"2M^2": 2.0, "16M^2": 16.0}
"""The two readings of the upper bound's exponent: ``−(ξ − r)²/(c·M²)`` with ``c`` = 2 or 16."""


def _weights(alpha, mask):
    """Attention weights on the simplex (:func:`theorems.arithmetic.validation.check_weights`) and the valid keys."""
    array = to_numpy(alpha, name="alpha")  # [..., L]
    valid = check_mask(mask, array.shape)
    if valid.size and valid.sum(axis=-1).min() < 1:
        raise InvalidArgument("mask leaves a row without any valid key (a row of mask is all False)")
    check_weights(alpha, valid=valid, opt_out=False)
    return array, valid


def top_n_indices(alpha, n: int, *, mask=None):
    """``[..., n]`` indices of the ``n`` largest valid weights, descending, ties to the lower index.

    >>> top_n_indices(np.array([0.2, 0.5, 0.3]), 2).tolist()
    [1, 2]
    """
    a, valid = _weights(alpha, mask)
    return like(top_n_order(a, valid, check_n(n, valid)), alpha)


def _selection(a, valid, n):
    """Boolean ``[..., L]`` of ``I_N`` and the selected weights ``[..., n]`` in top-n order."""
    ranked = top_n_order(a, valid, n)  # [..., n]
    selected = np.zeros(a.shape, dtype=bool)
    np.put_along_axis(selected, ranked, True, axis=-1)
    return selected, np.take_along_axis(a, ranked, axis=-1)




# ----------------------------------------------------------------------------------------------
# ξ_i and the two bounds


def _plain(value) -> bool:
    """A Python or numpy scalar (or a value that is no number at all): checked. A number of a high-precision
    backend (mpmath, python-flint, a wrapper of them) is computed in as it is, never checked in float."""
    return value is None or isinstance(value, (bool, int, float, complex, str, bytes, np.generic, list, tuple))


def xi_squared(selected, *, M, delta):
    """``ξ_i²`` [R] from the selected weights ``[..., n]`` (any arithmetic: float or mpmath arrays).

    ``ξ_i² = M²·Σ_{j≠i} α_j² + (M² − δ²/2)·Σ_{j≠k, both ≠ i} α_j α_k``, sums over ``I_N ∖ {i}``.
    With ``A = Σ_{j≠i} α_j`` and ``B = Σ_{j≠i} α_j²`` the cross sum is ``A² − B``, so the whole
    thing is a closed form in two prefix sums: no loop over pairs.
    """
    if not (isinstance(selected, np.ndarray) and selected.dtype == object):  # the high-precision backends pass
        selected = check_array(selected, name="selected")
        if np.any(selected < 0):
            raise InvalidArgument(f"selected must be non-negative attention weights; its least entry is {selected.min()!r}")
    for name, value, strict in (("M", M, True), ("delta", delta, False)):
        if _plain(value):  # mpmath, python-flint or any other backend's numbers pass as they are
            check_number(value, name=name, min_value=0, exclude_min=strict)
        elif isinstance(value, np.ndarray) and value.dtype != object:  # a batch of them, [..., 1]
            check_parameter(value, name=name, batch_shape=value.shape, strict=strict)
    for name, value in (("M", M), ("delta", delta)):
        try:
            np.broadcast_shapes(np.shape(value), np.shape(selected))
        except ValueError:
            raise InvalidArgument(f"{name} of shape {np.shape(value)} does not broadcast against selected of shape "
                             f"{np.shape(selected)}") from None
    others = np.sum(selected, axis=-1, keepdims=True) - selected          # A  [..., n]
    others_sq = np.sum(selected * selected, axis=-1, keepdims=True) - selected * selected  # B  [..., n]
    return M * M * others_sq + (M * M - delta * delta / 2) * (others * others - others_sq)


def _xi(a, valid, n, M, delta):
    _, chosen = _selection(a, valid, n)                                   # [..., n]
    squared = xi_squared(chosen, M=M[..., None], delta=delta[..., None])
    # ξ² ≥ 0 whenever Assumption 2 is feasible (it bounds ‖Σ α_j x_j‖² pointwise); clip rounding only
    return np.sqrt(np.maximum(squared, 0.0))


def _shape_params(a, M, delta, r=None, *, with_r: bool = False):
    batch = a.shape[:-1]
    M = check_parameter(M, name="M", batch_shape=batch)
    delta = check_parameter(delta, name="delta", batch_shape=batch, strict=False)
    if np.any(delta > 2 * M * (1 + 1e-9)):  # an ulp of rounding in a computed 2M is not an error
        raise InvalidArgument("delta must be <= 2*M: two points of a sphere of radius M are at most 2M apart")
    if not with_r:
        return M, delta
    return M, delta, check_parameter(r, name="r", batch_shape=batch, allow_infinity=True)


def xi(alpha, n: int, *, M, delta, mask=None):
    """``[..., n]`` the spread ``ξ_i`` [R] of the other selected rescaled embeddings, ``i ∈ I_N`` in top-n order.

    >>> np.round(xi(np.array([0.5, 0.5]), 2, M=1.0, delta=0.0), 3).tolist()
    [0.5, 0.5]
    """
    a, valid = _weights(alpha, mask)
    n = check_n(n, valid)
    M, delta = _shape_params(a, M, delta)
    return like(_xi(a, valid, n, M, delta), alpha)


def separability_lower_bound(alpha, n: int, r, *, M, delta, mask=None):
    """``[...]`` Theorem 2's lower bound [R] ``1 − (1/(r·N))·Σ_{i∈I_N} ξ_i`` (Markov + Cauchy–Schwarz).

    >>> float(separability_lower_bound(np.array([0.5, 0.5]), 2, 1.0, M=1.0, delta=0.0))
    0.5
    """
    a, valid = _weights(alpha, mask)
    n = check_n(n, valid)
    M, delta, r = _shape_params(a, M, delta, r, with_r=True)
    return like(1 - _xi(a, valid, n, M, delta).sum(-1) / (r * n), alpha)


def separability_upper_bound(alpha, n: int, r, *, M, delta, exponent: str = "2M^2", mask=None):
    """``[...]`` Theorem 2's upper bound [R] ``(1/N)·Σ_{i∈I_N} exp(−(ξ_i − r)²/(c·M²))``, ``c`` from ``exponent``.

    >>> round(float(separability_upper_bound(np.array([1.0, 0.0]), 1, 1.0, M=1.0, delta=0.0)), 4)
    0.6065
    """
    if exponent not in EXPONENTS:
        raise InvalidArgument(f"exponent={exponent!r} must be one of {tuple(EXPONENTS)}")
    a, valid = _weights(alpha, mask)
    n = check_n(n, valid)
    M, delta, r = _shape_params(a, M, delta, r, with_r=True)
    gap = _xi(a, valid, n, M, delta) - r[..., None]                      # [..., n]
    return like(np.exp(-gap * gap / (EXPONENTS[exponent] * (M * M)[..., None])).mean(-1), alpha)


# ----------------------------------------------------------------------------------------------
# N_s and the experiments' radius


def _distances(alpha, x, n, mask):
    """Validated ``(selected [..., L], non-selected [..., L], ‖s − α_i x_i‖ [..., L])``."""
    a, valid = _weights(alpha, mask)
    n = check_n(n, valid)
    x = check_array(to_numpy(x, name="x"), name="x", min_ndim=2)                # [..., L, d]
    try:  # alpha [L] against x [S, L, d] (Monte Carlo) or alpha [..., L] against x [L, d]: one common batch
        batch = np.broadcast_shapes(a.shape[:-1], x.shape[:-2])
    except ValueError:
        batch = None
    if batch is None or x.shape[-2] != a.shape[-1]:
        raise InvalidArgument(f"x of shape {x.shape} must be [..., L, d] matching alpha's shape {a.shape}")
    a, valid = np.broadcast_to(a, batch + a.shape[-1:]), np.broadcast_to(valid, batch + a.shape[-1:])
    x = np.broadcast_to(x, batch + x.shape[-2:])
    selected, _ = _selection(a, valid, n)
    scaled = a[..., None] * x                                            # α_i x_i  [..., L, d]
    s = np.sum(np.where(selected[..., None], scaled, 0.0), axis=-2)      # [..., d]
    distance = np.sqrt(np.sum((s[..., None, :] - scaled) ** 2, axis=-1))  # [..., L]
    return selected, valid & ~selected, distance, n


def default_radius(alpha, x, n: int, *, mask=None):
    """``[...]`` the experiments' radius ``r = min_{j∉I_N} ‖s − α_j x_j‖`` (``+inf`` with no non-selected key).

    >>> float(default_radius(np.array([0.6, 0.4]), np.array([[1.0], [-1.0]]), 1))
    1.0
    """
    _, others, distance, _ = _distances(alpha, x, n, mask)
    return like(np.min(np.where(others, distance, np.inf), axis=-1), alpha, x)


def separable_count(alpha, x, n: int, r, *, mask=None, gated: bool = True):
    """``int [...]`` ``N_s`` [R]: selected ``i`` with ``‖s − α_i x_i‖ ≤ r``, 0 if a non-selected one is ``< r``.

    ``gated=False`` counts the selected tokens in the closed ball whatever the non-selected do
    (the quantity whose expectation the proof of Theorem 2 bounds).

    >>> alpha = np.array([0.6, 0.4]); x = np.array([[1.0], [-1.0]])
    >>> int(separable_count(alpha, x, 1, 0.5)), int(separable_count(alpha, x, 1, 2.0)), int(separable_count(alpha, x, 1, 2.0, gated=False))
    (1, 0, 1)
    """
    selected, others, distance, _ = _distances(alpha, x, n, mask)
    radius = check_parameter(r, name="r", batch_shape=distance.shape[:-1], strict=False,
                             allow_infinity=True)[..., None]  # [..., 1]
    inside = np.sum(selected & (distance <= radius), axis=-1)            # [...]
    if gated:
        inside = np.where(np.all(~others | (distance >= radius), axis=-1), inside, 0)
    return like(inside.astype(np.int64), alpha, x)


# ----------------------------------------------------------------------------------------------
# Monte Carlo estimates of E[N_s]/N with a distribution-free confidence interval


@dataclasses.dataclass(frozen=True)
class FractionEstimate:
    """A Monte Carlo mean with a two-sided interval valid at ``level`` (Hoeffding: no variance assumed)."""

    mean: float
    low: float
    high: float
    samples: int
    level: float
    acceptance_rate: float
    method: str


def hoeffding_halfwidth(samples: int, *, level: float, value_range: float = 1.0) -> float:
    """Half-width of the two-sided Hoeffding interval for the mean of ``samples`` i.i.d. draws in a range.

    >>> round(hoeffding_halfwidth(20000, level=1 - 1e-6), 4)
    0.019
    """
    check_integer(samples, name="samples")
    check_number(level, name="level", min_value=0, max_value=1, exclude_min=True, exclude_max=True)
    check_positive(value_range, name="value_range")
    return float(value_range * np.sqrt(np.log(2 / (1 - level)) / (2 * samples)))


def estimate_separable_fraction(alpha, n: int, r, *, M: float, dim: int, delta: float = 0.0, samples: int,
                                seed: int, gated: bool = True, law: str = "uniform",
                                level: float = 1 - 1e-6) -> FractionEstimate:
    """``E[N_s]/N`` over random embeddings (Assumption 1, and Assumption 2 when ``delta > 0``), seeded.

    ``alpha [L]`` and ``I_N`` are fixed; ``x [samples, L, dim]`` is drawn in one go (rejection for
    Assumption 2) and ``N_s/N`` is averaged; the interval is Hoeffding's for a mean of ``[0, 1]``
    variables, valid at ``level`` whatever their correlation inside one sample.

    >>> e = estimate_separable_fraction(np.array([0.7, 0.3]), 1, 0.3, M=1.0, dim=3, samples=2000, seed=0)
    >>> e.mean, e.low < 1 <= e.high
    (1.0, True)
    """
    from theorems.maths.separability_sampling import sample_configurations

    a = check_weights(to_numpy(alpha, name="alpha"), opt_out=False)
    if a.ndim != 1:
        raise InvalidArgument(f"alpha must be one row of weights [L], got shape {a.shape}")
    n = check_top_n(n, len(a))
    check_parameter(r, name="r", batch_shape=(), strict=False, allow_infinity=True)
    check_positive(delta, name="delta", strict=False)
    check_number(level, name="level", min_value=0, max_value=1, exclude_min=True, exclude_max=True)
    check_seed(seed)
    x, rate = sample_configurations(samples=samples, length=len(a), dim=dim, radius=M, min_distance=delta,
                                    seed=seed, law=law)                  # [S, L, d]
    fraction = separable_count(a, x, n, r, gated=gated) / n               # [S]
    half = hoeffding_halfwidth(samples, level=level)
    mean = float(fraction.mean())
    return FractionEstimate(mean, mean - half, mean + half, samples, level, rate,
                            f"Hoeffding interval at level {level:g}, {samples} seeded samples")
