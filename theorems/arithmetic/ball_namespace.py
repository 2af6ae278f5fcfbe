"""A side evaluated on balls sees the ball forms of ``np.linalg`` and ``scipy.special``, however it bound their names.

numpy reaches a ball array's forms through its own protocols (NEP 13 ``__array_ufunc__``, NEP 18
``__array_function__`` of :class:`~theorems.arithmetic.ballarray.BallArray`). Two things no protocol reaches:
scipy.special's plain Python functions (``softmax``, ``log_softmax`` and ``logsumexp`` turn their argument into a
plain array, then compare and test it), and ``np.linalg`` or a scipy ufunc on a *plain* object array that holds balls
(``np.array([[1.0, a], [a, 1.0]])``). Nothing in numpy or scipy is replaced for them. Instead, when the engine
evaluates a side on balls it calls :func:`on_balls(side) <on_balls>`: the same code with a namespace in which every
name bound to one of those functions or modules, however and whenever it was bound
(``from scipy.special import log_softmax`` before ``theorems`` was imported, ``import scipy.special as sp``,
``np.linalg.eigvalsh``, ``from numpy.linalg import norm``), resolves to :func:`dispatching`: the original on
anything that holds no ball, the ball form on balls. The substitution follows the side into the functions it calls
by name (its helpers, their helpers, the project's modules it reaches them through, closures, default values,
``functools.partial``, bound methods, imports inside a function), as long as they are code of the project (not of
numpy, scipy, the standard library, another installed package, or this package's own machinery); a function that
assigns a global (``global x``) runs as written. The mechanism is :class:`~theorems.arithmetic.rebinding.Rebinding`
(the second enclosure's interval forms go through it too); this module gives it the table of the ball forms.

>>> import scipy.special
>>> from theorems.arithmetic.precision import balls
>>> from scipy.special import log_softmax
>>> side = lambda l: log_softmax(l)[0]
>>> on_balls(side)(balls(np.array([0.0, 0.0]))).arb.contains(-flint.arb(2).log())
True
>>> scipy.special.log_softmax is log_softmax   # scipy's own function, untouched
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import flint  # noqa: F401 - the doctest's arb
import numpy as np

from theorems.arithmetic import ballarray
from theorems.arithmetic.ball import Ball, NoBallForm
from theorems.arithmetic.ballarray import BallArray
from theorems.arithmetic.rebinding import ModuleView, Rebinding, Table


def holds_balls(value) -> bool:
    """Whether ``value`` is a ball, an array holding one, or a list or tuple of such (what the ball forms take)."""
    if isinstance(value, (list, tuple)):
        return any(holds_balls(v) for v in value)
    return ballarray.holds_balls(value)


def _as_ball_array(value):
    """A plain object array (or list) holding balls as a :class:`BallArray`, so that numpy dispatches to its forms."""
    if isinstance(value, BallArray) or isinstance(value, Ball) or not holds_balls(value):
        return value
    return np.asarray(value, dtype=object).view(BallArray)


def _through_numpy(original: Callable) -> Callable:
    """The ball path of a function numpy's protocols reach: ``original`` on ball arrays (NEP 13/18 dispatch)."""
    def call(*args, **kwargs):
        return original(*(_as_ball_array(a) for a in args), **{k: _as_ball_array(v) for k, v in kwargs.items()})

    return call


def _refused(name: str) -> Callable:
    def refuse(*args, **kwargs):
        raise NoBallForm(name, "docs/soundness.md lists the functions that have one")

    return refuse


def dispatching(original: Callable, on_balls: Callable) -> Callable:
    """``original`` for every input that holds no ball (unchanged: numpy's or scipy's own function runs), ``on_balls``
    when an argument holds balls."""

    @functools.wraps(original)
    def dispatch(*args, **kwargs):
        if any(holds_balls(v) for v in args) or any(holds_balls(v) for v in kwargs.values()):
            return on_balls(*args, **kwargs)
        return original(*args, **kwargs)

    dispatch.__ball_form__ = on_balls
    return dispatch


def _linalg_substitutes() -> Table:
    table = {}
    for name in dir(np.linalg):
        original = getattr(np.linalg, name)
        if name.startswith("_") or not callable(original) or isinstance(original, type):
            continue
        ball_path = _through_numpy(original) if hasattr(original, "_implementation") else _refused(f"np.linalg.{name}")
        table[id(original)] = (original, dispatching(original, ball_path))
    return table


def _scipy_substitutes(rebinding: Rebinding) -> Table:
    try:
        import scipy
        import scipy.special as special
    except ImportError:  # scipy is optional
        return {}
    table = {id(m): (m, ModuleView(m, rebinding, fixed=True)) for m in (scipy, special)}
    for name in dir(special):
        original = getattr(special, name)
        if name in ballarray.SCIPY_FORMS:
            table[id(original)] = (original, dispatching(original, ballarray.scipy_form(name)))
        elif isinstance(original, np.ufunc):
            table[id(original)] = (original, dispatching(original, _through_numpy(original)))
    return table


def _substitutes(rebinding: Rebinding) -> Table:
    """Every function and module a side's names are resolved from on balls: ``np`` and ``np.linalg`` (views), each
    ``np.linalg`` function, ``scipy`` and ``scipy.special`` (views), scipy's Python functions with a ball form and its
    ufuncs."""
    table = {id(m): (m, ModuleView(m, rebinding, fixed=True)) for m in (np, np.linalg)}
    table.update(_linalg_substitutes())
    table.update(_scipy_substitutes(rebinding))
    return table


ON_BALLS = Rebinding("on balls", _substitutes)
"""The rebinding of a side evaluated on balls."""


def substitute(original: Any) -> Any:
    """What a side evaluated on balls sees in place of ``original`` (``original`` itself when it has no substitute).

    >>> substitute(np.linalg.norm) is np.linalg.norm, substitute(np.linalg.norm).__wrapped__ is np.linalg.norm
    (False, True)
    """
    return ON_BALLS.substitute(original)


def resolve(value: Any) -> Any:
    """``value`` as a side evaluated on balls sees it (:meth:`~theorems.arithmetic.rebinding.Rebinding.resolve`)."""
    return ON_BALLS.resolve(value)


def on_balls(function: Callable) -> Callable:
    """``function`` as the engine runs it on balls: the same code, with its global names (and its closure's and default
    values) resolved by :func:`resolve`, so that ``np.linalg`` and ``scipy.special`` reach their ball forms whatever
    way the names were bound. A copy is made once per function (cached); a function that assigns a global runs as
    written. Anything callable that is not a Python function (a partial, a bound method, a callable object) is
    resolved through its function.

    >>> import scipy.special as sp
    >>> from theorems.arithmetic.precision import balls
    >>> on_balls(lambda x: sp.logsumexp(x))(balls(np.array([0.0, 0.0]))).arb.contains(flint.arb(2).log())
    True
    """
    return ON_BALLS.rebound(function)


__all__ = ["ON_BALLS", "dispatching", "holds_balls", "on_balls", "resolve", "substitute"]
