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

import dataclasses

import numpy as np
import torch

from empirical import fused_kernels

TINY = 1e-290
"""Rows whose largest diagonal entry ``max α_i(1 − α_i)`` (the unit of :func:`largest_eigenvalue`) is below this take
the reference's geometric bisection (:func:`theorems.maths.secular.bisection`): the weights divided by it may
overflow."""
NEWTON_STEPS = 64
"""Newton-or-bisection steps at most for the spectral norm (the bisection of a bracket of relative width 2 reaches
float64 in 53)."""
SPECTRAL_TOLERANCE = 4 * torch.finfo(torch.float64).eps
"""Relative step (or bracket width) at which a row's spectral norm stops, as in :mod:`theorems.maths.secular`."""
SWEEP_ENTRIES = 1 << 19
"""Entries of one chunk of columns of :class:`FarthestPrefix`'s table (4 MiB of float64: the fastest of 2^17 to 2^21 on one
GPT-2 layer), made by one product."""
BRACKET_SLACK = 16 * torch.finfo(torch.float64).eps
"""Relative widening of :func:`largest_eigenvalue`'s bracket ``[m, 2m]``: more than the rounding of ``m``."""


@dataclasses.dataclass(frozen=True)
class Keys:
    """The embeddings ``whole [H, L, d]`` of one (window, layer) with what every block of rows reads of them, made once
    per (window, layer) (:meth:`of`) instead of once per block: ``whole_columns [H, d, L]`` (transposed, contiguous:
    MKL's fastest layout for the products ``[.., d] @ [d, L]``) and ``whole_squared [H, L]`` (``‖x_j‖²``); a block
    reads its first ``keys`` keys (a causal block's prefix: :meth:`first`) as views, and a group of heads
    (:meth:`heads`) is a view too.

    >>> keys = Keys.of(torch.ones(2, 5, 3, dtype=torch.float64)).first(4)
    >>> tuple(keys.x.shape), tuple(keys.columns.shape), keys.squared[0].tolist()
    ((2, 4, 3), (2, 3, 4), [3.0, 3.0, 3.0, 3.0])
    """

    whole: torch.Tensor
    whole_columns: torch.Tensor
    whole_squared: torch.Tensor
    keys: int

    @classmethod
    def of(cls, x) -> "Keys":
        """The keys of ``x [H, L, d]`` (``[H, 1, L, d]`` accepted, as the numpy kernels take it); a :class:`Keys` is
        returned as it is."""
        if isinstance(x, Keys):
            return x
        x = x.reshape(x.shape[0], *x.shape[-2:]).contiguous()
        return cls(x, x.transpose(-1, -2).contiguous(), (x * x).sum(-1), x.shape[1])

    @property
    def x(self) -> torch.Tensor:
        return self.whole[:, :self.keys]  # [H, L', d]

    @property
    def columns(self) -> torch.Tensor:
        return self.whole_columns[..., :self.keys]  # [H, d, L']

    @property
    def squared(self) -> torch.Tensor:
        return self.whole_squared[:, :self.keys]  # [H, L']

    def first(self, keys: int) -> "Keys":
        return dataclasses.replace(self, keys=min(int(keys), self.whole.shape[1]))

    def heads(self, group: slice) -> "Keys":
        return Keys(self.whole[group], self.whole_columns[group], self.whole_squared[group], self.keys)

    def gather(self, index: torch.Tensor) -> torch.Tensor:
        """``[H, ..., d]`` the embeddings of the keys ``index [H, ...]`` of each head: one gather of the whole
        window's rows (a view of its first keys would be copied first)."""
        heads, length, width = self.whole.shape
        offsets = (torch.arange(heads, device=index.device) * length).reshape(-1, *([1] * (index.dim() - 1)))
        return self.whole.reshape(-1, width).index_select(0, (index + offsets).reshape(-1)).reshape(*index.shape, width)


def _fused(tensor: torch.Tensor) -> bool:
    """Whether the CPU's fused loops (:mod:`empirical.fused_kernels`) serve a block on ``tensor``'s device."""
    return tensor.device.type == "cpu" and FUSED_LOOPS and fused_kernels.AVAILABLE


def _keys(x, keys: int) -> Keys:
    """``x`` (a :class:`Keys`, or embeddings ``[H, L, d]`` / ``[H, 1, L, d]``) on its first ``keys`` keys."""
    return Keys.of(x).first(keys)


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

    The ``k`` largest by an unstable selection (:func:`_largest`), then a stable sort of the rows where a weight of
    the first ``k`` is tied (with another of them, or with a key left out): real weights rarely tie, so this costs a
    comparison pass, not a stable sort of every row.

    >>> a = torch.tensor([[0.2, 0.3, 0.3, 0.2]], dtype=torch.float64)
    >>> selection_order(a, torch.ones(1, 4, dtype=torch.bool), 3).tolist()
    [[1, 2, 0]]
    """
    key = alpha.masked_fill(~valid, -1.0)  # weights are >= 0: masked keys sort last
    length = key.shape[-1]
    k = min(k, length)
    values, order = _largest(key, k)
    tied = ((values[..., 1:] == values[..., :-1]) & (values[..., 1:] >= 0)).any(-1)
    if k < length:
        tied |= (values[..., -1] >= 0) & ((key >= values[..., -1:]).sum(-1) > k)
    if bool(tied.any()):
        order[tied] = torch.sort(key[tied], dim=-1, descending=True, stable=True).indices[..., :k]
    return order


SELECTION_ON_NUMPY = True
"""On the CPU, :func:`_largest` selects with numpy's partition and quicksort (zero-copy views; 5 times faster than
``torch.sort``/``torch.topk`` there); elsewhere, or with this off (the tests run the device path on the CPU), with
torch's."""
FUSED_LOOPS = True
"""On the CPU, with numba installed, the fused loops of :mod:`empirical.fused_kernels` replace the torch operations
they fuse; elsewhere, or with this off (the tests run the device path on the CPU), torch's operations serve."""


