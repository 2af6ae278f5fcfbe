"""The growth claim: linear growth of d̃ in L needs an attention sink; E[d̃] stays bounded either way."""

import numpy as np
import pytest

from theorems.figures.distance import growth, sample_rows, slope

LENGTHS = (64, 128, 256, 512, 1024)


@pytest.fixture(scope="module")
def curves():
    return {regime: growth(regime=regime, lengths=LENGTHS, n=5, rows=8, dim=8, samples=64) for regime in ("bounded", "sink")}


def test_bounded_logits_keep_every_distance_flat(curves):
    """Lemma 1: α_i = Θ(1/L) makes d̃, the fixed bound and E[d̃] Θ(N), not Θ(L)."""
    data = curves["bounded"]
    assert all(abs(slope(data["grid"], data[k])) < 0.25 for k in ("true", "bound", "main", "expected"))


def test_a_sink_makes_the_true_distance_linear_but_not_its_expectation(curves):
    data = curves["sink"]
    assert 0.9 < slope(data["grid"], data["true"]) < 1.1
    assert abs(slope(data["grid"], data["main"])) < 0.25
    assert np.all(data["expected"] <= 6 * data["A"])  # Corollary 2 corrected: E[d̃] ≤ (1 + N)·Σ‖α_i x_i‖


def test_sink_keeps_a_constant_share_of_the_mass():
    shares = [sample_rows(regime="sink", length=length, rows=16, dim=2)[0][:, 0].mean() for length in (64, 4096)]
    assert abs(shares[0] - shares[1]) < 0.05 and shares[1] > 0.2


def test_unknown_regime_is_named():
    with pytest.raises(ValueError, match="regime"):
        sample_rows(regime="spiky", length=8, rows=1, dim=2)
