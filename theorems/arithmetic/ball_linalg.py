"""``np.linalg`` on ball arrays: certified enclosures from python-flint's ``arb_mat``/``acb_mat``.

:class:`~theorems.arithmetic.ballarray.BallArray` routes ``np.linalg.norm``, ``eigvalsh``, ``eigvals``, ``det``,
``solve`` and ``inv`` here (NEP 18). Every result is a ball array holding the exact value; a result the
working precision cannot pin down (eigenvalues that cannot be isolated, a matrix not provably invertible)
raises :class:`~theorems.arithmetic.precision.Undecided`, so that the certifier retries at a higher precision;
a form not covered raises :class:`~theorems.arithmetic.precision.NoBallForm`.

>>> from theorems.arithmetic.precision import balls
>>> a = balls(np.array([[3.0, 0.0], [4.0, 0.0]]))
>>> norm(a, 2).arb.contains(5), norm(a, "fro").arb.contains(5), norm(a[:, 0]).arb.contains(5)
(True, True, True)
"""

from __future__ import annotations

import functools

import flint
import mpmath
import numpy as np

from theorems.arithmetic.ball import NoBallForm, Undecided, to_arb, from_arb, ball_spectral_norm
from theorems.errors import unwatched

_DOC = "see docs/soundness.md"


def _entries(matrix) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=object)
    return matrix.view(np.ndarray) if type(matrix) is not np.ndarray else matrix


def _balls(values, shape=None) -> np.ndarray:
    result = np.empty(len(values), dtype=object)
    result[:] = [from_arb(v) for v in values]
    return result.reshape(shape) if shape is not None else result


def _arb_mat(matrix) -> "flint.arb_mat":
    matrix = _entries(matrix)
    if matrix.ndim != 2:
        raise NoBallForm(f"np.linalg on an array of shape {matrix.shape}", "only single matrices (2-D) have a ball form")
    return flint.arb_mat([[to_arb(x) for x in row] for row in matrix])


def _from_arb_mat(matrix: "flint.arb_mat") -> np.ndarray:
    return _balls([x for row in matrix.tolist() for x in row], (matrix.nrows(), matrix.ncols()))


def _hull(low, high):
    return low.union(high)


def _order_statistics(enclosures: list) -> list:
    """The k-th smallest of the exact values, for every k: it lies between the k-th smallest lower end
    and the k-th smallest upper end, without deciding which enclosure is which."""
    lowers = sorted(e.lower() for e in enclosures)  # exact points: arb's comparisons of points are decided
    uppers = sorted(e.upper() for e in enclosures)
    return [_hull(low, high) for low, high in zip(lowers, uppers)]


