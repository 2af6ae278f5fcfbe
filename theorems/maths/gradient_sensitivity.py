"""Gradient sensitivity of softmax attention: exact Jacobian norms, the finite-difference ``g(T, ε)``
of the paper's Algorithm 5, the proven suprema and the Fig. 4 claim checks (the figure:
``theorems.figures.gradient``).

Everything is vectorised over leading axes (heads, queries, ...); the only Python loop is over the
temperature grid, which bounds memory to one ``[..., L]`` (or ``[..., n_ε, L]``) array at a time.

Proven suprema over all logits (see ``docs/gradient.md``), with ``J = (diag α − ααᵀ)/T``:
spectral and Frobenius ``1/(2T)``, row ``√2/(4T)``, entry ``1/(4T)``, and
``g(T, ε) ≤ (√2/ε)·tanh(ε/(2√2·T)) ≤ min{1/(2T), √2/ε}``.

>>> import numpy as np
>>> norms = softmax_jacobian_norms(np.zeros(2), np.array([1.0, 10.0]))
>>> norms["spectral"].tolist(), norms["entry"].tolist()
([0.5, 0.05], [0.25, 0.025])

Regenerate the figures: ``python -m theorems.figures.gradient --out docs/figures``.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from theorems.arithmetic.validation import (check_array, check_integer, check_logits, check_mask,
                                            check_positive, check_scale, check_seed, check_shape, check_temperatures,
                                            check_weights, check_work)
from theorems.errors import InvalidArgument, InvalidArgumentType
from theorems.maths import secular
from theorems.maths.corollary3_bounds import finite_difference_bound, half_over_t
from theorems.maths.gradient import _as_numpy, _back, _softmax_weights

DIRECTION_SALT = 0x5E
"""Salt of the random directions' seed stream (see :func:`random_directions`)."""


def _grid(values, *, name: str) -> np.ndarray:
    """A grid ``[n]`` of finite, normal, positive numbers (temperatures or epsilons)."""
    values, _ = _as_numpy(values)
    grid = np.atleast_1d(check_temperatures(values, name=name))
    if grid.ndim != 1:
        raise InvalidArgument(f"{name} must be a number or a 1-d grid, got shape {grid.shape}")
    return grid


def _mask(mask, shape) -> np.ndarray | None:
    return None if mask is None else check_mask(mask, shape, of="the logits", every_row=True)


def largest_eigenvalue(alpha: np.ndarray) -> np.ndarray:
    """``λ_max(diag α − ααᵀ)`` for weights ``α [..., L]`` summing to one (zeros allowed), without
    forming the matrix, to full relative precision.

    The rank-one downdate's top eigenvalue lies between the two largest weights ``a_2 ≤ λ ≤ a_1``
    (interlacing) and solves ``Σ_k α_k²/(α_k − λ) = 1``; since ``Σ α_k = 1`` this is
    ``λ·Σ_k α_k/(α_k − λ) = 0``, whose sum increases in ``λ`` on ``(a_2, a_1)`` and avoids the
    cancellation of ``1 − a_1`` for near one-hot rows. Geometric bisection gives relative accuracy
    (``λ`` may be ``1e-200``); ``λ = 0`` exactly when ``a_2 = 0``.

    >>> float(largest_eigenvalue(np.array([0.5, 0.5, 0.0])))
    0.5

    ``alpha`` must lie on the simplex (:func:`theorems.arithmetic.validation.check_weights`): the secular
    equation above uses ``Σ α_k = 1``, and any other vector would get a wrong eigenvalue.
    """
    return secular.bisection(check_weights(_as_numpy(alpha)[0], opt_out=False))


