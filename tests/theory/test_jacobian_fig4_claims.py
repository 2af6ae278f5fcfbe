"""The Fig. 4 claim checks report what the figure (``python -m theorems.figures.gradient``) shows:
``g ∝ 1/T`` below ``T = 0.1`` only for tied top logits and small ``ε``."""

import numpy as np
import pytest

from theorems.maths.gradient_sensitivity import algorithm5, causal_mask, fig4_claims, synthetic_logits

pytestmark = pytest.mark.theory

T_GRID = np.logspace(-3, 1, 9)


def test_one_over_T_only_with_a_tied_top_pair():
    logits = synthetic_logits(heads=4, queries=16, length=16, seed=1)
    ties = logits.copy()
    ties[..., 1] = ties[..., 0] = ties.max(axis=-1) + 1.0
    mask = causal_mask(16, 16)
    generic = fig4_claims(algorithm5(logits, temperatures=T_GRID, mask=mask))["slope_below_0.1"]
    tied = fig4_claims(algorithm5(ties, temperatures=T_GRID, mask=mask))["slope_below_0.1"]
    assert tied[1e-3] == pytest.approx(-1.0, abs=0.05)  # 1/T: the Jacobian at the tie
    assert generic[1e-3] > -0.6 and tied[10.0] > -0.1  # no 1/T: one-hot rows, or saturation at √2/ε
