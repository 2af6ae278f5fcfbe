"""The vectorised separability quantities agree with a naive loop over rows, tokens and pairs."""

import itertools

import numpy as np
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from theorems.maths.separability import (default_radius, separability_lower_bound, separability_upper_bound,
                                   separable_count, xi)


def _naive_row(alpha, x, n, r, valid, M, delta):
    """One row, loops only: I_N, ξ_i by the double sum, N_s (closed ball, gate ≥ r), the experiments' r."""
    keys = [i for i in range(len(alpha)) if valid[i]]
    chosen = sorted(keys, key=lambda i: (-alpha[i], i))[:n]
    others = [j for j in keys if j not in chosen]
    s = sum(alpha[i] * x[i] for i in chosen)
    dist = {i: float(np.linalg.norm(s - alpha[i] * x[i])) for i in keys}
    radius = min((dist[j] for j in others), default=np.inf)
    spreads = []
    for i in chosen:
        rest = [j for j in chosen if j != i]
        square = M * M * sum(alpha[j] ** 2 for j in rest)
        square += (M * M - delta * delta / 2) * sum(alpha[j] * alpha[k] for j, k in itertools.permutations(rest, 2))
        spreads.append(np.sqrt(max(square, 0.0)))
    inside = sum(dist[i] <= r for i in chosen)
    gate = all(dist[j] >= r for j in others)
    lower = 1 - sum(spreads) / (r * n)
    upper = {c: np.mean([np.exp(-(v - r) ** 2 / (c * M * M)) for v in spreads]) for c in (2, 16)}
    return dict(xi=spreads, gated=inside if gate else 0, ungated=inside, radius=radius, lower=lower, upper=upper,
                gap=min(abs(d - r) for d in dist.values()))


@st.composite
def batches(draw):
    rows, length, dim = draw(st.integers(1, 3)), draw(st.integers(2, 6)), draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    alpha = rng.dirichlet(np.ones(length) * draw(st.sampled_from([0.2, 1.0, 5.0])), size=rows)  # [B, L]
    if draw(st.booleans()):
        alpha = np.round(alpha, 1)  # ties
    x = rng.standard_normal((rows, length, dim))                                                  # [B, L, d]
    mask = rng.random((rows, length)) < 0.8
    mask[:, :2] = True
    mass = np.sum(np.where(mask, alpha, 0.0), axis=-1, keepdims=True)
    assume(np.all(mass > 0))
    alpha = np.where(mask, alpha / mass, alpha)  # a distribution over each row's valid keys; masked weights stay
    n = draw(st.integers(1, int(mask.sum(-1).min())))
    return alpha, x, mask, n, draw(st.floats(0.01, 2.0)), draw(st.floats(0.1, 3.0)), draw(st.floats(0.0, 1.0))


@example(batch=(np.array([[0.2, 0.6, 0.2]]), np.array([[[1.05898663], [-0.75575719], [-0.30434219]]]),
                np.array([[True, True, True]]), 3, 1.0, 1.0, 1.0))
@settings(max_examples=60, deadline=None)
@given(batches())
def test_vectorised_equals_naive(batch):
    alpha, x, mask, n, r, M, fraction = batch
    delta = 2 * M * fraction
    naive = [_naive_row(a, xx, n, r, v, M, delta) for a, xx, v in zip(alpha, x, mask)]
    # compared squared: ξ² cancels to 0 when δ > √2·M, and the square root turns a rounding residue of
    # 1e-16 in either sum's order into 1e-8 (α = [0.2, 0.6, 0.2], N = 3, M = 1, δ = 2: ξ = 1.05e-8 against 0)
    np.testing.assert_allclose(xi(alpha, n, M=M, delta=delta, mask=mask) ** 2,
                               [np.square(row["xi"]) for row in naive], atol=1e-12)
    # the counts compare each distance with r; the loop (np.linalg.norm per key) and the vectorised sum of squares
    # round differently in the last bits, so they must agree only where no distance is within rounding of r
    assume(all(row["gap"] > 1e-9 * max(r, 1.0) for row in naive))
    assert separable_count(alpha, x, n, r, mask=mask).tolist() == [row["gated"] for row in naive]
    assert separable_count(alpha, x, n, r, mask=mask, gated=False).tolist() == [row["ungated"] for row in naive]
    np.testing.assert_allclose(default_radius(alpha, x, n, mask=mask), [row["radius"] for row in naive])
    np.testing.assert_allclose(separability_lower_bound(alpha, n, r, M=M, delta=delta, mask=mask),
                               [row["lower"] for row in naive], atol=1e-9)
    for exponent, c in (("2M^2", 2), ("16M^2", 16)):
        np.testing.assert_allclose(separability_upper_bound(alpha, n, r, M=M, delta=delta, exponent=exponent, mask=mask),
                                   [row["upper"][c] for row in naive], atol=1e-9)