def _largest(key: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor]:
    """``(values, indices)`` of the ``k`` largest of ``key [..., L]``, descending, ties in any order."""
    length = key.shape[-1]
    if key.device.type != "cpu" or not SELECTION_ON_NUMPY:
        if 4 * k < length:
            return torch.topk(key, k, dim=-1, sorted=True)
        values, order = torch.sort(key, dim=-1, descending=True)
        return values[..., :k], order[..., :k]
    negated = np.negative(key.numpy())
    if 4 * k < length:
        part = np.argpartition(negated, k - 1, axis=-1)[..., :k]
        order = np.take_along_axis(part, np.argsort(np.take_along_axis(negated, part, axis=-1), axis=-1), axis=-1)
    else:
        order = np.argsort(negated, axis=-1)[..., :k]
    order = torch.from_numpy(order)
    return key.gather(-1, order), order


@dataclasses.dataclass(frozen=True)
class Selection:
    """The top-``N`` sets of a block at every ``N`` of a grid, shared by the quantities that read them.

    ``order [H, C, k]`` the ``k = max N`` largest weights' keys (:func:`selection_order`), ``rank [H, C, L]`` each
    key's position there as a float (``k`` for the keys after it, ``-1`` for the masked keys), ``sums [H, C, G, d]``
    ``s_N = Σ_{j∈I_N} α_j x_j``, ``grid [G]`` the ``N`` (float).
    """

    order: torch.Tensor
    rank: torch.Tensor
    sums: torch.Tensor
    grid: torch.Tensor

    def outside(self) -> torch.Tensor:
        """``[H, C, G, L]`` 1.0 where the key is visible and outside ``I_N`` (``rank ≥ N``), else 0.0."""
        return _ranks_against(torch.ge, self.rank, self.grid)

    def inside(self) -> torch.Tensor:
        """``[H, C, G, L]`` 1.0 where the key is in ``I_N`` or masked (``rank < N``), else 0.0."""
        return _ranks_against(torch.lt, self.rank, self.grid)


def _ranks_against(compare, rank: torch.Tensor, grid: torch.Tensor) -> torch.Tensor:
    """``compare(rank [H, C, L], N)`` at every ``N`` of ``grid [G]``, ``[H, C, G, L]`` as 0.0/1.0 written straight into
    a float tensor: one pass (a boolean mask costs another to convert, and multiplying by it, or a ``where``, costs
    several times a float product on this CPU)."""
    heads, rows, length = rank.shape
    out = torch.empty((heads, rows, len(grid), length), dtype=rank.dtype, device=rank.device)
    return compare(rank[:, :, None, :], grid[:, None], out=out)


def select(alpha, x, ns, *, mask) -> Selection:
    """:class:`Selection` of ``alpha [H, C, L]`` (``x [H, L, d]``, ``mask [C, L]``) at every ``N`` of ``ns``.

    ``s_N``: when ``k = max N`` is a small part of ``L``, from the selected keys' embeddings gathered in the order of
    selection ``[H, C, k, d]``, one small matrix product per row with the ``[G, k]`` weights of each ``I_N``
    (``α_j`` on the first ``N`` positions; cheaper than a running sum along ``k``); else one product of the weights of
    each ``I_N`` over every key ``[H, C·G, L] @ [H, L, d]``.
    """
    heads, rows, length = alpha.shape
    keys = _keys(x, length)
    grid = _grid(ns, alpha.device).to(alpha.dtype)
    order = selection_order(alpha, mask[None], max(ns))
    k = order.shape[-1]
    rank = torch.full(alpha.shape, float(k), dtype=alpha.dtype, device=alpha.device)
    rank.scatter_(-1, order, torch.arange(k, dtype=alpha.dtype, device=alpha.device).expand(order.shape))
    rank.masked_fill_(~mask, -1.0)
    if _fused(alpha):  # one running sum along the order, k·d per row
        sums = alpha.new_empty((heads, rows, len(ns), keys.whole.shape[-1]))
        fused_kernels.selected_sums(alpha.numpy(), order.numpy(), keys.whole.numpy(), _grid(ns, "cpu").numpy(),
                                    sums.numpy())
    elif 4 * k < length:  # the selected keys' embeddings gathered in the order of selection, [H, C, k, d]
        picked = keys.gather(order)
        first = (torch.arange(k, dtype=alpha.dtype, device=alpha.device) < grid[:, None]).to(alpha.dtype)  # [G, k]
        sums = torch.matmul(first * alpha.gather(-1, order)[:, :, None, :], picked)  # [H, C, G, d]
    else:  # N up to a large part of L: the weights of each I_N over every key (masked keys weigh 0 already)
        weights = _ranks_against(torch.lt, rank, grid).mul_(alpha[:, :, None, :])  # [H, C, G, L] (masked: α = 0)
        sums = torch.matmul(weights.reshape(heads, -1, length), keys.x).reshape(heads, rows, len(ns), -1)
    return Selection(order, rank, sums, grid)


def _grid(ns, device) -> torch.Tensor:
    return torch.as_tensor(list(ns), dtype=torch.int64, device=device)


def _products(keys: Keys, selection: Selection) -> torch.Tensor:
    """``x_i·s_N [H, C, G, L]`` by one matrix product per head ``[H, C·G, d] @ [H, d, L]`` (the keys' ``columns``:
    MKL's fastest layout)."""
    heads, rows, grid, width = selection.sums.shape
    return torch.matmul(selection.sums.reshape(heads, rows * grid, width), keys.columns).reshape(heads, rows, grid, -1)


def _squared_distances(alpha, keys: Keys, selection: Selection, own) -> torch.Tensor:
    """``‖α_i x_i − s_N‖² [H, C, G, L]`` by the expansion ``‖s‖² − 2α_i x_i·s + ‖α_i x_i‖²`` (``own``; rounding may
    leave it slightly negative), in place on :func:`_products`."""
    out = _products(keys, selection)
    ss = selection.sums.square().sum(-1, keepdim=True)  # [H, C, G, 1]
    torch.addcmul(ss, out, alpha[:, :, None, :], value=-2.0, out=out)
    return out.add_(own)


