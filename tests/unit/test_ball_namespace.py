"""A side evaluated on balls reaches the ball forms of ``np.linalg`` and ``scipy.special`` however it bound their names
(``theorems.arithmetic.ball_namespace``): by ``from ... import`` at the top of its module, a module alias, an
attribute, a closure, a default value, a helper function, a partial, a bound method, a callable object, an import
inside the function; on anything without balls the original runs, and nothing in numpy or scipy is replaced."""

import functools
import subprocess
import sys
import textwrap

import flint
import mpmath
import numpy as np
import numpy.linalg as la
import pytest
import scipy.special
import scipy.special as sp
from numpy.linalg import eigvalsh
from scipy.special import log_softmax, logsumexp

from theorems.arithmetic.ball_namespace import on_balls, resolve, substitute
from theorems.arithmetic.precision import ARB, F64, Ball, NoBallForm, balls

L = np.array([0.0, 1.0, -2.0])


def _holds_lse(ball) -> bool:
    """Whether ``ball`` is a tight ball of ``log(e^0 + e^1 + e^-2)`` (at the working precision)."""
    exact = (1 + flint.arb(1).exp() + flint.arb(-2).exp()).log()
    return isinstance(ball, Ball) and ball.arb.overlaps(exact) and ball.arb.rad() < 1e-30


def _first_log_softmax(x):
    return log_softmax(x)[0]  # a helper of this module: the substitution follows the side into it


def _through_helper(x):
    return -_first_log_softmax(x)


def _recursive(x, depth=2):
    return -log_softmax(x)[0] if depth == 0 else _recursive(x, depth - 1)


class _Bound:
    def value(self, x):
        return logsumexp(x)

    def __call__(self, x):
        return sp.logsumexp(x)


def _closure():
    lse = scipy.special.logsumexp
    return lambda x: lse(x)


def _with_default(x, lse=logsumexp):
    return lse(x)


def _importing_inside(x):
    from scipy.special import logsumexp as inner

    return inner(x)


COUNTER = 0


def _assigning_a_global(x):
    global COUNTER
    COUNTER += 1
    return np.sum(x)


_THIS = sys.modules[__name__]  # a module of the project, reached as an attribute: helpers.kl(...)

SIDES = {
    "a name from scipy.special": lambda x: logsumexp(x),
    "a module alias": lambda x: sp.logsumexp(x),
    "an attribute of scipy.special": lambda x: scipy.special.logsumexp(x),
    "a helper function": _through_helper,
    "a function calling itself": _recursive,
    "a closure": _closure(),
    "a default value": _with_default,
    "a partial": functools.partial(_with_default, lse=logsumexp),
    "a bound method": _Bound().value,
    "a callable object": _Bound(),
    "an import inside the function": _importing_inside,
    "a helper of a module reached as an attribute": lambda x: -_THIS._first_log_softmax(x),
}


@pytest.mark.parametrize("how", sorted(SIDES))
def test_every_binding_reaches_the_ball_form(how):
    side = SIDES[how]
    with ARB.precision(128):
        assert _holds_lse(on_balls(side)(balls(L))), how
        with pytest.raises(Exception):  # noqa: B017 - scipy's own code does not run on balls: the form is needed
            value = side(balls(L))
            assert _holds_lse(value)
    assert float(on_balls(side)(L)) == pytest.approx(float(logsumexp(L)), rel=1e-15)  # floats: scipy's own


def test_np_linalg_on_a_plain_object_array_of_balls():
    """``np.array([[1, a], [a, 1]])`` is a plain object array: NEP 18 does not reach it, the side's names do."""
    a = balls(0.5)
    for side in (lambda: np.linalg.eigvalsh(np.array([[1.0, a], [a, 1.0]])),
                 lambda: la.eigvalsh(np.array([[1.0, a], [a, 1.0]])),
                 lambda: eigvalsh(np.array([[1.0, a], [a, 1.0]]))):
        with ARB.precision(128):
            low, high = on_balls(side)()
        assert low.arb.contains(flint.arb("0.5")) and high.arb.contains(flint.arb("1.5"))
    with pytest.raises(NoBallForm, match="np.linalg.svd"):
        on_balls(lambda: np.linalg.svd(np.array([[1.0, a], [a, 1.0]])))()


def test_a_function_that_assigns_a_global_runs_as_written():
    assert on_balls(_assigning_a_global) is _assigning_a_global
    before = COUNTER
    on_balls(_assigning_a_global)(balls(L))
    assert COUNTER == before + 1


