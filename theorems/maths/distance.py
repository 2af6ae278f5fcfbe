"""Vectorised distance quantities of Theorem 1 and Corollary 2, for batches of heads and queries.

Every function takes weights ``alpha [..., L]`` and embeddings ``x [..., L, d]`` whose leading
dimensions broadcast against each other (e.g. ``alpha [H, Q, L]`` with ``x [H, 1, L, d]``: one set
of value vectors per head, shared by its queries), an integer ``n`` (the ``N`` of the paper) and an
optional boolean ``mask [..., L]`` (True = key present, for causal rows). Masked keys are neither
selected nor counted among the non-selected, and ``L`` in every formula is the row's number of
valid keys. numpy float64 arrays and torch tensors are accepted; a torch input gives a torch
output (computed in float64 on the CPU through a zero-copy numpy view; gradients are not tracked).

Top-N rule: the ``n`` largest weights; among equal weights the **lower index is selected first**.

Cost: ``O(L·d)`` per query for :func:`distance`, :func:`random_main_sum`, :func:`jensen_gap_bound`
(prefix-sum style: one weighted sum over keys, then one norm per key, no loop over tokens) and
``O(N·L·d)`` for :func:`fixed_bound` (``d_1`` is a farthest pair between the selected and the
other keys). :func:`expected_distance` costs ``O(C(L, N)·L·d)`` exactly or ``O(samples·L·d)`` by
Monte Carlo. Norms ``‖c·α_i x_i − s‖`` are computed directly when the broadcast ``[..., L, d]``
array is small and by the expansion ``c²α_i²‖x_i‖² − 2cα_i x_i·s + ‖s‖²`` otherwise (memory
``O(L)`` per query; absolute error about ``1e-8·max(‖c α_i x_i‖, ‖s‖)`` from cancellation).

>>> import numpy as np
>>> alpha = np.array([0.5, 0.3, 0.2]); x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
>>> top_n(alpha, 1).tolist()
[0]
>>> float(distance(alpha, x, 1))   # ‖(0, .3) − (.5, 0)‖ + ‖(.2, .2) − (.5, 0)‖
0.94365...
>>> bool(distance(alpha, x, 1) <= fixed_bound(alpha, x, 1))
True
>>> estimate = expected_distance(alpha, x, 1)
>>> estimate.exact, bool(estimate.mean >= random_main_sum(alpha, x, 1))
(True, True)
"""

from __future__ import annotations

import dataclasses
import math
from itertools import combinations
from typing import Any

import numpy as np
from scipy.stats import norm as _normal

from theorems.arithmetic.validation import (check_choice, check_integer, check_mask, check_number, check_seed,
                                            check_weights, check_work, float_resolution)
from theorems.errors import InvalidArgument
from theorems.maths.batches import check_n, is_torch, like, to_numpy, top_n_mask, top_n_order

READINGS = ("sum", "norm")
CENTERS = ("normalised", "max-norm")
METHODS = ("auto", "exact", "monte-carlo")
EXACT_LIMIT = 5000
"""``method="auto"`` enumerates every subset when ``C(L, N)`` is at most this."""
EXACT_MAX_SUBSETS = 10 ** 6
"""``method="exact"`` (and :func:`subsets`) refuse to enumerate more subsets than this (the table alone
is ``C(L, N)·L`` bytes plus a Python tuple per subset); use ``method="monte-carlo"``."""
MAX_WORK = 10 ** 10
"""Largest number of ``[..., L, d]`` entries one :func:`expected_distance` call may evaluate in total
(minutes of arithmetic); more is refused with the count and a way out."""
DIRECT_LIMIT = 1 << 22
"""Norms are computed from the explicit differences when the broadcast ``[..., L, d]`` array has
at most this many entries (exact to rounding), by the expansion otherwise (memory ``O(L)``)."""


