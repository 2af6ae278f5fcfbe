"""Fast kernels for Algorithms 2-4 on real heads: per-head tables shared by every query of the head.

The quantity modules (``theorems.maths.distance``, ``theorems.maths.separability``) are the references: each
kernel here computes the same numbers (to float64 rounding, checked in
``tests/empirical/test_kernels.py``) from tables built once per head and block, instead of
per-query ``[heads, tokens, L, d]`` arrays:

- :func:`fixed_bound` (Theorem 1's ``d_1``): the table ``T[j, i] = ‖x_i‖² − 2 x_j·x_i`` ``[H, L, L]`` and its
  running maximum over ``i`` (causal rows see a prefix of the keys), so a query's ``d_1`` reads
  ``N`` prefix maxima; only the pairs whose prefix argmax is itself selected (and could still win)
  are recomputed from the row of the table.
- :func:`separability_block` (Algorithm 4): ``‖s − α_i x_i‖² = ‖s‖² − 2α_i x_i·s + α_i²‖x_i‖²`` with
  ``x_i·s`` one batched matrix product ``[H, L, d] @ [H, d, C]``: no ``[H, C, L, d]`` array.
- :func:`distance_grid` (Algorithm 3): one sort per (head, query) for every ``N`` of a grid; ``d̃`` and
  the random main sum at each ``N`` from ``[H, C, d]`` partial sums and one matrix product.

Shapes: ``alpha [H, C, L]`` (``C`` query rows), ``x [H, 1, L, d]`` (the head's embeddings, shared by
its queries), ``mask [C, L]`` (True = key visible).

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> alpha = rng.dirichlet(np.ones(6), size=(2, 3)); x = rng.normal(size=(2, 1, 6, 4))
>>> from theorems.maths.distance import fixed_bound as reference
>>> bool(np.allclose(fixed_bound(alpha, x, 2), reference(alpha, x, 2)))
True
"""

from __future__ import annotations

import numpy as np

from theorems.arithmetic.validation import check_logits, check_mask, check_scale
from theorems.maths import distance as reference
from theorems.maths.batches import top_n_mask
from theorems.arithmetic.validation import check_seed
from theorems.maths.gradient_sensitivity import DIRECTION_SALT, _grid, _norms_at, random_directions
from theorems.maths.separability import xi_squared

CACHE_ENTRIES = 1 << 20
"""Entries of the largest gathered ``[pairs, L]`` slice (8 MiB): the fallback rows stay cache-sized."""
TABLE_ENTRIES = 1 << 17
"""Entries of one chunk of :func:`farthest_table` (1 MiB of float64): its ten passes stay in a core's cache."""


def seen_keys(valid: np.ndarray) -> int:
    """How many leading keys hold every key some row of ``valid [..., L]`` sees: the keys after it add exact zeros.

    A causal block of rows ``a..b`` sees ``b + 1`` keys, so the kernels work on about half of ``L`` on average.

    >>> seen_keys(np.tril(np.ones((4, 6), bool))[:2])
    2
    """
    seen = valid.reshape(-1, valid.shape[-1]).any(axis=0)  # [L]
    return int(np.flatnonzero(seen)[-1]) + 1 if seen.any() else valid.shape[-1]


# ----------------------------------------------------------------------------------------------
# Theorem 1's fixed bound