def test_a_copy_is_made_once_and_sees_later_rebindings():
    side = SIDES["a name from scipy.special"]
    assert on_balls(side) is on_balls(side) and on_balls(side) is not side
    global _REBOUND
    _REBOUND = np.sum
    copy = on_balls(lambda x: _REBOUND(x))
    with ARB.precision(128):
        assert copy(balls(L)).arb.contains(-1)
        _REBOUND = logsumexp
        assert _holds_lse(copy(balls(L)))  # the module's globals are read at each lookup


_REBOUND = np.sum


def test_library_code_and_the_forms_themselves_are_not_copied():
    assert resolve(np.mean) is np.mean and resolve(functools.reduce) is functools.reduce
    assert resolve(np.linalg.norm) is substitute(np.linalg.norm) is not np.linalg.norm
    assert resolve(np.linalg) is not np.linalg and resolve(np.linalg).norm is substitute(np.linalg.norm)
    assert resolve(np.exp) is np.exp  # a ufunc: numpy's own protocol reaches the ball array's form
    assert resolve(functools) is functools and resolve(mpmath) is mpmath  # modules that are not the project's


def test_without_balls_the_originals_run_unchanged():
    # bitwise: the same function of numpy or scipy on the same floats, called through the dispatching form
    matrix = np.array([[2.0, 1.0], [1.0, 3.0]])
    assert substitute(np.linalg.norm)(matrix, 2) == np.linalg.norm(matrix, 2)
    assert np.array_equal(substitute(scipy.special.softmax)(L), scipy.special.softmax(L))
    assert substitute(scipy.special.xlogy)(2.0, 3.0) == scipy.special.xlogy(2.0, 3.0)


def test_a_statements_side_resolves_on_balls_only():
    from hypothesis import strategies as st

    from theorems import Statement

    function = SIDES["a name from scipy.special"]
    statement = Statement(id="my.lse", title="t", paper_ref="-", reading="-", formula="f",
                          lhs=lambda i, xp: function(i["l"]), rhs=lambda i, xp: function(i["l"]), relation="<=",
                          instances=st.just({"l": L}), expected="holds", reason="r")
    with ARB.precision(128):
        assert _holds_lse(statement.lhs(balls({"l": L}), ARB))
    assert float(statement.lhs({"l": L}, F64)) == float(logsumexp(L))
    rhs = statement.rhs
    assert statement.rhs == rhs and hash(statement.rhs) == hash(rhs) and statement == statement


NOTHING_REPLACED = textwrap.dedent('''
    import types
    import numpy as np, numpy.linalg, scipy, scipy.special
    modules = (np, np.linalg, scipy, scipy.special)
    before = [dict(vars(m)) for m in modules]
    import theorems, strategies
    from theorems import check, STATEMENTS
    from theorems.arithmetic import ball_forms, ball_namespace
    from theorems.arithmetic.precision import ARB, balls
    from scipy.special import log_softmax
    with ARB.precision(128):  # evaluate the forms once: nothing is installed lazily either
        ball_namespace.on_balls(lambda x: (log_softmax(x), np.linalg.norm(np.outer(x, x), 2)))(balls(np.ones(2)))
    ball_forms.forms()
    changed = [(m.__name__, k) for m, old in zip(modules, before) for k, v in vars(m).items()
               if (k in old and old[k] is not v) or (k not in old and not isinstance(v, types.ModuleType))]
    print("changed:", changed)
''')


def test_importing_the_package_replaces_nothing_in_numpy_or_scipy():
    """In a fresh interpreter: every attribute of numpy, np.linalg, scipy and scipy.special is the one they had
    before ``theorems`` and ``strategies`` were imported and the ball forms ran (new submodules aside)."""
    run = subprocess.run([sys.executable, "-c", NOTHING_REPLACED], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "changed: []" in run.stdout, run.stdout


def _self_calling():
    def side(x, depth=3):
        return logsumexp(x) if depth == 0 else side(x, depth - 1)  # its closure holds itself

    return side


def test_copies_made_by_threads_at_once_are_whole():
    """A copy is cached before its closure is filled (it holds itself); no other thread may take it half made."""
    import concurrent.futures

    def evaluate(side):
        with ARB.precision(128):
            return _holds_lse(on_balls(side)(balls(L)))

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        for _ in range(20):
            side = _self_calling()
            assert all(pool.map(evaluate, [side] * 8))
