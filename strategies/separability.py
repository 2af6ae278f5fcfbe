"""Instances of Theorem 2: fixed weights ``α``, a top-``N``, a radius ``r``, a sphere ``S^{d−1}(M)``, a ``δ``.

The embeddings are not drawn by Hypothesis: an instance carries a ``seed`` and the Monte Carlo
estimate draws ``x`` from it, so an instance is small, shrinks well (toward ``L = 2``, ``N = 1``,
``d = 1``) and its estimate is a deterministic function of it. ``δ`` is drawn through the
acceptance rate ``a`` it leaves to Assumption 2: it is the ``(1 − a)``-quantile of the minimum
pairwise distance of ``L`` uniform points (a seeded pilot), so every drawn ``δ`` is feasible and
cheap to condition on, and ``a → 0.2`` pushes ``δ`` toward its largest feasible values.

>>> from strategies import separability_instances
>>> i = separability_instances(max_length=4).example()
>>> sorted(i) == ['M', 'alpha', 'conditioned', 'delta', 'dim', 'law', 'n', 'r', 'seed']
True
"""

from __future__ import annotations

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from strategies.logits import lengths, log_uniform, logits
from strategies.sizes import top_n_sizes
from strategies.arguments import validated_strategy
from theorems.arithmetic.validation import check_choice, check_integer, check_number
from theorems.errors import InvalidArgument, InvalidArgumentType

LAWS = ("uniform", "clustered", "antithetic")


@st.composite
def _instances(draw, max_length, max_dim, assumption2, law, conditioned, max_radius, min_acceptance):
    from theorems.maths.separability_sampling import pilot_min_distance

    length = draw(lengths(max_length=max_length))
    n = draw(top_n_sizes(length))
    dim = draw(st.integers(1, max_dim))
    M = draw(log_uniform(min_value=0.1, max_value=10.0))
    # softmax of bounded logits of every adversarial shape: flat, peaked, tied attention
    l = draw(logits(bound=4.0, min_length=length, max_length=length))
    alpha = np.exp(l - l.max())
    alpha = alpha / alpha.sum()
    # r over decades (the lower bound is tight for r ~ ξ/2 ≪ M), and the largest radius often: there
    # the upper bound is least informative
    r = M * draw(st.one_of(log_uniform(min_value=0.01, max_value=max_radius), st.just(max_radius)))
    seed = draw(st.integers(0, 2**16))
    delta = 0.0
    if not conditioned:
        # nothing is conditioned on, so δ may go up to the largest feasible value (the simplex)
        from theorems.maths.separability_sampling import max_min_distance
        if length >= 3 and draw(st.booleans()):
            # the regular simplex (L = d + 1, δ at its largest): where ξ_i is smallest against ‖s − α_i x_i‖
            dim, fraction = length - 1, 1.0
        else:
            fraction = draw(st.floats(0.0, 1.0))
        delta = fraction * min(max_min_distance(length=length, dim=dim, radius=M), 2 * M)
    elif assumption2:
        acceptance = draw(st.floats(min_acceptance, 1.0))
        delta = pilot_min_distance(quantile=1.0 - acceptance, length=length, dim=dim, radius=M, seed=seed + 1,
                                   law=law)
    if not conditioned:
        assume(delta > 0)  # a probe of Assumption 2 must have a δ to break
    delta = min(delta, 2 * M)  # a computed distance of antipodal points can exceed 2M by an ulp
    return {"alpha": alpha, "n": n, "r": float(r), "M": float(M), "dim": dim, "delta": float(delta),
            "seed": seed, "law": law, "conditioned": conditioned}


@validated_strategy
def separability_instances(*, max_length: int = 8, max_dim: int = 6, assumption2: bool = True,
                           law: str = "uniform", conditioned: bool = True, max_radius: float = 2.0,
                           min_acceptance: float = 0.2) -> st.SearchStrategy[dict]:
    """Dicts ``{alpha [L], n, r, M, dim, delta, seed, law, conditioned}`` for Theorem 2.

    ``assumption2=False`` sets ``δ = 0`` (Assumption 1 alone). ``conditioned=False`` keeps a
    ``δ > 0`` (up to the simplex bound) in the bound but draws ``x`` without conditioning on it
    (Assumption 2 broken);
    ``law`` other than ``"uniform"`` breaks Assumption 1 (see :mod:`theorems.maths.separability_sampling`).
    ``r`` is drawn log-uniformly in ``[0.01·M, max_radius·M]``, and at ``max_radius·M`` itself often.
    """
    lengths(max_length=max_length)
    check_integer(max_dim, name="max_dim")
    check_choice(law, name="law", choices=LAWS)
    check_number(max_radius, name="max_radius", min_value=0.01, exclude_min=True)
    check_number(min_acceptance, name="min_acceptance", min_value=0, max_value=1, exclude_min=True)
    for name, value in (("assumption2", assumption2), ("conditioned", conditioned)):
        if not isinstance(value, bool):
            raise InvalidArgumentType(f"{name}={value!r} must be True or False")
    if not conditioned and not assumption2:
        raise InvalidArgument("conditioned=False breaks Assumption 2, which needs assumption2=True")
    return _instances(max_length, max_dim, assumption2, law, conditioned, float(max_radius), float(min_acceptance))