@dataclasses.dataclass(frozen=True)
class Estimate:
    """``E[d̃]`` per row: ``mean``, a confidence interval ``[low, high]``, and whether it is exact.

    For an exact enumeration ``low == mean == high``. For Monte Carlo the interval is the normal
    (CLT) interval ``mean ± z·sd/√samples`` at ``level``.
    """

    mean: Any
    low: Any
    high: Any
    exact: bool
    samples: int
    level: float


# --------------------------------------------------------------------------- inputs and backends

def _inputs(alpha, x, n, mask, *, need_x: bool = True, allow_unnormalised: bool = False, scores: bool = False):
    """Validated numpy views, the broadcast batch shape, the valid-key mask and ``n``.

    ``alpha`` must lie on the simplex (see :func:`theorems.arithmetic.validation.check_weights`) unless
    ``allow_unnormalised``; logits passed by mistake are refused, not turned into a fake violation.
    ``scores``: any finite real ``alpha`` (only its order is used).
    """
    source = alpha if is_torch(alpha) else x  # the tensor whose kind (and device) the results take, if any
    resolution = float_resolution(alpha)
    alpha = to_numpy(alpha, name="alpha")  # [..., L]
    length = alpha.shape[-1]
    if need_x:
        x = to_numpy(x, name="x")  # [..., L, d]
        if x.ndim < 2 or x.shape[-2] != length:
            raise InvalidArgument(f"x must have shape [..., L, d] with L={length} (the last axis of alpha), got {x.shape}")
        try:
            np.broadcast_shapes(alpha.shape[:-1], x.shape[:-2])
        except ValueError:
            raise InvalidArgument(f"the leading dimensions of alpha {alpha.shape[:-1]} and x {x.shape[:-2]} do not broadcast") from None
    valid = check_mask(mask, alpha.shape)  # [..., L]
    n = check_n(n, valid)  # first: a row without valid keys is a mask error, not a weights error
    if not scores:
        check_weights(alpha, valid=valid, allow_unnormalised=allow_unnormalised, resolution=resolution)
    return alpha, x, valid, valid.sum(axis=-1), n, source


