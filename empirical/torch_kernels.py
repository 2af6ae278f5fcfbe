"""The kernels of Algorithms 1-5 in torch, on the device the heads are on, in float64.

The same quantities as :mod:`empirical.kernels` (the numpy path, kept as the reference; the tests compare the two on
every quantity within bounds derived from the rounding of each formula, ``tests/empirical/rounding.py``), computed
without leaving the device: a block of rows arrives as tensors (:func:`empirical.heads.rows.blocks` with
``backend="torch"``) and its results stay there until the pass is over. Every ``N`` (or ``T``) of a grid is one
batched operation instead of a Python loop:

- :func:`distance_grid` (Algorithms 1-3): the top-``N`` sums ``s_N`` of every ``N`` from one selection order, the
  products ``x_i·s_N`` of every ``N`` as one matrix product ``[H, C·G, d] @ [H, d, L]``, ``d̃`` and the random main
  sum from them;
- :func:`fixed_bounds` (Theorem 1's bound, Algorithms 1-2): ``d_1`` from per-(head, key) running top-2 of
  ``T[j, i] = ‖x_i‖² − 2 x_j·x_i`` over the keys a row sees (:class:`FarthestPrefix`, built a block of columns at a
  time: no ``[H, L, L]`` table is held);
- :func:`separability_block` (Algorithm 4): every ``N`` of the grid at once, the distances near the radius
  recomputed from the differences as the reference does;
- :func:`sensitivity_block` (Algorithm 5): the softmaxes of every ``T`` at once, the four Jacobian norms in a few
  passes, the spectral norm by Newton's method on the secular equation from a bracket of relative width at most 2
  (Gershgorin's bound ``2 max_i α_i(1 − α_i)`` over the diagonal's ``max_i α_i(1 − α_i)``), so a few steps reach
  rounding; the random directions are the numpy path's (:func:`empirical.kernels.direction_normals`).

Shapes: ``alpha [H, C, L]`` (``C`` query rows, ``L`` the keys the block sees), ``x [H, L, d]`` (or
``[H, 1, L, d]``), ``mask [C, L]`` (True = key visible).

>>> import torch
>>> g = torch.Generator().manual_seed(0)
>>> alpha = torch.softmax(torch.randn(2, 3, 6, generator=g, dtype=torch.float64), -1)
>>> x = torch.randn(2, 6, 4, generator=g, dtype=torch.float64)
>>> out = distance_grid(alpha, x, (1, 2), mask=torch.ones(3, 6, dtype=torch.bool))
>>> tuple(out["distance_sum"].shape)
(2, 3, 2)
"""

from __future__ import annotations

import numpy as np
import torch


TINY = 1e-250
"""Rows whose second weight is below this take the geometric bisection (Newton's products of such weights underflow),
as :func:`theorems.maths.secular.newton` does."""
NEWTON_STEPS = 64
"""Newton-or-bisection steps at most for the spectral norm (the bisection of a bracket of relative width 2 reaches
float64 in 53)."""
SPECTRAL_TOLERANCE = 4 * torch.finfo(torch.float64).eps
"""Relative step (or bracket width) at which a row's spectral norm stops, as in :mod:`theorems.maths.secular`."""
SWEEP_ENTRIES = 1 << 21
"""Entries of one chunk of columns of :class:`FarthestPrefix`'s table (16 MiB of float64)."""
SCALE_FLOOR = 1e-140
"""Row norms of the Jacobian are summed unscaled when the largest is above this (their squares cannot underflow),
else from the rows divided by the largest, as the reference always does."""


def _heads_x(x: torch.Tensor, keys: int) -> torch.Tensor:
    """``x`` as ``[H, L, d]`` on the first ``keys`` keys (``[H, 1, L, d]`` accepted, as the numpy kernels take it)."""
    return x.reshape(x.shape[0], *x.shape[-2:])[:, :keys]


def seen_keys(mask: torch.Tensor) -> int:
    """How many leading keys hold every key some row of ``mask [..., L]`` sees (the rest add exact zeros).

    >>> seen_keys(torch.tril(torch.ones(4, 6, dtype=torch.bool))[:2])
    2
    """
    seen = mask.reshape(-1, mask.shape[-1]).any(0)
    where = torch.nonzero(seen)
    return int(where[-1]) + 1 if len(where) else mask.shape[-1]


