"""Ball arrays: numpy's and scipy's everyday functions on balls, soundly, or a :class:`NoBallForm` error.

:func:`~theorems.arithmetic.precision.balls` turns an instance's float arrays into :class:`BallArray` views
of :class:`~theorems.arithmetic.precision.Ball` objects, so that a side written with plain numpy runs in ball
arithmetic through numpy's protocols (NEP 13 ``__array_ufunc__``, NEP 18 ``__array_function__``):

- ufuncs: ``+ - * / **``, ``exp log sqrt expm1 log1p log2 log10 sin cos tan tanh sinh cosh arctan
  arcsin arccos arcsinh abs square reciprocal negative hypot``; ``maximum``/``minimum`` (and so ``np.max``,
  ``np.min``, ``np.clip``) are sound ball maxima; comparisons and ``np.sort``/``argmax``/``where(a > b)``
  are certain or raise :class:`~theorems.arithmetic.precision.Undecided`; ``isfinite``/``isnan``/``isinf``;
  ``logical_and``/``logical_or`` (truth values); scipy.special's ``expit``, ``log_expit``, ``logit``, ``xlogy``,
  ``entr``, ``rel_entr``;
- linear algebra (:mod:`theorems.arithmetic.ball_linalg`): ``np.linalg.norm`` (vectors: any ``ord``;
  matrices: ``'fro'``, 1, 2, ∞), ``eigvalsh``, ``eigvals`` (of symmetric matrices), ``det``, ``solve``, ``inv``;
- anything else that would turn a ball into a float (another ufunc, another ``np.linalg`` function)
  raises :class:`~theorems.arithmetic.precision.NoBallForm` naming it.

scipy.special's ``softmax``, ``log_softmax`` and ``logsumexp`` (:data:`SCIPY_FORMS`) are plain Python functions that
no protocol reaches: a side evaluated on balls reaches them by name (:mod:`theorems.arithmetic.ball_namespace`).
Nothing in numpy or scipy is replaced.

:mod:`theorems.arithmetic.ball_forms` lists every form with the float64 function it stands for (the differential tests
check each against it).

>>> import scipy.special
>>> from theorems.arithmetic.precision import balls
>>> p = scipy.special.expit(balls(np.array([0.0, 1.0])))
>>> type(p).__name__, p[0].arb.contains(flint.arb(1) / 2)
('BallArray', True)
>>> np.linalg.eigvalsh(balls(np.array([[2.0, 1.0], [1.0, 2.0]])))[1].arb.contains(3)
True
"""

from __future__ import annotations

import contextlib
import contextvars

import flint
import numpy as np

from theorems.arithmetic import ball_linalg
from theorems.arithmetic.ball import Ball, NoBallForm, Undecided, to_arb, from_arb, ball_hypot, ball_log

_maximum = np.frompyfunc(lambda a, b: from_arb(to_arb(a).max(to_arb(b))), 2, 1)
_minimum = np.frompyfunc(lambda a, b: from_arb(to_arb(a).min(to_arb(b))), 2, 1)


def _ignoring_nan(extremum):
    """``np.fmax``/``np.fmin``: the other argument where one is nan (the extremum of two balls otherwise)."""
    def apply(a, b):
        a, b = to_arb(a), to_arb(b)
        return from_arb(b if a.is_nan() else a if b.is_nan() else extremum(a, b))

    return np.frompyfunc(apply, 2, 1)


def _logaddexp(a, b):
    # max(a, b) + log1p(exp(-|a - b|)): the sum of exponentials would overflow arb's working range (e^1e300)
    a, b = to_arb(a), to_arb(b)
    top = a.max(b)
    if top.rad() == 0 and not top.is_finite() and not top.is_nan():
        return from_arb(top)  # both -inf (the sum is 0), or one is +inf
    return from_arb(top + (-abs(a - b)).exp().log1p())


def _truth(combine):
    """``np.logical_and``/``np.logical_or`` as truth values: numpy's object loop returns one of the operands
    (Python's ``and``), which would count a ball's value where float64 counts ``True`` as 1."""
    return np.frompyfunc(lambda a, b: combine(bool(a), bool(b)), 2, 1)


def _unary(function):
    return np.frompyfunc(lambda x: function(x if isinstance(x, Ball) else Ball(x)), 1, 1)


def _predicate(test):
    return lambda x: np.vectorize(lambda v: test(to_arb(v)), otypes=[bool])(np.asarray(x, dtype=object))


def _expit(x):
    # 1/(1+e^-x), or e^x/(1+e^x) below 0: e^-x of a large negative x is beyond arb's range (unbounded, then nan)
    if to_arb(x) < 0:  # arb's comparison: False unless certain (either formula holds everywhere)
        tail = x.exp()
        return tail / (1 + tail)
    return 1 / (1 + (-x).exp())


