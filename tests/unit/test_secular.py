"""The Newton secular solver agrees with the reference bisection (theorems.maths.gradient_sensitivity) to float64 rounding."""

import numpy as np
import pytest

from theorems.maths.secular import newton
from theorems.maths.gradient_sensitivity import largest_eigenvalue as reference


@pytest.mark.parametrize("scale", [0.01, 1.0, 10.0, 100.0, 1000.0])
def test_agrees_with_the_bisection_on_softmax_rows_from_flat_to_one_hot(scale):
    rng = np.random.default_rng(int(scale * 100))
    logits = rng.normal(size=(300, 64)) * scale
    alpha = np.exp(logits - logits.max(-1, keepdims=True))
    alpha /= alpha.sum(-1, keepdims=True)
    np.testing.assert_allclose(newton(alpha), reference(alpha), rtol=1e-13, atol=0)


def test_ties_zeros_and_single_keys_are_exact():
    alpha = np.array([[0.5, 0.5, 0.0], [1.0, 0.0, 0.0], [0.4, 0.4, 0.2], [0.25, 0.25, 0.5]])
    np.testing.assert_allclose(newton(alpha), reference(alpha), rtol=1e-15, atol=0)
    assert newton(alpha)[:3].tolist() == [0.5, 0.0, 0.4]  # ties and one-hot rows: exact
    assert newton(np.ones((2, 1))).tolist() == [0.0, 0.0]


def test_matches_the_dense_eigenvalue_of_the_matrix():
    rng = np.random.default_rng(1)
    alpha = rng.dirichlet(np.ones(20) * 0.3, size=50)
    dense = np.linalg.eigvalsh(np.einsum("ri,ij->rij", alpha, np.eye(20)) - alpha[:, :, None] * alpha[:, None, :])[:, -1]
    np.testing.assert_allclose(newton(alpha), dense, rtol=1e-10)


@pytest.mark.parametrize("scale", [0.01, 1.0, 100.0, 1000.0])
def test_given_top_two_gives_the_partitions_answer_bit_for_bit(scale):
    rng = np.random.default_rng(7 + int(scale))
    logits = rng.normal(size=(4, 50, 64)) * scale
    logits[0, :5, :2] = 3.0  # ties for the top weight
    alpha = np.exp(logits - logits.max(-1, keepdims=True))
    alpha /= alpha.sum(-1, keepdims=True)
    alpha[1, :5, 10:] = 0.0  # zeros (masked keys); the top weight sits among the kept keys
    alpha[1, :5, 0] = 1.0
    alpha[1, :5] /= alpha[1, :5].sum(-1, keepdims=True)
    assert np.isfinite(alpha).all()
    ordered = -np.sort(-alpha, axis=-1)
    got = newton(alpha, top_two=(ordered[..., 0], ordered[..., 1]))
    assert np.array_equal(got, newton(alpha))  # bitwise: top_two only passes in values newton would find by sorting
    np.testing.assert_allclose(got, reference(alpha), rtol=1e-13, atol=0)


def test_top_two_of_the_wrong_shape_is_refused():
    from theorems.errors import InvalidArgument

    alpha = np.full((3, 4), 0.25)
    with pytest.raises(InvalidArgument, match="a_2"):
        newton(alpha, top_two=(np.full(3, 0.25), np.full(4, 0.25)))
