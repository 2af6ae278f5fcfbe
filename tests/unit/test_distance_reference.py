"""The vectorised distance API agrees with a naive per-token reference, for batches, masks, numpy and torch."""

from itertools import combinations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from unittest import mock
from theorems.maths import distance as D


# ----------------------------------------------------------------- naive per-token reference (loops on purpose)


def ref_rows(alpha, x, mask):
    """Yield ``(index, alpha_row, x_row, valid_keys)`` for every row of a broadcast batch."""
    batch = np.broadcast_shapes(alpha.shape[:-1], x.shape[:-2])
    alpha = np.broadcast_to(alpha, (*batch, alpha.shape[-1]))
    x = np.broadcast_to(x, (*batch, *x.shape[-2:]))
    mask = np.ones(alpha.shape, bool) if mask is None else np.broadcast_to(mask, alpha.shape)
    for index in np.ndindex(*batch):
        yield index, alpha[index], x[index], [k for k in range(alpha.shape[-1]) if mask[index][k]]


def ref_top(alpha, valid, n):
    return sorted(valid, key=lambda k: (-alpha[k], k))[:n]


def ref_distance(alpha, x, valid, chosen, reading):
    s = sum((alpha[j] * x[j] for j in chosen), np.zeros(x.shape[-1]))
    rest = [k for k in valid if k not in chosen]
    if reading == "norm":
        return np.linalg.norm(sum((alpha[k] * x[k] for k in rest), np.zeros(x.shape[-1])) - s)
    return sum(np.linalg.norm(alpha[k] * x[k] - s) for k in rest)


def ref_fixed_bound(alpha, x, valid, chosen, center):
    rest = [k for k in valid if k not in chosen]
    mass = sum(alpha[j] for j in chosen)
    d1 = max((np.linalg.norm(x[i] - x[j]) for i in rest for j in chosen), default=0.0)
    s = sum(alpha[j] * x[j] for j in chosen)
    c = np.linalg.norm(s) / mass if center == "normalised" else max(np.linalg.norm(x[j]) for j in chosen)
    return (1 - mass) * d1 + ((len(valid) - len(chosen)) * mass - (1 - mass)) * c


def ref_main_sum(alpha, x, valid, n):
    length = len(valid)
    p = n / (length - 1) if length > 1 else 0.0
    total = sum(alpha[j] * x[j] for j in valid)
    return (length - n) / length * sum(np.linalg.norm(alpha[i] * x[i] - p * (total - alpha[i] * x[i])) for i in valid)


def ref_jensen_bound(alpha, x, valid, n):
    length = len(valid)
    m = length - 1
    out = 0.0
    for i in valid:
        others = [alpha[j] * x[j] for j in valid if j != i]
        if m <= 1 or n >= m:
            continue
        p = n / m
        var = p * (1 - p) * m / (m - 1) * (sum(a @ a for a in others) - np.sum(sum(others) ** 2) / m)
        out += np.sqrt(max(var, 0.0))
    return (length - n) / length * out


def ref_expected(alpha, x, valid, n, reading):
    values = [ref_distance(alpha, x, valid, list(c), reading) for c in combinations(valid, n)]
    return sum(values) / len(values)



@st.composite
def batches(draw, *, masked=False):
    """``alpha [H, Q, L]``, ``x [H, 1, L, d]`` (values shared by queries), optional causal-style mask, ``n``."""
    heads, queries, length, dim = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(2, 7)), draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    logits = rng.standard_normal((heads, queries, length)) * draw(st.sampled_from([0.0, 1.0, 4.0]))
    if draw(st.booleans()):
        logits = np.round(logits)  # ties
    alpha = np.exp(logits)
    mask = None
    if masked:
        counts = rng.integers(2, length + 1, size=(heads, queries))
        mask = np.arange(length) < counts[..., None]
        alpha = np.where(mask, alpha, 0.0)
    alpha /= alpha.sum(-1, keepdims=True)
    x = rng.standard_normal((heads, 1, length, dim))
    smallest = length if mask is None else int(mask.sum(-1).min())
    return alpha, x, mask, draw(st.integers(1, smallest))


