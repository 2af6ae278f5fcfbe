"""Each normaliser against its defining formula, an independent implementation, and its documented properties."""

import numpy as np
import pytest
import scipy.special
import torch
from hypothesis import given
from hypothesis import strategies as st

from strategies import logits, temperatures
from theorems.arithmetic.precision import MP, lift, to_float
from theorems.maths import normalisers as nz

NORMALISED = [nz.softmax(), nz.scalable_softmax(), nz.exp_sine(), nz.sparsemax(), nz.entmax15(), nz.entmax_bisect()]
SHIFT_INVARIANT = [nz.softmax(), nz.scalable_softmax(), nz.sparsemax(), nz.entmax15(), nz.entmax_bisect()]


@given(logits(bound=10.0), temperatures(min_value=0.05, max_value=50.0))
def test_softmax_matches_scipy(l, t):
    assert np.allclose(nz.softmax(temperature=t)(l), scipy.special.softmax(l / t), rtol=1e-12, atol=1e-300)


@given(logits(bound=3.0), st.floats(0.25, 2.0))
def test_scalable_softmax_is_softmax_of_s_log_L_times_logits(l, s):
    assert np.allclose(nz.scalable_softmax(s=s)(l), scipy.special.softmax(s * np.log(len(l)) * l), rtol=1e-12)


@pytest.mark.parametrize("normaliser", NORMALISED, ids=repr)
@given(l=logits(bound=5.0))
def test_weights_are_a_probability_vector(normaliser, l):
    w = normaliser(l)
    assert np.all(w >= 0) and np.isclose(w.sum(), 1.0, atol=1e-9)


@pytest.mark.parametrize("normaliser", list(nz.catalogue().values()), ids=repr)
@given(l=logits(bound=5.0), data=st.data())
def test_permutation_equivariance(normaliser, l, data):
    order = np.array(data.draw(st.permutations(range(len(l)))))
    assert np.allclose(normaliser(l)[order], normaliser(l[order]), atol=1e-12)


@pytest.mark.parametrize("normaliser", SHIFT_INVARIANT, ids=repr)
@given(l=logits(bound=5.0), shift=st.floats(-5, 5))
def test_shift_invariance(normaliser, l, shift):
    assert np.allclose(normaliser(l), normaliser(l + shift), atol=1e-9)


@pytest.mark.parametrize("normaliser", [n for n in nz.catalogue().values() if n.general_form], ids=repr)
@given(l=logits(bound=5.0))
def test_general_form_is_F_over_its_sum(normaliser, l):
    F = normaliser.F(l, len(l), nz.F64)
    assert np.allclose(normaliser(l), F / F.sum(), rtol=1e-12)


@given(logits(bound=5.0))
def test_sparsemax_matches_the_entmax_package(l):
    import entmax
    reference = entmax.sparsemax(torch.tensor(l, dtype=torch.float64), dim=-1).numpy()
    assert np.allclose(nz.sparsemax()(l), reference, atol=1e-12)


@given(logits(bound=5.0))
def test_entmax15_matches_the_entmax_package_and_bisection(l):
    import entmax
    reference = entmax.entmax15(torch.tensor(l, dtype=torch.float64), dim=-1).numpy()
    assert np.allclose(nz.entmax15()(l), reference, atol=1e-10)
    assert np.allclose(nz.entmax_bisect(alpha=1.5)(l), reference, atol=1e-10)


@given(logits(bound=5.0))
def test_entmax_at_alpha_2_is_sparsemax(l):
    assert np.allclose(nz.entmax_bisect(alpha=2.0)(l), nz.sparsemax()(l), atol=1e-10)


@given(logits(bound=5.0))
def test_sigmoid_attention_formula(l):
    assert np.allclose(nz.sigmoid_attention()(l), scipy.special.expit(l - np.log(len(l))), rtol=1e-12)


@given(logits(bound=5.0))
def test_relu_attention_formula(l):
    assert np.allclose(nz.relu_attention()(l), np.maximum(l, 0) / len(l))


@given(logits(bound=5.0))
def test_softpick_formula(l):
    e = np.expm1(l)
    assert np.allclose(nz.softpick(eps=1e-6)(l), np.maximum(e, 0) / (np.abs(e).sum() + 1e-6), rtol=1e-12)


def test_sparsemax_outputs_exact_zeros_where_softmax_cannot():
    l = np.array([1.0, -1.0])
    assert nz.sparsemax()(l)[1] == 0.0 and nz.softmax()(l)[1] > 0


@pytest.mark.parametrize("normaliser", list(nz.catalogue().values()), ids=repr)
@given(l=logits(bound=5.0, max_length=6))
def test_high_precision_path_agrees_with_float64(normaliser, l):
    with MP.precision():
        exact = to_float(normaliser(lift(l), xp=MP))
    assert np.allclose(exact, normaliser(l), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("normaliser", [n for n in nz.catalogue().values() if n.general_form], ids=repr)
@given(a=st.floats(0.01, 5.0))
def test_F_range_bounds_F_on_the_interval(normaliser, a):
    low, high = normaliser.F_range(a, 7, nz.F64)
    grid = np.linspace(-a, a, 2001)
    values = normaliser.F(grid, 7, nz.F64)
    assert low <= values.min() * (1 + 1e-12) and values.max() <= high * (1 + 1e-12)
    assert np.isclose(values.min(), low, rtol=1e-5) and np.isclose(values.max(), high, rtol=1e-5)