def farthest_table(x: np.ndarray) -> dict[str, np.ndarray]:
    """Per head: ``T[j, i] = ‖x_i‖² − 2 x_j·x_i`` ``[H, L, L]`` and, over every prefix ``i ≤ t``, its two
    largest entries and where they are (``first``/``second``, ``first_at``/``second_at``, each ``[H, L(j), L(t)]``).

    ``x [H, 1, L, d]`` or ``[H, L, d]``. ``d_1² = max_{j∈I, i∉I} ‖x_j‖² + T[j, i]`` (the reference's arithmetic).
    The second maximum obeys ``M2[t] = max_{s ≤ t} min(M1[s − 1], T[s])``: one more running maximum.
    """
    x = x.reshape(x.shape[0], *x.shape[-2:])  # [H, L, d]
    heads, length, _ = x.shape
    squared = np.sum(x * x, axis=-1)  # [H, L]
    x_t = np.swapaxes(x, -1, -2)  # [H, d, L]
    out = {name: np.empty((heads, length, length), dtype=float) for name in ("table", "first", "second")}
    out |= {name: np.empty((heads, length, length), dtype=np.int32) for name in ("first_at", "second_at")}
    positions = np.arange(length, dtype=np.int32)
    step = max(1, TABLE_ENTRIES // (heads * length))  # rows j per chunk: every pass below stays in cache
    for start in range(0, length, step):
        j = slice(start, start + step)
        table = np.matmul(x[:, j], x_t)  # [H, c, L] x_j·x_i
        table *= -2
        table += squared[:, None, :]  # ‖x_i‖² − 2 x_j·x_i
        out["table"][:, j] = table
        first = np.maximum.accumulate(table, axis=-1, out=out["first"][:, j])  # max_{i ≤ t} T[j, i]
        first_at = np.maximum.accumulate(positions * (table >= first), axis=-1, out=out["first_at"][:, j])
        # entry s demotes M1[s − 1] (−inf before the first key) or itself to the runner-up
        demoted = np.empty_like(table)
        demoted[..., 0] = -np.inf
        np.minimum(first[..., :-1], table[..., 1:], out=demoted[..., 1:])
        owner = np.zeros(table.shape, dtype=np.int32)  # whose value that runner-up is
        owner[..., 1:] = np.where(table[..., 1:] < first[..., :-1], positions[1:], first_at[..., :-1])
        second = np.maximum.accumulate(demoted, axis=-1, out=out["second"][:, j])
        last = np.maximum.accumulate(positions * (demoted >= second), axis=-1)
        out["second_at"][:, j] = np.take_along_axis(owner, last, axis=-1)
    return out | {"squared": squared}


def _prefix_counts(valid: np.ndarray) -> np.ndarray | None:
    """``[..]`` visible keys per row when every row sees a prefix of the keys (causal or full), else None."""
    counts = valid.sum(axis=-1)
    prefix = np.arange(valid.shape[-1]) < counts[..., None]
    return counts if np.array_equal(prefix, valid) else None


def fixed_bound(alpha, x, n: int, *, center: str = "normalised", mask=None, table: dict | None = None):
    """Theorem 1 part 1 per row ``[H, C]``, as :func:`theorems.maths.distance.fixed_bound`, from a per-head table.

    ``table`` (from :func:`farthest_table`) may be shared by every block of rows of the same heads.
    Rows whose visible keys are not a prefix (neither causal nor full) go to the reference.
    """
    return fixed_bounds(alpha, x, n, centers=(center,), mask=mask, table=table)[center]


def fixed_bounds(alpha, x, n: int, *, centers=("normalised", "max-norm"), mask=None,
                 table: dict | None = None) -> dict[str, np.ndarray]:
    """:func:`fixed_bound` at each of ``centers`` (``[H, C]`` each): the selection and ``d_1`` serve both."""
    alpha = np.asarray(alpha, dtype=float)  # [H, C, L]
    valid = check_mask(mask, alpha.shape)  # [H, C, L]
    counts = _prefix_counts(valid[0])  # [C]
    if counts is None or x.ndim != 4 or x.shape[1] != 1:
        return {center: reference.fixed_bound(alpha, x, n, center=center, mask=mask) for center in centers}
    table = farthest_table(x) if table is None else table  # over every key: shared by every block of the heads
    keys = seen_keys(valid)  # the keys no row of the block sees add nothing: leave them out
    alpha, valid, x = alpha[..., :keys], valid[..., :keys], x[..., :keys, :]
    heads, rows, length = alpha.shape
    chosen = top_n_mask(alpha, valid, n)  # [H, C, L]
    index = np.nonzero(chosen.reshape(-1, length))[1].reshape(heads, rows, n)  # [H, C, n] ascending
    h = np.arange(heads)[:, None, None]
    last = (counts - 1)[None, :, None]  # [1, C, 1] the last visible key of each row
    own = table["squared"][h, index]  # [H, C, n] ‖x_j‖²
    # max over visible i ∉ I of T[j, i]: the prefix maximum if it is not selected, else the runner-up if that is not
    best = table["first"][h, index, last]  # [H, C, n]
    clean = ~np.take_along_axis(chosen, table["first_at"][h, index, last], axis=-1)
    runner = table["second"][h, index, last]
    runner_clean = ~clean & ~np.take_along_axis(chosen, table["second_at"][h, index, last], axis=-1) & np.isfinite(runner)
    best = np.where(runner_clean, runner, best)
    clean |= runner_clean
    far = np.where(clean, best, -np.inf)  # exact where clean
    floor = np.max(np.where(clean, own + best, -np.inf), axis=-1, keepdims=True)  # [H, C, 1] a lower bound of d_1²
    redo = np.nonzero(~clean & (own + best > floor))  # pairs whose true value may still be the maximum
    rest = valid & ~chosen  # [H, C, L]
    step = max(1, CACHE_ENTRIES // length)
    for start in range(0, len(redo[0]), step):
        hh, cc, kk = (part[start:start + step] for part in redo)
        rows_of_table = table["table"][hh, index[hh, cc, kk], :length]  # [P, L]
        far[hh, cc, kk] = np.max(np.where(rest[hh, cc], rows_of_table, -np.inf), axis=-1)
    d1 = np.sqrt(np.maximum(np.max(np.where(np.isfinite(far), own + far, 0.0), axis=-1), 0.0))  # [H, C]
    mass = np.sum(np.where(chosen, alpha, 0.0), axis=-1)  # [H, C]
    out = {}
    for center in centers:
        if center == "normalised":
            s = np.matmul(np.where(chosen, alpha, 0.0)[..., None, :], x)[..., 0, :]  # [H, C, d] the reference's GEMV
            safe = np.where(mass > 0, mass, 1.0)
            c = np.where(mass > 0, np.linalg.norm(s, axis=-1) / safe, 0.0)
        else:
            c = np.sqrt(np.max(own, axis=-1))
        out[center] = (1 - mass) * d1 + ((counts[None] - n) * mass - (1 - mass)) * c
    return out


# ----------------------------------------------------------------------------------------------
# Algorithm 4: separability


def separability_block(alpha, x, n: int, *, delta, mask=None) -> dict[str, np.ndarray]:
    """Algorithm 4's per-row quantities ``[H, C]``: radius, ``N_s/N`` and the three Theorem 2 bounds.

    Equal to ``theorems.maths.separability``'s ``default_radius``, ``separable_count`` (gated: with the
    experiments' radius the gate always passes), ``separability_lower_bound`` and
    ``separability_upper_bound`` (``M = 1``, exponents ``2M²`` and ``16M²``) on unit embeddings ``x``;
    rows whose radius is not positive and finite are NaN. ``delta [H, 1]`` per head.
    """
    alpha = np.asarray(alpha, dtype=float)  # [H, C, L]
    valid = check_mask(mask, alpha.shape)
    keys = seen_keys(valid)  # keys no row of the block sees: never selected, never the radius
    alpha, valid = alpha[..., :keys], valid[..., :keys]
    x_heads = x.reshape(x.shape[0], *x.shape[-2:])[:, :keys]  # [H, L, d]
    heads, rows, length = alpha.shape
    chosen = top_n_mask(alpha, valid, n)  # [H, C, L]
    index = np.nonzero(chosen.reshape(-1, length))[1].reshape(heads, rows, n)  # [H, C, n] ascending, as the reference
    h = np.arange(heads)[:, None, None]
    selected = np.take_along_axis(alpha, index, axis=-1)  # [H, C, n]
    # s summed in ascending key order, as the reference's sum over L does: the same bits, so the same ties below
    s = np.sum(selected[..., None] * x_heads[h, index], axis=-2)  # [H, C, d]
    xs = np.matmul(s, np.swapaxes(x_heads, -1, -2))  # [H, C, L] x_i·s
    xx = np.sum(x_heads * x_heads, axis=-1)[:, None, :]  # [H, 1, L]
    ss = np.sum(s * s, axis=-1, keepdims=True)  # [H, C, 1]
    # ‖s − α_i x_i‖ = √(‖s‖² − 2α_i x_i·s + α_i²‖x_i‖²), in place: the operations of the one-line form
    distance = np.multiply(alpha, xs, out=xs)  # [H, C, L]
    distance *= 2  # (2α_i)·(x_i·s) rounds as 2·(α_i·(x_i·s)): a power of two
    np.subtract(ss, distance, out=distance)
    squares = alpha * alpha
    squares *= xx
    distance += squares
    np.sqrt(np.maximum(distance, 0.0, out=distance), out=distance)
    masked = np.where(valid & ~chosen, distance, np.inf)  # the keys outside I_N
    # the expansion is off by ~ε·‖s‖²/distance; the reference takes the differences. Recomputed from the
    # differences, as the reference does: the closest non-selected key (the radius) and every selected key
    # within reach of it (at most N per row), so the ties ‖s − α_i x_i‖ = r fall as in the reference
    closest = np.argmin(masked, axis=-1)[..., None]  # [H, C, 1]
    r = np.take_along_axis(masked, closest, axis=-1)  # [H, C, 1]
    slack = 1e-9 * (ss / np.maximum(r, np.finfo(float).tiny) + r)
    inner = np.take_along_axis(distance, index, axis=-1)  # [H, C, n] the selected keys' distances
    hs, cs, ks = np.nonzero(np.abs(inner - r) <= slack)  # selected keys near the radius
    hr, cr = np.nonzero(np.isfinite(r[..., 0]))  # rows with a radius
    hh, cc = np.concatenate([hs, hr]), np.concatenate([cs, cr])
    ii = np.concatenate([index[hs, cs, ks], closest[hr, cr, 0]])
    exact = np.empty(len(hh))
    step = max(1, CACHE_ENTRIES // x_heads.shape[-1])
    for start in range(0, len(hh), step):
        part = slice(start, start + step)
        diff = s[hh[part], cc[part]] - alpha[hh[part], cc[part], ii[part]][:, None] * x_heads[hh[part], ii[part]]
        exact[part] = np.sqrt(np.sum(diff * diff, axis=-1))  # [P]
    inner[hs, cs, ks] = exact[:len(hs)]
    r = r[..., 0]  # [H, C]
    r[hr, cr] = exact[len(hs):]
    usable = np.isfinite(r) & (r > 0)
    safe = np.where(usable, r, 1.0)
    nan = np.where(usable, 1.0, np.nan)
    inside = np.sum(inner <= safe[..., None], axis=-1)  # [H, C]
    # ξ in the reference's order (descending weight, ties to the lower index): its sums round the same way
    selected = np.take_along_axis(selected, np.argsort(-selected, axis=-1, kind="stable"), axis=-1)  # [H, C, n]
    d = np.broadcast_to(np.asarray(delta, dtype=float), alpha.shape[:-1])[..., None]  # [H, C, 1]
    xi = np.sqrt(np.maximum(xi_squared(selected, M=1.0, delta=d), 0.0))  # [H, C, n]
    gap = xi - safe[..., None]
    return {
        "radius": np.where(usable, r, np.nan),
        "fraction": inside / n * nan,
        "lower": (1 - xi.sum(-1) / (safe * n)) * nan,
        "upper_2M2": np.exp(-gap * gap / 2.0).mean(-1) * nan,
        "upper_16M2": np.exp(-gap * gap / 16.0).mean(-1) * nan,
    }


# ----------------------------------------------------------------------------------------------
# Algorithm 3: every N of a grid from one sort


def distance_grid(alpha, x, ns, *, mask=None, norm: bool = False) -> dict[str, np.ndarray]:
    """``d̃`` (sum reading) and the random main sum at every ``N`` of ``ns``: ``[H, C, len(ns)]`` each.

    One stable sort per (head, query) gives every top-``N`` set (ties to the lower index, as
    ``theorems.maths.batches.top_n_mask``); rows with fewer than ``N`` visible keys are NaN at that ``N``.
    With ``norm``, also ``d̃``'s norm reading ``‖Σ_{i∉I_N} α_i x_i − s‖`` (``distance_norm``), as
    :func:`theorems.maths.distance.distance` (``reading="norm"``) computes it.

    >>> rng = np.random.default_rng(1)
    >>> alpha = rng.dirichlet(np.ones(6), size=(2, 3)); x = rng.normal(size=(2, 1, 6, 4))
    >>> from theorems.maths.distance import distance
    >>> got = distance_grid(alpha, x, (1, 2), norm=True)["distance_norm"][..., 1]
    >>> bool(np.allclose(got, distance(alpha, x, 2, reading="norm"), rtol=1e-12))
    True
    """
    alpha = np.asarray(alpha, dtype=float)  # [H, C, L]
    valid = check_mask(mask, alpha.shape)
    keys = seen_keys(valid)  # the keys no row of the block sees add exact zeros to every sum
    alpha, valid = alpha[..., :keys], valid[..., :keys]
    x_heads = x.reshape(x.shape[0], *x.shape[-2:])[:, :keys]  # [H, L, d]
    counts = valid.sum(axis=-1)  # [H, C]
    order = np.argsort(np.where(valid, -alpha, np.inf), axis=-1, kind="stable")  # [H, C, L] descending, once
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(alpha.shape[-1]), axis=-1)  # [H, C, L] position in the order
    weights = np.where(valid, alpha, 0.0)  # [H, C, L]
    x_t = np.ascontiguousarray(np.swapaxes(x_heads, -1, -2))  # [H, d, L]
    xx = np.sum(x_heads * x_heads, axis=-1)[:, None, :]  # [H, 1, L]
    total = np.matmul(weights, x_heads)  # [H, C, d] Σ_j α_j x_j
    wxt = weights * np.matmul(total, x_t)  # [H, C, L] α_i x_i·T
    tt = np.sum(total * total, axis=-1, keepdims=True)  # [H, C, 1]
    own = weights * weights * xx  # [H, C, L] ‖α_i x_i‖²
    valid_f = valid.astype(float)  # [H, C, L]
    distance = np.full((*alpha.shape[:-1], len(ns)), np.nan)
    estimate = np.full_like(distance, np.nan)
    norms = np.full_like(distance, np.nan) if norm else None
    chosen = np.empty(alpha.shape, dtype=bool)
    work, other, rest = (np.empty(alpha.shape) for _ in range(3))  # reused buffers: no allocation per N
    for k, n in enumerate(ns):  # a loop over the grid of N, never over tokens
        fits = counts >= n  # [H, C]
        np.less(rank, n, out=chosen)
        np.multiply(weights, chosen, out=work)
        s = np.matmul(work, x_heads)  # [H, C, d] Σ_{j∈I_N} α_j x_j
        np.matmul(s, x_t, out=other)  # [H, C, L] x_i·s
        np.multiply(other, weights, out=work)
        work *= -2
        work += own
        work += np.sum(s * s, axis=-1, keepdims=True)
        np.maximum(work, 0.0, out=work)
        np.sqrt(work, out=work)  # ‖α_i x_i − s‖
        np.subtract(valid_f, chosen, out=rest)  # 1 on the visible keys outside I_N
        distance[..., k] = np.where(fits, np.vecdot(work, rest), np.nan)
        if norm:  # ‖t − s‖ with t = Σ_{i∉I_N} α_i x_i, each sum taken directly as the reference does
            np.multiply(weights, rest, out=work)
            norms[..., k] = np.where(fits, np.linalg.norm(np.matmul(work, x_heads) - s, axis=-1), np.nan)
        # random main sum: ‖(1 + p)α_i x_i − p·T‖² = (1 + p)²‖α_i x_i‖² − 2(1 + p)p α_i x_i·T + p²‖T‖²
        p = np.where(counts > 1, n / np.maximum(counts - 1, 1), 0.0)[..., None]  # [H, C, 1]
        np.multiply(own, (1 + p) ** 2, out=work)
        np.multiply(wxt, -2 * (1 + p) * p, out=other)
        work += other
        work += p * p * tt
        np.maximum(work, 0.0, out=work)
        np.sqrt(work, out=work)
        estimate[..., k] = np.where(fits, (counts - n) / counts * np.vecdot(work, valid_f), np.nan)
    out = {"distance_sum": distance, "estimate": estimate}
    return out | ({"distance_norm": norms} if norm else {})


# ----------------------------------------------------------------------------------------------
# Algorithm 5: the Jacobian norms and g(T, ε) from one softmax per temperature


def direction_normals(seed: int, *, window: int, layer: int, index, seen, heads: int, keep=slice(None),
                      length: int | None = None) -> np.ndarray:
    """``[H, C, L]`` standard normals for the query rows ``index`` (token positions) of one window and layer: row
    ``t``'s ``[heads, seen_t]`` from ``SeedSequence([seed, window, layer, t, DIRECTION_SALT])`` (``seen_t`` the keys
    up to its last visible one), zero after; ``keep`` selects heads, ``length`` pads (default: ``max(seen)``). So
    Algorithm 5's random direction of a (window, layer, head, token) depends on nothing else: not the blocks, the
    backend, the groups of heads or the cluster's tasks.

    >>> a = direction_normals(0, window=0, layer=1, index=[3, 4], seen=[4, 5], heads=2)
    >>> bool(np.array_equal(a[:, 1], direction_normals(0, window=0, layer=1, index=[4], seen=[5], heads=2)[:, 0]))
    True
    """
    check_seed(seed)
    seen = np.asarray(seen)
    rows = np.arange(heads)[keep]
    out = np.zeros((len(rows), len(index), int(seen.max()) if length is None else length))
    for row, (token, keys) in enumerate(zip(index, seen)):
        sequence = np.random.SeedSequence([seed, int(window), int(layer), int(token), DIRECTION_SALT])
        out[:, row, :keys] = np.random.default_rng(sequence).standard_normal((heads, int(keys)))[keep]
    return out


def unit_directions(normals: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``normals [..., L]`` kept on the visible keys of ``mask`` and normalised there (``random_directions``' form).

    >>> unit_directions(np.array([[3.0, 4.0, 1.0]]), np.array([[True, True, False]])).tolist()
    [[0.6, 0.8, 0.0]]
    """
    v = np.where(mask, normals, 0.0)
    norm = np.linalg.norm(v, axis=-1, keepdims=True)
    return v / np.where(norm > 0, norm, 1.0)


def sensitivity_block(logits, temperatures, epsilons, *, seed: int = 0, mask=None, v=None) -> dict[str, np.ndarray]:
    """Algorithm 5 on a block: ``softmax_jacobian_norms`` and ``finite_difference_sensitivity`` in one pass.

    ``logits [H, C, L]`` (finite; 0 where masked), ``mask [C, L]`` -> ``jacobian_{spectral, frobenius,
    row, entry} [H, C, n_T]`` and ``g [H, C, n_T, n_ε]``, the references' numbers to float64 rounding:
    the same random directions ``v`` (drawn at the block's full shape from ``seed``, unless the unit directions
    ``v [H, C, L]`` are given), the base softmax ``softmax(l/T)`` computed once per ``T`` and shared by the four
    norms and ``g``, and only the keys some row of the block sees (a causal block of early rows reads a prefix of ``L``).

    >>> rng = np.random.default_rng(0)
    >>> l = rng.normal(size=(2, 3, 5)); m = np.tril(np.ones((3, 5), bool), 2)
    >>> from theorems.maths.gradient_sensitivity import finite_difference_sensitivity as reference
    >>> got = sensitivity_block(l * m, [0.5, 2.0], [1e-3, 1.0], seed=4, mask=m)["g"]
    >>> bool(np.allclose(got, reference(l * m, [0.5, 2.0], [1e-3, 1.0], seed=4, mask=m), rtol=1e-12))
    True
    """
    array = check_logits(np.asarray(logits, dtype=float), allow_object=False)
    t_grid, e_grid = _grid(temperatures, name="temperatures"), _grid(epsilons, name="epsilons")
    check_scale(np.abs(array) + float(e_grid.max()), float(t_grid.min()))  # the moved logits l + εv, |v| <= 1
    valid = check_mask(mask, array.shape, of="the logits", every_row=True)  # [H, C, L]
    v = random_directions(array.shape, seed=seed, mask=valid) if v is None else np.asarray(v, dtype=float)  # untrimmed
    seen = valid.any(axis=tuple(range(valid.ndim - 1)))  # [L] keys some row sees
    if not seen.all():  # masked keys add exact zeros to every sum: leave them out
        array, v, valid = array[..., seen], v[..., seen], valid[..., seen]
    moved = array[..., None, :] + e_grid[:, None] * v[..., None, :]  # [H, C, n_ε, L']
    hidden = ~valid
    norms, g = [], []
    for t in t_grid:
        base = _softmax_in_place(np.divide(array, t), hidden)  # [H, C, L'], shared below
        norms.append(_norms_at(base, float(t)))
        shifted = _softmax_in_place(np.divide(moved, t), hidden[..., None, :])  # [H, C, n_ε, L']
        shifted -= base[..., None, :]
        g.append(np.linalg.norm(shifted, axis=-1) / e_grid)  # [H, C, n_ε]
    out = {f"jacobian_{key}": np.stack([n[key] for n in norms], axis=-1) for key in norms[0]}
    out["g"] = np.stack(g, axis=-2)  # [H, C, n_T, n_ε]
    return out


def _softmax_in_place(scaled: np.ndarray, hidden: np.ndarray) -> np.ndarray:
    """``theorems.maths.gradient._softmax_weights`` on ``scaled = logits / T``, the same operations in place."""
    np.copyto(scaled, -np.inf, where=hidden)
    scaled -= np.max(scaled, axis=-1, keepdims=True)  # max is finite: every row has a valid key
    np.exp(scaled, out=scaled)
    scaled /= np.sum(scaled, axis=-1, keepdims=True)
    return scaled