def _reference(function, alpha, x, mask, n, **kw):
    out = np.zeros(np.broadcast_shapes(alpha.shape[:-1], x.shape[:-2]))
    for index, a, xr, valid in ref_rows(alpha, x, mask):
        chosen = ref_top(a, valid, n)
        out[index] = {
            "distance": lambda: ref_distance(a, xr, valid, chosen, kw.get("reading", "sum")),
            "fixed_bound": lambda: ref_fixed_bound(a, xr, valid, chosen, kw.get("center", "normalised")),
            "random_main_sum": lambda: ref_main_sum(a, xr, valid, n),
            "jensen_gap_bound": lambda: ref_jensen_bound(a, xr, valid, n),
            "expected_distance": lambda: ref_expected(a, xr, valid, n, kw.get("reading", "sum")),
        }[function]()
    return out


CASES = [("distance", {"reading": "sum"}), ("distance", {"reading": "norm"}), ("fixed_bound", {"center": "normalised"}),
         ("fixed_bound", {"center": "max-norm"}), ("random_main_sum", {}), ("jensen_gap_bound", {}),
         ("expected_distance", {"reading": "sum"}), ("expected_distance", {"reading": "norm"})]


def _call(function, alpha, x, n, mask, kw):
    out = getattr(D, function)(alpha, x, n, mask=mask, **kw)
    return out.mean if function == "expected_distance" else out


@pytest.mark.parametrize("function, kw", CASES, ids=lambda c: str(c))
@pytest.mark.parametrize("masked", [False, True], ids=["full", "masked"])
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_numpy_matches_reference(function, kw, masked, data):
    alpha, x, mask, n = data.draw(batches(masked=masked))
    np.testing.assert_allclose(_call(function, alpha, x, n, mask, kw), _reference(function, alpha, x, mask, n, **kw),
                               rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("function, kw", CASES[:6], ids=lambda c: str(c))
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_expansion_path_matches_reference(function, kw, data):
    """The memory-saving expansion ``c²α²‖x‖² − 2cα x·s + ‖s‖²`` agrees to ~1e-7 relative."""
    alpha, x, mask, n = data.draw(batches(masked=True))
    with mock.patch.object(D, "DIRECT_LIMIT", 0):
        got = _call(function, alpha, x, n, mask, kw)
    np.testing.assert_allclose(got, _reference(function, alpha, x, mask, n, **kw), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("function, kw", CASES, ids=lambda c: str(c))
def test_torch_in_torch_out(function, kw):
    rng = np.random.default_rng(1)
    alpha = rng.dirichlet(np.ones(6), size=(2, 3))
    x = rng.standard_normal((2, 1, 6, 4))
    got = _call(function, torch.tensor(alpha), torch.tensor(x), 2, None, kw)
    assert isinstance(got, torch.Tensor) and got.dtype == torch.float64 and got.shape == (2, 3)
    np.testing.assert_allclose(got.numpy(), _call(function, alpha, x, 2, None, kw), rtol=1e-12)


def test_top_n_breaks_ties_toward_lower_index():
    alpha = np.array([[0.1, 0.3, 0.3, 0.3], [0.25, 0.25, 0.25, 0.25]])
    assert D.top_n(alpha, 2).tolist() == [[1, 2], [0, 1]]


def test_top_n_is_descending_and_skips_masked_keys():
    alpha = np.array([0.1, 0.5, 0.2, 0.9])
    assert D.top_n(alpha, 2, mask=np.array([True, True, True, False])).tolist() == [1, 2]
    assert isinstance(D.top_n(torch.tensor(alpha), 1), torch.Tensor)


def test_masked_row_equals_the_row_cut_to_its_valid_keys():
    rng = np.random.default_rng(2)
    alpha, x = rng.dirichlet(np.ones(5)), rng.standard_normal((5, 3))
    padded_alpha, padded_x = np.append(alpha, 0.7), np.vstack([x, rng.standard_normal((1, 3))])
    mask = np.array([True] * 5 + [False])
    for function in ("distance", "fixed_bound", "random_main_sum", "jensen_gap_bound"):
        assert np.isclose(getattr(D, function)(padded_alpha, padded_x, 2, mask=mask), getattr(D, function)(alpha, x, 2))
