"""The Jacobian ``∂α/∂l`` of an attention normaliser, three independent ways.

1. Closed form (Lemma 2 of the paper): for ``α_i = F(l_i)/S``, ``S = Σ_j F(l_j)``,
   ``∂α_i/∂l_k = δ_ik F'_i/S − F_i F'_k/S²`` (:func:`normaliser_jacobian`); for softmax with
   temperature ``T`` this is ``(diag α − ααᵀ)/T`` (:func:`softmax_jacobian`, batched).
2. Automatic differentiation in float64 with ``torch.func.jacrev`` (:func:`jacobian_autograd`).
3. SymPy for small ``L`` (:func:`sympy_jacobian`), used by ``tests/symbolic``.

>>> import numpy as np
>>> from theorems.maths.normalisers import softmax
>>> l = np.array([0.3, -1.0, 2.0])
>>> closed = softmax_jacobian(l, temperature=0.5)
>>> bool(np.allclose(closed, normaliser_jacobian(softmax(temperature=0.5), l)))
True
>>> bool(np.allclose(closed, jacobian_autograd(softmax(temperature=0.5), l)))
True
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from types import SimpleNamespace

import numpy as np

from theorems.arithmetic.precision import F64
from theorems.arithmetic.tensors import is_torch
from theorems.arithmetic.validation import (check_callable, check_integer, check_logits, check_mask, check_scale,
                                            check_temperature)
from theorems.errors import InvalidArgument, InvalidArgumentType
from theorems.maths.normalisers import Normaliser

def _torch():
    """torch, imported on first use: the statements and the engine must not need it (a light core install)."""
    try:
        import torch
    except ImportError as error:
        raise ImportError("automatic differentiation needs torch, which the light core install leaves out: "
                          "pip install 'attention-normalisation-limits[models]'") from error
    return torch


@functools.cache
def _torch_backend() -> SimpleNamespace:
    """The :class:`~theorems.arithmetic.backend.Backend` of float64 torch tensors: every member is a torch operation,
    so that automatic differentiation runs through all of them."""
    torch = _torch()
    as_tensor = functools.partial(torch.as_tensor, dtype=torch.float64)
    return SimpleNamespace(
        name="torch", exp=torch.exp, log=torch.log, sqrt=torch.sqrt, tanh=torch.tanh, expm1=torch.expm1,
        sin=torch.sin, cos=torch.cos, abs=torch.abs, pi=np.pi,
        number=lambda value: torch.as_tensor(float(value), dtype=torch.float64),
        norm=lambda vector, axis=-1: torch.linalg.vector_norm(as_tensor(vector), dim=axis),
        max=lambda values, axis=None: torch.amax(as_tensor(values), dim=() if axis is None else axis),
        spectral_norm=lambda matrix: torch.linalg.matrix_norm(as_tensor(matrix), ord=2),
        precision=contextlib.nullcontext,  # float64 throughout, like F64
    )


def __getattr__(name: str):
    # ``TORCH``: a float64 torch backend with every member of the Backend protocol (theorems.arithmetic.backend), like
    # :data:`theorems.arithmetic.precision.F64`, so that a normaliser's ``F`` written against ``xp`` can be
    # differentiated by torch; built lazily so that importing this module does not import torch.
    if name == "TORCH":
        return _torch_backend()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _as_numpy(array) -> tuple[np.ndarray, bool]:
    """``(float64 numpy array, was_torch)``: every public function returns the kind it was given."""
    if is_torch(array):
        torch = _torch()
        return array.detach().to(torch.float64).cpu().numpy(), True
    return array, False


def _back(array: np.ndarray, was_torch: bool):
    return _torch().from_numpy(np.ascontiguousarray(array)) if was_torch else array


def softmax_weights(logits, *, temperature: float, mask=None) -> np.ndarray:
    """``softmax(l/T)`` along the last axis, masked keys (``mask`` False) get weight 0.  ``[..., L]``

    >>> softmax_weights(np.zeros(2), temperature=1.0).tolist()
    [0.5, 0.5]
    """
    check_temperature(temperature)
    logits = check_logits(_as_numpy(logits)[0], allow_object=False)
    check_scale(logits, temperature)
    scaled = logits
    if mask is not None:
        mask = check_mask(mask, scaled.shape, of="the logits", every_row=True)
    return _softmax_weights(logits, temperature=temperature, mask=mask)


def _softmax_weights(logits: np.ndarray, *, temperature: float, mask=None) -> np.ndarray:
    """:func:`softmax_weights` on arguments already checked (the loops over temperatures call this)."""
    scaled = logits / temperature  # [..., L]
    if mask is not None:
        scaled = np.where(mask, scaled, -np.inf)
    shifted = scaled - np.max(scaled, axis=-1, keepdims=True)  # max is finite: every row has a valid key
    weights = np.exp(shifted)
    return weights / np.sum(weights, axis=-1, keepdims=True)


def softmax_jacobian(logits, *, temperature: float):
    """``(diag α − ααᵀ)/T`` with ``α = softmax(l/T)``: ``[..., L] -> [..., L, L]``; numpy or torch.

    >>> softmax_jacobian(np.zeros(2), temperature=1.0).tolist()
    [[0.25, -0.25], [-0.25, 0.25]]
    """
    check_temperature(temperature)
    array, was_torch = _as_numpy(logits)
    array = check_logits(array, allow_object=False)
    alpha = softmax_weights(array, temperature=temperature)  # [..., L]
    eye = np.eye(alpha.shape[-1])  # [L, L]
    jacobian = (alpha[..., :, None] * eye - alpha[..., :, None] * alpha[..., None, :]) / temperature  # [..., L, L]
    return _back(jacobian, was_torch)


def normaliser_jacobian(normaliser: Normaliser, logits, *, xp=F64):
    """Lemma 2's closed form ``δ_ik F'_i/S − F_i F'_k/S²`` for a general-form normaliser: ``[L] -> [L, L]``.

    Works in float64 (``xp=F64``) and in mpmath (``xp=MP`` with lifted logits). ``F`` is evaluated
    unshifted, so it must be finite: for softmax with extreme ``l/T`` use :func:`softmax_jacobian`.

    >>> from theorems.maths.normalisers import exp_sine
    >>> normaliser_jacobian(exp_sine(c=1.0), np.zeros(2)).tolist()
    [[0.25, -0.25], [-0.25, 0.25]]
    """
    if not isinstance(normaliser, Normaliser) or not normaliser.general_form or normaliser.dF is None:
        raise InvalidArgument(f"normaliser={normaliser!r} must be a general-form Normaliser with F and dF "
                         "(sparsemax/entmax/sigmoid have no F; use jacobian_autograd)")
    l = check_logits(logits)
    if l.ndim != 1:
        raise InvalidArgument(f"logits must be one vector [L], got shape {l.shape}")
    length = l.shape[-1]
    F, dF = normaliser.F(l, length, xp), normaliser.dF(l, length, xp)  # [L], [L]
    S = np.sum(F)
    alpha, slope = F / S, dF / S  # [L], [L]: dividing before multiplying keeps S² from overflowing
    eye = np.eye(length, dtype=float if xp is F64 else object)
    return eye * slope[:, None] - np.outer(alpha, slope)  # [L, L]


def torch_function(normaliser: Normaliser) -> Callable:
    """A torch float64 function computing the same weights, for automatic differentiation.

    General-form normalisers (``exp-sine`` among them) are rebuilt from their ``F`` evaluated with :data:`TORCH`
    (an independent route from the closed form, which uses ``dF``). Sigmoid attention has no ``F`` and is written
    directly. Others (sparsemax, entmax, softpick, relu) are only piecewise differentiable: pass your own torch
    function instead.
    """
    if not isinstance(normaliser, Normaliser):
        raise InvalidArgumentType(f"normaliser={normaliser!r} must be a Normaliser (theorems.maths.normalisers), "
                        f"not {type(normaliser).__name__}")
    torch = _torch()
    if normaliser.name == "sigmoid(-log L)":
        return lambda l: torch.sigmoid(l - np.log(l.shape[-1]))
    if normaliser.general_form:
        return lambda l: _normalise_torch(normaliser.F(l, l.shape[-1], _torch_backend()))
    raise InvalidArgument(f"normaliser={normaliser!r} has no smooth torch form here; pass a torch function instead")


def _normalise_torch(weights):
    return weights / weights.sum(dim=-1, keepdim=True)


def jacobian_autograd(normaliser_or_fn, logits):
    """``∂α/∂l`` by ``torch.func.jacrev`` in float64: ``[L] -> [L, L]``; numpy in, numpy out.

    >>> import torch
    >>> jacobian_autograd(lambda l: torch.softmax(l, -1), np.zeros(2)).tolist()
    [[0.25, -0.25], [-0.25, 0.25]]
    """
    function = torch_function(normaliser_or_fn) if isinstance(normaliser_or_fn, Normaliser) else normaliser_or_fn
    if not callable(function):
        raise InvalidArgumentType(f"normaliser_or_fn must be a Normaliser or a torch function, not {type(function).__name__}")
    array, was_torch = _as_numpy(logits)
    array = check_logits(array, allow_object=False)
    if array.ndim != 1:
        raise InvalidArgument(f"logits must be one vector [L], got shape {array.shape}")
    torch = _torch()
    point = torch.tensor(array, dtype=torch.float64)
    weights = function(point)
    if not is_torch(weights) or tuple(weights.shape) != tuple(point.shape):
        shape = tuple(weights.shape) if is_torch(weights) else type(weights).__name__
        raise InvalidArgument(f"normaliser_or_fn must map logits [L] to weights [L] (a torch tensor of shape "
                         f"{tuple(point.shape)}), got {shape}: its Jacobian would not be [L, L]")
    jacobian = torch.func.jacrev(function)(point)  # [L, L]
    return jacobian if was_torch else jacobian.detach().numpy()


def sympy_jacobian(F, length: int):
    """SymPy's ``∂α_i/∂l_k`` for ``α_i = F(l_i)/Σ_j F(l_j)`` with symbols ``l_1..l_L``.

    ``F`` maps a SymPy expression to a SymPy expression. Returns ``(symbols, Jacobian matrix)``.

    >>> import sympy
    >>> symbols, J = sympy_jacobian(sympy.exp, 2)
    >>> sympy.simplify(J[0, 0] - J[0, 1] * -1)
    0
    """
    import sympy

    check_callable(F, name="F")
    check_integer(length, name="length")
    symbols = sympy.symbols(f"l1:{length + 1}", real=True)
    values = [F(s) for s in symbols]
    total = sum(values)
    weights = sympy.Matrix([v / total for v in values])
    return symbols, weights.jacobian(sympy.Matrix(symbols))