def distance_grid(alpha, x, ns, *, mask, norm: bool = False, selection: Selection | None = None
                  ) -> dict[str, torch.Tensor]:
    """``d̃`` (sum reading; with ``norm`` also the norm reading) and the random main sum at every ``N`` of ``ns``,
    ``[H, C, G]`` each; NaN where a row sees fewer than ``N`` keys. As :func:`empirical.kernels.distance_grid`.

    ``selection`` (:func:`select`) may be shared with :func:`fixed_bounds`. The norm reading is ``‖T − 2s_N‖``
    (``T = Σ_j α_j x_j``: the keys outside ``I_N`` sum to ``T − s_N``), the random main sum
    ``(1 + p)·Σ_i ‖α_i x_i − q·T‖`` with ``q = p/(1 + p)``; the sums of roots of both readings by
    :func:`_root_sums` (on the CPU, :func:`_fused_root_sums`).
    """
    ns = tuple(int(n) for n in ns)
    heads, rows, length = alpha.shape
    keys = _keys(x, length)
    selection = select(alpha, keys, ns, mask=mask) if selection is None else selection
    grid, counts = selection.grid, mask.sum(-1)  # [G], [C]
    total = torch.matmul(alpha, keys.x)  # [H, C, d] T = Σ_j α_j x_j
    cross = alpha * torch.matmul(total, keys.columns)  # [H, C, L] α_i x_i·T
    keys_seen = counts.to(alpha.dtype)[:, None]  # [C, 1]: float64 before dividing
    p = torch.where(keys_seen > 1, grid / (keys_seen - 1).clamp(min=1), 0.0)  # [C, G]
    root_sums = _fused_root_sums if _fused(alpha) else _root_sums
    distance, main = root_sums(alpha, keys, selection, mask, cross, p / (1 + p), total.square().sum(-1))
    fits = counts[:, None] >= grid  # [C, G]
    nan = torch.tensor(float("nan"), dtype=alpha.dtype, device=alpha.device)
    out = {"distance_sum": torch.where(fits, distance, nan)}
    if norm:
        out["distance_norm"] = torch.where(fits, torch.linalg.vector_norm(total[:, :, None] - 2 * selection.sums,
                                                                           dim=-1), nan)
    out["estimate"] = torch.where(fits, (keys_seen - grid) / keys_seen * (main * (1 + p)), nan)
    return out


def _root_sums(alpha, keys: Keys, selection: Selection, mask, cross, q, tt) -> tuple[torch.Tensor, torch.Tensor]:
    """``(Σ_{i ∉ I_N} ‖α_i x_i − s_N‖, Σ_i ‖α_i x_i − q·T‖)`` ``[H, C, G]`` over the visible keys, from ``cross [H, C, L]``
    ``α_i x_i·T``, ``q [C, G]`` and ``tt [H, C]`` ``‖T‖²``: the second's ``√`` argument is ``‖α_i x_i‖² −
    2q·α_i x_i·T + q²‖T‖²`` (two passes over ``[H, C, G, L]``: a product with three inner terms,
    ``[H, C, G, 3] @ [H, C, 3, L]``, ran at a tenth of MKL's rate)."""
    heads = alpha.shape[0]
    own = alpha.square() * keys.squared[:, None, :]  # [H, C, L] ‖α_i x_i‖²
    distances = _squared_distances(alpha, keys, selection, own[:, :, None, :]).clamp_(min=0.0).sqrt_()
    outside = torch.linalg.vecdot(distances, selection.outside())
    del distances
    q = q.expand(heads, -1, -1)  # [H, C, G]
    main = torch.addcmul(own[:, :, None, :], (-2 * q)[..., None], cross[:, :, None, :])  # [H, C, G, L]
    main.add_((q * q * tt[..., None])[..., None]).clamp_(min=0.0).sqrt_()  # ‖α_i x_i − q·T‖
    return outside, torch.matmul(main, mask.to(alpha.dtype)[None, :, :, None])[..., 0]


def _fused_root_sums(alpha, keys: Keys, selection: Selection, mask, cross, q, tt) -> tuple[torch.Tensor, torch.Tensor]:
    """:func:`_root_sums` by the CPU's fused loop (:func:`empirical.fused_kernels.distance_sums`): every root and sum
    in one pass over :func:`_products`."""
    heads, rows, grid, _ = selection.sums.shape
    distance, main = (alpha.new_empty((heads, rows, grid)) for _ in range(2))
    fused_kernels.distance_sums(_products(keys, selection).numpy(), alpha.numpy(), keys.squared.numpy(),
                                selection.rank.numpy(), selection.sums.square().sum(-1).numpy(), selection.grid.numpy(),
                                cross.numpy(), q.numpy(), tt.numpy(), distance.numpy(), main.numpy())
    return distance, main


# ----------------------------------------------------------------------------------------------
# Theorem 1's fixed bound: d_1 from running top-2 of T[j, i] = ‖x_i‖² − 2 x_j·x_i over the keys a row sees