def _log_expit(x):
    # log(1/(1+e^-x)) = -log1p(e^-x), or x - log1p(e^x) below 0 (the same number; e^-x would be out of range)
    if to_arb(x) < 0:
        return x - x.exp().log1p()
    return -(-x).exp().log1p()


def _undecided(name: str, *values):
    return Undecided(f"scipy.special.{name} of {', '.join(str(to_arb(v)) for v in values)}: which case of its "
                     f"definition applies is undecided at {flint.ctx.prec} bits")


def _logit(p):
    # scipy: log(p/(1-p)) inside (0, 1), -inf at 0, +inf at 1, nan outside [0, 1]
    value = to_arb(p)
    if value.is_nan() or value < 0 or value > 1:
        return from_arb(flint.arb.nan())
    if value.is_zero() or (value - 1).is_zero():
        return from_arb(flint.arb.neg_inf() if value.is_zero() else flint.arb.pos_inf())
    if value > 0 and value < 1:
        return ball_log(p / (1 - p))
    raise _undecided("logit", p)


def _xlogy(x, y):
    # scipy: 0 where x = 0 (unless y is nan), x·log(y) otherwise
    x, y = Ball(x) if not isinstance(x, Ball) else x, Ball(y) if not isinstance(y, Ball) else y
    if y.arb.is_nan():
        return from_arb(flint.arb.nan())
    if x.arb.is_zero():
        return from_arb(flint.arb(0))
    return x * ball_log(y)


def _entr(x):
    # scipy: -x·log(x) for x > 0, 0 at 0, -inf for x < 0
    if to_arb(x) < 0:
        return from_arb(flint.arb.neg_inf())
    return -_xlogy(x, x)


def _rel_entr(x, y):
    # scipy: x·log(x/y) for x, y > 0; 0 for x = 0 and y >= 0; +inf otherwise (nan for a nan argument)
    a, b = to_arb(x), to_arb(y)
    if a.is_nan() or b.is_nan():
        return from_arb(flint.arb.nan())
    if a > 0 and b > 0:
        return Ball(x) * ball_log(Ball(x) / y)
    if a.is_zero() and b >= 0:
        return from_arb(flint.arb(0))
    if a < 0 or b < 0 or (a > 0 and b.is_zero()):
        return from_arb(flint.arb.pos_inf())
    raise _undecided("rel_entr", x, y)


def _sound_ufuncs() -> dict:
    """The ufuncs replaced on ball arrays, keyed by the numpy/scipy ufunc."""
    table = {np.maximum: _maximum, np.minimum: _minimum, np.fmax: _ignoring_nan(flint.arb.max),
             np.fmin: _ignoring_nan(flint.arb.min), np.logical_and: _truth(lambda a, b: a and b),
             np.logical_or: _truth(lambda a, b: a or b),
             np.square: np.frompyfunc(lambda x: x * x if not isinstance(x, Ball) else x ** 2, 1, 1),
             np.reciprocal: np.frompyfunc(lambda x: 1 / x, 1, 1),
             np.isfinite: _predicate(lambda a: a.is_finite()),
             np.isnan: _predicate(lambda a: a.is_nan()),
             np.isinf: _predicate(lambda a: not a.is_finite() and not a.is_nan())}
    clip = getattr(np, "_core", getattr(np, "core", None)).umath.clip
    table[clip] = np.frompyfunc(lambda x, low, high: from_arb(to_arb(x).max(to_arb(low)).min(to_arb(high))), 3, 1)
    table[np.logaddexp] = np.frompyfunc(_logaddexp, 2, 1)
    table[np.hypot] = np.frompyfunc(lambda a, b: from_arb(ball_hypot(to_arb(a), to_arb(b))), 2, 1)
    for name in ("exp", "expm1", "log", "log1p", "log2", "log10", "sqrt", "sin", "cos", "tan", "tanh", "sinh", "cosh",
                 "arctan", "arcsin", "arccos", "arcsinh"):
        table[getattr(np, name)] = _unary(getattr(Ball, name))
    try:
        import scipy.special as special
    except ImportError:  # scipy is optional: without it there is nothing of it to intercept
        return table
    table[special.expit] = _unary(_expit)
    table[special.log_expit] = _unary(_log_expit)
    table[special.logit] = _unary(_logit)
    table[special.xlogy] = np.frompyfunc(_xlogy, 2, 1)
    table[special.entr] = _unary(_entr)
    table[special.rel_entr] = np.frompyfunc(_rel_entr, 2, 1)
    return table


