"""Numbers outside their domain (zero iterations, subnormal temperatures, complex values, scalar-valued
functions) get a clear error naming the argument, instead of a wrong or NaN result."""

import numpy as np
import pytest
import torch

from theorems.maths import normalisers as nz
from theorems.maths.gradient import jacobian_autograd, softmax_jacobian
from theorems.maths.gradient_sensitivity import softmax_jacobian_norms


def test_entmax_bisection_needs_at_least_one_iteration():
    with pytest.raises(ValueError, match="iterations=0 must be an integer >= 1"):
        nz.entmax_bisect(iterations=0)
    with pytest.raises(ValueError, match="alpha=1.0 must be a finite number in \\(1, inf\\)"):
        nz.entmax_bisect(alpha=1.0)


@pytest.mark.parametrize("temperature", [5e-324, 1e-310])
def test_a_subnormal_temperature_is_refused(temperature):
    with pytest.raises(ValueError, match=rf"temperature={temperature!r} must be a finite number > 0 and normal"):
        softmax_jacobian(np.zeros(2), temperature=temperature)
    with pytest.raises(ValueError, match="temperatures must be finite, normal numbers > 0"):
        softmax_jacobian_norms(np.zeros(2), [1.0, temperature])


def test_the_smallest_normal_temperature_still_works():
    jacobian = softmax_jacobian(np.array([0.0, 1e-300]), temperature=float(np.finfo(float).tiny))
    assert np.all(np.isfinite(jacobian))


@pytest.mark.parametrize("call", [lambda z: nz.softmax()(z), lambda z: softmax_jacobian(z, temperature=1.0),
                                  lambda z: jacobian_autograd(nz.softmax(), z)])
def test_complex_logits_are_refused_not_truncated(call):
    with pytest.raises(TypeError, match="logits must be real, got a complex array"):
        call(np.array([1.0 + 2.0j, 0.0]))


def test_jacobian_autograd_needs_a_vector_valued_function():
    with pytest.raises(ValueError, match=r"normaliser_or_fn must map logits \[L\] to weights \[L\].*got \(\)"):
        jacobian_autograd(lambda l: torch.logsumexp(l, -1), np.zeros(3))


def test_a_temperature_so_small_that_the_scaled_logits_overflow_is_refused():
    with pytest.raises(ValueError, match="logits / temperature overflows float64"):
        softmax_jacobian(np.array([0.0, 1e10]), temperature=1e-300)


def test_a_one_entry_array_is_not_a_number():
    with pytest.raises(TypeError, match=r"temperature=array\(\[1.\]\) must be a real number, not an array of shape \(1,\)"):
        nz.softmax(temperature=np.array([1.0]))
