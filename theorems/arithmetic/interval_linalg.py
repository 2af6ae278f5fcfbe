"""``np.linalg`` on intervals: norms, eigenvalues of symmetric matrices, singular values, ``det``, ``solve``, ``inv``,
written apart from the ball forms (:mod:`theorems.arithmetic.ball_linalg`) for the second enclosure of
:mod:`theorems.arithmetic.interval`.

Eigenvalues of a symmetric matrix ``S`` come from an approximate eigenbasis ``V`` of its midpoints (mpmath's Jacobi
method at the working precision up to :data:`MPMATH_BASIS` rows, LAPACK's beyond: any basis would do, a closer one
gives tighter intervals) and two inequalities, so repeated eigenvalues need no isolation: ``B = VᵀSV`` (in intervals) is its diagonal ``D`` plus
``F`` with ``‖F‖₂ ≤ ‖F‖_F = f``, so by Weyl ``λ_k(B) ∈ [d_(k) − f, d_(k) + f]``; and by Ostrowski
``λ_k(VᵀSV) = θ_k λ_k(S)`` with ``θ_k`` between the extreme eigenvalues of ``VᵀV = I + G``, inside
``[1 − ‖G‖_F, 1 + ‖G‖_F]``. ``det``, ``solve`` and ``inv`` are Gaussian elimination in intervals (pivots chosen by
the midpoints' sizes: any choice is exact in theory; a pivot that may be 0 gives an unbounded result, no wrong one).

Every function takes ``number`` (keyword), the converter of numbers to intervals, and ``maximum``, the interval of
the larger of two, from its caller (:class:`~theorems.arithmetic.interval.IntervalArray`).

>>> from theorems.arithmetic.interval import Interval, maximum, intervals
>>> values = eigvalsh(intervals(np.array([[2.0, 1.0], [1.0, 2.0]])), number=Interval.of, maximum=maximum)
>>> values[0].contains(1), values[1].contains(3), values[1].upper - values[1].lower < 1e-14
(True, True, True)
"""

from __future__ import annotations

import functools

import mpmath
import numpy as np

from theorems.errors import TheoremsError

MPMATH_BASIS = 24
"""Up to this many rows, the eigenbasis is mpmath's (at the intervals' precision: eigenvalue intervals as narrow as
that precision); above, LAPACK's (intervals about ``1e-16·‖S‖`` wide), which is faster."""


class Declined(TheoremsError, ArithmeticError):
    """No interval form for this call (raised as the caller's ``NoEnclosure`` by the array's dispatch)."""


def _matrix(a, number) -> np.ndarray:
    """``a`` as an object array of intervals (a plain ndarray: numpy's object loops on the intervals' operators)."""
    array = np.asarray(a, dtype=object)
    return np.vectorize(number, otypes=[object])(array) if array.size else array


def _midpoints(matrix) -> np.ndarray:
    return np.vectorize(lambda x: x.midpoint(), otypes=[float])(matrix)


def _sum_of_squares(values, number):
    return functools.reduce(lambda total, x: total + x.square(), list(np.ravel(values)), number(0))


def _basis(symmetric) -> np.ndarray:
    """An approximate orthonormal eigenbasis of the midpoints of ``symmetric`` (a matrix of intervals)."""
    n = symmetric.shape[0]
    if n > MPMATH_BASIS:
        return np.linalg.eigh(_midpoints(symmetric))[1]
    bits = mpmath.iv.prec
    with mpmath.workprec(bits):
        centre = mpmath.matrix([[mpmath.mp.make_mpf(x.raw_ends()[0]) for x in row] for row in symmetric])
        _, vectors = mpmath.eigsy(centre)
        return np.array([[vectors[i, j] for j in range(n)] for i in range(n)], dtype=object)


def _hull_max(values, maximum):
    values = list(np.ravel(values))
    return functools.reduce(maximum, values[1:], values[0])


def _stacked(function, a, *, core: int = 2):
    """``function`` on each matrix of a stack (numpy's ``(..., n, n)``)."""
    if a.ndim == core:
        return function(a)
    results = [function(a[at]) for at in np.ndindex(a.shape[:-core])]
    first = np.asarray(results[0], dtype=object)
    out = np.empty(a.shape[:-core] + first.shape, dtype=object)
    for at, result in zip(np.ndindex(a.shape[:-core]), results):
        out[at] = result
    return out


