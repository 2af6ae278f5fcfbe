"""np.linalg on ball arrays encloses what mpmath computes at 60 digits, on small random matrices."""

import mpmath
import numpy as np
import pytest

from theorems.arithmetic.precision import ARB, NoBallForm, balls

RNG = np.random.default_rng(19)
MATRICES = [RNG.normal(size=(n, n)) for n in (1, 2, 3, 4)]


def _contains(ball, exact) -> bool:
    # the ball's float bounds (rounded outward) hold the double nearest the exact value, and the ball is narrow
    return ball.lower <= float(exact) <= ball.upper and float(ball.arb.rad()) < 1e-12


@pytest.mark.parametrize("a", MATRICES, ids=lambda a: f"{len(a)}x{len(a)}")
def test_symmetric_eigenvalues_spectral_norm_det_inv_solve(a):
    symmetric = a + a.T
    with mpmath.workdps(60), ARB.precision(128):
        exact = sorted(mpmath.eigsy(mpmath.matrix(symmetric.tolist()))[0])
        assert all(_contains(b, e) for b, e in zip(np.linalg.eigvalsh(balls(symmetric)), exact))
        singular = mpmath.svd_r(mpmath.matrix(a.tolist()), compute_uv=False)
        assert _contains(np.linalg.norm(balls(a), 2), max(singular))
        assert _contains(np.linalg.det(balls(a)), mpmath.det(mpmath.matrix(a.tolist())))
        inverse = mpmath.inverse(mpmath.matrix(a.tolist()))
        got = np.linalg.inv(balls(a))
        assert all(_contains(got[i, j], inverse[i, j]) for i in range(len(a)) for j in range(len(a)))
        b = RNG.normal(size=len(a))
        solution = mpmath.lu_solve(mpmath.matrix(a.tolist()), mpmath.matrix(b.tolist()))
        assert all(_contains(x, solution[i]) for i, x in enumerate(np.linalg.solve(balls(a), balls(b))))


@pytest.mark.parametrize("ord", [None, 1, 2, np.inf, -np.inf, 3])
def test_vector_norms(ord):
    v = RNG.normal(size=5)
    assert _contains(np.linalg.norm(balls(v), ord), np.linalg.norm(v, ord))


@pytest.mark.parametrize("ord", [None, "fro", 1, -1, np.inf, -np.inf])
def test_matrix_norms(ord):
    a = MATRICES[3]
    assert _contains(np.linalg.norm(balls(a), ord), np.linalg.norm(a, ord))


def test_repeated_eigenvalues_are_enclosed():
    with ARB.precision(128):
        values = np.linalg.eigvalsh(balls(np.eye(3)))
    assert all(v.arb.contains(1) for v in values)


@pytest.mark.parametrize("call", [lambda m: np.linalg.svd(m), lambda m: np.linalg.qr(m),
                                  lambda m: np.linalg.norm(m, "nuc"), lambda m: np.linalg.pinv(m)])
def test_functions_without_ball_form_say_so(call):
    with pytest.raises(NoBallForm, match="np.linalg"):
        call(balls(MATRICES[2]))
