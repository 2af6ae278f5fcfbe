"""The Jacobian three ways agree: Lemma 2's closed form, torch autograd (float64), and the
batched softmax form ``(diag α − ααᵀ)/T``, for every differentiable normaliser of the catalogue."""

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import logits, temperatures
from theorems.maths import normalisers as nz
from theorems.maths.gradient import jacobian_autograd, normaliser_jacobian, softmax_jacobian, torch_function

pytestmark = pytest.mark.theory

GENERAL_FORM = st.one_of(
    temperatures(min_value=0.05, max_value=20.0).map(lambda t: nz.softmax(temperature=t)),
    st.floats(0.25, 2.0).map(lambda s: nz.scalable_softmax(s=s)),
    st.floats(0.1, 3.0).map(lambda c: nz.exp_sine(c=c)),
)


@settings(max_examples=10)
@given(GENERAL_FORM, logits(bound=4.0, max_length=8))
def test_closed_form_matches_autograd(normaliser, l):
    closed = normaliser_jacobian(normaliser, l)  # [L, L]
    automatic = jacobian_autograd(normaliser, l)
    assert np.allclose(closed, automatic, rtol=1e-9, atol=1e-12)


@settings(max_examples=25)
@given(temperatures(min_value=1e-2, max_value=1e2), logits(bound=4.0, max_length=8))
def test_softmax_form_matches_lemma2_form(t, l):
    assert np.allclose(softmax_jacobian(l, temperature=t), normaliser_jacobian(nz.softmax(temperature=t), l),
                       rtol=1e-9, atol=1e-12)


@settings(max_examples=20)
@given(logits(bound=4.0, max_length=6))
def test_sigmoid_attention_jacobian_is_diagonal_alpha_one_minus_alpha(l):
    alpha = nz.sigmoid_attention()(l)
    assert np.allclose(jacobian_autograd(nz.sigmoid_attention(), l), np.diag(alpha * (1 - alpha)), atol=1e-14)


def test_torch_gradcheck_passes_for_every_smooth_normaliser():
    l = torch.tensor([0.3, -1.2, 2.0, 0.0], dtype=torch.float64, requires_grad=True)
    for normaliser in (nz.softmax(temperature=0.7), nz.scalable_softmax(s=1.0), nz.exp_sine(c=1.5),
                       nz.sigmoid_attention()):
        assert torch.autograd.gradcheck(torch_function(normaliser), (l,)), normaliser


def test_softmax_jacobian_is_batched_and_keeps_torch():
    l = torch.randn(3, 2, 5, dtype=torch.float64)
    J = softmax_jacobian(l, temperature=0.5)
    assert isinstance(J, torch.Tensor) and J.shape == (3, 2, 5, 5)
    expected = torch.func.vmap(torch.func.vmap(torch.func.jacrev(lambda z: torch.softmax(z / 0.5, -1))))(l)
    assert torch.allclose(J, expected, atol=1e-12)


def test_jacobian_rejects_a_normaliser_without_F():
    with pytest.raises(ValueError, match="general-form"):
        normaliser_jacobian(nz.sparsemax(), np.zeros(3))
    with pytest.raises(ValueError, match="torch function"):
        jacobian_autograd(nz.sparsemax(), np.zeros(3))
    with pytest.raises(ValueError, match="temperature"):
        softmax_jacobian(np.zeros(3), temperature=0.0)