def eigvalsh(a, UPLO="L", *, number, maximum):  # noqa: N803 - numpy's argument name
    """The eigenvalues of a symmetric matrix (from its ``UPLO`` triangle, as numpy reads it), ascending."""
    a = _matrix(a, number)
    return _stacked(lambda m: _symmetric_eigenvalues(m, UPLO, number), a)


def _symmetric_eigenvalues(matrix, uplo: str, number):
    n = matrix.shape[0]
    if matrix.shape != (n, n):
        raise Declined(f"eigvalsh of a {matrix.shape} matrix")
    lower = np.tril(np.ones((n, n), dtype=bool)) if uplo.upper() == "L" else np.triu(np.ones((n, n), dtype=bool))
    symmetric = np.where(lower, matrix, matrix.T)
    if not all(x.is_finite() for x in symmetric.flat):
        raise Declined("eigvalsh of an unbounded matrix")
    v = _matrix(_basis(symmetric), number)
    b = v.T @ symmetric @ v
    gram = v.T @ v - _matrix(np.eye(n), number)
    spread = _sum_of_squares(gram, number).sqrt()
    if not spread.upper < 1:
        raise Declined("eigvalsh: float64's eigenbasis is not close enough to orthonormal")
    diagonal = np.array([b[k, k].centre() for k in range(n)], dtype=object)
    off = _sum_of_squares(b - np.diag(diagonal), number).sqrt()
    theta = (1 - spread).hull(1 + spread)
    ordered = sorted(diagonal, key=lambda x: x.midpoint())  # exact points: their order is their midpoints'
    return np.array([(d - off).hull(d + off) / theta for d in ordered], dtype=object)


def svd(a, full_matrices=True, compute_uv=True, hermitian=False, *, number, maximum):
    """Singular values only (``compute_uv=False``): the square roots of ``AᵀA``'s eigenvalues, descending."""
    if compute_uv:
        raise Declined("np.linalg.svd with compute_uv=True (the singular vectors)")
    a = _matrix(a, number)
    return _stacked(lambda m: _singular_values(m, number, maximum), a)


def _singular_values(matrix, number, maximum):
    gram = matrix.T @ matrix if matrix.shape[0] >= matrix.shape[1] else matrix @ matrix.T
    values = _symmetric_eigenvalues(gram, "L", number)
    return np.array([maximum(x, number(0)).sqrt() for x in values[::-1]], dtype=object)


def norm(x, ord=None, axis=None, keepdims=False, *, number, maximum):  # noqa: A002 - numpy's argument name
    """``np.linalg.norm``: vector norms (``ord`` None, 2, 1, ±inf, 0, any p > 0) and matrix norms (``'fro'``,
    ``'nuc'``, ±1, ±2, ±inf)."""
    x = _matrix(x, number)
    if axis is None:
        axes = tuple(range(x.ndim)) if ord is None or x.ndim <= 2 else None
        if axes is None or x.ndim > 2:
            raise Declined(f"np.linalg.norm of a {x.ndim}-d array with ord={ord!r} and no axis")
        if ord is None:
            result = _sum_of_squares(x, number).sqrt()
            return np.full((1,) * x.ndim, result, dtype=object) if keepdims else result
        axis = axes[0] if x.ndim == 1 else axes
    axes = (axis,) if np.isscalar(axis) else tuple(axis)
    axes = tuple(a % x.ndim for a in axes)
    moved = np.moveaxis(x, axes, tuple(range(x.ndim - len(axes), x.ndim)))
    core = len(axes)
    function = (lambda v: _vector_norm(v, ord, number, maximum)) if core == 1 else (
        lambda m: _matrix_norm(m, ord, number, maximum))
    result = _stacked(function, moved, core=core)
    if keepdims:
        result = np.expand_dims(np.asarray(result, dtype=object), axes)
    return result


def _vector_norm(v, ord, number, maximum):  # noqa: A002
    magnitudes = [abs(x) for x in v]
    if ord is None or ord == 2:
        return _sum_of_squares(v, number).sqrt()
    if ord == np.inf:
        return _hull_max(magnitudes, maximum)
    if ord == -np.inf:
        return -_hull_max([-m for m in magnitudes], maximum)
    if ord == 1:
        return functools.reduce(lambda s, m: s + m, magnitudes, number(0))
    if ord == 0:
        return number(sum(1 for x in v if x != 0))
    if isinstance(ord, (int, float, np.integer, np.floating)) and ord > 0:
        total = functools.reduce(lambda s, m: s + m ** number(ord), magnitudes, number(0))
        return total ** (number(1) / number(ord))
    raise Declined(f"np.linalg.norm of a vector with ord={ord!r}")