def _weighted_sum(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``Σ_j w_j x_j``: ``w [..., L]``, ``x [..., L, d]`` -> ``[..., d]`` (batched GEMV)."""
    return np.matmul(w[..., None, :], x)[..., 0, :]


def _scaled_norms(coef: np.ndarray, x: np.ndarray, s: np.ndarray) -> np.ndarray:
    """``‖coef_i x_i − s‖`` for every key: ``coef [..., L]``, ``x [..., L, d]``, ``s [..., d]`` -> ``[..., L]``."""
    shape = np.broadcast_shapes(coef.shape[:-1], x.shape[:-2], s.shape[:-1])
    if math.prod(shape) * coef.shape[-1] * x.shape[-1] <= DIRECT_LIMIT:
        diff = coef[..., None] * x - s[..., None, :]  # [..., L, d]
        return np.sqrt(np.sum(diff * diff, axis=-1))
    xs = np.matmul(x, s[..., :, None])[..., 0]  # [..., L]  x_i · s
    xx = np.sum(x * x, axis=-1)  # [..., L]
    ss = np.sum(s * s, axis=-1)[..., None]  # [..., 1]
    return np.sqrt(np.maximum(coef * coef * xx - 2 * coef * xs + ss, 0.0))


# --------------------------------------------------------------------------- public API

def top_n(alpha, n: int, *, mask=None):
    """Indices ``[..., n]`` of the ``n`` largest weights, in descending order; ties: lower index first.

    Only the order matters here, so ``alpha`` may be any finite scores (weights of any mass, logits).

    >>> top_n(np.array([0.2, 0.4, 0.4]), 2).tolist()
    [1, 2]
    """
    alpha_np, _, valid, _, n, source = _inputs(alpha, None, n, mask, need_x=False, scores=True)
    return like(top_n_order(alpha_np, valid, n), source)


def distance(alpha, x, n: int, *, reading: str = "sum", mask=None, allow_unnormalised: bool = False):
    """The true ``d̃`` of the top-``n`` set, per row ``[...]``.

    ``reading="sum"``: ``Σ_{i∉I_N} ‖α_i x_i − s‖`` [R]; ``reading="norm"``: ``‖Σ_{i∉I_N} α_i x_i − s‖``,
    with ``s = Σ_{j∈I_N} α_j x_j``. ``alpha`` must lie on the simplex (sum 1, entries ≥ 0, within
    :data:`theorems.arithmetic.validation.SIMPLEX_TOLERANCE`) unless ``allow_unnormalised=True``; the same holds
    for every function of this module.

    >>> float(distance(np.array([0.5, 0.5]), np.array([[1.0], [-1.0]]), 1, reading="norm"))
    1.0
    """
    check_choice(reading, name="reading", choices=READINGS)
    alpha, x, valid, _, n, source = _inputs(alpha, x, n, mask, allow_unnormalised=allow_unnormalised)
    chosen = top_n_mask(alpha, valid, n)  # [..., L]
    rest = valid & ~chosen  # [..., L]
    s = _weighted_sum(np.where(chosen, alpha, 0.0), x)  # [..., d]
    if reading == "norm":
        t = _weighted_sum(np.where(rest, alpha, 0.0), x)  # [..., d]
        return like(np.linalg.norm(t - s, axis=-1), source)
    norms = _scaled_norms(alpha, x, s)  # [..., L]
    return like(np.sum(np.where(rest, norms, 0.0), axis=-1), source)


def fixed_bound(alpha, x, n: int, *, center: str = "normalised", mask=None, allow_unnormalised: bool = False):
    """Theorem 1 part 1 [R]: ``(1 − ᾱ_N)·d_1 + [(L − N)·ᾱ_N − (1 − ᾱ_N)]·c`` per row.

    ``center="normalised"``: ``c = ‖x̄‖ = ‖s‖/ᾱ_N``; ``center="max-norm"``: ``c = max_{j∈I_N} ‖x_j‖``.
    ``d_1 = max_{i∉I_N, j∈I_N} ‖x_i − x_j‖`` (0 when every valid key is selected). Cost ``O(N·L·d)``.

    >>> float(fixed_bound(np.array([0.5, 0.3, 0.2]), np.ones((3, 1)), 1))  # all x equal: d_1 = 0
    0.5
    """
    check_choice(center, name="center", choices=CENTERS)
    alpha, x, valid, counts, n, source = _inputs(alpha, x, n, mask, allow_unnormalised=allow_unnormalised)
    chosen = top_n_mask(alpha, valid, n)  # [..., L]
    rest = valid & ~chosen
    mass = np.sum(np.where(chosen, alpha, 0.0), axis=-1)  # [...] ᾱ_N
    index = np.nonzero(chosen.reshape(-1, chosen.shape[-1]))[1].reshape(*chosen.shape[:-1], n)  # [..., n]
    x_sel = np.take_along_axis(x, index[..., None], axis=-2)  # [..., n, d]
    sel_sq = np.sum(x_sel * x_sel, axis=-1)  # [..., n]
    all_sq = np.sum(x * x, axis=-1)  # [..., L]
    if x.ndim >= 3 and x.shape[-3] == 1 and alpha.ndim >= 2 and x.shape[:-3] == alpha.shape[:-2] and alpha.shape[-2] > 1:
        # x shared by the queries (x [B.., 1, L, d]): per head one table ‖x_i‖² − 2 x_j·x_i [L, L], then copy the
        # n selected rows per query (contiguous row copies, no per-query matrix product)
        table = all_sq[..., None, :] - 2 * np.matmul(x, np.swapaxes(x, -1, -2))  # [B.., 1, L, L]
        heads = math.prod(x.shape[:-3])
        flat = table.reshape(heads, *table.shape[-2:])  # [B, L, L]
        rows_index = index.reshape(heads, *index.shape[-2:])  # [B, Q, n]
        rest_flat = rest.reshape(heads, *rest.shape[-2:])  # [B, Q, L]
        queries = index.shape[-2]
        far = np.empty((heads, queries, index.shape[-1]))  # [B, Q, n]  max_{i∉I_N} ‖x_i‖² − 2 x_j·x_i
        block = max(1, (1 << 20) // (heads * index.shape[-1] * alpha.shape[-1]))  # blocks of queries stay in cache
        for start in range(0, queries, block):
            part = slice(start, start + block)
            picked = flat[np.arange(heads)[:, None, None], rows_index[:, part]]  # [B, q, n, L]
            far[:, part] = np.max(np.where(rest_flat[:, part, None, :], picked, -np.inf), axis=-1)
        far = far.reshape(index.shape)
        d1 = np.sqrt(np.maximum(np.max(np.where(np.isfinite(far), sel_sq + far, 0.0), axis=-1), 0.0))  # [...]
    else:
        gram = np.matmul(x_sel, np.swapaxes(x, -1, -2))  # [..., n, L]
        pair_sq = sel_sq[..., :, None] + all_sq[..., None, :] - 2 * gram  # [..., n, L]
        d1 = np.sqrt(np.maximum(np.max(np.where(rest[..., None, :], pair_sq, 0.0), axis=(-2, -1)), 0.0))  # [...]
    if center == "normalised":
        s = _weighted_sum(np.where(chosen, alpha, 0.0), x)
        safe = np.where(mass > 0, mass, 1.0)
        c = np.where(mass > 0, np.linalg.norm(s, axis=-1) / safe, 0.0)
    else:
        c = np.sqrt(np.max(sel_sq, axis=-1))
    bound = (1 - mass) * d1 + ((counts - n) * mass - (1 - mass)) * c
    return like(bound, source)


def _main_coefficients(counts: np.ndarray, n: int):
    """``(L − N)/L`` and ``p = N/(L − 1)`` per row (``p = 0`` for a single valid key)."""
    outside = (counts - n) / counts
    p = np.where(counts > 1, n / np.maximum(counts - 1, 1), 0.0)
    return outside, p


def random_main_sum(alpha, x, n: int, *, mask=None, allow_unnormalised: bool = False):
    """Main sum of Theorem 1 part 2 [R]: ``((L − N)/L)·Σ_i ‖(1 + p)·α_i x_i − p·Σ_j α_j x_j‖``, ``p = N/(L − 1)``.

    Equal to ``((L − N)/L)·Σ_i ‖α_i x_i − p·Σ_{j≠i} α_j x_j‖`` (the norm of the conditional mean).

    >>> float(random_main_sum(np.array([0.5, 0.5]), np.array([[1.0], [-1.0]]), 1))
    1.0
    """
    alpha, x, valid, counts, n, source = _inputs(alpha, x, n, mask, allow_unnormalised=allow_unnormalised)
    weights = np.where(valid, alpha, 0.0)  # [..., L]
    outside, p = _main_coefficients(counts, n)  # [...]
    total = _weighted_sum(weights, x)  # [..., d]
    norms = _scaled_norms((1 + p)[..., None] * weights, x, p[..., None] * total)  # [..., L]
    return like(outside * np.sum(np.where(valid, norms, 0.0), axis=-1), source)


def jensen_gap_bound(alpha, x, n: int, *, mask=None, allow_unnormalised: bool = False):
    """The residual bound [R] ``((L − N)/L)·Σ_i √Var_i`` per row, ``Var_i = E‖Y_i − E Y_i‖²``.

    ``Y_i`` is the sum of ``N`` of the ``a_j = α_j x_j`` (``j ≠ i``) drawn without replacement from
    ``m = L − 1``: ``Var_i = N(m − N)/(m(m − 1))·[Σ_{j≠i} ‖a_j‖² − ‖Σ_{j≠i} a_j‖²/m]``, i.e. the spec's
    ``p(1 − p)·m/(m − 1)·[…]``; it is ``0`` when ``m ≤ 1`` or ``N ≥ m`` (one possible subset), where the
    spec's formula reads ``0/0``.

    >>> float(jensen_gap_bound(np.array([0.5, 0.5]), np.array([[1.0], [-1.0]]), 1))
    0.0
    """
    alpha, x, valid, counts, n, source = _inputs(alpha, x, n, mask, allow_unnormalised=allow_unnormalised)
    weights = np.where(valid, alpha, 0.0)  # [..., L]
    outside, _ = _main_coefficients(counts, n)
    m = counts - 1  # [...]
    factor = np.where((m > 1) & (m > n), n * (m - n) / np.maximum(m * (m - 1), 1), 0.0)  # [...]
    total = _weighted_sum(weights, x)  # [..., d]
    own_sq = weights ** 2 * np.sum(x * x, axis=-1)  # [..., L]  ‖a_i‖²
    others_sq = np.sum(own_sq, axis=-1, keepdims=True) - own_sq  # [..., L]  Σ_{j≠i} ‖a_j‖²
    others_sum = _scaled_norms(weights, x, total) ** 2  # [..., L]  ‖Σ_{j≠i} a_j‖² = ‖a_i − T‖²
    var = factor[..., None] * (others_sq - others_sum / np.maximum(m, 1)[..., None])
    return like(outside * np.sum(np.where(valid, np.sqrt(np.maximum(var, 0.0)), 0.0), axis=-1), source)


def _subset_distance(alpha, x, chosen, valid, reading):
    """``d̃`` for many selections at once: ``chosen [..., K, L]`` against ``alpha [..., 1, L]`` -> ``[..., K]``."""
    rest = valid & ~chosen  # [..., K, L]
    s = np.matmul(np.where(chosen, alpha, 0.0), x)  # [..., K, d]  (x [..., 1?, L, d] broadcasts)
    if reading == "norm":
        t = np.matmul(np.where(rest, alpha, 0.0), x)
        return np.linalg.norm(t - s, axis=-1)
    coef = np.broadcast_to(alpha, np.broadcast_shapes(alpha.shape, chosen.shape))
    norms = _scaled_norms(coef, x[..., None, :, :], s)  # [..., K, L]
    return np.sum(np.where(rest, norms, 0.0), axis=-1)


def subsets(length: int, n: int) -> np.ndarray:
    """All ``C(length, n)`` subsets as a boolean ``[C, length]`` array (lexicographic order).

    Refused beyond :data:`EXACT_MAX_SUBSETS` subsets, before anything is allocated.

    >>> subsets(3, 2).astype(int).tolist()
    [[1, 1, 0], [1, 0, 1], [0, 1, 1]]
    """
    length = check_integer(length, name="length")
    n = check_integer(n, name="n", max_value=length)
    count = math.comb(length, n)
    if count > EXACT_MAX_SUBSETS:
        raise InvalidArgument(f"subsets({length}, {n}) would enumerate C({length}, {n}) = {count} subsets, more than "
                         f"EXACT_MAX_SUBSETS={EXACT_MAX_SUBSETS}; estimate by Monte Carlo instead "
                         "(expected_distance(..., method='monte-carlo'))")
    index = np.array(list(combinations(range(length), n)), dtype=np.intp).reshape(-1, n)  # [C, n]
    out = np.zeros((len(index), length), dtype=bool)
    np.put_along_axis(out, index, True, axis=-1)
    return out


def expected_distance(alpha, x, n: int, *, reading: str = "sum", method: str = "auto", samples: int = 4096,
                      seed: int = 0, level: float = 0.99, mask=None, chunk: int = 1 << 22,
                      allow_unnormalised: bool = False) -> Estimate:
    """``E[d̃]`` over ``I_N`` uniform among the ``C(L, N)`` subsets of the valid keys, ``α`` fixed.

    ``method="exact"`` enumerates every subset (``"auto"`` does so when ``C(L, N) ≤ EXACT_LIMIT``);
    ``"monte-carlo"`` draws ``samples`` independent subsets per row from ``seed`` and returns the
    normal confidence interval at ``level``. ``chunk`` caps the entries of the work arrays.
    ``method="exact"`` beyond :data:`EXACT_MAX_SUBSETS` subsets, and any request evaluating more than
    :data:`MAX_WORK` entries, are refused before any allocation, with the count and a way out.

    >>> e = expected_distance(np.array([0.5, 0.5]), np.array([[1.0], [-1.0]]), 1)
    >>> float(e.mean), e.exact
    (1.0, True)
    """
    check_choice(reading, name="reading", choices=READINGS)
    check_choice(method, name="method", choices=METHODS)
    samples = check_integer(samples, name="samples", min_value=2)
    seed = check_seed(seed)
    chunk = check_integer(chunk, name="chunk")
    check_number(level, name="level", min_value=0, max_value=1, exclude_min=True, exclude_max=True)
    alpha, x, valid, counts, n, source = _inputs(alpha, x, n, mask, allow_unnormalised=allow_unnormalised)
    length = alpha.shape[-1]
    batch = np.broadcast_shapes(alpha.shape[:-1], x.shape[:-2])
    alpha = np.broadcast_to(alpha, (*batch, length))
    valid = np.broadcast_to(valid, (*batch, length))
    d = x.shape[-1]
    count = math.comb(length, n)
    exact = method == "exact" or (method == "auto" and count <= EXACT_LIMIT)
    if exact and count > EXACT_MAX_SUBSETS:
        raise InvalidArgument(f"method='exact' would enumerate C({length}, {n}) = {count} subsets, more than "
                         f"EXACT_MAX_SUBSETS={EXACT_MAX_SUBSETS}; use method='monte-carlo' (samples=...) or "
                         "method='auto', which switches to Monte Carlo")
    rows = math.prod(batch)
    work = (count if exact else samples) * rows * length * d
    draws = f"C(L, N) = {count} subsets" if exact else f"samples={samples}"
    check_work(work, what=f"expected_distance ({draws} x {rows} rows x L={length} x d={d})", limit=MAX_WORK,
               way_out="use method='monte-carlo', or split the rows into smaller batches" if exact else
               "lower samples, or split the rows into smaller batches")
    if exact:
        every = subsets(length, n)  # [C, L]
        total = np.zeros(batch)
        allowed = np.zeros(batch)
        step = max(1, chunk // max(1, math.prod(batch) * length * d))
        for start in range(0, len(every), step):  # loop over blocks of subsets, never over tokens
            block = every[start:start + step]  # [K, L]
            inside = ~np.any(block & ~valid[..., None, :], axis=-1)  # [..., K] subset of valid keys only
            value = _subset_distance(alpha[..., None, :], x, block, valid[..., None, :], reading)  # [..., K]
            total += np.sum(np.where(inside, value, 0.0), axis=-1)
            allowed += inside.sum(axis=-1)
        mean = total / allowed
        return Estimate(*(like(mean, source),) * 3, exact=True, samples=len(every), level=1.0)
    rng = np.random.default_rng(seed)
    first = np.zeros(batch)
    second = np.zeros(batch)
    step = max(1, chunk // max(1, math.prod(batch) * length * d))
    done = 0
    while done < samples:  # blocks of samples
        k = min(step, samples - done)
        u = np.where(valid[..., None, :], rng.random((*batch, k, length)), np.inf)  # [..., K, L]
        cut = np.partition(u, n - 1, axis=-1)[..., n - 1:n]  # the n-th smallest key: uniform n-subset
        chosen = u <= cut
        value = _subset_distance(alpha[..., None, :], x, chosen, valid[..., None, :], reading)  # [..., K]
        first += value.sum(axis=-1)
        second += (value * value).sum(axis=-1)
        done += k
    mean = first / samples
    sd = np.sqrt(np.maximum(second / samples - mean ** 2, 0.0) * samples / (samples - 1))
    half = _normal.ppf((1 + level) / 2) * sd / math.sqrt(samples)
    return Estimate(like(mean, source), like(mean - half, source), like(mean + half, source),
                    exact=False, samples=samples, level=level)
