"""The differential check of the checker's jets against their float originals (a helper of ``test_checker_*.py``).

For an expression ``f`` of two coordinates, written once against a namespace (numpy for the float original,
mpmath at 50 digits for the reference, the checker's ``JET`` on a box), on random boxes:

- value: the 50-digit value at sampled points of the box lies in the jet's ``[lo, hi]`` (and the float original
  agrees with it to 1e-12, so the jet is tied to the numpy function a side calls);
- centre: ``c`` holds ``f(C)`` and ``d`` holds ``∇f(C)`` (a 50-digit central difference, step 1e-20);
- gradient: ``f(y) − f(x) ∈ Σ_k g_k (y_k − x_k)`` for two sampled points (mean value theorem);
- Hessian: ``f(x) − f(C) − ∇f(C)·(x − C) ∈ ½ (x − C)ᵀ H (x − C)`` (Taylor, Lagrange remainder).
"""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import flint
import mpmath
import numpy as np

from theorems.checker.jet import Box, jet_precision, on_box

mpmath.mp.dps = 50
TOLERANCE = mpmath.mpf("1e-35")  # the reference's own rounding, far below the jets' 96-bit rounding

def _mp_spectral_norm(matrix):
    return max(mpmath.svd_r(mpmath.matrix([[mpmath.mpf(x) for x in row] for row in matrix]), compute_uv=False))


MP = SimpleNamespace(exp=mpmath.exp, expm1=mpmath.expm1, log=mpmath.log, sqrt=mpmath.sqrt, tanh=mpmath.tanh,
                     sin=mpmath.sin, cos=mpmath.cos, abs=abs, max=max, min=min, number=mpmath.mpf,
                     norm=lambda v: mpmath.sqrt(sum(x * x for x in v)), spectral_norm=_mp_spectral_norm,
                     max_of=lambda v: max(v), array=lambda v: v, sparsemax=lambda v: _sparsemax(v, "mp"))
NP = SimpleNamespace(exp=np.exp, expm1=np.expm1, log=np.log, sqrt=np.sqrt, tanh=np.tanh, sin=np.sin, cos=np.cos,
                     abs=np.abs, max=max, min=min, number=float, norm=lambda v: np.linalg.norm(np.array(v, dtype=float)),
                     spectral_norm=lambda m: np.linalg.norm(np.array(m, dtype=float), 2),
                     max_of=lambda v: np.max(np.array(v, dtype=float)), array=lambda v: v,
                     sparsemax=lambda v: _sparsemax(v, "float"))


def _sparsemax(values, kind: str):
    """Sparsemax by its sort-based threshold, in mpmath (50 digits) or float64: the originals of the jets' sort-free one."""
    from theorems.arithmetic.precision import F64, MP as BACKEND
    from theorems.maths.normalisers import sparsemax

    if kind == "float":
        return sparsemax().map(np.array(values, dtype=float), F64)
    with mpmath.workdps(50):
        return sparsemax().map(np.array(values, dtype=object), BACKEND)


def mp_of(ball_end) -> mpmath.mpf:
    """An exact arb number (an end of a ball) as an mpf."""
    man, exp = ball_end.mid().man_exp()
    return mpmath.mpf(int(man)) * mpmath.mpf(2) ** int(exp)


def inside(value, low, high, what: str) -> None:
    assert mp_of(low) - TOLERANCE <= value <= mp_of(high) + TOLERANCE, \
        f"{what}: {mpmath.nstr(value, 20)} outside [{mpmath.nstr(mp_of(low), 20)}, {mpmath.nstr(mp_of(high), 20)}]"


def in_ball(value, ball, what: str) -> None:
    inside(value, ball.lower(), ball.upper(), what)