def _matrix_norm(m, ord, number, maximum):  # noqa: A002
    if ord is None or ord == "fro":
        return _sum_of_squares(m, number).sqrt()
    magnitudes = np.vectorize(abs, otypes=[object])(m)
    if ord in (1, -1, np.inf, -np.inf):
        lines = magnitudes.T if ord in (1, -1) else magnitudes  # 1: column sums; inf: row sums
        sums = [functools.reduce(lambda s, t: s + t, list(line), number(0)) for line in lines]
        largest = ord in (1, np.inf)
        return _hull_max(sums, maximum) if largest else -_hull_max([-s for s in sums], maximum)
    if ord in (2, -2, "nuc"):
        values = _singular_values(m, number, maximum)
        if ord == "nuc":
            return functools.reduce(lambda s, t: s + t, list(values), number(0))
        return values[0] if ord == 2 else values[-1]
    raise Declined(f"np.linalg.norm of a matrix with ord={ord!r}")


def _eliminate(a, b):
    """Gaussian elimination of ``a`` (n × n) with right-hand sides ``b`` (n × k): ``(upper, b', sign)``."""
    a, b = a.copy(), b.copy()
    n, sign = a.shape[0], 1
    for k in range(n):
        pivot = k + int(np.argmax([abs(a[i, k].midpoint()) for i in range(k, n)]))
        if pivot != k:
            a[[k, pivot]], b[[k, pivot]], sign = a[[pivot, k]], b[[pivot, k]], -sign
        for i in range(k + 1, n):
            factor = a[i, k] / a[k, k]
            a[i, k:] = a[i, k:] - factor * a[k, k:]
            b[i] = b[i] - factor * b[k]
    return a, b, sign


def det(a, *, number, maximum):
    """The determinant, by elimination."""
    a = _matrix(a, number)
    return _stacked(lambda m: _determinant(m, number), a)


def _determinant(m, number):
    if m.shape[0] != m.shape[1]:
        raise Declined(f"det of a {m.shape} matrix")
    upper, _, sign = _eliminate(m, np.empty((m.shape[0], 0), dtype=object))
    return functools.reduce(lambda p, u: p * u, [upper[k, k] for k in range(m.shape[0])], number(sign))


def solve(a, b, *, number, maximum):
    """``x`` with ``a @ x = b`` for one square ``a`` and ``b`` of shape ``(n,)`` or ``(n, k)``."""
    a, b = _matrix(a, number), _matrix(b, number)
    if a.ndim != 2 or a.shape[0] != a.shape[1] or b.ndim not in (1, 2) or b.shape[0] != a.shape[0]:
        raise Declined(f"np.linalg.solve of shapes {a.shape}, {b.shape}")
    vector = b.ndim == 1
    upper, rhs, _ = _eliminate(a, b.reshape(a.shape[0], -1))
    n = a.shape[0]
    x = np.empty_like(rhs)
    for i in range(n - 1, -1, -1):
        known = functools.reduce(lambda s, j: s + upper[i, j] * x[j], range(i + 1, n), number(0) * rhs[i])
        x[i] = (rhs[i] - known) / upper[i, i]
    return x.ravel() if vector else x


def inv(a, *, number, maximum):
    """The inverse, by :func:`solve` against the identity."""
    a = _matrix(a, number)
    return _stacked(lambda m: solve(m, np.eye(m.shape[0]), number=number, maximum=maximum), a)


def matrix_norm(x, /, *, keepdims=False, ord="fro", number, maximum):  # noqa: A002
    return norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims, number=number, maximum=maximum)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2, number, maximum):  # noqa: A002
    x = _matrix(x, number)
    if axis is None:
        x, axis = x.ravel(), 0
    return norm(x, ord=ord, axis=axis, keepdims=keepdims, number=number, maximum=maximum)


FUNCTIONS = {"norm": norm, "eigvalsh": eigvalsh, "svd": svd, "det": det, "solve": solve, "inv": inv,
             "matrix_norm": matrix_norm, "vector_norm": vector_norm}
"""``np.linalg``'s functions with an interval form, by name."""
