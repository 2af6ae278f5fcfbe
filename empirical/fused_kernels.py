"""The CPU's fused loops: the few steps of :mod:`empirical.torch_kernels` that torch makes as many passes over a block,
compiled once by numba into one pass each.

Each loop computes exactly the formula of the torch operations it replaces, in float64, on the same tensors (their
numpy views: no copy), with IEEE arithmetic (no ``fastmath``: no reassociation, no contraction into fused
multiply-adds); only the order of a few sums differs, which the rounding bounds of the tests already allow for
(``tests/empirical/rounding.py`` covers any order). Used on the CPU when numba is installed (:data:`AVAILABLE`; and
:data:`empirical.torch_kernels.FUSED_LOOPS`); a GPU, or a CPU without numba, runs the torch operations.

- :func:`selected_sums`: ``s_N = Σ_{p < N} α_{o_p} x_{o_p}`` at every ``N`` of a grid by one running sum along the
  selection order (``k·d`` per row, where torch gathers ``[H, C, k, d]`` or multiplies ``[H, C·G, L] @ [H, L, d]``);
- :func:`distance_sums`: from the products ``x_i·s_N``, the sum reading ``Σ_{i ∉ I_N} ‖α_i x_i − s_N‖`` and the random
  main sum ``Σ_i ‖α_i x_i − q·T‖`` of every ``N`` in one pass over ``[H, C, G, L]`` (torch: about twelve);
- :func:`sweep_columns`, :func:`sweep_and_read`: :class:`empirical.torch_kernels.FarthestPrefix`'s running top-2 over
  a chunk of the table's columns, one pass per column (torch: ten operations over ``[H, L]``), and the rows of a block
  read at their columns in one call;
- :func:`farthest_candidates`, :func:`largest_pairs`: Theorem 1's ``d_1`` from those top-2 at every ``N``;
- :func:`weight_moments`, :func:`secular_roots`: the Jacobian norms' sums over a row of weights and the spectral
  norm's Newton steps, each row in the core's cache while it is read again (torch: every pass over the whole block).

Each compiled loop is tested against itself run by Python, bit for bit (``tests/empirical/test_fused_kernels.py``).

>>> import numpy as np
>>> out = np.empty((1, 1, 2, 2))
>>> order = np.array([[[1, 0]]])
>>> selected_sums(np.array([[[0.25, 0.75]]]), order, np.eye(2)[None], np.array([1, 2]), out) is None
True
>>> out[0, 0].tolist()
[[0.0, 0.75], [0.25, 0.75]]
"""

from __future__ import annotations

import math

import numpy as np

try:
    import numba
except ImportError:  # numba is optional: the torch operations serve
    numba = None

AVAILABLE = numba is not None
"""Whether numba is installed."""


def _compiled(function):
    """``function`` compiled by numba (cached on disk, releasing the GIL); without numba, the function as it is (the
    torch operations serve then: :data:`AVAILABLE`)."""
    if numba is None:
        return function
    # cached only under the package's name: numba's cache records the module that compiled it, and a run of this
    # file as a top-level module (`python -m doctest`) would leave entries the package cannot load
    return numba.njit(cache=__name__ == "empirical.fused_kernels", nogil=True)(function)


@_compiled
def selected_sums(alpha, order, x, grid, out):
    """``out[h, c, g] = Σ_{p < min(grid[g], k)} alpha[h, c, o_p]·x[h, o_p]`` with ``o = order[h, c]`` (``[H, C, k]``
    key indices, largest weight first), ``alpha [H, C, L]``, ``x [H, L_w, d]``, ``grid [G]``, ``out [H, C, G, d]``;
    one running sum per row while ``grid`` ascends (it starts again where it does not)."""
    heads, rows, k = order.shape
    width = x.shape[2]
    running = np.empty(width)
    for h in range(heads):
        for c in range(rows):
            p = k + 1
            for g in range(grid.shape[0]):
                stop = min(grid[g], k)
                if stop < p:
                    running[:] = 0.0
                    p = 0
                while p < stop:
                    key = order[h, c, p]
                    weight = alpha[h, c, key]
                    for e in range(width):
                        running[e] += weight * x[h, key, e]
                    p += 1
                out[h, c, g] = running


