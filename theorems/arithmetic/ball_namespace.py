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
``functools.partial``, bound methods, imports inside a function), as long as they are code of the project (not of numpy, scipy, the standard library, another installed
package, or this package's own machinery); a function that assigns a global (``global x``) runs as written.

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

import builtins
import dis
import functools
import sysconfig
import threading
import types
import weakref
from collections.abc import Callable
from typing import Any

import flint  # noqa: F401 - the doctest's arb
import numpy as np

from theorems.arithmetic import ballarray
from theorems.arithmetic.ball import Ball, NoBallForm
from theorems.arithmetic.ballarray import BallArray

_MACHINERY = ("theorems.arithmetic", "theorems.engine", "theorems.checker")
"""The suite's own modules whose code is never rewritten: the ball forms call numpy's and scipy's originals."""

_LIBRARIES = tuple(sorted({path for key, path in sysconfig.get_paths().items()
                           if key in ("stdlib", "platstdlib", "purelib", "platlib")}))
"""The interpreter's library folders (the standard library, site-packages): code there is not the project's."""


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


class _ModuleView(types.ModuleType):
    """A module as a side sees it on balls: each attribute resolved by :func:`resolve` (``np.linalg`` to the view of
    ``numpy.linalg``, ``scipy.special.softmax`` to its dispatching form), everything else the module's own. A
    library's view (``fixed``: numpy's, scipy's attributes are not rebound) keeps what it resolved; a project
    module's reads the module at each lookup."""

    def __init__(self, module: types.ModuleType, *, fixed: bool = False) -> None:
        super().__init__(module.__name__, module.__doc__)
        for own in ("__package__", "__loader__", "__spec__"):  # ModuleType sets them to None: the module's instead
            vars(self).pop(own, None)
        vars(self)["_module"], vars(self)["_fixed"] = module, fixed

    def __getattr__(self, name: str) -> Any:
        value = resolve(getattr(vars(self)["_module"], name))
        if vars(self)["_fixed"]:
            vars(self)[name] = value  # found directly next time (a miss costs an AttributeError)
        return value

    def __dir__(self):
        return dir(vars(self)["_module"])

    def __repr__(self) -> str:
        return f"<module {self.__name__!r}, as sides see it on balls>"


def _linalg_substitutes() -> dict[int, tuple[Any, Any]]:
    table = {}
    for name in dir(np.linalg):
        original = getattr(np.linalg, name)
        if name.startswith("_") or not callable(original) or isinstance(original, type):
            continue
        ball_path = _through_numpy(original) if hasattr(original, "_implementation") else _refused(f"np.linalg.{name}")
        table[id(original)] = (original, dispatching(original, ball_path))
    return table


def _scipy_substitutes() -> dict[int, tuple[Any, Any]]:
    try:
        import scipy
        import scipy.special as special
    except ImportError:  # scipy is optional
        return {}
    table = {id(m): (m, _ModuleView(m, fixed=True)) for m in (scipy, special)}
    for name in dir(special):
        original = getattr(special, name)
        if name in ballarray.SCIPY_FORMS:
            table[id(original)] = (original, dispatching(original, ballarray.scipy_form(name)))
        elif isinstance(original, np.ufunc):
            table[id(original)] = (original, dispatching(original, _through_numpy(original)))
    return table


@functools.lru_cache(maxsize=1)
def _substitutes() -> dict[int, tuple[Any, Any]]:
    """``id(original) → (original, substitute)`` for every function and module a side's names are resolved from (the
    original kept, so that an id reused by another object is never mistaken for it)."""
    table = {id(m): (m, _ModuleView(m, fixed=True)) for m in (np, np.linalg)}
    table.update(_linalg_substitutes())
    table.update(_scipy_substitutes())
    return table


def substitute(original: Any) -> Any:
    """What a side evaluated on balls sees in place of ``original`` (``original`` itself when it has no substitute).

    >>> substitute(np.linalg.norm) is np.linalg.norm, substitute(np.linalg.norm).__wrapped__ is np.linalg.norm
    (False, True)
    """
    found = _substitutes().get(id(original))
    return found[1] if found is not None and found[0] is original else original


def resolve(value: Any) -> Any:
    """``value`` as a side evaluated on balls sees it: a registered function or module's substitute, a function of the
    project's own code run by :func:`on_balls`, the same for a partial's or a bound method's function; anything else
    unchanged."""
    found = _substitutes().get(id(value))
    if found is not None and found[0] is value:
        return found[1]
    if isinstance(value, types.FunctionType):
        return on_balls(value) if _followed(value) else value
    if isinstance(value, types.ModuleType):
        return _project_module_view(value)
    if isinstance(value, types.MethodType) and isinstance(value.__func__, types.FunctionType):
        return types.MethodType(resolve(value.__func__), value.__self__)
    if isinstance(value, functools.partial):
        return functools.partial(resolve(value.func), *map(resolve, value.args),
                                 **{k: resolve(v) for k, v in value.keywords.items()})
    return value


def _followed(function: types.FunctionType) -> bool:
    """Whether the substitution follows a side into ``function``: the project's code (a test module, a helper, a
    statement of the catalogue), not a library's nor the ball forms' own."""
    return _projects(getattr(function, "__module__", None) or "", function.__code__.co_filename)


def _projects(module: str, filename: str) -> bool:
    if module.startswith(_MACHINERY) or module.split(".")[0] in ("numpy", "scipy"):
        return False
    return module.startswith("theorems.") or not filename.startswith(_LIBRARIES)


_VIEWS: dict[int, tuple[types.ModuleType, _ModuleView]] = {}


def _project_module_view(module: types.ModuleType) -> types.ModuleType:
    """A module of the project (a helper module the side reaches as ``helpers.kl(...)``) seen through a view whose
    functions are followed; any other module unchanged."""
    found = _VIEWS.get(id(module))
    if found is not None and found[0] is module:
        return found[1]
    filename = getattr(module, "__file__", None)
    if not isinstance(filename, str) or not _projects(module.__name__, filename):
        return module
    view = _ModuleView(module)
    _VIEWS[id(module)] = (module, view)
    return view


class _Names(dict):
    """A function's globals as seen on balls: every lookup reads the module's own globals (at the time of the lookup, so
    that nothing goes stale) and resolves the value. The dict itself holds only what Python reads from it directly:
    ``__builtins__`` (with :func:`_import`, so that an ``import`` inside the function resolves too) and the names
    ``import`` reads to find a package."""

    __slots__ = ("_globals",)

    def __init__(self, module_globals: dict) -> None:
        super().__init__({key: module_globals[key] for key in ("__name__", "__package__", "__spec__", "__file__")
                          if key in module_globals}, __builtins__=_BUILTINS)
        self._globals = module_globals

    def __getitem__(self, name: str) -> Any:
        return resolve(self._globals[name])

    def get(self, name: str, default: Any = None) -> Any:
        return resolve(self._globals[name]) if name in self._globals else default

    def __contains__(self, name: object) -> bool:
        return name in self._globals


def _import(name, globals=None, locals=None, fromlist=(), level=0):  # noqa: A002 - builtins.__import__'s signature
    return resolve(builtins.__import__(name, globals, locals, fromlist, level))


_BUILTINS = dict(vars(builtins), __import__=_import)

_CLONES: "weakref.WeakKeyDictionary[types.FunctionType, types.FunctionType]" = weakref.WeakKeyDictionary()
_COPYING = threading.RLock()
_PENDING: dict = {}
"""Copies being filled, for the thread that holds ``_COPYING`` (a function that calls itself meets its own copy);
a copy enters ``_CLONES``, which other threads read, only once it is whole."""


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
    if not isinstance(function, types.FunctionType):
        if isinstance(function, (types.MethodType, functools.partial)):
            return resolve(function)
        call = getattr(type(function), "__call__", None)
        if isinstance(call, types.FunctionType) and not isinstance(function, type):
            return types.MethodType(on_balls(call), function)
        return function
    clone = _CLONES.get(function)
    if clone is None:
        with _COPYING:
            clone = _CLONES.get(function) or _PENDING.get(function)
            if clone is None:
                clone = _copy(function) if not _assigns_globals(function.__code__) else function
                _PENDING[function] = clone
                try:
                    _fill(function, clone)
                finally:
                    del _PENDING[function]
                _CLONES[function] = clone
    return clone


def _copy(function: types.FunctionType) -> types.FunctionType:
    """``function``'s code over :class:`_Names`; its closure's cells that hold something resolved are fresh (filled by
    :func:`_fill` once the copy is pending, so that a function that calls itself meets its copy)."""
    cells = function.__closure__
    if cells is not None:
        cells = tuple(types.CellType() if _resolvable(cell) else cell for cell in cells)
    clone = types.FunctionType(function.__code__, _Names(function.__globals__), function.__name__, None, cells)
    clone.__qualname__, clone.__doc__, clone.__module__ = function.__qualname__, function.__doc__, function.__module__
    clone.__dict__.update(function.__dict__)
    return clone


def _resolvable(cell) -> bool:
    """Whether a closure cell gets a fresh one in the copy: it holds a function (its copy, if followed, is made only
    when the copy is filled: the function may be the one being copied) or a registered function or module."""
    try:
        value = cell.cell_contents
    except ValueError:  # an empty cell (a name of the enclosing scope not yet bound)
        return False
    if isinstance(value, (types.FunctionType, types.MethodType, functools.partial)):
        return True
    found = _substitutes().get(id(value))
    return found is not None and found[0] is value


def _fill(function: types.FunctionType, clone: types.FunctionType) -> None:
    if clone is function:
        return
    for mine, theirs in zip(clone.__closure__ or (), function.__closure__ or ()):
        if mine is not theirs:
            mine.cell_contents = resolve(theirs.cell_contents)
    clone.__defaults__ = tuple(map(resolve, function.__defaults__)) if function.__defaults__ else function.__defaults__
    clone.__kwdefaults__ = ({k: resolve(v) for k, v in function.__kwdefaults__.items()}
                            if function.__kwdefaults__ else function.__kwdefaults__)


_WRITES = {"STORE_GLOBAL", "DELETE_GLOBAL"}


@functools.lru_cache(maxsize=4096)
def _assigns_globals(code: types.CodeType) -> bool:
    """Whether ``code`` (or a function or class defined in it) assigns or deletes a global: a copy over
    :class:`_Names` would write to the copy, not to the module."""
    if any(instruction.opname in _WRITES for instruction in dis.get_instructions(code)):
        return True
    return any(_assigns_globals(constant) for constant in code.co_consts if isinstance(constant, types.CodeType))


__all__ = ["dispatching", "holds_balls", "on_balls", "resolve", "substitute"]