def _norms_at(alpha: np.ndarray, temperature: float) -> dict[str, np.ndarray]:
    """Exact norms of ``(diag α − ααᵀ)/T`` from the weights ``α [..., L]``: each ``[...]``.

    Row ``i`` of ``diag α − ααᵀ`` has norm ``α_i·√(r_i² + q_i)`` with ``r_i = Σ_{j≠i} α_j`` and
    ``q_i = Σ_{j≠i} α_j²``; both are summed directly for the largest weight (``1 − α_i`` and
    ``Σα² − α_i²`` would cancel when ``α_i ≈ 1``) and by difference for the others (no cancellation:
    ``α_i ≤ 1/2`` there). Frobenius² is the sum of the squared row norms.
    """
    top_at = np.argmax(alpha, axis=-1)[..., None]  # [..., 1]
    top = np.take_along_axis(alpha, top_at, axis=-1)  # [..., 1]
    squares = alpha * alpha  # [..., L]
    s2 = np.sum(squares, axis=-1, keepdims=True)  # [..., 1]
    others = alpha.copy()
    np.put_along_axis(others, top_at, 0.0, axis=-1)  # [..., L] the weights but the largest
    r_top = np.sum(others, axis=-1, keepdims=True)  # [..., 1]
    second = np.max(others, axis=-1, keepdims=True)
    # scale q by the second weight for the top row: the squares of weights below 1e-154 underflow
    unit = np.where(second > 0, second, 1.0)  # [..., 1]
    others /= unit
    others *= others
    q_top = np.sum(others, axis=-1, keepdims=True)  # [..., 1]
    r = 1 - alpha  # [..., L] the other rows' r (fixed for the top row below)
    weighted = alpha * r
    np.put_along_axis(weighted, top_at, top * r_top, axis=-1)
    entry = np.maximum(np.max(weighted, axis=-1), (top * second)[..., 0])
    q = np.subtract(s2, squares, out=squares)
    np.maximum(q, 0.0, out=q)
    r *= r
    q += r
    rows = np.multiply(alpha, np.sqrt(q, out=q), out=q)  # [..., L] α_i·√(r_i² + q_i)
    np.put_along_axis(rows, top_at, top * unit * np.sqrt((r_top / unit) ** 2 + q_top), axis=-1)
    biggest = np.max(rows, axis=-1, keepdims=True)
    largest_row = biggest[..., 0]
    rows /= np.where(biggest > 0, biggest, 1.0)
    rows *= rows
    frobenius = largest_row * np.sqrt(np.sum(rows, axis=-1))
    return {
        # the fast solver (largest_eigenvalue is its reference), given the two largest weights found above
        "spectral": secular.newton(alpha, top_two=(top[..., 0], second[..., 0])) / temperature,
        "frobenius": frobenius / temperature,
        "row": largest_row / temperature,
        "entry": entry / temperature,
    }


def softmax_jacobian_norms(logits, temperatures, *, mask=None) -> dict:
    """Exact spectral, Frobenius, largest-row and largest-entry norms of ``(diag α − ααᵀ)/T``.

    ``logits [..., L]``, ``temperatures [n_T]`` -> dict of ``[..., n_T]`` arrays (numpy or torch,
    as given). Masked keys (``mask`` False) are left out, so ``L`` is each row's valid count.
    """
    array, was_torch = _as_numpy(logits)
    array = check_logits(array, allow_object=False)
    grid = _grid(temperatures, name="temperatures")
    check_scale(array, float(grid.min()))
    mask = _mask(mask, array.shape)
    per_t = [_norms_at(_softmax_weights(array, temperature=float(t), mask=mask), float(t)) for t in grid]
    return {key: _back(np.stack([n[key] for n in per_t], axis=-1), was_torch) for key in per_t[0]}