_SOUND = _sound_ufuncs()
_REDUCING = {np.maximum, np.minimum, np.fmax, np.fmin}
# ufuncs that numpy's object loops already run soundly on balls (arithmetic and certain-or-Undecided comparisons)
_NATIVE = {np.add, np.subtract, np.multiply, np.true_divide, np.divide, np.power, np.negative, np.positive,
           np.absolute, np.less, np.less_equal, np.greater, np.greater_equal, np.equal, np.not_equal,
           np.logical_not, np.conjugate, np.matmul}


_TRACES: contextvars.ContextVar[set[str] | None] = contextvars.ContextVar("ball_traces", default=None)
"""The innermost open :func:`traced` block's entries hit (``None``: no block open, nothing kept)."""


@contextlib.contextmanager
def traced():
    """Collect the names of the dispatch-table entries (as :func:`theorems.arithmetic.ball_forms.forms` names them)
    that ball evaluations inside the block go through; for an engine inconsistency's message.

    >>> from theorems.arithmetic.precision import balls
    >>> with traced() as hit:
    ...     _ = np.exp(balls(np.array([0.5])))
    >>> sorted(hit)
    ['np.exp']
    """
    hit: set[str] = set()
    token = _TRACES.set(hit)
    try:
        yield hit
    finally:
        _TRACES.reset(token)


class BallArray(np.ndarray):
    """An object array of :class:`~theorems.arithmetic.precision.Ball` values on which numpy and scipy
    compute soundly (see the module's docstring), or raise :class:`NoBallForm` naming the function."""

    def __getitem__(self, key):
        # one element is a new object, as float64's ``l[0]`` is a new scalar: ``l[0] is l[0]`` reads False here too
        item = super().__getitem__(key)
        return Ball(item) if isinstance(item, Ball) else item  # the same arb, a new holder

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if ufunc not in _SOUND and ufunc not in _NATIVE and not _python_level(ufunc):
            raise NoBallForm(f"{_name(ufunc)}", "docs/soundness.md lists the functions that have one")
        sound = _SOUND.get(ufunc)
        hit = _TRACES.get()
        if hit is not None:  # one lookup per call: tracing costs nothing when no block is open
            hit.add(_name(ufunc) + ("" if method == "__call__" else f".{method}"))
        inputs = tuple(x.view(np.ndarray) if isinstance(x, BallArray) else x for x in inputs)
        if "out" in kwargs:
            kwargs["out"] = tuple(x.view(np.ndarray) if isinstance(x, BallArray) else x for x in kwargs["out"])
        if sound is None:
            if method == "reduce" and "where" in kwargs and "initial" not in kwargs and ufunc.identity is not None:
                kwargs["initial"] = from_arb(flint.arb(ufunc.identity))  # float64's (the object loop has none)
            return _wrap(getattr(ufunc, method)(*inputs, **kwargs))
        if ufunc in _REDUCING:
            if "initial" in kwargs:
                kwargs["initial"] = from_arb(to_arb(kwargs["initial"]))
            if method == "reduce":
                return _wrap(_reduce_axes(sound, inputs[0], **kwargs))
        elif method != "__call__" and ufunc not in _NATIVE:  # a native one's entry (ball_forms.replaced) reduces too
            raise NoBallForm(f"{_name(ufunc)}.{method}", "only plain calls of it have a ball form")
        if ufunc in (np.isfinite, np.isnan, np.isinf):
            return sound(inputs[0])
        return _wrap(getattr(sound, method)(*inputs, **kwargs))

    def __array_function__(self, func, types, args, kwargs):
        replacement = ball_linalg.FUNCTIONS.get(func)
        hit = _TRACES.get()
        if hit is not None and replacement is not None:
            linalg = "linalg" in (func.__module__ or "")
            hit.add(f"np.linalg.{func.__name__}" if linalg else f"np.{func.__name__}")
        if replacement is not None:
            return _wrap(replacement(*args, **kwargs))
        module = getattr(func, "__module__", "") or ""
        if module.startswith("numpy.linalg"):
            raise NoBallForm(f"np.linalg.{func.__name__}", "docs/soundness.md lists the functions that have one")
        # numpy's own code on the object arrays (np.einsum, np.stack, ...): its plain object results stay ball arrays
        return _wrap(super().__array_function__(func, types, args, kwargs))


def _python_level(ufunc) -> bool:
    # np.frompyfunc / np.vectorize ufuncs run Python code on each ball, where any float escape raises
    return ufunc.__name__.endswith("(vectorized)")


def _name(ufunc) -> str:
    return f"np.{ufunc.__name__}" if getattr(np, ufunc.__name__, None) is ufunc else f"scipy.special.{ufunc.__name__}"


