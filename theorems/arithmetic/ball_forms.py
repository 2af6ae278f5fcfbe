"""Every ball form and the float64 original it stands for, enumerated from the dispatch tables themselves.

A *ball form* is the code that runs when a numpy or scipy function, a backend operation or an operator meets
balls (or, for proofs, duals); its *original* is the float64 function a side means. :func:`forms` lists them
all, read from the tables the dispatch itself uses (``ballarray._SOUND`` and ``_NATIVE``, the reductions they
allow, ``ballarray.SCIPY_FORMS``, ``ball_linalg.FUNCTIONS`` with ``VECTOR_NORMS`` and ``MATRIX_NORMS``, the
``ARB``, ``DUAL`` and ``TAYLOR`` backends, the methods of :class:`~theorems.arithmetic.ball.Ball` and of the prover's
jets of order 1 and 2, :class:`~theorems.arithmetic.box_jet.Dual` and :class:`~theorems.arithmetic.box_jet.Taylor`,
that numpy's object loops and Python's operators call, and the sound extrema of their arrays),
so the list cannot drift from what runs. The differential tests (``tests/unit/test_ball_forms_*.py``) check
every entry against its original, and a test fails when an entry has none; :func:`replaced` swaps one entry
for a while (to show that a wrong form is caught).

>>> names = {form.name for form in forms()}
>>> {"scipy.special.rel_entr", "np.linalg.norm(matrix, ord=2)", "np.add.reduce", "DUAL.exp", "TAYLOR.exp"} <= names
True
>>> form = find("np.exp")
>>> form.family, form.original is np.exp, form.ball_form is not np.exp
('ufunc', True, True)
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import operator
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from theorems.arithmetic import ball_linalg, ballarray, box_jet
from theorems.arithmetic.ball import Ball
from theorems.arithmetic.ball_namespace import substitute
from theorems.arithmetic.precision import ARB, F64
from theorems.errors import InvalidArgument

_ABSENT = object()


@dataclasses.dataclass(frozen=True)
class Form:
    """One ball form: ``name`` (how a user calls it), its ``family`` (the table it lives in), the float64
    ``original`` it stands for, ``on_balls`` (what a side calls on balls or duals: the public path that reaches
    the entry, so a replaced entry is what runs) and where the entry lives (``table[key]``, or the attribute
    ``key`` of ``table``)."""

    name: str
    family: str
    original: Callable
    on_balls: Callable
    table: Any = dataclasses.field(repr=False)
    key: Any = dataclasses.field(repr=False)

    @property
    def ball_form(self) -> Any:
        """The entry now: the ball form's code (``None`` where numpy's object loop over the ball's own operators
        runs, as for ``np.add``)."""
        value = self.table.get(self.key) if isinstance(self.table, dict) else getattr(self.table, self.key)
        return value


def forms() -> tuple[Form, ...]:
    """Every ball form, sorted by family and name (a fresh tuple: the tables may change)."""
    found = [*_ufuncs(), *_native(), *_reductions(), *_scipy(), *_linalg(), *_backend("ARB", ARB, "backend"),
             *_methods(Ball, "ball method"), *_ball_ufunc_methods(), *_backend("DUAL", box_jet.DUAL, "dual"),
             *_methods(box_jet.Dual, "dual"), *_jet_ufuncs(box_jet.DualArray, "dual"),
             *_backend("TAYLOR", box_jet.TAYLOR, "taylor"), *_methods(box_jet.Taylor, "taylor"),
             *_jet_ufuncs(box_jet.TaylorArray, "taylor")]
    return tuple(sorted(found, key=lambda form: (form.family, form.name)))


def find(name: str) -> Form:
    """The form called ``name`` (as in :func:`forms`)."""
    for form in forms():
        if form.name == name:
            return form
    raise InvalidArgument(f"name={name!r} is not a ball form; forms() lists them")


@contextlib.contextmanager
def replaced(name: str, ball_form: Any) -> Iterator[Form]:
    """Within the block, ``ball_form`` runs in place of the entry ``name`` (restored on exit, also on error).

    >>> import flint
    >>> from theorems.arithmetic.precision import balls
    >>> with replaced("np.exp", np.frompyfunc(lambda x: -x.exp(), 1, 1)):
    ...     bool(np.exp(balls(np.array([0.0])))[0] < 0)
    True
    >>> bool(np.exp(balls(np.array([0.0])))[0] > 0)
    True
    """
    form = find(name)
    table, key = form.table, form.key
    saved = table.get(key, _ABSENT) if isinstance(table, dict) else vars(table).get(key, _ABSENT)
    _put(table, key, ball_form)
    try:
        yield form
    finally:
        _put(table, key, saved)


def _put(table, key, value) -> None:
    if isinstance(table, dict):
        table.pop(key) if value is _ABSENT else table.__setitem__(key, value)
    elif value is _ABSENT:
        delattr(table, key)
    else:
        setattr(table, key, value)


def _ufunc_name(ufunc) -> str:
    special = _special()
    if special is not None and getattr(special, ufunc.__name__, None) is ufunc:
        return f"scipy.special.{ufunc.__name__}"
    return f"np.{ufunc.__name__}"  # numpy's namespace, or its clip ufunc (np.clip calls it)


def _special():
    try:
        import scipy.special as special
    except ImportError:  # scipy is optional
        return None
    return special


def _ufuncs() -> list[Form]:
    return [Form(_ufunc_name(u), "ufunc", u, u, ballarray._SOUND, u) for u in ballarray._SOUND]


def _native() -> list[Form]:
    # no entry of their own: numpy's object loop calls Ball's operators (the "ball method" family); an entry put
    # in _SOUND for one of them is what the dispatch runs instead
    return [Form(_ufunc_name(u), "object loop", u, u, ballarray._SOUND, u) for u in ballarray._NATIVE]


def _reduces(ufunc) -> bool:
    """Whether the dispatch reduces ``ufunc`` on balls (a sound reduction, or numpy's object loop over a ufunc
    with an identity: ``np.sum``, ``np.prod``), for a number-valued binary ufunc."""
    binary = ufunc.nin == 2 and ufunc.nout == 1 and ufunc.signature is None and "dd->?" not in ufunc.types
    return binary and (ufunc in ballarray._REDUCING or (ufunc in ballarray._NATIVE and ufunc.identity is not None))


def _reductions() -> list[Form]:
    # an entry replaced for the ufunc is what its reductions run: they share its table entry
    return [Form(f"{_ufunc_name(u)}.{method}", "reduction", getattr(u, method), getattr(u, method), ballarray._SOUND, u)
            for u in (*ballarray._SOUND, *ballarray._NATIVE) if _reduces(u) for method in ("reduce", "accumulate")]


def _scipy() -> list[Form]:
    special = _special()
    if special is None:
        return []
    # on balls, a side's name for scipy's function resolves to its dispatching form (ball_namespace)
    return [Form(f"scipy.special.{name}", "scipy", getattr(special, name), substitute(getattr(special, name)),
                 ballarray.SCIPY_FORMS, name) for name in ballarray.SCIPY_FORMS if hasattr(special, name)]


def _linalg() -> list[Form]:
    found = [Form(f"np.linalg.{original.__name__}", "linalg", original, substitute(original),
                  ball_linalg.FUNCTIONS, original)
             for original in ball_linalg.FUNCTIONS if original.__name__ != "norm"]
    norm = next(original for original in ball_linalg.FUNCTIONS if original.__name__ == "norm")
    for shape, table, axis in (("vector", ball_linalg.VECTOR_NORMS, -1), ("matrix", ball_linalg.MATRIX_NORMS, (-2, -1))):
        for ord in table:  # over the last axis (two), so that the entry of its table is the one reached
            fixed = {"axis": axis} if ord == "p" else {"axis": axis, "ord": ord}  # "p": the caller passes ord=p
            original, on_balls = functools.partial(norm, **fixed), functools.partial(substitute(norm), **fixed)
            found.append(Form(f"np.linalg.norm({shape}, ord={ord if isinstance(ord, str) else repr(ord)})", "linalg",
                              original, on_balls, table, ord))
    return found


def _backend(prefix: str, space, family: str) -> list[Form]:
    names = [name for name, value in vars(space).items()
             if callable(value) and name in vars(F64) and name != "precision"]
    return [Form(f"{prefix}.{name}", family, getattr(F64, name), _attribute_caller(space, name), space, name)
            for name in names]


def _attribute_caller(space, name: str) -> Callable:
    # the entry is looked up at call time, so that a replaced one is what runs
    return lambda *args, **kwargs: getattr(space, name)(*args, **kwargs)


def _operator(name: str) -> Callable | None:
    """The float operation a dunder of the ball (dual) type stands for: ``operator.add`` for ``__add__``, the
    same with its operands swapped for ``__radd__``; ``None`` for a dunder that is no arithmetic or comparison."""
    functions = vars(operator)
    if not (name.startswith("__") and name.endswith("__")) or name == "__index__":
        return None
    if name in functions:
        return functions[name]
    plain = "__" + name[3:]
    if name.startswith("__r") and plain in functions:
        forward = getattr(operator, plain)
        return functools.wraps(forward)(lambda a, b: forward(b, a))
    return None


def _methods(cls: type, family: str) -> list[Form]:
    """The operators of ``cls`` (numpy's object loops and Python's operators call them); a reflected one is called
    with the ball (dual) as its first argument and a plain number as the second."""
    prefix, members = cls.__name__, {}
    for klass in reversed(cls.__mro__[:-1]):  # inherited operators too (a base first, so that the class's own win)
        members.update(vars(klass))
    return [Form(f"{prefix}.{name}", family, original, original, cls, name)
            for name, value in members.items() if callable(value) and (original := _operator(name)) is not None]


def _ball_ufunc_methods() -> list[Form]:
    """The methods numpy's object loops call by name on a plain object array of balls (``np.exp`` calls
    ``Ball.exp``); a :class:`~theorems.arithmetic.ballarray.BallArray` goes through ``_SOUND`` instead."""
    return [Form(f"Ball.{name}", "ball method", getattr(np, name), _on_object_array(getattr(np, name)), Ball, name)
            for name, value in vars(Ball).items()
            if callable(value) and not name.startswith("_") and isinstance(getattr(np, name, None), np.ufunc)]


def _on_object_array(ufunc) -> Callable:
    def call(*arguments):
        plain = [np.asarray(a, dtype=object).view(np.ndarray) if isinstance(a, np.ndarray) else a for a in arguments]
        return ufunc(*plain)

    return call


def _jet_ufuncs(array: type, family: str) -> list[Form]:
    """The sound extrema of one order's jet arrays (``np.maximum`` … on a ``DualArray`` or ``TaylorArray``)."""
    return [Form(f"{array.__name__} {_ufunc_name(u)}", family, u, u, array.sound, u) for u in array.sound]


__all__ = ["Form", "find", "forms", "replaced"]