def random_box(rng, lows, highs):
    """A random sub-box of ``[lows, highs]`` (float endpoints, so exact dyadic rationals) of random width, touching
    the domain's edge one time in four (where ``abs``, ``sqrt`` and ``max`` have their kinks)."""
    corners = []
    for lo, hi in zip(lows, highs):
        width = (hi - lo) * 10.0 ** rng.uniform(-4, 0)
        start = lo if rng.uniform() < 0.25 else rng.uniform(lo, hi - width)
        corners.append((Fraction(start), Fraction(start + width)))
    return [a for a, _ in corners], [b for _, b in corners]


def check_expression(expression, lows, highs, *, boxes=12, points=4, seed=0, jet_space=None):
    """Run the four checks above for ``expression(xp, x, y)`` on random boxes of ``[lows, highs]``."""
    with jet_precision():  # the ends of the checker's balls are read at its own precision
        _check_expression(expression, lows, highs, boxes=boxes, points=points, seed=seed, jet_space=jet_space)


def _check_expression(expression, lows, highs, *, boxes, points, seed, jet_space):
    from theorems.checker.space import JET

    jet_space = jet_space or JET
    rng = np.random.default_rng(seed)
    for _ in range(boxes):
        low, high = random_box(rng, lows, highs)
        box = Box(low, high)
        with on_box(box) as coordinates:
            f = expression(jet_space, *coordinates)
        centre = [mp_of(c.lower()) if c.is_exact() else None for c in box.centre]
        at_centre = expression(MP, *centre)
        in_ball(at_centre, f.c, "f(C) in c")
        for k in range(len(low)):
            step = mpmath.mpf("1e-20")
            shifted = [[x + step * (j == k) * s for j, x in enumerate(centre)] for s in (1, -1)]
            slope = (expression(MP, *shifted[0]) - expression(MP, *shifted[1])) / (2 * step)
            inside(slope, f.d[k].lower() - flint.arb("1e-15"), f.d[k].upper() + flint.arb("1e-15"), f"∂_{k} f(C) in d")
        samples = [[mpmath.mpf(float(a + (b - a) * Fraction(rng.uniform(0, 1)))) for a, b in zip(low, high)]
                   for _ in range(points)] + [[mpmath.mpf(float(a)) for a in low], [mpmath.mpf(float(b)) for b in high]]
        values = [expression(MP, *x) for x in samples]
        for x, value in zip(samples, values):
            inside(value, f.lo, f.hi, "f(x) in [lo, hi]")
            in_ball(value, f.v, "f(x) in v")
            original = float(expression(NP, *[float(t) for t in x]))
            assert abs(original - float(value)) <= 1e-12 * max(1.0, abs(float(value))), (original, value)
            if f.H is not None:
                h = [t - c for t, c in zip(x, centre)]
                linear = sum(mp_of(d.mid()) * hk for d, hk in zip(f.d, h))
                ball = _quadratic(f, box, h)
                remainder = value - at_centre - linear
                radius = sum(abs(mp_of(d.rad().upper())) * abs(hk) for d, hk in zip(f.d, h)) + TOLERANCE
                assert mp_of(ball.lower()) - radius <= remainder <= mp_of(ball.upper()) + radius, \
                    f"Taylor remainder {mpmath.nstr(remainder, 15)} outside {ball}"
        for x, y, fx, fy in zip(samples, samples[1:], values, values[1:]):
            change = sum((g * flint.arb(mpmath.nstr(b - a, 40)) for g, a, b in zip(f.g, x, y)), flint.arb(0))
            in_ball(fy - fx, change + flint.arb(0, 1e-30), "f(y) − f(x) in g·(y − x)")


def _quadratic(f, box, h):
    """``½ Σ_kl H_kl h_k h_l`` as a ball, ``h`` the point's offsets."""
    total = flint.arb(0)
    hb = [flint.arb(mpmath.nstr(t, 40)) for t in h]
    for p, (k, m) in enumerate(box.pairs):
        total += f.H[p] * hb[k] * hb[m] * (flint.arb(1) / 2 if k == m else 1)
    return total