def holds_balls(value) -> bool:
    """Whether ``value`` is a ball or an array of balls (what the ball forms below take)."""
    if isinstance(value, (Ball, BallArray)):
        return True
    return isinstance(value, np.ndarray) and value.dtype == object and any(isinstance(v, Ball) for v in value.flat)


def _as_ball_array(x):
    return np.asarray(x, dtype=object).view(BallArray) if not isinstance(x, Ball) else np.asarray([x]).view(BallArray)


def _softmax(x, axis=None):
    x = _as_ball_array(x)
    shifted = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return shifted / np.sum(shifted, axis=axis, keepdims=True)


def _log_softmax(x, axis=None):
    x = _as_ball_array(x)
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def _shift(x):
    """A shift for ``logsumexp``: the ball itself, or 0 for an exact ``-inf`` (no entry that counts is finite)."""
    value = to_arb(x)
    return from_arb(flint.arb(0) if value.rad() == 0 and not value.is_finite() and value < 0 else value)


def _logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    if return_sign:
        raise NoBallForm("scipy.special.logsumexp(return_sign=True)", "the sign of a ball sum is not decided here")
    a = _as_ball_array(a)
    # shift by the largest entry that counts (a zero weight's entry does not: e^(a-top) of the others could be far
    # below arb's range), and by 0 where none is finite (all -inf, or no weight: the sum is 0, the result -inf)
    unweighted = None if b is None else np.asarray(b) == 0
    top = np.frompyfunc(_shift, 1, 1)(np.max(a if b is None else np.where(unweighted, -np.inf, a), axis=axis, keepdims=True))
    terms = np.exp(a - top) if b is None else np.where(unweighted, from_arb(flint.arb(0)), np.asarray(b) * np.exp(a - top))
    result = np.log(np.sum(terms, axis=axis, keepdims=True)) + top
    if not keepdims:
        result = result.reshape(np.sum(terms, axis=axis).shape) if np.ndim(np.sum(terms, axis=axis)) else result.ravel()[0]
    return result


SCIPY_FORMS = {"softmax": _softmax, "log_softmax": _log_softmax, "logsumexp": _logsumexp}
"""scipy.special's plain Python functions with a ball form, by name (its ufuncs' forms are in ``_SOUND``). No numpy
protocol reaches them (scipy makes a plain array of its argument first): a side evaluated on balls reaches them by
name (:mod:`theorems.arithmetic.ball_namespace`)."""


def scipy_form(name: str):
    """The ball form of ``scipy.special.<name>``, looked up in :data:`SCIPY_FORMS` when called (so that
    ``ball_forms.replaced`` reaches it) and traced."""
    def form(*args, **kwargs):
        hit = _TRACES.get()
        if hit is not None:
            hit.add(f"scipy.special.{name}")
        return SCIPY_FORMS[name](*args, **kwargs)
    return form


def _reduce_axes(ufunc, array, axis=0, keepdims=False, where=None, **kwargs):
    """``ufunc.reduce`` over several axes (a Python-level ufunc reduces over one): move them last, flatten them
    (and ``where`` with them: it is a mask over the array as given)."""
    array = np.asarray(array, dtype=object)
    axes = tuple(range(array.ndim)) if axis is None else (axis,) if np.isscalar(axis) else tuple(axis)
    axes = tuple(sorted(a % array.ndim for a in axes))
    rest = [a for a in range(array.ndim) if a not in axes]
    shape = [array.shape[a] for a in rest] + [-1]
    moved = np.transpose(array, rest + list(axes)).reshape(shape)
    if where is not None and where is not True:  # np.max passes where=True; numpy refuses any mask without initial
        kwargs["where"] = np.transpose(np.broadcast_to(where, array.shape), rest + list(axes)).reshape(shape)
    result = ufunc.reduce(moved, axis=-1, **kwargs)
    if keepdims:
        result = np.asarray(result, dtype=object).reshape([1 if a in axes else array.shape[a] for a in range(array.ndim)])
    return result


def wrap_object_arrays(result, array_type: type):
    """``result`` with every plain object array in it viewed as ``array_type`` (a numpy subclass whose
    ``__array_ufunc__`` keeps the results of numpy's functions in that arithmetic)."""
    if isinstance(result, tuple):
        return tuple(wrap_object_arrays(r, array_type) for r in result)
    if isinstance(result, np.ndarray) and result.dtype == object and not isinstance(result, array_type):
        return result.view(array_type)
    return result


def _wrap(result):
    return wrap_object_arrays(result, BallArray)


Ball.use_array_type(BallArray)  # a lone ball in a ufunc takes this array's sound path (theorems.arithmetic.ball)

__all__ = ["BallArray", "holds_balls"]
