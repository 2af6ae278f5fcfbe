"""The checker's backend ``JET`` beyond elementwise functions — ``norm`` (smooth away from 0, 1-Lipschitz at its
kink), ``spectral_norm`` (Weyl's inequality around a float matrix, a certified top eigenvalue bound), ``max`` (the
sound hull where undecided) and numpy's ``max`` on jet arrays — against their float originals and a 50-digit
reference (``checker_reference.py``); a spectral norm made too narrow fails the same check."""

from types import SimpleNamespace

import numpy as np
import pytest

from checker_reference import check_expression
from theorems.checker import space
from theorems.checker.space import JET, as_jet_array
from theorems.maths.normalisers import sparsemax

WIDE = ([-2.0, -2.0], [2.0, 2.0])


def _jet_space():
    return SimpleNamespace(exp=JET.exp, sqrt=JET.sqrt, abs=JET.abs, number=JET.number,
                           norm=lambda v: JET.norm(np.array(v, dtype=object)),
                           spectral_norm=lambda m: JET.spectral_norm(np.array(m, dtype=object)),
                           max_of=lambda v: JET.max(np.array(v, dtype=object)),
                           array=lambda v: as_jet_array(np.array(v, dtype=object)),
                           sparsemax=lambda v: sparsemax().map(as_jet_array(np.array(v, dtype=object)), JET))


def _matrix(x, y):
    """Symmetric, full rank, no rank-one shortcut (the softmax Jacobian at L = 2 has one)."""
    return [[x * y, x - y, 1], [x - y, y * y, x], [1, x, -x * x]]


EXPRESSIONS = {
    "norm away from 0": lambda xp, x, y: xp.norm([x, y + 3, 1]),
    "norm through 0": lambda xp, x, y: xp.norm([x, y]),
    "norm of one entry": lambda xp, x, y: xp.norm([x - y]),
    "spectral norm": lambda xp, x, y: xp.spectral_norm(_matrix(x, y)),
    "spectral norm of a rank-one matrix": lambda xp, x, y: xp.spectral_norm([[x, -x], [-x, x]]),
    "max of three": lambda xp, x, y: xp.max_of([x, y, x * y]),
    "numpy max of a jet array": lambda xp, x, y: np.max(xp.array([x - y, y - x, 0 * x])),
    "sparsemax without a sort": lambda xp, x, y: xp.sparsemax([x, y, 0 * x])[0],  # a max of affine thresholds
}


@pytest.mark.parametrize("name", EXPRESSIONS)
def test_backend_operation_encloses_values_and_slopes(name):
    check_expression(EXPRESSIONS[name], *WIDE, jet_space=_jet_space())


@pytest.mark.parametrize("part", ["value", "gradient"])
def test_a_spectral_norm_made_too_narrow_is_caught(monkeypatch, part):
    original = space._sigma_one
    if part == "value":
        monkeypatch.setattr(space, "_sigma_one", lambda balls: original([[x.mid() for x in row] for row in balls]))
    else:
        monkeypatch.setattr(space, "_root_sum_squares", lambda values: space.hull_zero(
            sum((v.abs_upper() for v in values), space.flint.arb(0)) / 8))
    with pytest.raises(AssertionError, match="outside"):
        check_expression(EXPRESSIONS["spectral norm"], *WIDE, jet_space=_jet_space(), boxes=24)


def test_a_norm_along_an_axis_is_one_per_row():
    from fractions import Fraction

    from theorems.checker.jet import Box, on_box

    with on_box(Box([Fraction(0)], [Fraction(1)])) as (x,):
        rows = JET.norm(as_jet_array(np.array([[x, 3 + 0 * x], [4 + x, 0 * x]], dtype=object)), axis=-1)
        assert rows.shape == (2,) and float(rows[0].lo) == 3 and float(rows[1].hi) == 5
        assert JET.max(rows).hi == rows[1].hi
