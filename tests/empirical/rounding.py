"""How far the torch and numpy backends may differ on each quantity: bounds derived from each formula's rounding.

Both backends compute the same quantities in float64 from the same float32 logits and embeddings, in different
orders of summation (numpy's OpenBLAS against torch's MKL, trimmed or grouped blocks, ``‖T − 2s‖`` for ``‖t − s‖``).
Each bound below is the classical forward-error bound of the formula, applied to both computations, so it bounds
their difference: ``γ(n) = n·u/(1 − n·u)`` (``u = 2⁻⁵³``) times the same formula evaluated on absolute values (its
condition), the two softmaxes' relative difference ``c_α = 2γ(L + 4)`` (one ``exp`` ulp each and the order of the
normalising sum) propagated through each quantity's dependence on ``α``, and for a square root ``√a``
``min(√Δa, Δa/√a)``. No tolerance below is a constant: each is a function of the row's data.

Every function takes a numpy block (:class:`empirical.heads.rows.Rows`, backend ``numpy``) and returns the bounds
``[H, C, ...]`` of the row function it mirrors, keyed as that function's results.
"""

from __future__ import annotations

import numpy as np

from empirical import kernels
from theorems.maths.batches import top_n_mask

U = 2.0 ** -53


def gamma(n) -> np.ndarray:
    """``γ(n) = n·u/(1 − n·u)``: the relative error bound of ``n`` floating-point operations in a chain."""
    n = np.asarray(n, dtype=float)
    return n * U / (1 - n * U)