def selection_order(alpha: torch.Tensor, valid: torch.Tensor, k: int) -> torch.Tensor:
    """``[..., k]`` the indices of the ``k`` largest valid weights, descending, ties to the lower index (the order of
    ``theorems.maths.batches.top_n_order``); positions past a row's valid count hold masked keys.

    A top-``k`` selection and a sort of the ``k`` found, with a full stable sort for the rows where the ``k``-th
    weight is tied with a weight left out (``torch.topk`` leaves the order of ties unspecified).

    >>> a = torch.tensor([[0.2, 0.3, 0.3, 0.2]], dtype=torch.float64)
    >>> selection_order(a, torch.ones(1, 4, dtype=torch.bool), 3).tolist()
    [[1, 2, 0]]
    """
    key = alpha.masked_fill(~valid, -1.0)  # weights are >= 0: masked keys sort last
    length = key.shape[-1]
    k = min(k, length)
    if 4 * k >= length:
        return torch.sort(key, dim=-1, descending=True, stable=True).indices[..., :k]
    values, index = torch.topk(key, k, dim=-1, sorted=True)
    ascending, where = torch.sort(index, dim=-1)  # the candidates by index, then stably by weight: ties lower first
    by_weight = torch.sort(values.gather(-1, where), dim=-1, descending=True, stable=True).indices
    order = ascending.gather(-1, by_weight)
    last = values[..., -1:]
    tied = (last[..., 0] >= 0) & ((key >= last).sum(-1) > k)  # the k-th weight also held by a key left out
    if bool(tied.any()):
        order[tied] = torch.sort(key[tied], dim=-1, descending=True, stable=True).indices[..., :k]
    return order


def _ranks(order: torch.Tensor, length: int) -> torch.Tensor:
    """``[..., L]`` each key's position in ``order`` (``order``'s length for the keys it does not hold)."""
    k = order.shape[-1]
    rank = torch.full((*order.shape[:-1], length), k, dtype=torch.int64, device=order.device)
    positions = torch.arange(k, device=order.device).expand_as(order)
    return rank.scatter_(-1, order, positions)


def _grid(ns, device) -> torch.Tensor:
    return torch.as_tensor(list(ns), dtype=torch.int64, device=device)


def _top_sums(alpha, x, order, ns):
    """``s_N = Σ_{j∈I_N} α_j x_j`` ``[H, C, G, d]`` for every ``N`` of ``ns``, from the selection ``order [H, C, k]``:
    the selected keys' ``α_j x_j`` summed in the order of selection (one running sum serves every ``N``)."""
    heads, rows, k = order.shape
    picked = x[torch.arange(heads, device=x.device)[:, None, None], order]  # [H, C, k, d]
    picked.mul_(alpha.gather(-1, order)[..., None])
    running = picked.cumsum_(-2)
    positions = (_grid(ns, x.device) - 1).clamp(max=k - 1)
    return running[:, :, positions]  # [H, C, G, d]


def _chosen_sums(alpha, x, rank, ns):
    """``s_N`` ``[H, C, G, d]`` as one matrix product of the weights of each top-``N`` set (``rank [H, C, L]``): cheaper
    than :func:`_top_sums` when the largest ``N`` is a large part of ``L``."""
    heads, rows, length = alpha.shape
    chosen = rank[:, :, None, :] < _grid(ns, x.device)[:, None]  # [H, C, G, L]
    weights = alpha[:, :, None, :] * chosen
    return torch.matmul(weights.reshape(heads, -1, length), x).reshape(heads, rows, len(ns), -1), chosen


def _products(s, x):
    """``x_i·s`` for every key: ``s [H, C, G, d]`` -> ``[H, C, G, L]`` (one matrix product per head)."""
    heads, rows, grid, _ = s.shape
    return torch.matmul(s.reshape(heads, rows * grid, -1), x.transpose(-1, -2)).reshape(heads, rows, grid, -1)


def _expanded_norms(own, products, coefficient, offset):
    """``√max(own − 2·coefficient·products + offset, 0)`` in place on ``products``: ``‖c α_i x_i − s‖`` expanded."""
    out = torch.addcmul(own, products, coefficient, value=-2.0)
    out.add_(offset)
    return out.clamp_(min=0.0).sqrt_()


