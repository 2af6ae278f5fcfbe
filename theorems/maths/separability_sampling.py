"""A seeded sampler of Assumptions 1–2: i.i.d. uniform points on ``S^{d−1}(M)``, at least ``δ`` apart.

Assumption 1 is drawn by :func:`theorems.maths.spherical.uniform_sphere` (Gaussian, normalised);
Assumption 2 by rejection: whole configurations are drawn in batches ``[B, L, d]`` and the ones
whose minimum pairwise distance is below ``δ`` are discarded, so the accepted configurations are
exactly Assumption 1 conditioned on Assumption 2. The acceptance rate is reported: it is the
probability of Assumption 2 under Assumption 1. Impossible requests fail at once (``δ`` above the
largest minimum distance ``L`` points of the sphere can have), nearly impossible ones after
``max_draws`` configurations without enough acceptances.

``law`` breaks Assumption 1 on purpose, for necessity probes: ``"clustered"`` (i.i.d., but
concentrated in a cap around the first axis) and ``"antithetic"`` (uniform marginals, but
``x_{2k+1} = −x_{2k}``: not independent).

>>> x, rate = sample_sphere(length=4, dim=3, radius=2.0, min_distance=1.0, seed=0)
>>> x.shape, bool(np.allclose(np.linalg.norm(x, axis=-1), 2.0)), 0 < rate <= 1
((4, 3), True, True)
"""

from __future__ import annotations

import numpy as np

from theorems.arithmetic.validation import check_choice, check_integer, check_number, check_positive, check_seed, check_work
from theorems.errors import InvalidArgument
from theorems.maths.spherical import min_pairwise_distances, uniform_sphere

LAWS = ("uniform", "clustered", "antithetic")


def max_min_distance(*, length: int, dim: int, radius: float) -> float:
    """An upper bound on the least pairwise distance of ``length`` points of ``S^{dim−1}(radius)``.

    Exact for ``dim ≤ 2`` and for ``length ≤ dim + 1`` (the regular simplex,
    ``δ² ≤ 2M²·L/(L − 1)`` from ``‖Σ x_i‖² ≥ 0``); Rankin's bound ``√2·M`` when ``length ≥ dim + 2``.

    >>> round(max_min_distance(length=3, dim=2, radius=1.0), 6)
    1.732051
    """
    check_integer(length, name="length")
    check_integer(dim, name="dim")
    check_positive(radius, name="radius")
    if length < 2:
        return float("inf")
    if dim == 1:
        return 2.0 * radius if length == 2 else 0.0
    if dim == 2:
        return float(2.0 * radius * np.sin(np.pi / length))
    if length <= dim + 1:
        return float(radius * np.sqrt(2.0 * length / (length - 1)))
    return float(np.sqrt(2.0) * radius)


def _draw(rng, count, length, dim, radius, law):
    """``[count, length, dim]`` configurations under ``law`` (uniform = Assumption 1)."""
    x = uniform_sphere(rng, length=count * length, dim=dim, radius=radius).reshape(count, length, dim)
    if law == "clustered":
        # a cap around e_1: i.i.d. but not uniform (the Gaussian is shifted before normalising)
        shifted = x / radius + 2.0 * np.eye(dim)[0]
        x = radius * shifted / np.linalg.norm(shifted, axis=-1, keepdims=True)
    elif law == "antithetic":
        x[:, 1::2] = -x[:, 0:length - length % 2:2]                       # pairs (x_{2k}, −x_{2k})
    return x


def _validate(samples, length, dim, radius, min_distance, law):
    for name, value in (("samples", samples), ("length", length), ("dim", dim)):
        check_integer(value, name=name)
    check_positive(radius, name="radius")
    check_positive(min_distance, name="min_distance", strict=False)
    check_choice(law, name="law", choices=LAWS)
    check_work(samples * length * dim, what=f"x [samples={samples}, length={length}, dim={dim}]",
               way_out="lower samples, length or dim")
    bound = max_min_distance(length=length, dim=dim, radius=radius)
    if min_distance > bound * (1 + 1e-9):  # rounding: a computed 2M can exceed 2M by an ulp
        raise InvalidArgument(f"min_distance={min_distance!r} is infeasible: {length} points of the sphere of radius "
                         f"{radius!r} in dimension {dim} are at most {bound:.6g} apart (Assumption 2 cannot hold)")


