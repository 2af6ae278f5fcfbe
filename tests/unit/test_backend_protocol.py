"""Every backend ``xp`` provides the whole :class:`~theorems.arithmetic.backend.Backend` protocol, and each member computes
what float64 computes: the same quantity two ways (each backend against :data:`F64`) on tiny inputs."""

from __future__ import annotations

import numpy as np
import pytest

from theorems.arithmetic import box_jet
from theorems.arithmetic.interval import IV, intervals
from theorems.arithmetic.backend import MEMBERS, Backend, missing
from theorems.arithmetic.precision import ARB, F64, MP, balls, lift

try:
    import torch
except ImportError:  # a light core install: every backend but TORCH is still checked
    torch = None

VECTOR = np.array([0.25, -0.5, 2.0])
POSITIVE = np.array([0.25, 0.5, 2.0])
MATRIX = np.array([[3.0, 4.0], [1.0, -2.0]])


def _duals(array: np.ndarray) -> np.ndarray:
    """Exact constant duals (no box coordinates) as a dual array."""
    return np.array([box_jet.as_jet(balls(float(x)).arb) for x in array.ravel()],
                    dtype=object).reshape(array.shape).view(box_jet.DualArray)


def _point(number) -> tuple[float, float]:
    return float(number), float(number)


BACKENDS = {  # backend, how a float64 array enters it, the interval one of its numbers stands for
    "float64": (F64, lambda a: a, _point),
    "mpmath": (MP, lift, _point),
    "arb": (ARB, balls, lambda ball: (ball.lower, ball.upper)),
    "dual": (box_jet.DUAL, _duals, lambda d: (float(d.value.lower()), float(d.value.upper()))),
    "interval": (IV, intervals, lambda x: (x.lower, x.upper)),  # the cross-check's second enclosure
}
if torch is not None:
    from theorems.maths.gradient import TORCH

    BACKENDS["torch"] = (TORCH, lambda a: torch.tensor(a, dtype=torch.float64), _point)
LOOSE = {("arb", "spectral_norm")}
"""Enclosures wider than rounding: arb's spectral norm spans a lower and an upper bound (exact for rank one only)."""

CALLS = {  # member: its call on a backend and an input maker
    "number": lambda xp, enter: xp.number(3),
    "exp": lambda xp, enter: xp.exp(enter(VECTOR)),
    "log": lambda xp, enter: xp.log(enter(POSITIVE)),
    "sqrt": lambda xp, enter: xp.sqrt(enter(POSITIVE)),
    "tanh": lambda xp, enter: xp.tanh(enter(VECTOR)),
    "expm1": lambda xp, enter: xp.expm1(enter(VECTOR)),
    "sin": lambda xp, enter: xp.sin(enter(VECTOR)),
    "cos": lambda xp, enter: xp.cos(enter(VECTOR)),
    "abs": lambda xp, enter: xp.abs(enter(VECTOR)),
    "norm": lambda xp, enter: xp.norm(enter(MATRIX)),
    "norm along axis 0": lambda xp, enter: xp.norm(enter(MATRIX), axis=0),
    "max": lambda xp, enter: xp.max(enter(VECTOR)),
    "max along axis -1": lambda xp, enter: xp.max(enter(MATRIX), axis=-1),
    "spectral_norm": lambda xp, enter: xp.spectral_norm(enter(MATRIX)),
}


def _intervals(value, leave) -> tuple[np.ndarray, np.ndarray]:
    if torch is not None and isinstance(value, torch.Tensor):
        value = value.detach().numpy().astype(float)
    low, high = np.vectorize(leave, otypes=[float, float])(np.asarray(value, dtype=object))
    return np.asarray(low, dtype=float), np.asarray(high, dtype=float)


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_the_backend_provides_the_whole_protocol(backend):
    xp = BACKENDS[backend][0]
    assert missing(xp) == [], f"{backend} lacks {missing(xp)}"
    assert isinstance(xp, Backend)
    assert xp.name == backend


@pytest.mark.parametrize("member", sorted(CALLS))
@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_each_member_agrees_with_float64(backend, member):
    xp, enter, leave = BACKENDS[backend]
    with F64.precision():
        expected = np.asarray(CALLS[member](F64, lambda a: a), dtype=float)
    with xp.precision():
        low, high = _intervals(CALLS[member](xp, enter), leave)
    assert low.shape == expected.shape, (low, expected)
    rounding = 1e-12 * np.maximum(1, np.abs(expected))  # float64's own rounding, and a point backend's
    assert np.all(low - rounding <= expected) and np.all(expected <= high + rounding), (low, high, expected)
    width = 0.1 if (backend, member.split(" ")[0]) in LOOSE else 1e-12
    assert np.all(high - low <= width * np.maximum(1, np.abs(expected))), (low, high, expected)


def test_the_calls_cover_every_member_and_the_check_names_what_is_missing():
    covered = {name.split(" ")[0] for name in CALLS} | {"name", "precision"}
    assert covered == set(MEMBERS)
    assert missing(object()) == list(MEMBERS)
    assert not isinstance(object(), Backend)
    partial = type("Partial", (), {name: None for name in MEMBERS if name != "spectral_norm"})()
    assert missing(partial) == ["spectral_norm"] and not isinstance(partial, Backend)


@pytest.mark.skipif(torch is None, reason="torch is not installed (a light core install)")
@pytest.mark.parametrize("member", ["sin", "cos", "norm", "max", "spectral_norm"])
def test_torchs_new_members_stay_differentiable(member):
    """The members TORCH gained are torch operations, so automatic differentiation runs through them: their gradient
    at a point matches a central finite difference of the float64 result."""
    point = torch.tensor(MATRIX, dtype=torch.float64, requires_grad=True)
    value = getattr(TORCH, member)(point).sum()
    (gradient,) = torch.autograd.grad(value, point)
    step = 1e-6
    for index in np.ndindex(MATRIX.shape):
        up, down = MATRIX.copy(), MATRIX.copy()
        up[index] += step
        down[index] -= step
        difference = (np.sum(CALLS[member](F64, lambda a, m=up: m)) - np.sum(CALLS[member](F64, lambda a, m=down: m)))
        assert abs(float(gradient[index]) - difference / (2 * step)) < 1e-6, (member, index)