def _symmetric_eigenvalues(matrix: "flint.arb_mat") -> list:
    """The eigenvalues of a symmetric matrix of balls, ascending: arb's enclosures, or where arb cannot isolate them
    (a repeated eigenvalue of a matrix with radii) :func:`_weyl_eigenvalues`; where arb's enclosure of a cluster is
    far wider than the working precision, the intersection of both (each holds the k-th eigenvalue)."""
    try:
        values = flint.acb_mat(matrix).eig(multiple=True)
    except (ValueError, ZeroDivisionError) as error:
        return _weyl_eigenvalues(matrix, error)
    found = _order_statistics([v.real for v in values])  # a symmetric matrix has real eigenvalues
    loose = flint.arb(2) ** (-(3 * flint.ctx.prec // 4))  # arb's isolated eigenvalues are ~2^-prec wide
    if all(v.rad() <= loose * (1 + abs(v.mid())) for v in found):
        return found
    return [_meet(a, b) for a, b in zip(found, _weyl_eigenvalues(matrix, None))]


def _meet(a, b):
    return a.intersection(b) if a.overlaps(b) else a  # two enclosures of one number overlap (else keep arb's)


def _weyl_eigenvalues(matrix: "flint.arb_mat", error: Exception) -> list:
    """The eigenvalues of every symmetric matrix ``A`` in the balls, ascending, repeated ones included, by two
    inequalities around an approximate orthogonal eigenbasis ``Q`` of the midpoints (mpmath's Jacobi method at the
    working precision; any ``Q`` would do, the bounds are computed in balls): Ostrowski's ``λ_k(QᵀAQ) = θ_k·λ_k(A)``
    with ``θ_k`` between the extreme eigenvalues of ``QᵀQ``, so within ``e ≥ ‖QᵀQ − I‖_F`` of 1; and Weyl's
    ``|λ_k(D + R) − λ_k(D)| ≤ ‖R‖₂ ≤ ‖R‖_F`` for ``QᵀAQ``'s diagonal ``D`` (its k-th smallest between the k-th
    smallest lower and upper ends) and the rest ``R``. Widths: the entries' radii plus the working precision's
    rounding, with no condition on how close the eigenvalues are."""
    entries = [[x for x in row] for row in matrix.tolist()]
    n = len(entries)
    if not all(x.is_finite() for row in entries for x in row):
        raise Undecided(f"eigenvalues not isolated at {flint.ctx.prec} bits ({error or 'entries not finite'})")
    with mpmath.workprec(flint.ctx.prec):
        _, vectors = mpmath.eigsy(mpmath.matrix([[_mpf(x.mid()) for x in row] for row in entries]))
    q = flint.arb_mat([[_arb(vectors[i, j]) for j in range(n)] for i in range(n)])
    rotated, gram = q.transpose() * matrix * q, q.transpose() * q
    e = _frobenius_upper([[gram[i, j] - (i == j) for j in range(n)] for i in range(n)])
    if not e < 1:
        raise Undecided(f"eigenvalues not isolated at {flint.ctx.prec} bits ({error or 'arb: wide'}), and no "
                        "orthogonal basis")
    off = _frobenius_upper([[rotated[i, j] if i != j else 0 for j in range(n)] for i in range(n)])
    diagonal = _order_statistics([rotated[i, i] for i in range(n)])
    return [(d + flint.arb(0, off)) / flint.arb(1, e) for d in diagonal]


def _frobenius_upper(rows) -> "flint.arb":
    """An exact upper bound of the Frobenius norm of every matrix in the balls ``rows``."""
    total = sum((flint.arb(x).abs_upper() ** 2 for row in rows for x in row), flint.arb(0))
    return total.sqrt().upper()


def _mpf(point: "flint.arb") -> "mpmath.mpf":
    mantissa, exponent = point.man_exp()
    return mpmath.mpf((int(mantissa), int(exponent)))


def _arb(value: "mpmath.mpf") -> "flint.arb":
    mantissa, exponent = value.man_exp  # the magnitude's
    signed = -int(mantissa) if value < 0 else int(mantissa)
    return flint.arb(flint.fmpq(signed * 2 ** max(exponent, 0), 2 ** max(-exponent, 0)))


def eigvalsh(a, UPLO="L"):
    """Eigenvalues of the symmetric matrix whose ``UPLO`` triangle is ``a``'s (as numpy), ascending."""
    entries = _entries(a)
    n = entries.shape[0] if entries.ndim == 2 else -1
    if entries.ndim != 2 or entries.shape[1] != n:
        raise NoBallForm(f"np.linalg.eigvalsh of an array of shape {entries.shape}", "only one square matrix")
    pick = (lambda i, j: entries[max(i, j), min(i, j)]) if UPLO == "L" else (lambda i, j: entries[min(i, j), max(i, j)])
    symmetric = flint.arb_mat([[to_arb(pick(i, j)) for j in range(n)] for i in range(n)])
    return _balls(_symmetric_eigenvalues(symmetric))


def eigvals(a):
    """Eigenvalues of a real matrix, when each is certified real: the enclosures are isolated and none
    meets the mirror image of another (a real matrix's eigenvalues come in conjugate pairs)."""
    matrix = _arb_mat(a)
    if matrix.nrows() != matrix.ncols():
        raise NoBallForm("np.linalg.eigvals of a non-square matrix", _DOC)
    try:
        values = flint.acb_mat(matrix).eig()
    except (ValueError, ZeroDivisionError) as error:
        raise Undecided(f"eigenvalues not isolated at {flint.ctx.prec} bits ({error})") from None
    for k, value in enumerate(values):
        if any(other.overlaps(value.conjugate()) for j, other in enumerate(values) if j != k):
            raise NoBallForm("np.linalg.eigvals of a matrix whose eigenvalues are not certified real",
                             "repeated or complex eigenvalues; for a symmetric matrix use np.linalg.eigvalsh")
    return _balls([values[k].real for k in _numpys_order(values, matrix)])


def _numpys_order(enclosures: list, matrix: "flint.arb_mat") -> list[int]:
    """The enclosures' indices in the order numpy's ``eigvals`` lists the eigenvalues of the matrix's midpoints
    (LAPACK's order, not a sorted one, so that ``eigvals(a)[k]`` means on balls what it means in float64): each of
    numpy's eigenvalues takes the nearest enclosure, clearly nearer than any other (at most half as far);
    :class:`NoBallForm` where that is not so, or not one-to-one (eigenvalues closer than float64's error)."""
    midpoints = np.array([[float(x.mid()) for x in row] for row in matrix.tolist()])
    centres = [complex(float(v.real.mid()), float(v.imag.mid())) for v in enclosures]
    order = []
    for w in np.linalg.eigvals(midpoints):
        distances = sorted((abs(centre - w), k) for k, centre in enumerate(centres))
        clear = len(distances) == 1 or 2 * distances[0][0] < distances[1][0]
        order.append(distances[0][1] if clear else -1)
    if sorted(order) != list(range(len(centres))):
        raise NoBallForm("np.linalg.eigvals: numpy's order of the eigenvalues could not be matched to their "
                         "enclosures", "eigenvalues too close for float64 to tell apart")
    return order


def det(a):
    return from_arb(_arb_mat(a).det())


def _checked(operation, name: str):
    try:
        return operation()
    except ZeroDivisionError as error:
        raise Undecided(f"np.linalg.{name}: the matrix is not provably invertible at {flint.ctx.prec} bits "
                        f"({error})") from None


def inv(a):
    return _from_arb_mat(_checked(lambda: _arb_mat(a).inv(), "inv"))


def solve(a, b):
    right = _entries(b)
    column = right.ndim == 1
    solution = _from_arb_mat(_checked(lambda: _arb_mat(a).solve(_arb_mat(right.reshape(-1, 1) if column else right)),
                                      "solve"))
    return solution[:, 0] if column else solution


def _nonnegative_root(total):
    return total.nonnegative_part().sqrt()  # a sum of squares is >= 0 exactly, whatever rounding reached


def _two_norm(values: list, ord=2):
    return _nonnegative_root(sum((x * x for x in values), flint.arb(0)))


def _one_norm(values: list, ord=1):
    return sum((abs(x) for x in values), flint.arb(0))


def _largest_magnitude(values: list, ord=np.inf):
    return functools.reduce(flint.arb.max, (abs(x) for x in values))


def _smallest_magnitude(values: list, ord=-np.inf):
    return functools.reduce(flint.arb.min, (abs(x) for x in values))


def _p_norm(values: list, ord):
    p = flint.arb(ord)
    return sum((abs(x) ** p for x in values), flint.arb(0)) ** (1 / p)


VECTOR_NORMS = {None: _two_norm, 2: _two_norm, 1: _one_norm, np.inf: _largest_magnitude,
                -np.inf: _smallest_magnitude, "p": _p_norm}
"""The ball form of ``np.linalg.norm(vector, ord)`` by ``ord``; ``"p"`` serves every other real ``ord > 0``."""


def _vector_norm(values: list, ord):
    form = VECTOR_NORMS.get(ord) if isinstance(ord, (type(None), int, float, np.integer, np.floating)) else None
    if form is None and isinstance(ord, (int, float, np.integer, np.floating)) and 0 < ord < np.inf:
        form = VECTOR_NORMS["p"]
    if form is None:
        raise NoBallForm(f"np.linalg.norm(ord={ord!r}) of a vector", _DOC)
    return form(values, ord)


def arb_spectral_norm(matrix: "flint.arb_mat"):
    gram = matrix.transpose() * matrix
    try:
        with unwatched():  # caught just below: a fallback of ours, not a side's swallowed decision
            largest = _symmetric_eigenvalues(gram)[-1]
    except Undecided:  # a rigorous, wider enclosure instead (Frobenius and √(‖J‖₁‖J‖∞) above, ‖Jv‖/‖v‖ below)
        return ball_spectral_norm(_from_arb_mat(matrix)).arb
    return _nonnegative_root(largest)


def _frobenius(matrix: "flint.arb_mat"):
    return _two_norm([x for row in matrix.tolist() for x in row])


def _column_sums(matrix: "flint.arb_mat") -> list:
    rows = matrix.tolist()
    return [sum((abs(row[j]) for row in rows), flint.arb(0)) for j in range(matrix.ncols())]


def _row_sums(matrix: "flint.arb_mat") -> list:
    return [sum((abs(x) for x in row), flint.arb(0)) for row in matrix.tolist()]


MATRIX_NORMS = {None: _frobenius, "fro": _frobenius, 2: arb_spectral_norm,
                1: lambda m: functools.reduce(flint.arb.max, _column_sums(m)),
                -1: lambda m: functools.reduce(flint.arb.min, _column_sums(m)),
                np.inf: lambda m: functools.reduce(flint.arb.max, _row_sums(m)),
                -np.inf: lambda m: functools.reduce(flint.arb.min, _row_sums(m))}
"""The ball form of ``np.linalg.norm(matrix, ord)`` by ``ord`` (numpy's other orders, ``'nuc'`` and ``-2``, have none)."""


def _matrix_norm(matrix: "flint.arb_mat", ord):
    form = MATRIX_NORMS.get(ord) if isinstance(ord, (type(None), str, int, float, np.integer, np.floating)) else None
    if form is None:
        raise NoBallForm(f"np.linalg.norm(ord={ord!r}) of a matrix", _DOC)
    return form(matrix)


def norm(x, ord=None, axis=None, keepdims=False):
    """``np.linalg.norm`` in balls: vectors (any ``ord`` > 0, ±∞), matrices (``'fro'``, ±1, 2, ±∞)."""
    array = _entries(x)
    shape = array.shape
    if axis is None:
        if ord is not None and array.ndim not in (1, 2):
            raise NoBallForm(f"np.linalg.norm(ord={ord!r}) of a {array.ndim}-D array", "as numpy: ord needs 1-D or 2-D")
        axis = tuple(range(array.ndim)) if ord is None else (0,) if array.ndim == 1 else (0, 1)
        if ord is None:
            array, axis = array.reshape(-1), (0,)
    axes = (axis,) if np.isscalar(axis) else tuple(axis)
    axes = tuple(a % array.ndim for a in axes)
    rest = [a for a in range(array.ndim) if a not in axes]
    moved = np.transpose(array, rest + list(axes))
    outer = moved.shape[:len(rest)]
    flat = moved.reshape((-1,) + moved.shape[len(rest):])
    if len(axes) == 1:
        values = [_vector_norm([to_arb(v) for v in item], ord) for item in flat]
    elif len(axes) == 2:
        values = [_matrix_norm(_arb_mat(item), ord) for item in flat]
    else:
        raise NoBallForm(f"np.linalg.norm over axes {axis}", "one or two axes only")
    result = _balls(values, outer)
    if keepdims:  # the shape numpy keeps: the array's as given (norm of everything flattens it above)
        result = result.reshape([1] * len(shape) if array.ndim != len(shape) else
                                [1 if a in axes else shape[a] for a in range(len(shape))])
    return result[()] if result.ndim == 0 else result


FUNCTIONS = {np.linalg.norm: norm, np.linalg.eigvalsh: eigvalsh, np.linalg.eigvals: eigvals, np.linalg.det: det,
             np.linalg.inv: inv, np.linalg.solve: solve}
"""The ``np.linalg`` functions with a ball form, keyed by numpy's function."""