def sample_configurations(*, samples: int, length: int, dim: int, radius: float, min_distance: float | None = 0.0,
                          seed: int, law: str = "uniform", max_draws: int = 2_000_000) -> tuple[np.ndarray, float]:
    """``(x [samples, length, dim], acceptance_rate)``: Assumption 1 conditioned on Assumption 2.

    Configurations are drawn in batches sized from the acceptance rate seen so far; a loop over
    batches (not over points) until ``samples`` are accepted or ``max_draws`` configurations were
    drawn, then a ``ValueError`` saying the condition is nearly infeasible.

    >>> x, rate = sample_configurations(samples=100, length=3, dim=2, radius=1.0, min_distance=0.0, seed=1)
    >>> x.shape, rate
    ((100, 3, 2), 1.0)
    """
    min_distance = 0.0 if min_distance is None else min_distance
    _validate(samples, length, dim, radius, min_distance, law)
    check_seed(seed)
    check_integer(max_draws, name="max_draws")
    rng = np.random.default_rng(seed)
    kept, accepted, drawn = [], 0, 0
    while accepted < samples:
        if drawn >= max_draws:
            raise InvalidArgument(
                f"min_distance={min_distance!r} is nearly infeasible for length={length}, dim={dim}, radius={radius!r}: "
                f"{accepted} of {drawn} configurations accepted (acceptance rate {accepted / drawn:.2e}); "
                f"lower min_distance or raise max_draws")
        rate = max(accepted / drawn, 1e-3) if drawn else 1.0
        # memory: a batch holds [B, L, d] points and [B, L, L] distances; keep them near 16 MB
        cap = max(64, 2_000_000 // (length * (length + dim)))
        batch = int(min(max_draws - drawn, cap, max(64, 1.2 * (samples - accepted) / rate)))
        x = _draw(rng, batch, length, dim, radius, law)                  # [B, L, d]
        if min_distance > 0:
            x = x[min_pairwise_distances(x) >= min_distance]
        kept.append(x)
        accepted += len(x)
        drawn += batch
    x = np.concatenate(kept)[:samples]
    # the rate counts every configuration drawn, including the surplus of the last batch
    return x, accepted / drawn


def sample_sphere(*, length: int, dim: int, radius: float, min_distance: float | None = None, seed: int,
                  max_attempts: int = 100_000) -> tuple[np.ndarray, float]:
    """``(x [length, dim], acceptance_rate)``: one configuration of Assumptions 1–2, from ``seed``.

    >>> x, rate = sample_sphere(length=2, dim=1, radius=1.0, min_distance=2.0, seed=0)
    >>> sorted(x.ravel().tolist())
    [-1.0, 1.0]
    """
    check_integer(max_attempts, name="max_attempts")
    x, rate = sample_configurations(samples=1, length=length, dim=dim, radius=radius, min_distance=min_distance,
                                    seed=seed, max_draws=max_attempts)
    return x[0], rate


def pilot_min_distance(*, quantile: float, length: int, dim: int, radius: float, seed: int,
                       samples: int = 500, law: str = "uniform") -> float:
    """The ``quantile`` of the minimum pairwise distance of ``length`` uniform points (a seeded pilot).

    Choosing ``δ`` as the ``(1 − a)``-quantile makes Assumption 2 accept a fraction ``≈ a`` of draws:
    the strategies use it so that every drawn ``δ`` is feasible and cheap to condition on.
    """
    check_number(quantile, name="quantile", min_value=0, max_value=1)
    x, _ = sample_configurations(samples=samples, length=length, dim=dim, radius=radius, seed=seed, law=law)
    return float(np.quantile(min_pairwise_distances(x), quantile, method="inverted_cdf"))