@_compiled
def distance_sums(products, alpha, squared, rank, sums_squared, grid, cross, q, totals_squared, distance, estimate):
    """Per ``(h, c, g)``: ``distance = Σ_{i: rank ≥ N} √max(0, ‖s_N‖² − 2α_i·x_i·s_N + α_i²‖x_i‖²)`` (the keys
    visible and outside ``I_N``, ``N = grid[g]``) and ``estimate = Σ_{i visible} √max(0, α_i²‖x_i‖² − 2q·α_i x_i·T
    + q²‖T‖²)`` (``q = q[c, g]``).

    ``products [H, C, G, L]`` ``x_i·s_N``, ``alpha [H, C, L]``, ``squared [H, L]`` ``‖x_i‖²``, ``rank [H, C, L]`` each
    key's place in the selection order (``-1`` masked), ``sums_squared [H, C, G]`` ``‖s_N‖²``, ``grid [G]`` float,
    ``cross [H, C, L]`` ``α_i x_i·T``, ``q [C, G]``, ``totals_squared [H, C]`` ``‖T‖²``; writes ``distance`` and
    ``estimate`` ``[H, C, G]``. The roots of a row are made in one loop and summed in another, four running sums
    (``i mod 4``) at once: both loops run on vector registers."""
    heads, rows, groups, length = products.shape
    own, roots, mains = np.empty(length), np.empty(length), np.empty(length)
    for h in range(heads):
        for c in range(rows):
            for i in range(length):
                a = alpha[h, c, i]
                own[i] = a * a * squared[h, i]
            for g in range(groups):
                n, ss, qq = grid[g], sums_squared[h, c, g], q[c, g]
                shift, tt = -2.0 * qq, qq * qq * totals_squared[h, c]
                for i in range(length):
                    value = ss + -2.0 * (products[h, c, g, i] * alpha[h, c, i]) + own[i]
                    roots[i] = math.sqrt(max(value, 0.0)) if rank[h, c, i] >= n else 0.0
                    value = own[i] + shift * cross[h, c, i] + tt
                    mains[i] = math.sqrt(max(value, 0.0)) if rank[h, c, i] >= 0.0 else 0.0
                distance[h, c, g] = _sum(roots)
                estimate[h, c, g] = _sum(mains)


@_compiled
def _sum(values) -> float:
    """``Σ values`` as four running sums of the entries ``i mod 4``, added pairwise at the end."""
    s0 = s1 = s2 = s3 = 0.0
    i, length = 0, values.shape[0]
    while i + 4 <= length:
        s0, s1, s2, s3 = s0 + values[i], s1 + values[i + 1], s2 + values[i + 2], s3 + values[i + 3]
        i += 4
    while i < length:
        s0 += values[i]
        i += 1
    return (s0 + s1) + (s2 + s3)


@_compiled
def sweep_columns(table, state, first, last, column):
    """Absorb the columns ``first ... last`` of ``table [H, S, L]`` (``table[h, s, j] = T[j, column + s − first]``)
    into the running top-2 ``state [4, H, L]`` (first, where, second, where), with the rules of
    :meth:`empirical.torch_kernels.FarthestPrefix._sweep_to`: the first maximum is the last column to reach it, the
    value it demotes (the column's own, or the maximum's so far) becomes the runner-up when at least as large."""
    heads, length = state.shape[1], state.shape[2]
    for s in range(first, last + 1):
        here = float(column + s - first)
        for h in range(heads):
            for j in range(length):
                t = table[h, s, j]
                top, top_at, second, second_at = state[0, h, j], state[1, h, j], state[2, h, j], state[3, h, j]
                below = t < top
                demoted = t if below else top
                owner = here if below else top_at
                if demoted >= second:
                    second, second_at = demoted, owner
                if not below:
                    top, top_at = t, here
                # every entry read, then written: loads and stores in that order (numba 0.68's vectorised loop read
                # a conditionally stored entry after the store)
                state[0, h, j], state[1, h, j], state[2, h, j], state[3, h, j] = top, top_at, second, second_at


