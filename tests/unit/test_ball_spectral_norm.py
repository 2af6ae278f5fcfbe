"""The ball spectral norm encloses the true largest singular value, also where floats underflow or an
entry's ball straddles 0 (where a plain ``arb.sqrt`` of a sum of squares gives ``nan``)."""
import flint
import mpmath
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from theorems.arithmetic.precision import ARB, to_arb, from_arb, working_bits, balls
from theorems.statements.gradient import corollary3


def _encloses(ball, exact) -> bool:
    """The ball is finite and meets a 40-digit enclosure of ``exact``."""
    enclosure, truth = to_arb(ball), flint.arb(mpmath.nstr(exact, 40))
    return bool(enclosure.is_finite()) and enclosure.lower() <= truth.upper() and truth.lower() <= enclosure.upper()


@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 4)),
              elements=st.floats(-1e3, 1e3, allow_nan=False, allow_subnormal=False)))
def test_encloses_the_largest_singular_value(matrix):
    with working_bits(128), mpmath.workdps(40):
        exact = max(mpmath.svd_r(mpmath.matrix(matrix.tolist()), compute_uv=False)) if matrix.any() else 0
        assert _encloses(ARB.spectral_norm(balls(matrix)), exact)


def test_finite_where_an_entry_straddles_zero_and_floats_underflow():
    instance = {"logits": np.array([0.0, 1.0]), "T": 0.001}
    with working_bits(128), mpmath.workdps(600):
        norm = corollary3._spectral(balls(instance), ARB)  # J = α₀α₁/T · [[1, -1], [-1, 1]], α₀ ≈ e^-1000
        a0 = mpmath.exp(-1000) / (1 + mpmath.exp(-1000))
        exact = 2 * a0 * (1 - a0) / mpmath.mpf("0.001")
        assert _encloses(norm, exact)


def test_largest_column_and_row_sums_are_sound_below_float_range():
    tiny = [[from_arb(flint.arb("1e-400")), from_arb(flint.arb("3e-400"))],
            [from_arb(flint.arb("2e-400")), from_arb(flint.arb("1e-400"))]]
    with working_bits(128), mpmath.workdps(40):
        exact = max(mpmath.svd_r(mpmath.matrix([[1, 3], [2, 1]]), compute_uv=False)) * mpmath.mpf("1e-400")
        assert _encloses(ARB.spectral_norm(np.array(tiny, dtype=object)), exact)