def root_error(value, delta) -> np.ndarray:
    """How far ``√a`` may move when ``a`` moves by ``delta`` (``value = √a`` computed): ``min(√Δ, Δ/√a)`` + its rounding."""
    value, delta = np.asarray(value, dtype=float), np.asarray(delta, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        by_slope = np.where(value > 0, delta / value, np.inf)
    return np.minimum(np.sqrt(delta), by_slope) + 2 * U * value


def softmax_spread(keys) -> np.ndarray:
    """``c_α``: the relative difference of two float64 softmaxes of the same logits over ``keys`` keys."""
    return 2 * gamma(np.asarray(keys) + 4)


def _block(rows):
    """``α [H, C, L]``, ``x [H, L, d]``, the mask ``[C, L]``, the visible counts ``[C]`` and ``c_α``."""
    x = rows.x[:, 0]
    counts = rows.mask.sum(-1)
    return rows.alpha, x, rows.mask, counts, softmax_spread(counts)[None, :]  # c_α [1, C]


def _selection(alpha, mask, n):
    """The top-``n`` mask ``[H, C, L]`` (rows with fewer keys: every key)."""
    valid = np.broadcast_to(mask, alpha.shape)
    n_rows = np.minimum(valid.sum(-1), n)
    out = np.zeros(alpha.shape, dtype=bool)
    for k in np.unique(n_rows):
        where = n_rows == k
        out[where] = top_n_mask(alpha[where], valid[where], int(k))
    return out


def distance_bounds(rows, ns) -> dict[str, np.ndarray]:
    """Bounds of Algorithms 1-3's row quantities at each ``N``: ``{name@N: [H, C]}`` (``distance_sum``,
    ``distance_norm``, ``estimate``, ``bound_normalised``, ``bound_max-norm``).

    Each term ``a_i = ‖α_i x_i − s‖²`` of the expansion is off by at most ``ε_a·(α_i‖x_i‖ + ‖S‖)²`` (``S = Σ_{j∈I}
    α_j|x_j|``, ``ε_a = 2γ(2L + d + 8) + 2c_α``), its root by :func:`root_error`, the sum of the roots by ``γ(L)`` of
    their sum; the norm reading by ``(4γ(L + d) + 2c_α)·‖A‖`` (``A = Σ α_j|x_j|``: either backend's sum of
    ``t − s``); the random main sum likewise with ``(1 + p)α_i x_i − p·T``; the fixed bound from its parts
    (the mass, ``d_1``'s largest pair and the centre).
    """
    alpha, x, mask, counts, c_alpha = _block(rows)
    heads, rows_count, length = alpha.shape
    d = x.shape[-1]
    norms = np.linalg.norm(x, axis=-1)[:, None, :]  # [H, 1, L] ‖x_i‖
    absolute_x = np.abs(x)[:, None]  # [H, 1, L, d]
    total_abs = np.linalg.norm(np.matmul(alpha[..., None, :], absolute_x)[..., 0, :], axis=-1)  # [H, C] ‖A‖
    own = alpha * norms  # [H, C, L] α_i‖x_i‖
    out = {}
    for n in ns:
        chosen = _selection(alpha, mask, n)
        rest = mask & ~chosen
        s = np.matmul(np.where(chosen, alpha, 0.0)[..., None, :], x[:, None])[..., 0, :]  # [H, C, d]
        s_abs = np.linalg.norm(np.matmul(np.where(chosen, alpha, 0.0)[..., None, :], absolute_x)[..., 0, :], axis=-1)
        eps_a = 2 * gamma(2 * counts + d + 8)[None, :, None] + 2 * c_alpha[..., None]
        distance = np.sqrt(np.maximum(own ** 2 - 2 * alpha * np.einsum("hld,hcd->hcl", x, s)
                                      + (s * s).sum(-1, keepdims=True), 0.0))
        term = root_error(distance, eps_a * (own + s_abs[..., None]) ** 2)
        summed = np.where(rest, distance, 0.0).sum(-1)
        out[f"distance_sum@{n}"] = np.where(rest, term, 0.0).sum(-1) + 2 * gamma(counts)[None] * summed
        out[f"distance_norm@{n}"] = ((4 * gamma(counts + d) + 2 * c_alpha) * total_abs
                                     + 2 * gamma(d + 2) * np.linalg.norm(np.matmul(
                                         np.where(rest, alpha, 0.0)[..., None, :], x[:, None])[..., 0, :] - s, axis=-1))
        p = np.where(counts > 1, n / np.maximum(counts - 1, 1), 0.0)[None, :, None]  # [1, C, 1]
        total = np.matmul(alpha[..., None, :], x[:, None])[..., 0, :]  # [H, C, d]
        main = np.sqrt(np.maximum(((1 + p) * own) ** 2 - 2 * (1 + p) * p * alpha * np.einsum("hld,hcd->hcl", x, total)
                                  + p ** 2 * (total * total).sum(-1, keepdims=True), 0.0))
        main_error = root_error(main, (2 * gamma(2 * counts + d + 14)[None, :, None] + 2 * c_alpha[..., None])
                                * ((1 + p) * own + p * total_abs[..., None]) ** 2)
        fraction = ((counts - n) / counts)[None]
        out[f"estimate@{n}"] = fraction * (np.where(mask, main_error, 0.0).sum(-1)
                                           + 2 * gamma(counts + 4)[None] * np.where(mask, main, 0.0).sum(-1))
        out |= _fixed_bound_errors(alpha, x, mask, chosen, rest, counts, c_alpha, s, s_abs, n)
    return out


def _fixed_bound_errors(alpha, x, mask, chosen, rest, counts, c_alpha, s, s_abs, n) -> dict[str, np.ndarray]:
    """``(1 − m)·d_1 + ((L − N)m − (1 − m))·c``: the mass ``m`` off by ``(γ(L) + c_α)·m``, ``d_1²`` (a largest pair
    ``‖x_j‖² + ‖x_i‖² − 2x_j·x_i``) by ``2γ(d + 4)·max(‖x_j‖ + ‖x_i‖)²``, the centres by their sums' errors."""
    d = x.shape[-1]
    squared = (x * x).sum(-1)  # [H, L]
    gram = np.matmul(x, np.swapaxes(x, -1, -2))  # [H, L, L]
    pair = squared[:, :, None] + squared[:, None, :] - 2 * gram  # [H, L, L] ‖x_j − x_i‖²
    scale = (np.sqrt(squared)[:, :, None] + np.sqrt(squared)[:, None, :]) ** 2
    h = np.arange(alpha.shape[0])[:, None, None]
    both = chosen[..., :, None] & rest[..., None, :]  # [H, C, L, L] j selected, i outside
    d1_sq = np.where(both, pair[:, None], -np.inf).max(axis=(-2, -1))
    d1 = np.sqrt(np.maximum(np.where(np.isfinite(d1_sq), d1_sq, 0.0), 0.0))
    d1_error = root_error(d1, 2 * gamma(d + 4) * np.where(both, scale[:, None], 0.0).max(axis=(-2, -1)))
    mass = np.where(chosen, alpha, 0.0).sum(-1)  # [H, C]
    mass_error = (2 * gamma(counts + 2)[None] + c_alpha) * mass
    del h
    out = {}
    factor = (counts - n)[None] * mass - (1 - mass)
    norm_s = np.linalg.norm(s, axis=-1)
    centres = {
        "normalised": (np.where(mass > 0, norm_s / np.where(mass > 0, mass, 1.0), 0.0),
                       np.where(mass > 0, ((2 * gamma(counts + d + 4)[None] + c_alpha) * s_abs + norm_s * mass_error
                                           / np.where(mass > 0, mass, 1.0)) / np.where(mass > 0, mass, 1.0), 0.0)),
        "max-norm": (np.sqrt(np.where(chosen, squared[:, None], 0.0).max(-1)), None)}
    for name, (centre, centre_error) in centres.items():
        if centre_error is None:
            centre_error = 2 * gamma(d + 2) * centre
        value = (1 - mass) * d1 + factor * centre
        out[f"bound_{name}@{n}"] = (mass_error * d1 + (1 - mass + U) * d1_error
                                    + (np.abs(counts - n)[None] + 1) * mass_error * centre + np.abs(factor) * centre_error
                                    + 2 * gamma(6) * ((1 - mass) * d1 + np.abs(factor) * centre + np.abs(value)))
    return out


def separability_bounds(rows, ns, delta) -> dict[str, np.ndarray]:
    """Bounds of Algorithm 4's row quantities at each ``N``, and ``{ties@N}``: how many selected keys lie within their
    bound of the radius (where the closed-ball count may fall either side: ``fraction`` may differ by that over ``N``).

    The radius is the least outside distance, recomputed from its difference: off by at most twice the largest
    expansion error of the keys within reach of the minimum plus the direct difference's ``2γ(L + d + 4)·(‖S‖ +
    α_i‖x_i‖)``; ``ξ_j² = B − α_j² + (1 − δ²/2)((A − α_j)² − B + α_j²)`` (``A, B`` the sums of the selected weights
    and their squares) by ``(2γ(N + 8) + 4c_α)·(B + A² + 2α_j² + 2Aα_j)``; the bounds from those.
    """
    alpha, x, mask, counts, c_alpha = _block(rows)
    d = x.shape[-1]
    norms = np.linalg.norm(x, axis=-1)[:, None, :]
    absolute_x = np.abs(x)[:, None]
    own = alpha * norms
    out = {}
    delta = np.asarray(delta, dtype=float).reshape(-1, 1)  # [H, 1]
    for n in ns:
        fits = counts >= n + 1
        chosen = _selection(alpha, mask, n)
        rest = mask & ~chosen
        s = np.matmul(np.where(chosen, alpha, 0.0)[..., None, :], x[:, None])[..., 0, :]
        s_abs = np.linalg.norm(np.matmul(np.where(chosen, alpha, 0.0)[..., None, :], absolute_x)[..., 0, :], axis=-1)
        distance = np.linalg.norm(s[..., None, :] - alpha[..., None] * x[:, None], axis=-1)  # [H, C, L] directly
        eps_a = 2 * gamma(2 * counts + d + 8)[None, :, None] + 2 * c_alpha[..., None]
        expansion = root_error(distance, eps_a * (own + s_abs[..., None]) ** 2)
        direct = (2 * gamma(counts + d + 4)[None, :, None] + 2 * c_alpha[..., None]) * (s_abs[..., None] + own)
        outside = np.where(rest, distance, np.inf)
        r = outside.min(-1)  # [H, C]
        reach = np.where(rest & (outside <= r[..., None] + 2 * expansion), expansion, 0.0).max(-1)
        r_error = 2 * reach + np.where(rest, direct, 0.0).max(-1)
        near = chosen & (np.abs(distance - r[..., None]) <= r_error[..., None] + direct)
        weights = np.where(chosen, alpha, 0.0)
        a_sum, b_sum = weights.sum(-1, keepdims=True), (weights * weights).sum(-1, keepdims=True)
        others, others_sq = a_sum - weights, b_sum - weights * weights
        factor = 1 - delta[:, None] ** 2 / 2  # [H, 1, 1]
        xi_sq = np.maximum(others_sq + factor * (others * others - others_sq), 0.0)
        xi = np.sqrt(xi_sq)
        xi_error = root_error(xi, (2 * gamma(n + 8) + 4 * c_alpha[..., None])
                              * (b_sum + a_sum ** 2 + 2 * weights ** 2 + 2 * a_sum * weights))
        xi_error = np.where(chosen, xi_error, 0.0)
        safe = np.where(np.isfinite(r) & (r > 0), r, 1.0)
        xi_sum = np.where(chosen, xi, 0.0).sum(-1)
        lower_error = (xi_error.sum(-1) + 2 * gamma(n + 4) * xi_sum) / (safe * n) + xi_sum / (safe * n) * r_error / safe
        out[f"radius@{n}"] = np.where(fits, r_error, np.nan)
        out[f"fraction@{n}"] = np.where(fits, 0.0, np.nan)
        out[f"ties@{n}"] = np.where(fits, near.sum(-1), 0)
        out[f"lower@{n}"] = np.where(fits, lower_error + 2 * gamma(4) * np.abs(1 - xi_sum / (safe * n)), np.nan)
        gap = xi - safe[..., None]
        for key, c in (("upper_2M2", 2.0), ("upper_16M2", 16.0)):
            term = np.exp(-gap * gap / c)
            error = term * (2 * np.abs(gap) * (xi_error + r_error[..., None]) / c + 2 * gamma(6) * (1 + gap * gap / c))
            out[f"{key}@{n}"] = np.where(fits, np.where(chosen, error, 0.0).sum(-1) / n
                                         + 2 * gamma(n + 2) * np.where(chosen, term, 0.0).sum(-1) / n, np.nan)
    return out


def sensitivity_bounds(rows, temperatures, epsilons, v) -> dict[str, np.ndarray]:
    """Bounds of Algorithm 5's row quantities ``[H, C, n_T(, n_ε)]`` given the unit directions ``v [H, C, L]``.

    The spectral norm ``λ`` is a root of ``f(λ) = Σ α_k/(α_k − λ)``: relative changes ``c`` of the weights move it by
    at most ``c·λ`` (``Δf ≤ c·λ·f′(λ)``), rounding ``f``'s sum by ``γ(L)·Σ|α_k/(α_k − λ)|/f′(λ)``, and each solver
    stops within four ulps; the Frobenius, row and entry norms are sums of non-negative terms of degree 4, 3 and 2 in
    ``α`` (the Frobenius closed form of the torch path loses at most a factor 4 to cancellation); ``g``'s two
    softmaxes differ entrywise by ``c_α`` and by the directions' normalisation ``2γ(L + 2)·(ε/T)·|v_i|``.
    """
    from theorems.maths.gradient import _softmax_weights

    logits, mask = rows.logits, rows.mask
    counts = mask.sum(-1)
    c_alpha = softmax_spread(counts)[None, :, None]  # [1, C, 1]
    out = {key: [] for key in ("jacobian_spectral", "jacobian_frobenius", "jacobian_row", "jacobian_entry", "g")}
    e = np.asarray(epsilons, dtype=float)
    moved = logits[..., None, :] + e[:, None] * v[..., None, :]  # [H, C, n_ε, L]
    v_spread = 2 * gamma(counts + 2)[None, :, None, None]
    for t in np.asarray(temperatures, dtype=float):
        alpha = _softmax_weights(logits, temperature=float(t), mask=np.broadcast_to(mask, logits.shape))
        norms = kernels.sensitivity_block(logits, [t], [1.0], v=v, mask=mask)
        lam = norms["jacobian_spectral"][..., 0] * t  # [H, C]
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = alpha / (alpha - lam[..., None])
            slope = (alpha / (alpha - lam[..., None]) ** 2).sum(-1)
            condition = np.where(slope > 0, np.abs(terms).sum(-1) / (lam * slope), 1.0)
        condition = np.where(np.isfinite(condition), condition, 1.0)
        spectral = lam * (2 * c_alpha[..., 0] + 2 * gamma(counts + 8)[None] * condition + 16 * U)
        out["jacobian_spectral"].append(spectral / t + 2 * U * lam / t)
        for key, degree, loss in (("jacobian_frobenius", 4, 4.0), ("jacobian_row", 3, 2.0), ("jacobian_entry", 2, 1.0)):
            value = norms[key][..., 0]
            out[key].append(value * loss * (2 * gamma(counts + 12)[None] + degree * c_alpha[..., 0]))
        shifted = _softmax_weights(moved, temperature=float(t), mask=np.broadcast_to(mask[..., None, :], moved.shape))
        spread = (c_alpha[..., None] + v_spread * (e[:, None] / t) * (np.abs(v)[..., None, :]
                                                                     + (shifted * np.abs(v)[..., None, :]).sum(-1, keepdims=True)))
        difference = shifted * spread + alpha[..., None, :] * c_alpha[..., None]  # [H, C, n_ε, L]
        g = np.linalg.norm(shifted - alpha[..., None, :], axis=-1) / e
        out["g"].append(np.linalg.norm(difference, axis=-1) / e + 2 * gamma(counts + 2)[None, :, None] * g)
    return {key: np.stack(value, axis=-1 if key != "g" else -2) for key, value in out.items()}
