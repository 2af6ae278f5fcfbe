"""The duals' gradient at a point (a box of radius 0, where no slope can be taken inside the box) against torch's
float64 autograd: ``torch.autograd.gradcheck`` first confirms torch's derivative of the same function against its
own finite differences, then that derivative must lie in the dual's gradient ball, up to a few float64 ulps of it
and the finite-difference tolerance gradcheck allowed (two independent derivatives of one function)."""

import flint
import numpy as np
import pytest
from ball_forms_check import ULPS, examples
from hypothesis import assume, given
from hypothesis import strategies as st

from theorems.arithmetic import box_jet
from theorems.arithmetic.precision import ARB

torch = pytest.importorskip("torch")

FUNCTIONS = {  # name: (dual form of the coordinates, torch form of the same tensor of coordinates, coordinates)
    "DUAL.exp": (lambda x: box_jet.DUAL.exp(x[0]), lambda t: torch.exp(t[0]), 1),
    "DUAL.log": (lambda x: box_jet.DUAL.log(x[0]), lambda t: torch.log(t[0]), 1),
    "DUAL.sqrt": (lambda x: box_jet.DUAL.sqrt(x[0]), lambda t: torch.sqrt(t[0]), 1),
    "DUAL.tanh": (lambda x: box_jet.DUAL.tanh(x[0]), lambda t: torch.tanh(t[0]), 1),
    "DUAL.expm1": (lambda x: box_jet.DUAL.expm1(x[0]), lambda t: torch.expm1(t[0]), 1),
    "DUAL.sin": (lambda x: box_jet.DUAL.sin(x[0]), lambda t: torch.sin(t[0]), 1),
    "DUAL.cos": (lambda x: box_jet.DUAL.cos(x[0]), lambda t: torch.cos(t[0]), 1),
    "DUAL.abs": (lambda x: box_jet.DUAL.abs(np.array([x[0]], dtype=object))[0], lambda t: torch.abs(t[0]), 1),
    "Dual.__mul__": (lambda x: x[0] * x[1], lambda t: t[0] * t[1], 2),
    "Dual.__truediv__": (lambda x: x[0] / x[1], lambda t: t[0] / t[1], 2),
    "Dual.__rtruediv__": (lambda x: 1 / x[0], lambda t: 1 / t[0], 1),
    "Dual.__pow__": (lambda x: x[0] ** 3 + x[1] ** 0.5, lambda t: t[0] ** 3 + t[1] ** 0.5, 2),
    "DUAL.norm": (lambda x: box_jet.DUAL.norm(np.array([x[0], x[1], x[0] * x[1]], dtype=object)),
                  lambda t: torch.linalg.vector_norm(torch.stack([t[0], t[1], t[0] * t[1]])), 2),
    "DUAL.max": (lambda x: box_jet.DUAL.max(np.array([x[0], x[1] * x[1]], dtype=object)),
                 lambda t: torch.max(torch.stack([t[0], t[1] * t[1]])), 2),
    "DUAL.spectral_norm": (lambda x: box_jet.DUAL.spectral_norm(np.array([[x[0], 1], [x[1], 2 * x[0]]], dtype=object)),
                           lambda t: torch.linalg.matrix_norm(torch.stack([torch.stack([t[0], torch.ones((), dtype=t.dtype)]),
                                                                           torch.stack([t[1], 2 * t[0]])]), ord=2), 2),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.slow  # Hypothesis over every form; the quick run keeps the edge sweeps and the regressions
@examples(0.1)
@given(point=st.lists(st.floats(0.2, 3.0), min_size=2, max_size=2))
def test_gradient_at_a_point(name, point):
    build, torch_form, n = FUNCTIONS[name]
    point = point[:n]
    t = torch.tensor(point, dtype=torch.float64, requires_grad=True)
    if name == "DUAL.max":
        assume(abs(point[0] - point[1] ** 2) > 1e-3)  # a tie is a kink: no derivative for gradcheck to compare
    assert torch.autograd.gradcheck(torch_form, (t,), eps=1e-6, atol=1e-5, rtol=1e-4)
    (expected,) = torch.autograd.grad(torch_form(t), t)
    with ARB.precision(128), box_jet.on_box([(flint.arb(p), flint.arb(0)) for p in point]) as xs:
        result = build(xs)
    result = result[()] if isinstance(result, np.ndarray) else result
    for k, g in enumerate(result.gradient):
        slack = ULPS * float(np.spacing(abs(expected[k].item()))) + 1e-12 * (1 + abs(expected[k].item()))
        low, high = float(g.lower()) - slack, float(g.upper()) + slack
        assert low <= expected[k].item() <= high, f"{name} at {point}: torch's ∂{k} = {expected[k].item()!r}, dual {g}"
