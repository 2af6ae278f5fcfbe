"""The torch kernels against the numpy kernels (the reference), row by row, within the rounding bounds of each formula.

The blocks mimic the heads: float32 logits (so distinct weights differ by far more than rounding, as a model's do,
and equal logits give exactly tied weights), causal and full masks, peaked rows, repeated embeddings. Each
comparison is ``|torch − numpy| ≤ bound`` with the bound of ``rounding.py`` computed from the block's own data, and
each bound is checked to be far below the values it bounds (a vacuous bound would let anything through).
"""

import types

import numpy as np
import pytest
import torch

from empirical import kernels, torch_kernels
from rounding import U, distance_bounds, separability_bounds, sensitivity_bounds

pytestmark = pytest.mark.empirical

NS = (1, 3, 10)
TEMPERATURES = (0.01, 0.3, 1.0, 10.0)
EPSILONS = (1e-3, 0.1, 10.0)


def _block(kind: str, seed: int, *, heads=3, rows=18, length=40, dim=5):
    """A numpy block as :func:`empirical.heads.rows.blocks` makes it (rows 22..39 of a causal window, or full)."""
    rng = np.random.default_rng(seed)
    mask = np.tril(np.ones((length, length), bool))[-rows:] if kind != "full" else np.ones((rows, length), bool)
    scale = 30.0 if kind == "peaked" else 3.0
    logits32 = (rng.normal(size=(heads, rows, length)) * scale).astype(np.float32)
    x = rng.normal(size=(heads, length, dim)).astype(np.float32).astype(float)
    if kind == "repeated":  # repeated tokens: equal embeddings and exactly tied logits
        x[:, 1::2] = x[:, ::2][:, : length // 2]
        logits32[..., 1::2] = logits32[..., ::2][..., : length // 2]
    logits = torch.from_numpy(logits32).double().masked_fill(~torch.from_numpy(mask), -float("inf"))
    alpha = torch.softmax(logits, dim=-1).numpy()
    finite = torch.where(torch.from_numpy(mask), logits, 0.0).numpy()
    seen = length - np.argmax(mask[:, ::-1], axis=-1)
    return types.SimpleNamespace(alpha=alpha, logits=finite, x=x[:, None], mask=mask, seen=seen)


def _tensors(block, keys: int):
    """The torch backend's view of the block: the keys some row sees, the embeddings whole."""
    return (torch.from_numpy(block.alpha[..., :keys]).clone(), torch.from_numpy(block.x[:, 0]),
            torch.from_numpy(block.mask[:, :keys]).clone(), torch.from_numpy(block.logits[..., :keys]).clone())


def _assert_within(got, expected, bound, name):
    got, expected, bound = (np.asarray(a, dtype=float) for a in (got, expected, bound))
    assert np.array_equal(np.isnan(got), np.isnan(expected)), name  # bitwise: NaN marks rows outside a statement
    finite = ~np.isnan(expected)
    gap = np.abs(got - expected)[finite]
    assert np.all(gap <= bound[finite]), (name, float(np.max(gap - bound[finite])))
    values = np.abs(expected[finite])
    # not vacuous: the bounds are far below the values they bound (the median bound under 1e-6 of the values' 90th
    # percentile; a square root near 0, as a repeated key's distance to its twin, is bounded by √(rounding), and a g
    # of a peaked row, at its softmaxes' own rounding, by that rounding, so rounding-sized everywhere is too strict)
    assert np.median(bound[finite]) < 1e-6 * np.percentile(values, 90), name


@pytest.mark.parametrize("kind", ["causal", "full", "peaked", "repeated"])
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("fused", [True, False], ids=["fused loops", "torch operations"])
def test_distances_and_fixed_bounds_agree_with_numpy(kind, seed, fused, monkeypatch):
    monkeypatch.setattr(torch_kernels, "FUSED_LOOPS", fused)  # the CPU's path, and a GPU's
    block = _block(kind, seed, length=40 if seed == 0 else 150)  # 150: the compiled loops' vector width and more
    keys = kernels.seen_keys(block.mask)
    alpha, x, mask, _ = _tensors(block, keys)
    selection = torch_kernels.select(alpha, x, NS, mask=mask)
    grid = torch_kernels.distance_grid(alpha, x, NS, mask=mask, norm=True, selection=selection)
    bounds = torch_kernels.fixed_bounds(alpha, x, NS, mask=mask, selection=selection)
    reference = kernels.distance_grid(block.alpha, block.x, NS, mask=block.mask, norm=True)
    allowed = distance_bounds(block, NS)
    for k, n in enumerate(NS):
        for name in ("distance_sum", "distance_norm", "estimate"):
            _assert_within(grid[name][..., k], reference[name][..., k], allowed[f"{name}@{n}"], f"{name}@{n}")
        keep = block.mask.sum(-1) >= n
        numpy_bounds = kernels.fixed_bounds(block.alpha[:, keep], block.x, n, mask=block.mask[keep])
        for center in ("normalised", "max-norm"):
            _assert_within(bounds[center][:, keep, k], numpy_bounds[center], allowed[f"bound_{center}@{n}"][:, keep],
                           f"bound_{center}@{n}")
            assert torch.isnan(bounds[center][:, ~torch.from_numpy(keep), k]).all()  # rows with fewer than N keys


@pytest.mark.parametrize("kind", ["causal", "full", "repeated"])
def test_separability_agrees_with_numpy(kind):
    block = _block(kind, 3)
    block.x = block.x / np.linalg.norm(block.x, axis=-1, keepdims=True)
    delta = np.array([[0.1], [0.0], [0.4]])  # a head outside Assumption 2 included: its ξ still computed
    keys = kernels.seen_keys(block.mask)
    alpha, x, mask, _ = _tensors(block, keys)
    got = torch_kernels.separability_block(alpha, x, NS, delta=torch.from_numpy(delta), mask=mask)
    allowed = separability_bounds(block, NS, delta)
    for k, n in enumerate(NS):
        keep = block.mask.sum(-1) >= n + 1
        reference = kernels.separability_block(block.alpha[:, keep], block.x, n, delta=delta, mask=block.mask[keep])
        for name, value in reference.items():
            mine = got[name][:, keep, k].numpy()
            if name == "fraction":  # a count: it may differ only by the selected keys within rounding of the radius
                assert np.all(np.abs(mine - value)[~np.isnan(value)] * n <= allowed[f"ties@{n}"][:, keep][~np.isnan(value)])
                continue
            _assert_within(mine, value, allowed[f"{name}@{n}"][:, keep], f"{name}@{n}")


@pytest.mark.parametrize("kind", ["causal", "full", "peaked"])
@pytest.mark.parametrize("fused", [True, False], ids=["fused loops", "torch operations"])
def test_sensitivity_agrees_with_numpy_on_the_same_directions(kind, fused, monkeypatch):
    monkeypatch.setattr(torch_kernels, "FUSED_LOOPS", fused)  # the CPU's path, and a GPU's
    block = _block(kind, 4)
    normals = kernels.direction_normals(7, window=0, layer=1, index=np.arange(22, 40), seen=block.seen, heads=3,
                                        length=block.mask.shape[-1])
    v = kernels.unit_directions(normals, block.mask)
    keys = kernels.seen_keys(block.mask)
    _, _, mask, logits = _tensors(block, keys)
    got = torch_kernels.sensitivity_block(logits, TEMPERATURES, EPSILONS, v=torch_kernels.directions(normals, mask),
                                          mask=mask)
    reference = kernels.sensitivity_block(block.logits, TEMPERATURES, EPSILONS, v=v, mask=block.mask)
    allowed = sensitivity_bounds(block, TEMPERATURES, EPSILONS, v)
    for name, value in reference.items():
        _assert_within(got[name].numpy(), value, allowed[name], name)


def test_the_spectral_norm_on_a_near_one_hot_row_sits_on_gershgorin_bound(monkeypatch):
    """α = (1 − ε, ε, tiny): λ = 2ε(1 − ε) + O(tiny), Gershgorin's bound up to rounding. The bracket is widened by
    its rounding, so Newton takes the step to it within a few steps (unwidened, the step is refused and the geometric
    bisection needs about 50: eight steps then leave λ far from the root)."""
    monkeypatch.setattr(torch_kernels, "NEWTON_STEPS", 8)
    weights = torch.tensor([[1 - 1.5e-237, 1.5e-237, 2.4e-287, 0.0]], dtype=torch.float64)
    norms = torch_kernels.jacobian_norms(weights.clone(), torch.tensor([1.0], dtype=torch.float64))
    expected = 2 * 1.5e-237  # the two-key matrix ε(1 − ε)·[[1, −1], [−1, 1]]: eigenvalue 2ε(1 − ε)
    assert abs(float(norms["spectral"][0]) - expected) <= 8 * U * expected


def test_the_selection_order_breaks_ties_to_the_lower_index_as_the_reference():
    from theorems.maths.batches import top_n_order

    rng = np.random.default_rng(0)
    for _ in range(100):
        length = int(rng.integers(2, 40))
        alpha = np.round(rng.dirichlet(np.ones(length), size=(3, 5)), int(rng.integers(1, 4)))  # many exact ties
        mask = rng.random((5, length)) < 0.8
        mask[:, 0] = True
        k = min(int(rng.integers(1, length + 1)), int(mask.sum(-1).min()))
        got = torch_kernels.selection_order(torch.from_numpy(alpha), torch.from_numpy(mask)[None], k)
        # bitwise: indices chosen by comparing the same float64 weights, ties broken by index alike
        assert np.array_equal(got.numpy(), top_n_order(alpha, np.broadcast_to(mask, alpha.shape), k))