def random_directions(shape, *, seed: int = 0, mask=None) -> np.ndarray:
    """Unit vectors ``v [..., L]`` (Gaussian, normalised over the valid keys), drawn from ``seed``.

    The stream is salted (``SeedSequence([seed, DIRECTION_SALT])``): with a plain
    ``default_rng(seed)``, logits drawn from the same seed would make ``v`` parallel to ``l``, a mere
    change of temperature, and ``g`` would collapse.
    """
    shape = check_shape(shape)
    rng = np.random.default_rng(np.random.SeedSequence([check_seed(seed), DIRECTION_SALT]))
    if mask is not None:
        mask = _mask(mask, shape)
    v = rng.standard_normal(shape)  # [..., L]
    if mask is not None:
        v = np.where(mask, v, 0.0)
    norm = np.linalg.norm(v, axis=-1, keepdims=True)
    return v / np.where(norm > 0, norm, 1.0)


def finite_difference_sensitivity(logits, temperatures, epsilons, *, seed: int = 0, mask=None):
    """Algorithm 5's ``g(T, ε) = ‖softmax((l + εv)/T) − softmax(l/T)‖₂ / ε`` per row.

    ``logits [..., L]`` -> ``g [..., n_T, n_ε]``; one random unit ``v`` per row from ``seed``, shared
    by every ``T`` and ``ε`` (as in the paper's pseudocode).

    >>> g = finite_difference_sensitivity(np.zeros(2), [1.0], [1e-6])
    >>> round(float(g[0, 0]) * 2, 6) <= 1.0
    True
    """
    array, was_torch = _as_numpy(logits)
    array = check_logits(array, allow_object=False)
    t_grid, e_grid = _grid(temperatures, name="temperatures"), _grid(epsilons, name="epsilons")
    check_seed(seed)
    check_scale(np.abs(array) + float(e_grid.max()), float(t_grid.min()))  # the moved logits l + εv, |v| <= 1
    mask = _mask(mask, array.shape)
    v = random_directions(array.shape, seed=seed, mask=mask)  # [..., L]
    moved = array[..., None, :] + e_grid[:, None] * v[..., None, :]  # [..., n_ε, L]
    moved_mask = None if mask is None else mask[..., None, :]
    out = []
    for t in t_grid:
        base = _softmax_weights(array, temperature=float(t), mask=mask)[..., None, :]  # [..., 1, L]
        shifted = _softmax_weights(moved, temperature=float(t), mask=moved_mask)  # [..., n_ε, L]
        out.append(np.linalg.norm(shifted - base, axis=-1) / e_grid)  # [..., n_ε]
    return _back(np.stack(out, axis=-2), was_torch)  # [..., n_T, n_ε]


def sup_spectral(temperature):
    """``sup_l ‖J‖₂ = sup_l ‖J‖_F = 1/(2T)`` (two weights 1/2)."""
    return half_over_t(check_temperatures(temperature, name="temperature"))


def sup_finite_difference(temperature, epsilon):
    """``sup_{l, ‖v‖=1} g(T, ε) = (√2/ε)·tanh(ε/(2√2·T))``, attained at ``L = 2``, equal logits."""
    t = check_temperatures(temperature, name="temperature")
    e = check_temperatures(epsilon, name="epsilon")
    return finite_difference_bound(t, e)


def paper_curve(temperature):
    """The paper's dashed curve ``min{1/(4T), √2}``."""
    return np.minimum(1 / (4 * check_temperatures(temperature, name="temperature")), np.sqrt(2))


@dataclasses.dataclass(frozen=True)
class Sensitivity:
    """Algorithm 5's output: token means per head; :meth:`curves` takes the maximum over heads."""

    temperatures: np.ndarray  # [n_T]
    epsilons: np.ndarray  # [n_ε]
    g: np.ndarray  # [H, n_T, n_ε], mean over tokens
    spectral: np.ndarray  # [H, n_T], mean over tokens of the exact ‖J‖₂

    def curves(self) -> tuple[np.ndarray, np.ndarray]:
        """``(g [n_T, n_ε], spectral [n_T])``: maximum over heads of the token means."""
        return self.g.max(axis=0), self.spectral.max(axis=0)