class FarthestPrefix:
    """Per head and key ``j``, the two largest ``T[j, i] = ‖x_i‖² − 2 x_j·x_i`` over ``i ≤ t`` and where they are,
    read at the keys and columns asked (:meth:`lookup`) while the columns are swept in order, one column at a time,
    carrying the running top-2 of every key from one column (and one block of rows) to the next: no ``[H, L, L]``
    table is held (``x [H, L, d]``, every key of the window; the table's columns are made a chunk at a time).

    The arithmetic and the rules for ties are :func:`empirical.kernels.farthest_table`'s: the first maximum is the
    last ``i`` that reaches it, the runner-up ``M2[t] = max_{s ≤ t} min(M1[s − 1], T[s])``. The state is one float64
    tensor ``[4, H, L]`` (first, where, second, where: positions are exact in float64) updated by arithmetic only
    (``lerp`` by a 0/1 weight selects exactly): a boolean ``where`` or ``masked_fill`` on ``[H, L]`` costs ten times
    an arithmetic operation on this CPU, and a column's ten operations on ``[H, L]`` cost less than the running
    maxima of a chunk of columns did (three times less per layer).
    """

    def __init__(self, x) -> None:
        keys = Keys.of(x)  # every key of the window
        self.x, self.columns, self.squared = keys.whole, keys.whole_columns, keys.whole_squared  # [H, L, d], ...
        heads, length, _ = self.x.shape
        self.step = max(1, SWEEP_ENTRIES // (heads * length))  # columns of the table made at once
        self._buffers = [torch.empty((heads, length), dtype=self.x.dtype, device=self.x.device) for _ in range(4)]
        self._positions = torch.arange(length, dtype=self.x.dtype, device=self.x.device)[:, None, None]  # [L, 1, 1]
        self._reset()

    def _reset(self) -> None:
        heads, length, _ = self.x.shape
        self.done = 0  # columns absorbed
        self.state = torch.zeros((4, heads, length), dtype=self.x.dtype, device=self.x.device)
        self.state[0::2] = -float("inf")  # first, first_at, second, second_at after `done` columns
        self._chunk = (0, None)  # (first column, [H, S, L] the table's columns start ... start + S − 1)

    def lookup(self, index: torch.Tensor, columns: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """``(first, first_at, second, second_at)`` ``[H, C, n]`` of the keys ``index [H, C, n]`` of each row ``c`` at
        its column ``columns [C]`` (the last key the row sees).

        Columns before the sweep's position restart it; each row is read when the sweep reaches its column (a
        block whose rows all see every key, an encoder's, sweeps the window once and reads the last column).
        """
        wanted = columns.tolist()
        if min(wanted) < self.done - 1:  # the sweep is past a column asked for: start again
            self._reset()
        if _fused(self.x):
            return self._fused_lookup(index, np.asarray(wanted, dtype=np.int64))
        heads, length, _ = self.x.shape
        flat = (index + (torch.arange(heads, device=index.device) * length)[:, None, None]).transpose(0, 1)  # [C, H, n]
        flat = flat.reshape(len(wanted), -1)  # [C, H·n] each row's keys in the flattened state
        state = self.state.reshape(4, -1)
        order = sorted(range(len(wanted)), key=wanted.__getitem__)
        out, at = torch.empty((len(wanted), 4, flat.shape[1]), dtype=state.dtype, device=state.device), 0
        while at < len(order):  # the rows of one column at a time, in column order
            column, stop = wanted[order[at]], at + 1
            while stop < len(order) and wanted[order[stop]] == column:
                stop += 1
            self._sweep_to(column)
            if stop == at + 1:  # one row (a causal block's rows each have their own column): one gather, in place
                torch.index_select(state, 1, flat[order[at]], out=out[at])
            else:
                out[at:stop] = state[:, flat[order[at:stop]]].transpose(0, 1)
            at = stop
        out = out.reshape(len(wanted), 4, heads, -1).permute(1, 2, 0, 3)  # [4, H, C, n] in column order
        if order != list(range(len(order))):
            out = out[:, :, torch.as_tensor(order, device=out.device).argsort()]
        return out[0], out[1].long(), out[2], out[3].long()

    def _sweep_to(self, column: int) -> None:
        """Absorb the columns ``done ... column`` into the running top-2 (nothing when they are)."""
        first, first_at, second, second_at = self.state
        below, demoted, owner, kept = self._buffers
        for i in range(self.done, column + 1):
            start, table = self._table_at(i)
            t = table[:, i - start]  # [H, L] T[j, i] of every key j
            here = self._positions[i]  # [1, 1]: i, broadcast
            torch.lt(t, first, out=below)  # 1.0 where column i stays below the running maximum
            torch.lerp(first_at, here, below, out=owner)  # whose value is demoted: i's, else the maximum's so far
            torch.minimum(first, t, out=demoted)
            torch.ge(demoted, second, out=kept)  # ties: the later wins
            torch.maximum(second, demoted, out=second)
            torch.lerp(second_at, owner, kept, out=second_at)
            torch.lerp(here, first_at, below, out=first_at)  # ties: the later index wins
            torch.maximum(first, t, out=first)
        self.done = max(self.done, column + 1)

    def _fused_lookup(self, index: torch.Tensor, wanted: np.ndarray) -> tuple[torch.Tensor, ...]:
        """:meth:`lookup` on the CPU's fused loop (:func:`empirical.fused_kernels.sweep_and_read`): the rows in column
        order, one call per chunk of the table's columns."""
        heads, length, _ = self.x.shape
        rows = np.argsort(wanted, kind="stable")
        columns = wanted[rows]
        keys = index.numpy().transpose(1, 0, 2)[rows]  # [C, H, n] in column order
        out = np.empty((4, *index.shape), dtype=np.float64)
        state, at = self.state.numpy(), 0
        while at < len(rows):
            start, table = self._table_at(min(self.done, length - 1))
            stop = int(np.searchsorted(columns, start + table.shape[1]))  # the rows this chunk reaches
            if stop == at:  # none: the whole chunk
                fused_kernels.sweep_columns(table.numpy(), state, self.done - start, table.shape[1] - 1, self.done)
                self.done = start + table.shape[1]
                continue
            self.done = fused_kernels.sweep_and_read(table.numpy(), state, start, self.done, columns[at:stop],
                                                     rows[at:stop], keys[at:stop], out)
            at = stop
        out = torch.from_numpy(out)
        return out[0], out[1].long(), out[2], out[3].long()

    def _table_at(self, i: int) -> tuple[int, torch.Tensor]:
        """``(start, [H, S, L])``: the chunk of the table's columns that holds column ``i``, made when it does not."""
        start, table = self._chunk
        if table is None or not start <= i < start + table.shape[1]:
            stop = min(i + self.step, self.x.shape[1])
            table = torch.matmul(self.x[:, i:stop], self.columns).mul_(-2.0)
            start, table = i, table.add_(self.squared[:, i:stop, None])
            self._chunk = (start, table)
        return self._chunk


def _prefix_counts(mask: torch.Tensor) -> torch.Tensor | None:
    """``[C]`` visible keys per row when every row sees a prefix of the keys (causal or full), else None."""
    counts = mask.sum(-1)
    prefix = torch.arange(mask.shape[-1], device=mask.device) < counts[:, None]
    return counts if bool(torch.equal(prefix, mask)) else None


def fixed_bounds(alpha, x, ns, *, centers=("normalised", "max-norm"), mask, prefix: FarthestPrefix | None = None,
                 selection: Selection | None = None) -> dict[str, torch.Tensor]:
    """Theorem 1 part 1 per row at every ``N`` of ``ns``, ``[H, C, G]`` at each of ``centers``, as
    :func:`empirical.kernels.fixed_bounds` at each ``N``; NaN where a row sees fewer than ``N`` keys.

    ``prefix`` (a :class:`FarthestPrefix` of the heads' embeddings, shared by the blocks of one window and layer in
    row order) holds the running top-2 of ``d_1``'s table, read once per block for every ``N``; ``selection``
    (:func:`select`) may be shared with :func:`distance_grid`. Rows whose visible keys are not a prefix go to the
    numpy reference (no model gives such rows).
    """
    ns = tuple(int(n) for n in ns)
    heads, rows, length = alpha.shape
    keys = _keys(x, length)
    counts = _prefix_counts(mask)
    if counts is None:
        return _reference_bounds(alpha, keys.x, ns, centers=centers, mask=mask)
    selection = select(alpha, keys, ns, mask=mask) if selection is None else selection
    index, rank, grid = selection.order, selection.rank, selection.grid  # each I_N is a prefix of the order
    k = index.shape[-1]
    fits = counts[:, None] >= grid  # [C, G]
    prefix = FarthestPrefix(keys) if prefix is None else prefix
    best, first_at, runner, second_at = prefix.lookup(index, (counts - 1).clamp(min=0))  # each [H, C, k]
    h = torch.arange(heads, device=alpha.device)[:, None, None]
    own = prefix.squared[h, index]  # [H, C, k] ‖x_j‖²
    if _fused(alpha):
        d1 = _fused_farthest(keys, selection, mask, counts, own, best, first_at, runner, second_at)
        return _bounds_from(alpha, selection, counts, d1, own, centers)
    own = own[:, :, None, :]  # [H, C, 1, k]
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
        far[redo] = _farthest_rows(keys, index, rank, mask, redo, grid)
    d1 = torch.where(torch.isfinite(far), own + far, 0.0).amax(-1).clamp(min=0.0).sqrt()  # [H, C, G]
    return _bounds_from(alpha, selection, counts, d1, own[:, :, 0], centers)


def _fused_farthest(keys: Keys, selection: Selection, mask, counts, own, best, first_at, runner, second_at):
    """``d_1 [H, C, G]`` of :func:`fixed_bounds` on the CPU's fused loops
    (:func:`empirical.fused_kernels.farthest_candidates`, :func:`~empirical.fused_kernels.largest_pairs`); the pairs
    the running top-2 do not tell, from their rows of the table (:func:`_farthest_rows`)."""
    heads, rows, k = best.shape
    grid = selection.grid
    far = best.new_empty((heads, rows, len(grid), k))
    status = torch.empty(far.shape, dtype=torch.int8)
    fused_kernels.farthest_candidates(selection.rank.numpy(), first_at.numpy(), second_at.numpy(), best.numpy(),
                                      runner.numpy(), own.numpy(), grid.numpy(), counts.numpy(), far.numpy(),
                                      status.numpy())
    redo = torch.nonzero(status == fused_kernels.REDO, as_tuple=True)
    if len(redo[0]):
        far[redo] = _farthest_rows(keys, selection.order, selection.rank, mask, redo, grid)
    d1 = best.new_empty((heads, rows, len(grid)))
    fused_kernels.largest_pairs(far.numpy(), own.numpy(), d1.numpy())
    return d1


def _bounds_from(alpha, selection: Selection, counts, d1, own, centers) -> dict[str, torch.Tensor]:
    """Theorem 1 part 1 ``[H, C, G]`` at each of ``centers`` from ``d_1 [H, C, G]`` and ``own [H, C, k]``
    (``‖x_j‖²`` of the order's keys): :func:`fixed_bounds`' last step."""
    index, grid = selection.order, selection.grid
    k = index.shape[-1]
    fits = counts[:, None] >= grid  # [C, G]
    weights = alpha.gather(-1, index)  # [H, C, k] descending
    at = (grid.long() - 1).clamp(max=k - 1)
    mass = weights.cumsum(-1)[..., at]  # [H, C, G]
    nan = torch.tensor(float("nan"), dtype=alpha.dtype, device=alpha.device)
    out = {}
    for center in centers:
        if center == "normalised":
            norm = torch.linalg.vector_norm(selection.sums, dim=-1)  # [H, C, G] ‖s_N‖
            c = torch.where(mass > 0, norm / torch.where(mass > 0, mass, 1.0), 0.0)
        else:
            c = own.cummax(-1).values[..., at].sqrt()
        bound = (1 - mass) * d1 + ((counts[:, None] - grid) * mass - (1 - mass)) * c
        out[center] = torch.where(fits, bound, nan)
    return out


def _farthest_rows(keys: Keys, index, rank, mask, pairs, grid) -> torch.Tensor:
    """``max_{i visible, i ∉ I_N} T[j, i]`` for the ``pairs`` ``(head, row, g, p)``: key ``j = index[head, row, p]``,
    ``N = grid[g]``; one matrix product per head."""
    hh, cc, gg, pp = pairs
    x, columns, squared = keys.x, keys.columns, keys.squared
    out = torch.empty(len(hh), dtype=x.dtype, device=x.device)
    for head in torch.unique(hh).tolist():
        at = torch.nonzero(hh == head)[:, 0]
        rows, chosen = cc[at], index[head, cc[at], pp[at]]
        table = squared[head] - 2 * torch.matmul(x[head, chosen], columns[head])  # [P, L]
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


FAR = 1e300
"""Added to the squared distance of every key inside ``I_N`` (or masked) before the radius's minimum: unit
embeddings and weights make every squared distance at most 4, so a minimum this large means no key outside (radius
``+inf``)."""


def separability_block(alpha, x, ns, *, delta, mask) -> dict[str, torch.Tensor]:
    """Algorithm 4's quantities ``[H, C, G]`` at every ``N`` of ``ns``, as :func:`empirical.kernels.separability_block`
    at each ``N`` (unit embeddings ``x``, ``M = 1``, ``delta [H, 1]``); NaN where a row sees at most ``N`` keys or its
    radius is not positive and finite.

    The selected keys of every ``N`` are laid out side by side (:class:`Triangle`: ``Σ N`` entries per row, not
    ``G·max N``); ``ξ_i`` comes from the running sums of the selected weights and their squares.
    """
    ns = tuple(int(n) for n in ns)
    heads, rows, length = alpha.shape
    keys = _keys(x, length)
    x = keys.x
    counts = mask.sum(-1)  # [C]
    selection = select(alpha, keys, ns, mask=mask)
    grid, order, s = selection.grid, selection.order, selection.sums  # [G], [H, C, k], [H, C, G, d]
    triangle = Triangle.of(ns, order.shape[-1], alpha.device, alpha.dtype)
    own = (alpha.square() * keys.squared[:, None, :])[:, :, None, :]  # [H, C, 1, L] ‖α_i x_i‖²
    squared = _squared_distances(alpha, keys, selection, own)  # [H, C, G, L] ‖s − α_i x_i‖² (the minimum needs no √)
    chosen = order[..., triangle.position]  # [H, C, P] the selected keys of each N
    inner = squared.reshape(heads, rows, -1).gather(-1, triangle.group * length + chosen).clamp_(min=0.0).sqrt_()
    inside = selection.inside()  # [H, C, G, L] 1 in I_N or masked
    r, closest = squared.addcmul_(inside, torch.tensor(FAR, dtype=alpha.dtype)).min(-1)  # [H, C, G]
    del squared, inside
    finite = r < FAR / 2
    r = torch.where(finite, _direct_norms(s, alpha, x, closest), float("inf"))
    # the expansion is off by ~ε·‖s‖²/distance: every selected key within reach of the radius is recomputed from
    # its difference, as the reference does, so the ties ‖s − α_i x_i‖ = r fall as there
    ss = s.square().sum(-1)  # [H, C, G]
    slack = (1e-9 * (ss / r.clamp(min=torch.finfo(alpha.dtype).tiny) + r))[..., triangle.group]  # [H, C, P]
    near = ((inner - r[..., triangle.group]).abs() <= slack) & finite[..., triangle.group]
    hs, cs, ps = torch.nonzero(near, as_tuple=True)
    if len(hs):
        at = chosen[hs, cs, ps]
        difference = s[hs, cs, triangle.group[ps]] - alpha[hs, cs, at, None] * x[hs, at]
        inner[hs, cs, ps] = torch.linalg.vector_norm(difference, dim=-1)
    usable = finite & (r > 0) & (counts[:, None] >= grid + 1)
    safe = torch.where(usable, r, 1.0)  # [H, C, G]
    nan = torch.where(usable, 1.0, float("nan")).to(alpha.dtype)
    safe_p = safe[..., triangle.group]  # [H, C, P]
    count = triangle.sums((inner <= safe_p).to(alpha.dtype))  # [H, C, G]
    # ξ_i² = Σ_{j≠i} α_j² + (1 − δ²/2)·((Σ_{j≠i} α_j)² − Σ_{j≠i} α_j²), sums over I_N (M = 1)
    weights = alpha.gather(-1, order)  # [H, C, k] descending
    last = (grid.long() - 1).clamp(max=order.shape[-1] - 1)
    running, running_sq = weights.cumsum(-1)[..., last], weights.square().cumsum(-1)[..., last]  # [H, C, G]
    own_p = weights[..., triangle.position]  # [H, C, P]
    others = running[..., triangle.group] - own_p
    others_sq = running_sq[..., triangle.group] - own_p.square()
    d = torch.as_tensor(delta, dtype=alpha.dtype, device=alpha.device).reshape(heads, 1, 1)
    xi = (others_sq + (1 - d * d / 2) * (others.square() - others_sq)).clamp_(min=0.0).sqrt_()  # [H, C, P]
    gap = (xi - safe_p).square_()
    return {"radius": torch.where(usable, r, float("nan")), "fraction": count / grid * nan,
            "lower": (1 - triangle.sums(xi) / (safe * grid)) * nan,
            "upper_2M2": triangle.sums(torch.exp(gap / -2.0)) / grid * nan,
            "upper_16M2": triangle.sums(torch.exp(gap.div_(-16.0))) / grid * nan}


@dataclasses.dataclass(frozen=True)
class Triangle:
    """The first ``N`` positions of a selection order for every ``N`` of a grid, side by side: ``position [P]`` and
    ``group [P]`` (which ``N``), ``P = Σ N``; :meth:`sums` adds a ``[..., P]`` array up per ``N`` (one matrix product
    with the 0/1 ``[P, G]`` membership, so each ``N``'s sum is a plain sum of its own entries)."""

    position: torch.Tensor
    group: torch.Tensor
    membership: torch.Tensor

    @classmethod
    def of(cls, ns, k: int, device, dtype) -> "Triangle":
        sizes = [min(int(n), k) for n in ns]
        position = torch.cat([torch.arange(n) for n in sizes]).to(device)
        group = torch.cat([torch.full((n,), g) for g, n in enumerate(sizes)]).to(device)
        membership = torch.zeros(len(position), len(sizes), dtype=dtype, device=device)
        membership[torch.arange(len(position), device=device), group] = 1.0
        return cls(position, group, membership)

    def sums(self, values: torch.Tensor) -> torch.Tensor:
        return torch.matmul(values, self.membership)


def _direct_norms(s, alpha, x, keys):
    """``‖s_N − α_i x_i‖`` from the difference, for one key per ``(head, row, N)``: ``keys [H, C, G]``."""
    heads, rows, grid = keys.shape
    h = torch.arange(heads, device=s.device)[:, None, None]
    c = torch.arange(rows, device=s.device)[None, :, None]
    return torch.linalg.vector_norm(s - alpha[h, c, keys][..., None] * x[h, keys], dim=-1)


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
    as :func:`empirical.kernels.sensitivity_block` with the same unit directions ``v [H, C, L]``.

    ``logits [H, C, L]`` (finite, 0 where masked), ``mask [C, L]``. The masked keys are ``-inf`` once, before any
    temperature divides them (``-inf/T`` and ``-inf + εv`` stay ``-inf``: their weights are exact zeros).
    """
    t = torch.as_tensor(np.asarray(temperatures, dtype=float), device=logits.device)
    e = torch.as_tensor(np.asarray(epsilons, dtype=float), device=logits.device)
    masked = logits.masked_fill(~mask, -float("inf"))  # [H, C, L]
    base = torch.softmax(masked[:, :, None, :] / t[:, None], dim=-1)  # [H, C, n_T, L] softmax(l/T), every T
    out = {f"jacobian_{key}": value for key, value in jacobian_norms(base, t).items()}  # each [H, C, n_T]
    moved = masked[:, :, None, :] + e[:, None] * v[:, :, None, :]  # [H, C, n_ε, L]
    g = []
    for k, temperature in enumerate(t):  # [H, C, n_ε, L] at a time: every T at once would be n_T times that
        shifted = torch.softmax(moved / temperature, dim=-1).sub_(base[:, :, k, None, :])
        g.append(torch.linalg.vector_norm(shifted, dim=-1) / e)
    out["g"] = torch.stack(g, dim=-2)  # [H, C, n_T, n_ε]
    return out


def jacobian_norms(alpha: torch.Tensor, temperatures: torch.Tensor) -> dict[str, torch.Tensor]:
    """Exact spectral, Frobenius, largest-row and largest-entry norms of ``(diag α − ααᵀ)/T`` from ``α [..., n_T, L]``
    (weights summing to one), each ``[..., n_T]``: the norms of :func:`theorems.maths.gradient_sensitivity._norms_at`.

    Row ``i`` of ``diag α − ααᵀ`` has norm ``α_i·√(r_i² + q_i)``, ``r_i = Σ_{j≠i} α_j``, ``q_i = Σ_{j≠i} α_j²``. For
    the largest weight both sums are taken directly (``1 − α_1`` would cancel); every other weight is at most 1/2,
    where ``α(1 − α)`` and the squared row ``α²(1 − 2α + Σα²)`` increase with ``α``, so the largest of those rows and
    diagonal entries are the second weight's, and the Frobenius norm's other rows sum in closed form,
    ``(1 + Σα²)·Σ_{j≠1} α_j² − 2·Σ_{j≠1} α_j³`` (no cancellation: it is at least a quarter of its first term). The
    sums over the weights but the largest are scaled by the second weight (their squares may underflow), as the
    reference's are. Four passes over the weights, then :func:`largest_eigenvalue`.
    """
    top, r_top, second, q, cubes = _weight_moments(alpha)  # each [..., 1]
    unit = torch.where(second > 0, second, 1.0)
    s2 = top.square() + unit.square() * q  # Σ α²
    top_row = top * unit * ((r_top / unit).square() + q).sqrt()  # α_1·√(r_1² + q_1)
    second_row = second * ((1 - second).square() + s2 - second.square()).clamp(min=0.0).sqrt()
    others = ((1 + s2) * q - 2 * unit * cubes).clamp(min=0.0)  # Σ_{j≠1} (α_j/a_2)²(1 − 2α_j + Σα²)
    frobenius = unit * ((top_row / unit).square() + others).sqrt()
    diagonal = torch.maximum(second * (1 - second), top * r_top)  # max_i α_i(1 − α_i)
    tail = (r_top - second).clamp(min=0.0)  # Σ_{j≥3} α_j and, below, the mean weight it carries Σα_j²/Σα_j
    centre = torch.where(tail > 0, second * (q - 1).clamp(min=0.0) * (second / tail.clamp(min=torch.finfo(tail.dtype).tiny)),
                         0.0)
    spectral = largest_eigenvalue(alpha, top=top[..., 0], second=second[..., 0], tail=(tail[..., 0], centre[..., 0]),
                                  diagonal=diagonal[..., 0])
    t = temperatures
    return {"spectral": spectral / t, "frobenius": frobenius[..., 0] / t,
            "row": torch.maximum(top_row, second_row)[..., 0] / t,
            "entry": torch.maximum(diagonal, top * second)[..., 0] / t}


def _weight_moments(alpha: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """``(top, r_top, second, q, cubes)`` of :func:`jacobian_norms`, each ``[..., 1]``: the largest weight, and over
    the others their sum, their largest ``a_2`` and the sums ``Σ (α_j/a_2)²``, ``Σ (α_j/a_2)³`` (``a_2`` replaced
    by 1 where it is 0). On the CPU by :func:`empirical.fused_kernels.weight_moments`."""
    if _fused(alpha):
        flat = alpha.reshape(-1, alpha.shape[-1])
        out = [flat.new_empty((flat.shape[0],)) for _ in range(5)]
        fused_kernels.weight_moments(flat.numpy(), *(value.numpy() for value in out))
        return tuple(value.reshape(*alpha.shape[:-1], 1) for value in out)
    top, top_at = alpha.max(-1, keepdim=True)  # [..., 1]
    alpha.scatter_(-1, top_at, 0.0)  # the weights but the largest, in place (restored below)
    r_top = alpha.sum(-1, keepdim=True)  # Σ_{j≠1} α_j, directly
    second = alpha.amax(-1, keepdim=True)
    scaled = alpha / torch.where(second > 0, second, 1.0)
    squares = scaled.square()
    q = squares.sum(-1, keepdim=True)  # Σ_{j≠1} (α_j/a_2)²
    cubes = torch.linalg.vecdot(squares, scaled)[..., None]  # Σ_{j≠1} (α_j/a_2)³
    alpha.scatter_(-1, top_at, top)
    return top, r_top, second, q, cubes


def largest_eigenvalue(alpha, *, top, second, tail, diagonal) -> torch.Tensor:
    """``λ_max(diag α − ααᵀ)`` per row ``[...]`` of weights ``α [..., L]`` summing to one, given the two largest
    weights, the others' sum and mean weight ``tail = (Σ_{j≥3} α_j, Σ_{j≥3} α_j²/Σ_{j≥3} α_j)`` and the largest
    diagonal entry ``m = max_i α_i(1 − α_i)``.

    ``λ`` solves ``f(λ) = Σ_k α_k/(α_k − λ) = 0`` on ``(a_2, a_1)`` (:mod:`theorems.maths.secular`); it also lies
    between ``m`` and Gershgorin's ``2m``, so the bracket starts at relative width 2 at most. Everything runs in units
    of ``m`` (the weights divided by it: ``f`` is unchanged, and no product of weights underflows, so the reference's
    bisection below ``a_2 = 1e-250`` is not needed; only ``m`` below :data:`TINY`, where the weights cannot be divided
    by it, takes the reference's bisection). The
    first guess solves the equation with the weights after the second lumped into one pole at their mean weight (a
    quadratic: exact when they are equal, or negligible against ``λ``); Newton's method on the pole-free
    ``(a_1 − λ)(λ − a_2)·f(λ)`` within the bracket (the geometric midpoint where a step leaves it) stops at four
    ulps, as :func:`theorems.maths.secular.newton` does.
    """
    flat = alpha.reshape(-1, alpha.shape[-1])
    a1, a2, p, mu, m = (value.reshape(-1) for value in (top, second, *tail, diagonal))
    out = torch.where(a2 == 0, 0.0, a2)  # a_2 = 0: λ = 0; a_1 = a_2: λ = a_2 exactly
    extreme = torch.nonzero((a2 > 0) & (a2 < a1) & (m < TINY))[:, 0]
    if len(extreme):  # a (near) subnormal λ: the weights cannot be rescaled; the reference's bisection, on the CPU
        from theorems.maths.secular import bisection

        out[extreme] = torch.from_numpy(bisection(flat[extreme].cpu().numpy())).to(out)
    active = torch.nonzero((a2 > 0) & (a2 < a1) & (m >= TINY))[:, 0]
    scale = m[active]
    a1, a2, p, mu = (value[active] / scale for value in (a1, a2, p, mu))  # in units of m: λ in [1, 2]
    # [m, 2m] widened by a few ulps of m's own rounding, so a root on Gershgorin's bound (a near one-hot row: λ ≈ 2a_2)
    # lies strictly inside and Newton's step to it is taken, not bisected towards
    low = a2.clamp(min=1.0 - BRACKET_SLACK)
    high = torch.maximum(a1.clamp(max=2.0 * (1.0 + BRACKET_SLACK)), low)
    middle = (low.sqrt() * high.sqrt()).clamp(low, high)
    guess = _three_pole_root(a1, a2, p, mu)
    lam = torch.where((guess > low) & (guess < high), guess, middle)  # strictly inside: never on a pole
    if _fused(flat):
        roots = torch.empty_like(lam)
        fused_kernels.secular_roots(flat.numpy(), active.numpy(), scale.numpy(), lam.numpy(), low.numpy(), high.numpy(),
                                    a1.numpy(), a2.numpy(), NEWTON_STEPS, SPECTRAL_TOLERANCE, roots.numpy())
        out[active] = roots * scale
        return out.reshape(top.shape)
    rows = flat[active].div_(scale[:, None])
    live = torch.ones(len(active), dtype=torch.bool, device=out.device)  # rows whose root is not yet written
    for _ in range(NEWTON_STEPS):
        if not len(active):
            break
        inverse = torch.sub(rows, lam[:, None]).reciprocal_()  # [A, L] 1/(α_k − λ): the one division per key
        ratio = rows * inverse
        f = ratio.sum(-1)
        slope = ratio.mul_(inverse).sum(-1)  # f′(λ) = Σ α_k/(α_k − λ)²
        del inverse, ratio
        u = (a1 - lam) * (lam - a2)  # F = u·f, F′ = u′·f + u·f′
        step = lam - u * f / ((a1 + a2 - 2 * lam) * f + u * slope)
        right = ~(f >= 0)  # the root lies right of λ (also when λ hits a weight: nan/inf)
        low, high = torch.where(right, lam, low), torch.where(right, high, lam)
        middle = (low.sqrt() * high.sqrt()).clamp(low, high)
        inside = torch.isfinite(step) & (step > low) & (step < high)
        new = torch.where(inside, step, middle)
        near = (step >= low) & (step <= high) & ((step - lam).abs() <= SPECTRAL_TOLERANCE * lam)
        done = (near | (high - low <= SPECTRAL_TOLERANCE * high) | (f == 0)) & live
        finished = bool(done.any())
        if finished:
            value = torch.where(f == 0, lam, torch.where(inside, step, lam).clamp(low, high))
            out[active[done]] = value[done] * scale[done]
            live &= ~done
        lam = new
        # the finished rows leave the working set once they are a quarter of it: copying the [A, L] weights costs
        # about a sixth of a step, so a few finished rows are cheaper to carry along (their roots are written)
        if finished and 4 * (len(live) - int(live.sum())) >= len(live):
            active, lam, low, high, rows, a1, a2, scale, live = (
                v[live] for v in (active, lam, low, high, rows, a1, a2, scale, live))
    out[active[live]] = lam[live] * scale[live]
    return out.reshape(top.shape)


def _three_pole_root(a1, a2, tail, centre):
    """The root in ``(a_2, a_1)`` of ``a_1/(a_1 − λ) + a_2/(a_2 − λ) + tail/(centre − λ) = 0``, the secular equation
    with the weights after the second lumped at ``centre`` (all in units of the largest diagonal entry ``m``): times
    the three denominators it is the quadratic ``S·λ² − Bλ + C`` with ``S = (a_1 + a_2 + tail)`` (``1/m``: the
    weights sum to one), ``B = 2a_1a_2 + (centre + tail)(a_1 + a_2)``, ``C = a_1a_2(2·centre + tail)``; its larger
    root."""
    total = a1 + a2 + tail
    b = (2 * a1 * a2 + (centre + tail) * (a1 + a2)) / total
    c = a1 * a2 * (2 * centre + tail) / total
    return 0.5 * (b + (b.square() - 4 * c).clamp(min=0.0).sqrt())