def distance_grid(alpha, x, ns, *, mask, norm: bool = False, order=None) -> dict[str, torch.Tensor]:
    """``d̃`` (sum reading; with ``norm`` also the norm reading) and the random main sum at every ``N`` of ``ns``,
    ``[H, C, G]`` each; NaN where a row sees fewer than ``N`` keys. As :func:`empirical.kernels.distance_grid`.

    ``order`` (from :func:`selection_order`, at least ``max(ns)`` long) may be shared with :func:`fixed_bounds`.
    """
    ns = tuple(int(n) for n in ns)
    heads, rows, length = alpha.shape
    valid = mask[None]  # [1, C, L]
    counts = mask.sum(-1)  # [C]
    x = _heads_x(x, length)
    grid = _grid(ns, alpha.device)
    if order is None:
        order = selection_order(alpha, valid, max(ns))
    xx = (x * x).sum(-1)[:, None, None, :]  # [H, 1, 1, L]
    own = alpha.square()[:, :, None, :] * xx  # [H, C, 1, L] ‖α_i x_i‖²
    rank = _ranks(order, length)
    if 4 * max(ns) < length:
        s = _top_sums(alpha, x, order, ns)
        chosen = rank[:, :, None, :] < grid[:, None]  # [H, C, G, L]
    else:
        s, chosen = _chosen_sums(alpha, x, rank, ns)
    weights = alpha[:, :, None, :]  # [H, C, 1, L]
    ss = s.square().sum(-1, keepdim=True)  # [H, C, G, 1]
    rest = (valid[:, :, None, :] & ~chosen).to(alpha.dtype)  # [H, C, G, L] the visible keys outside I_N
    distances = _expanded_norms(own, _products(s, x), weights, ss)  # [H, C, G, L] ‖α_i x_i − s‖
    fits = counts[:, None] >= grid  # [C, G]
    nan = torch.tensor(float("nan"), dtype=alpha.dtype, device=alpha.device)
    out = {"distance_sum": torch.where(fits, (distances * rest).sum(-1), nan)}
    if norm:  # ‖t − s‖ with t = Σ_{i∉I_N} α_i x_i, each sum taken directly as the reference does
        t = torch.matmul((weights * rest).reshape(heads, -1, length), x).reshape(s.shape)
        out["distance_norm"] = torch.where(fits, torch.linalg.vector_norm(t - s, dim=-1), nan)
    # the random main sum: ‖(1 + p)α_i x_i − p·T‖ = (1 + p)·‖α_i x_i − q·T‖ with q = p/(1 + p), T = Σ_j α_j x_j
    total = torch.matmul(alpha, x)  # [H, C, d]
    wxt = (alpha * torch.matmul(total, x.transpose(-1, -2)))[:, :, None, :]  # [H, C, 1, L] α_i x_i·T
    tt = total.square().sum(-1)[:, :, None, None]  # [H, C, 1, 1]
    sizes, keys_seen = grid.to(alpha.dtype), counts.to(alpha.dtype)[:, None]  # [G], [C, 1]: float64 before dividing
    p = torch.where(keys_seen > 1, sizes / (keys_seen - 1).clamp(min=1), 0.0)  # [C, G]
    q = (p / (1 + p))[None, :, :, None]  # [1, C, G, 1]
    main = _expanded_norms(own, wxt.expand(-1, -1, len(ns), -1), q, q * q * tt)  # [H, C, G, L]
    visible = mask.to(alpha.dtype)[None, :, :, None]  # [1, C, L, 1]
    sums = torch.matmul(main, visible)[..., 0] * (1 + p)  # [H, C, G]
    out["estimate"] = torch.where(fits, (keys_seen - sizes) / keys_seen * sums, nan)
    return out


# ----------------------------------------------------------------------------------------------
# Theorem 1's fixed bound: d_1 from running top-2 of T[j, i] = ‖x_i‖² − 2 x_j·x_i over the keys a row sees


