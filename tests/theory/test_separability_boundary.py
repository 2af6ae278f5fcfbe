"""The decided conventions: closed ball, shared boundary, the experiments' radius, masks and ties."""

import numpy as np
import pytest

from theorems.maths.distance import top_n
from theorems.maths.separability import default_radius, separable_count, top_n_indices

# alpha x: selected 0.5·(1,0) and 0.25·(0,1); s = (0.5, 0.25); distances 0.25, 0.5, and the non-selected one
ALPHA = np.array([0.5, 0.25, 0.25])
X = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, -1.0]])


def test_a_selected_token_at_distance_r_counts():
    assert separable_count(ALPHA, X, 2, 0.5, gated=False) == 2  # ‖s − α_1 x_1‖ = 0.5 = r is in the closed ball


def test_a_non_selected_token_on_the_sphere_does_not_block():
    r = float(default_radius(ALPHA, X, 2))
    assert r == pytest.approx(np.hypot(0.5, 0.5))
    assert separable_count(ALPHA, X, 2, r) == 2  # the closest non-selected token lies at exactly r


def test_a_non_selected_token_inside_blocks_everything():
    assert separable_count(ALPHA, X, 2, 0.8) == 0 and separable_count(ALPHA, X, 2, 0.8, gated=False) == 2


def test_no_non_selected_key_gives_infinite_radius_and_full_count():
    assert default_radius(ALPHA, X, 3) == np.inf and separable_count(ALPHA, X, 3, np.inf) == 3


def test_masked_keys_are_neither_selected_nor_blocking():
    mask = np.array([True, True, False])
    alpha = np.array([2 / 3, 1 / 3, 0.25])  # a distribution over the valid keys; the masked weight is ignored
    assert default_radius(alpha, X, 2, mask=mask) == np.inf
    assert separable_count(alpha, X, 2, 0.8, mask=mask) == 2


def test_ties_go_to_the_lower_index_like_the_distance_module():
    alpha = np.array([[0.25, 0.25, 0.25, 0.25], [0.1, 0.4, 0.1, 0.4]])
    assert top_n_indices(alpha, 3).tolist() == np.asarray(top_n(alpha, 3)).tolist() == [[0, 1, 2], [1, 3, 0]]


@pytest.mark.parametrize("call, message", [
    (lambda: separable_count(-ALPHA, X, 1, 0.5), "entries >= 0"),
    (lambda: separable_count(ALPHA, X, 4, 0.5), "n=4"),
    (lambda: separable_count(ALPHA, X[:2], 1, 0.5), "x of shape"),
    (lambda: separable_count(ALPHA, X, 1, 0.5, mask=np.ones(3)), "boolean"),
    (lambda: default_radius(ALPHA, X, 1, mask=np.zeros(3, dtype=bool)), "all False"),
])
def test_bad_input_is_named(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()