@_compiled
def sweep_and_read(table, state, start, done, columns, rows, keys, out):
    """:func:`sweep_columns` up to each of ``columns [R]`` in turn (ascending; each at least ``done − 1``, the columns
    absorbed so far, and below ``start + S``, the end of the chunk ``table [H, S, L]`` whose first column is
    ``start``), then the state at the keys ``keys [R, H, n]`` into ``out [4, H, C, n]`` at row ``rows[r]``; returns the
    columns absorbed."""
    heads, picks = keys.shape[1], keys.shape[2]
    for r in range(columns.shape[0]):
        column = columns[r]
        if column >= done:
            sweep_columns(table, state, done - start, column - start, done)
            done = column + 1
        row = rows[r]
        for h in range(heads):
            for p in range(picks):
                key = keys[r, h, p]
                for part in range(4):
                    out[part, h, row, p] = state[part, h, key]
    return done


CLEAN, REDO = 1, 2
""":func:`farthest_candidates`' marks: the running top-2 tell the pair's value; they do not, and it may be the
largest."""


@_compiled
def farthest_candidates(rank, first_at, second_at, best, runner, own, grid, counts, far, status):
    """Theorem 1's ``max_{i visible, i ∉ I_N} T[j, i]`` for each selected key ``j`` (position ``p`` of the order) of
    every ``N = grid[g]``, where the running top-2 tell it: the prefix maximum if its key is outside ``I_N``, else the
    runner-up if its key is outside and it is finite; as :func:`empirical.torch_kernels.fixed_bounds`.

    ``rank [H, C, L]``; ``first_at, second_at, best, runner, own [H, C, k]`` (the top-2's keys and values and
    ``‖x_j‖²`` of each position); ``counts [C]``. Writes ``far [H, C, G, k]`` (the value; ``-inf`` where untold or
    not in ``I_N``) and ``status [H, C, G, k]``: :data:`CLEAN` where told, :data:`REDO` where untold, in ``I_N``, the
    row sees ``N`` keys and ``own + (the prefix maximum)`` exceeds the largest told ``own + far`` of the row (only
    these may still be the maximum), else 0."""
    heads, rows, k = best.shape
    for h in range(heads):
        for c in range(rows):
            for g in range(grid.shape[0]):
                n = grid[g]
                floor = -math.inf
                for p in range(k):
                    status[h, c, g, p] = 0
                    far[h, c, g, p] = -math.inf
                    if p >= n:
                        continue
                    first_in = rank[h, c, first_at[h, c, p]] < n
                    runner_clean = (first_in and not rank[h, c, second_at[h, c, p]] < n
                                    and math.isfinite(runner[h, c, p]))
                    if runner_clean or not first_in:
                        value = runner[h, c, p] if runner_clean else best[h, c, p]
                        far[h, c, g, p] = value
                        status[h, c, g, p] = CLEAN
                        floor = max(floor, own[h, c, p] + value)
                if counts[c] < n:
                    continue
                for p in range(k):
                    if p < n and status[h, c, g, p] == 0 and own[h, c, p] + best[h, c, p] > floor:
                        status[h, c, g, p] = REDO