def algorithm5(logits, *, temperatures, epsilons=(1e-3, 1e-1, 10.0), seed: int = 0, mask=None) -> Sensitivity:
    """The paper's Algorithm 5 on logits ``[H, Q, L]`` (heads, query tokens, keys).

    ``mask [Q, L]`` or ``[H, Q, L]`` (True = key visible), e.g. :func:`causal_mask`.

    >>> result = algorithm5(synthetic_logits(heads=2, queries=3, length=4, seed=0), temperatures=[0.1, 1.0])
    >>> result.g.shape, result.spectral.shape
    ((2, 2, 3), (2, 2))
    """
    array, _ = _as_numpy(logits)
    array = check_array(array, name="logits", ndim=3)
    check_seed(seed)
    g = finite_difference_sensitivity(array, temperatures, epsilons, seed=seed, mask=mask)  # [H, Q, n_T, n_ε]
    spectral = softmax_jacobian_norms(array, temperatures, mask=mask)["spectral"]  # [H, Q, n_T]
    return Sensitivity(_grid(temperatures, name="temperatures"), _grid(epsilons, name="epsilons"),
                       g.mean(axis=1), spectral.mean(axis=1))


def synthetic_logits(*, heads: int, queries: int, length: int, scale: float = 2.0, seed: int = 0) -> np.ndarray:
    """Gaussian logits ``[heads, queries, length]`` with standard deviation ``scale``, from ``seed``."""
    for name, value in (("heads", heads), ("queries", queries), ("length", length)):
        check_integer(value, name=name)
    check_positive(scale, name="scale")
    check_seed(seed)
    check_work(heads * queries * length, what=f"logits [heads={heads}, queries={queries}, length={length}]",
               way_out="lower heads, queries or length")
    return scale * np.random.default_rng(seed).standard_normal((heads, queries, length))


def causal_mask(queries: int, length: int) -> np.ndarray:
    """``[queries, length]`` boolean: query ``t`` sees the first ``length − queries + t + 1`` keys."""
    length = check_integer(length, name="length")
    queries = check_integer(queries, name="queries", max_value=length)
    check_work(queries * length, what=f"mask [queries={queries}, length={length}]", way_out="lower length")
    return np.arange(length)[None, :] <= np.arange(length - queries, length)[:, None]


def _check_result(result) -> None:
    if not isinstance(result, Sensitivity):
        raise InvalidArgumentType(f"result must be the Sensitivity that algorithm5 returns, not {type(result).__name__}")


def fig4_claims(result: Sensitivity) -> dict:
    """Check the paper's Fig. 4 claims on ``result``.

    ``slope_below_0.1``: the least-squares slope of ``log g`` against ``log T`` for ``T < 0.1``
    per ``ε`` (the claim "``g`` follows ``1/T``" means slope ``−1``); ``spread_above_1``: the largest
    ``max_ε g / min_ε g`` over ``T ≥ 1`` (the claim "the curves coincide" means a ratio near 1);
    ``coincide_within_5%_from_T``: the smallest grid ``T`` from which that ratio stays below 1.05.
    """
    _check_result(result)
    g, _ = result.curves()
    t = result.temperatures
    small, large = t < 0.1, t >= 1
    slopes = [float(np.polyfit(np.log(t[small]), np.log(g[small, k]), 1)[0]) if small.sum() > 1 else float("nan")
              for k in range(len(result.epsilons))]
    ratio = g.max(axis=1) / g.min(axis=1)  # [n_T]
    spread = float(np.max(ratio[large])) if large.any() else float("nan")
    apart = np.nonzero(ratio > 1.05)[0]  # grid points where the ε curves differ by more than 5%
    if not len(apart):
        coincide = float(t[0])
    else:  # nan when they still differ at the largest T of the grid
        coincide = float(t[apart[-1] + 1]) if apart[-1] + 1 < len(t) else float("nan")
    return {"slope_below_0.1": dict(zip(result.epsilons.tolist(), slopes)), "spread_above_1": spread,
            "coincide_within_5%_from_T": coincide}