class FarthestPrefix:
    """Per head and key ``j``, the two largest ``T[j, i] = ‖x_i‖² − 2 x_j·x_i`` over ``i ≤ t`` and where they are,
    read at the keys and columns asked (:meth:`lookup`) while the columns are swept in order, a chunk at a time,
    carrying the running top-2 from one chunk (and one block of rows) to the next: no ``[H, L, L]`` table is held
    (``x [H, L, d]``, every key of the window).

    The arithmetic and the rules for ties are :func:`empirical.kernels.farthest_table`'s: the first maximum is the
    last ``i`` that reaches it, the runner-up ``M2[t] = max_{s ≤ t} min(M1[s − 1], T[s])``.
    """

    def __init__(self, x: torch.Tensor) -> None:
        self.x = x  # [H, L, d]
        self.squared = (x * x).sum(-1)  # [H, L]
        self._reset()

    def _reset(self) -> None:
        heads, length, _ = self.x.shape
        self.done = 0  # columns absorbed
        inf = torch.full((heads, length), -float("inf"), dtype=self.x.dtype, device=self.x.device)
        zero = torch.zeros((heads, length), dtype=torch.int64, device=self.x.device)
        self.state = (inf, zero, inf.clone(), zero.clone())  # first, first_at, second, second_at after `done` columns

    def lookup(self, index: torch.Tensor, columns: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """``(first, first_at, second, second_at)`` ``[H, C, n]`` of the keys ``index [H, C, n]`` of each row ``c`` at
        its column ``columns [C]`` (the last key the row sees).

        Columns before the sweep's position restart it; the columns between are swept in chunks of at most
        :data:`SWEEP_ENTRIES` table entries (a block whose rows all see every key, an encoder's, sweeps the window
        once and reads the last column).
        """
        if int(columns.min()) < self.done - 1:  # the sweep is past a column asked for: start again
            self._reset()
        heads, length, _ = self.x.shape
        h = torch.arange(heads, device=index.device)[:, None, None]
        out = [part[h, index] for part in self.state]  # right for the rows at the column the state describes
        high = int(columns.max())
        step = max(1, SWEEP_ENTRIES // (heads * length))
        for start in range(self.done, high + 1, step):
            stop = min(start + step, high + 1)
            table = self.squared[:, None, start:stop] - 2 * torch.matmul(self.x, self.x[:, start:stop].transpose(-1, -2))
            swept = self._sweep(table, start)  # each [H, L, S]
            self.state = tuple(part[..., -1].contiguous() for part in swept)
            self.done = stop
            rows = torch.nonzero((columns >= start) & (columns < stop))[:, 0]
            if len(rows):
                keys, at = index[:, rows], (columns[rows] - start)[None, :, None]
                for part, values in zip(out, swept):
                    part[:, rows] = values[h, keys, at]
        return tuple(out)

    def _sweep(self, table: torch.Tensor, start: int):
        """The running top-2 over the columns of ``table [H, L, S]`` (column ``s`` is key ``start + s``), continued
        from the state after the columns before ``start``."""
        first0, first_at0, second0, second_at0 = (part[..., None] for part in self.state)
        running, where = torch.cummax(table, dim=-1)  # ties: the last index, as numpy's accumulate of positions
        better = running >= first0  # the new columns reach the carried maximum: the later index wins
        first = torch.where(better, running, first0)
        first_at = torch.where(better, where.add_(start), first_at0)
        # entry s demotes M1[s − 1] or itself to the runner-up; whose value that is
        previous, previous_at = torch.empty_like(first), torch.empty_like(first_at)
        previous[..., :1], previous[..., 1:] = first0, first[..., :-1]
        previous_at[..., :1], previous_at[..., 1:] = first_at0, first_at[..., :-1]
        positions = torch.arange(start, start + table.shape[-1], device=table.device)
        owner = torch.where(table < previous, positions, previous_at)
        runner, last = torch.cummax(torch.minimum(previous, table, out=previous), dim=-1)
        keep = runner >= second0
        second = torch.where(keep, runner, second0)
        second_at = torch.where(keep, owner.gather(-1, last), second_at0)
        return first, first_at, second, second_at


def _prefix_counts(mask: torch.Tensor) -> torch.Tensor | None:
    """``[C]`` visible keys per row when every row sees a prefix of the keys (causal or full), else None."""
    counts = mask.sum(-1)
    prefix = torch.arange(mask.shape[-1], device=mask.device) < counts[:, None]
    return counts if bool(torch.equal(prefix, mask)) else None


def fixed_bounds(alpha, x, ns, *, centers=("normalised", "max-norm"), mask, prefix: FarthestPrefix | None = None,
                 order=None) -> dict[str, torch.Tensor]:
    """Theorem 1 part 1 per row at every ``N`` of ``ns``, ``[H, C, G]`` at each of ``centers``, as
    :func:`empirical.kernels.fixed_bounds` at each ``N``; NaN where a row sees fewer than ``N`` keys.

    ``prefix`` (a :class:`FarthestPrefix` of the heads' embeddings, shared by the blocks of one window and layer in
    row order) holds the running top-2 of ``d_1``'s table, read once per block for every ``N``; ``order`` (from
    :func:`selection_order`, at least ``max(ns)`` long) may be shared with :func:`distance_grid`. Rows whose visible
    keys are not a prefix go to the numpy reference (no model gives such rows).
    """
    ns = tuple(int(n) for n in ns)
    heads, rows, length = alpha.shape
    x = _heads_x(x, length)
    counts = _prefix_counts(mask)
    if counts is None:
        return _reference_bounds(alpha, x, ns, centers=centers, mask=mask)
    if order is None:
        order = selection_order(alpha, mask[None], max(ns))
    index = order[..., :max(ns)]  # [H, C, k] the selection of the largest N; each I_N is a prefix of it
    k = index.shape[-1]
    grid = _grid(ns, alpha.device)
    fits = counts[:, None] >= grid  # [C, G]
    prefix = FarthestPrefix(x) if prefix is None else prefix
    best, first_at, runner, second_at = prefix.lookup(index, (counts - 1).clamp(min=0))  # each [H, C, k]
    rank = _ranks(order, length)
    h = torch.arange(heads, device=alpha.device)[:, None, None]
    own = prefix.squared[h, index][:, :, None, :]  # [H, C, 1, k] ‖x_j‖²
    member = torch.arange(k, device=alpha.device) < grid[:, None]  # [G, k] position p of the order is in I_N
    sizes = grid[:, None]  # [G, 1]
    # max over visible i ∉ I_N of T[j, i]: the prefix maximum if it is not selected, else the runner-up if that is not
    first_in = rank.gather(-1, first_at)[:, :, None, :] < sizes  # [H, C, G, k]
    runner_clean = first_in & ~(rank.gather(-1, second_at)[:, :, None, :] < sizes) & torch.isfinite(runner)[:, :, None]
    best = torch.where(runner_clean, runner[:, :, None], best[:, :, None])  # [H, C, G, k]
    clean = (~first_in | runner_clean) & member
    inf = torch.tensor(-float("inf"), dtype=alpha.dtype, device=alpha.device)
    far = torch.where(clean, best, inf)
    floor = torch.where(clean, own + best, inf).amax(-1, keepdim=True)  # [H, C, G, 1] a lower bound of d_1²
    redo = torch.nonzero(~clean & member & (own + best > floor) & fits[None, :, :, None], as_tuple=True)
    if len(redo[0]):  # pairs whose true value may still be the maximum: their row of the table, on the visible keys
        far[redo] = _farthest_rows(x, prefix.squared, index, rank, mask, redo, grid)
    d1 = torch.where(torch.isfinite(far), own + far, 0.0).amax(-1).clamp(min=0.0).sqrt()  # [H, C, G]
    weights = alpha.gather(-1, index)  # [H, C, k] descending
    at = (grid - 1).clamp(max=k - 1)
    mass = weights.cumsum(-1)[..., at]  # [H, C, G]
    nan = torch.tensor(float("nan"), dtype=alpha.dtype, device=alpha.device)
    out = {}
    for center in centers:
        if center == "normalised":
            s = _top_sums(alpha, x, order[..., :k], ns)  # [H, C, G, d]
            c = torch.where(mass > 0, torch.linalg.vector_norm(s, dim=-1) / torch.where(mass > 0, mass, 1.0), 0.0)
        else:
            c = own[:, :, 0].cummax(-1).values[..., at].sqrt()
        bound = (1 - mass) * d1 + ((counts[:, None] - grid) * mass - (1 - mass)) * c
        out[center] = torch.where(fits, bound, nan)
    return out


def _farthest_rows(x, squared, index, rank, mask, pairs, grid) -> torch.Tensor:
    """``max_{i visible, i ∉ I_N} T[j, i]`` for the ``pairs`` ``(head, row, g, p)``: key ``j = index[head, row, p]``,
    ``N = grid[g]``; one matrix product per head."""
    hh, cc, gg, pp = pairs
    out = torch.empty(len(hh), dtype=x.dtype, device=x.device)
    for head in torch.unique(hh).tolist():
        at = torch.nonzero(hh == head)[:, 0]
        rows, keys = cc[at], index[head, cc[at], pp[at]]
        table = squared[head, : x.shape[1]] - 2 * torch.matmul(x[head, keys], x[head].transpose(0, 1))  # [P, L]
        rest = mask[rows] & (rank[head, rows] >= grid[gg[at], None])
        out[at] = torch.where(rest, table, -float("inf")).amax(-1)
    return out


def _reference_bounds(alpha, x, ns, *, centers, mask):
    """Rows whose visible keys are not a prefix: the numpy reference on the rows that see ``N`` keys, at each ``N``
    (no model makes such rows; this keeps the kernel total)."""
    from theorems.maths import distance as reference

    counts = mask.sum(-1)
    out = {center: torch.full((*alpha.shape[:2], len(ns)), float("nan"), dtype=alpha.dtype, device=alpha.device)
           for center in centers}
    for g, n in enumerate(ns):
        keep = torch.nonzero(counts >= n)[:, 0]
        if not len(keep):
            continue
        a, m, xs = alpha[:, keep].cpu().numpy(), mask[keep].cpu().numpy(), x.cpu().numpy()[:, None]
        for center in centers:
            out[center][:, keep, g] = torch.from_numpy(reference.fixed_bound(a, xs, n, center=center, mask=m)).to(alpha)
    return out


# ----------------------------------------------------------------------------------------------
# Algorithm 4: separability at every N of a grid


SEPARABILITY_QUANTITIES = ("radius", "fraction", "lower", "upper_2M2", "upper_16M2")


def separability_block(alpha, x, ns, *, delta, mask) -> dict[str, torch.Tensor]:
    """Algorithm 4's quantities ``[H, C, G]`` at every ``N`` of ``ns``, as :func:`empirical.kernels.separability_block`
    at each ``N`` (unit embeddings ``x``, ``M = 1``, ``delta [H, 1]``); NaN where a row sees at most ``N`` keys or its
    radius is not positive and finite.
    """
    ns = tuple(int(n) for n in ns)
    heads, rows, length = alpha.shape
    x = _heads_x(x, length)
    valid = mask[None]
    counts = mask.sum(-1)  # [C]
    grid = _grid(ns, alpha.device)
    order = selection_order(alpha, valid, max(ns))  # [H, C, k]
    k = order.shape[-1]
    rank = _ranks(order, length)
    s = _top_sums(alpha, x, order, ns)  # [H, C, G, d]
    ss = s.square().sum(-1, keepdim=True)  # [H, C, G, 1]
    xx = (x * x).sum(-1)[:, None, None, :]
    own = alpha.square()[:, :, None, :] * xx  # [H, C, 1, L]
    distances = _expanded_norms(own, _products(s, x), alpha[:, :, None, :], ss)  # [H, C, G, L] ‖s − α_i x_i‖
    outside = valid[:, :, None, :] & (rank[:, :, None, :] >= grid[:, None])  # [H, C, G, L]
    inf = torch.tensor(float("inf"), dtype=alpha.dtype, device=alpha.device)
    r, closest = torch.where(outside, distances, inf).min(-1)  # [H, C, G]
    selected_at = torch.arange(k, device=alpha.device) < grid[:, None]  # [G, k] the first N of the order
    inner = distances.gather(-1, order[:, :, None, :].expand(-1, -1, len(ns), -1))  # [H, C, G, k]
    # the expansion is off by ~ε·‖s‖²/distance: recomputed from the differences, as the reference does, the radius
    # and every selected key within reach of it, so the ties ‖s − α_i x_i‖ = r fall as there
    slack = 1e-9 * (ss[..., 0] / r.clamp(min=torch.finfo(alpha.dtype).tiny) + r)  # [H, C, G]
    near = selected_at & ((inner - r[..., None]).abs() <= slack[..., None]) & torch.isfinite(r)[..., None]
    h = torch.arange(heads, device=alpha.device)[:, None, None]
    c = torch.arange(rows, device=alpha.device)[None, :, None]
    finite = torch.isfinite(r)
    r = torch.where(finite, _direct_norms(s, alpha, x, h, c, closest), r)
    hs, cs, gs, ks = torch.nonzero(near, as_tuple=True)
    if len(hs):
        keys = order[hs, cs, ks]
        inner[hs, cs, gs, ks] = torch.linalg.vector_norm(s[hs, cs, gs] - alpha[hs, cs, keys, None] * x[hs, keys], dim=-1)
    usable = finite & (r > 0) & (counts[:, None] >= grid + 1)
    safe = torch.where(usable, r, 1.0)
    nan = torch.where(usable, 1.0, float("nan")).to(alpha.dtype)
    inside = ((inner <= safe[..., None]) & selected_at).sum(-1)  # [H, C, G]
    # ξ: sums over I_N ∖ {i} from the selected weights in the order of selection (M = 1)
    weights = alpha.gather(-1, order)  # [H, C, k] descending
    chosen = weights[:, :, None, :] * selected_at  # [H, C, G, k]
    others = chosen.sum(-1, keepdim=True) - chosen
    squares = chosen.square()
    others_sq = squares.sum(-1, keepdim=True) - squares
    d = torch.as_tensor(delta, dtype=alpha.dtype, device=alpha.device).reshape(heads, 1, 1, 1)
    xi = (others_sq + (1 - d * d / 2) * (others.square() - others_sq)).clamp(min=0.0).sqrt()  # [H, C, G, k]
    gap = (xi - safe[..., None]).square()
    per_n = grid.to(alpha.dtype)
    mean = lambda values: (values * selected_at).sum(-1) / per_n  # noqa: E731 - the mean over the first N
    return {"radius": torch.where(usable, r, float("nan")), "fraction": inside / per_n * nan,
            "lower": (1 - (xi * selected_at).sum(-1) / (safe * per_n)) * nan,
            "upper_2M2": mean(torch.exp(-gap / 2.0)) * nan, "upper_16M2": mean(torch.exp(-gap / 16.0)) * nan}


def _direct_norms(s, alpha, x, h, c, keys):
    """``‖s − α_i x_i‖`` from the difference, for one key per ``(head, row, N)``: ``keys [H, C, G]``."""
    g = torch.arange(s.shape[2], device=s.device)[None, None, :]
    return torch.linalg.vector_norm(s[h, c, g] - alpha[h, c, keys][..., None] * x[h, keys], dim=-1)


# ----------------------------------------------------------------------------------------------
# Algorithm 5: every temperature at once


def directions(normals: np.ndarray, mask: torch.Tensor) -> torch.Tensor:
    """Algorithm 5's unit directions ``v [H, C, L']`` on the device of ``mask [C, L']``: the standard ``normals
    [H, C, L]`` (:func:`empirical.kernels.direction_normals`, numpy's generator) on the first ``L'`` keys (every key
    after them is masked in every row), kept on the visible keys and normalised there, as
    :func:`empirical.kernels.unit_directions`."""
    v = torch.from_numpy(np.ascontiguousarray(normals[..., : mask.shape[-1]])).to(mask.device).mul_(mask)
    norm = torch.linalg.vector_norm(v, dim=-1, keepdim=True)
    return v.div_(torch.where(norm > 0, norm, 1.0))


def sensitivity_block(logits, temperatures, epsilons, *, v, mask) -> dict[str, torch.Tensor]:
    """Algorithm 5 on a block: ``jacobian_{spectral, frobenius, row, entry} [H, C, n_T]`` and ``g [H, C, n_T, n_ε]``,
    as :func:`empirical.kernels.sensitivity_block` with the same directions ``v [H, C, L]``.

    ``logits [H, C, L]`` (finite, 0 where masked), ``mask [C, L]``.
    """
    t = torch.as_tensor(np.asarray(temperatures, dtype=float), device=logits.device)
    e = torch.as_tensor(np.asarray(epsilons, dtype=float), device=logits.device)
    hidden = ~mask[None, :, None, :]  # [1, C, 1, L]
    base = torch.softmax((logits[:, :, None, :] / t[:, None]).masked_fill_(hidden, -float("inf")), dim=-1)
    out = {f"jacobian_{key}": value for key, value in jacobian_norms(base, t).items()}  # each [H, C, n_T]
    moved = logits[:, :, None, :] + e[:, None] * v[:, :, None, :]  # [H, C, n_ε, L]
    g = []
    for k, temperature in enumerate(t):  # [H, C, n_ε, L] at a time: the moved softmaxes of every T would be n_T times that
        shifted = torch.softmax((moved / temperature).masked_fill_(hidden, -float("inf")), dim=-1)
        shifted.sub_(base[:, :, k, None, :])
        g.append(torch.linalg.vector_norm(shifted, dim=-1) / e)
    out["g"] = torch.stack(g, dim=-2)  # [H, C, n_T, n_ε]
    return out


def jacobian_norms(alpha: torch.Tensor, temperatures: torch.Tensor) -> dict[str, torch.Tensor]:
    """Exact spectral, Frobenius, largest-row and largest-entry norms of ``(diag α − ααᵀ)/T`` from ``α [..., n_T, L]``,
    each ``[..., n_T]``: :func:`theorems.maths.gradient_sensitivity._norms_at`'s formulas.

    Row ``i`` has norm ``α_i·√(r_i² + q_i)``, ``r_i = Σ_{j≠i} α_j``, ``q_i = Σ_{j≠i} α_j²``, both summed directly for the
    largest weight and by difference for the others (``α_i ≤ 1/2`` there).
    """
    top, top_at = alpha.max(-1, keepdim=True)  # [..., 1]
    others = alpha.scatter(-1, top_at, 0.0)  # the weights but the largest
    second = others.amax(-1, keepdim=True)
    r_top = others.sum(-1, keepdim=True)
    unit = torch.where(second > 0, second, 1.0)
    q_top = torch.linalg.vector_norm(others.div_(unit), dim=-1, keepdim=True).square_()  # scaled: no underflow
    squares = alpha.square()
    s2 = squares.sum(-1, keepdim=True)
    r = 1 - alpha
    diagonal = (alpha * r).scatter_(-1, top_at, top * r_top)  # α_i(1 − α_i), the top's from its direct sum
    largest_diagonal = diagonal.amax(-1)
    entry = torch.maximum(largest_diagonal, (top * second)[..., 0])
    # squared row norms α_i²(r_i² + q_i) with q_i = s2 − α_i², the top's from its direct sums
    rows = r.square_().add_(s2).sub_(squares).clamp_(min=0.0).mul_(squares)
    top_row = top * unit * ((r_top / unit).square() + q_top).sqrt()  # [..., 1]
    rows.scatter_(-1, top_at, top_row.square())
    biggest = rows.amax(-1)  # [...] the largest squared row norm
    plain = biggest > SCALE_FLOOR ** 2
    frobenius = rows.sum(-1).sqrt()
    if not bool(plain.all()):  # tiny rows: their squares may underflow; summed as the reference does, scaled
        small = ~plain
        scaled = alpha[small] * (1 - alpha[small]).square().add(s2[small]).sub(squares[small]).clamp(min=0.0).sqrt()
        scaled.scatter_(-1, top_at[small], top_row[small])
        largest = scaled.amax(-1, keepdim=True)
        frobenius[small] = largest[..., 0] * (scaled / torch.where(largest > 0, largest, 1.0)).square().sum(-1).sqrt()
    row = biggest.sqrt()
    if not bool(plain.all()):
        row[small] = largest[..., 0]
    spectral = largest_eigenvalue(alpha, top=top[..., 0], second=second[..., 0], diagonal=largest_diagonal)
    t = temperatures
    return {"spectral": spectral / t, "frobenius": frobenius / t, "row": row / t, "entry": entry / t}


def largest_eigenvalue(alpha, *, top, second, diagonal) -> torch.Tensor:
    """``λ_max(diag α − ααᵀ)`` per row ``[...]`` of weights ``α [..., L]`` summing to one, given the two largest
    weights and the largest diagonal entry ``max_i α_i(1 − α_i)``.

    ``λ`` solves ``f(λ) = Σ_k α_k/(α_k − λ) = 0`` on ``(a_2, a_1)`` (:mod:`theorems.maths.secular`); it also lies
    between the largest diagonal entry and Gershgorin's twice that, so the bracket starts at relative width 2 at
    most. Newton's method on the pole-free ``(a_1 − λ)(λ − a_2)·f(λ)`` within the bracket (the geometric midpoint
    where a step leaves it) stops at four ulps, as :func:`theorems.maths.secular.newton` does; rows with
    ``a_2 < 1e-250`` take the geometric bisection.
    """
    flat = alpha.reshape(-1, alpha.shape[-1])
    a1, a2, m = top.reshape(-1), second.reshape(-1), diagonal.reshape(-1)
    out = torch.where(a2 == 0, 0.0, a2)  # a_2 = 0: λ = 0; a_1 = a_2: λ = a_2 exactly
    active = torch.nonzero((a2 > 0) & (a2 < a1))[:, 0]
    low = torch.maximum(a2, m)[active]
    high = torch.maximum(torch.minimum(a1, 2 * m)[active], low)  # rounding may cross the two bounds of one point
    tiny = a2[active] < TINY
    lam = torch.where(tiny, torch.sqrt(a2[active]) * torch.sqrt(a1[active]), (low.sqrt() * high.sqrt()).clamp(low, high))  # no underflow
    low, high = torch.where(tiny, a2[active], low), torch.where(tiny, a1[active], high)
    newton = ~tiny
    poles = (a1[active], a2[active])
    rows = flat[active]
    for _ in range(NEWTON_STEPS):
        if not len(active):
            break
        q = torch.reciprocal(rows - lam[:, None])  # [A, L]
        aq = rows * q
        f = aq.sum(-1)
        slope = torch.linalg.vecdot(aq, q)
        u = (poles[0] - lam) * (lam - poles[1])
        step = lam - u * f / ((poles[0] + poles[1] - 2 * lam) * f + u * slope)
        right = ~(f >= 0)  # the root lies right of λ (also when λ hits a weight: nan/inf)
        low, high = torch.where(right, lam, low), torch.where(right, high, lam)
        middle = (low.sqrt() * high.sqrt()).clamp(low, high)
        inside = newton & torch.isfinite(step) & (step > low) & (step < high)
        new = torch.where(inside, step, middle)
        near = newton & (step >= low) & (step <= high) & ((step - lam).abs() <= SPECTRAL_TOLERANCE * lam)
        done = near | (high - low <= SPECTRAL_TOLERANCE * high) | (f == 0)
        value = torch.where(f == 0, lam, torch.where(inside, step, lam).clamp(low, high))
        if bool(done.any()):
            out[active[done]] = value[done]
            keep = ~done
            active, lam, low, high, rows, newton = (v[keep] for v in (active, new, low, high, rows, newton))
            poles = (poles[0][keep], poles[1][keep])
        else:
            lam = new
    out[active] = lam
    return out.reshape(top.shape)