@_compiled
def largest_pairs(far, own, out):
    """``out[h, c, g] = √max(0, max_p (own[h, c, p] + far[h, c, g, p]))`` over the finite ``far`` (``d_1``)."""
    heads, rows, groups, k = far.shape
    for h in range(heads):
        for c in range(rows):
            for g in range(groups):
                largest = 0.0
                for p in range(k):
                    if math.isfinite(far[h, c, g, p]):
                        largest = max(largest, own[h, c, p] + far[h, c, g, p])
                out[h, c, g] = math.sqrt(largest)


@_compiled
def secular_roots(weights, active, scale, lam, low, high, a1, a2, steps, tolerance, out):
    """Newton's method on ``(a_1 − λ)(λ − a_2)·f(λ)``, ``f(λ) = Σ_k α_k/(α_k − λ)``, for the rows ``active [A]`` of
    ``weights [R, L]`` divided by ``scale [A]`` (their largest diagonal entry), from ``lam [A]`` inside the bracket
    ``(low, high)`` (``a1``, ``a2`` the two largest weights, all in those units), at most ``steps`` steps, each one
    pass over the row (``f`` and ``f′`` together, the row in the core's cache across steps); writes the root, in the
    same units, to ``out [A]``. The rules of :func:`empirical.torch_kernels.largest_eigenvalue`'s loop, row by row:
    the bracket's side by the sign of ``f``, the step taken when it lies strictly inside, else the geometric midpoint;
    done at a step within ``tolerance·λ`` that lies in the bracket, a bracket narrower than ``tolerance·high``, or
    ``f = 0``."""
    length = weights.shape[1]
    row, ratios, slopes = np.empty(length), np.empty(length), np.empty(length)
    for r in range(active.shape[0]):
        for k in range(length):
            row[k] = weights[active[r], k] / scale[r]
        x, lo, hi, top, second = lam[r], low[r], high[r], a1[r], a2[r]
        for _ in range(steps):
            for k in range(length):
                inverse = 1.0 / (row[k] - x)
                ratios[k] = row[k] * inverse
                slopes[k] = ratios[k] * inverse
            f, slope = _sum(ratios), _sum(slopes)
            u = (top - x) * (x - second)
            step = x - u * f / ((top + second - 2.0 * x) * f + u * slope)
            if not f >= 0.0:  # the root lies right of λ (also when λ hits a weight: nan/inf)
                lo = x
            else:
                hi = x
            middle = min(max(math.sqrt(lo) * math.sqrt(hi), lo), hi)
            inside = math.isfinite(step) and lo < step < hi
            near = lo <= step <= hi and abs(step - x) <= tolerance * x
            if near or hi - lo <= tolerance * hi or f == 0.0:
                x = x if f == 0.0 else min(max(step if inside else x, lo), hi)
                break
            x = step if inside else middle
        out[r] = x


@_compiled
def weight_moments(weights, top, r_top, second, q, cubes):
    """Per row of ``weights [R, L]``: the largest weight ``top``, and over the others (the largest's first place left
    out) their sum ``r_top``, their largest ``second``, and with ``u = second`` (1 where it is 0) the sums
    ``q = Σ (α/u)²`` and ``cubes = Σ (α/u)²·(α/u)``: the passes of :func:`empirical.torch_kernels.jacobian_norms` over
    the weights, three per row while it stays in the core's cache; each ``[R]``."""
    length = weights.shape[1]
    others, squares, products = np.empty(length), np.empty(length), np.empty(length)
    for r in range(weights.shape[0]):
        at = 0
        for k in range(1, length):
            if weights[r, k] > weights[r, at]:
                at = k
        largest = 0.0
        for k in range(length):
            others[k] = weights[r, k] if k != at else 0.0
            largest = max(largest, others[k])
        unit = largest if largest > 0.0 else 1.0
        for k in range(length):
            scaled = others[k] / unit
            squares[k] = scaled * scaled
            products[k] = squares[k] * scaled
        top[r], r_top[r], second[r] = weights[r, at], _sum(others), largest
        q[r], cubes[r] = _sum(squares), _sum(products)
