"""A side's names resolved through a table of forms: the one name-substitution mechanism of the suite.

Some functions a side calls cannot be reached by numpy's protocols on the values the engine evaluates it on
(scipy.special's plain Python ``softmax``, ``log_softmax`` and ``logsumexp`` make a plain array of their argument;
``np.linalg`` on a plain object array of balls). Nothing in numpy or scipy is replaced for them. Instead the engine
runs a *copy* of the side whose global names, closure cells and default values are resolved through a
:class:`Rebinding`: a table of originals (by identity) to what the side sees in their place (a dispatching form, an
interval form, a module view). The ball evaluation's table is :mod:`theorems.arithmetic.ball_namespace`'s; the
second enclosure's (the interval forms of :mod:`theorems.arithmetic.interval`) is
:mod:`theorems.engine.search.enclosure`'s. Nothing here bounds anything: it only decides which function a name means.

The substitution follows the side into the functions it calls by name (its helpers, their helpers, the project's
modules it reaches them through, closures, default values, ``functools.partial``, bound methods, callable objects,
imports inside a function), as long as they are code of the project: not of numpy, scipy, the standard library,
another installed package, or the suite's own machinery (:data:`MACHINERY`). A function that assigns a global
(``global x``) runs as written (a copy would write to the copy). Each rebinding keeps its copies (one per function,
made once, read by every thread only once whole).

>>> from math import sqrt
>>> halves = Rebinding("on halves", lambda rebinding: {id(sqrt): (sqrt, lambda x: x / 2)})
>>> side = lambda x: sqrt(x)
>>> side(16.0), halves.rebound(side)(16.0)
(4.0, 8.0)
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

MACHINERY = ("theorems.arithmetic", "theorems.engine", "theorems.checker", "theorems.app")
"""The suite's own modules, whose code is never rewritten: the forms call numpy's and scipy's originals."""

LIBRARIES = tuple(sorted({path for key, path in sysconfig.get_paths().items()
                          if key in ("stdlib", "platstdlib", "purelib", "platlib")}))
"""The interpreter's library folders (the standard library, site-packages): code there is not the project's."""

Table = dict[int, tuple[Any, Any]]
"""``id(original) → (original, substitute)``: the original kept, so that an id reused by another object is never
mistaken for it."""


class ModuleView(types.ModuleType):
    """A module as a side sees it through a :class:`Rebinding`: each attribute resolved by the rebinding, everything
    else the module's own. A library's view (``fixed``: numpy's, scipy's attributes are not rebound) keeps what it
    resolved; a project module's reads the module at each lookup."""

    def __init__(self, module: types.ModuleType, rebinding: "Rebinding", *, fixed: bool = False) -> None:
        super().__init__(module.__name__, module.__doc__)
        for own in ("__package__", "__loader__", "__spec__"):  # ModuleType sets them to None: the module's instead
            vars(self).pop(own, None)
        vars(self)["_module"], vars(self)["_rebinding"], vars(self)["_fixed"] = module, rebinding, fixed

    def __getattr__(self, name: str) -> Any:
        value = vars(self)["_rebinding"].resolve(getattr(vars(self)["_module"], name))
        if vars(self)["_fixed"]:
            vars(self)[name] = value  # found directly next time (a miss costs an AttributeError)
        return value

    def __dir__(self):
        return dir(vars(self)["_module"])

    def __repr__(self) -> str:
        return f"<module {self.__name__!r}, as sides see it {vars(self)['_rebinding'].purpose}>"


class _Names(dict):
    """A function's globals as seen through a rebinding: every lookup reads the module's own globals (at the time of
    the lookup, so that nothing goes stale) and resolves the value. The dict itself holds only what Python reads from
    it directly: ``__builtins__`` (whose ``__import__`` resolves too, so that an ``import`` inside the function does)
    and the names ``import`` reads to find a package."""

    __slots__ = ("_globals", "_resolve")

    def __init__(self, module_globals: dict, rebinding: "Rebinding") -> None:
        super().__init__({key: module_globals[key] for key in ("__name__", "__package__", "__spec__", "__file__")
                          if key in module_globals}, __builtins__=rebinding.builtins)
        self._globals, self._resolve = module_globals, rebinding.resolve

    def __getitem__(self, name: str) -> Any:
        return self._resolve(self._globals[name])

    def get(self, name: str, default: Any = None) -> Any:
        return self._resolve(self._globals[name]) if name in self._globals else default

    def __contains__(self, name: object) -> bool:
        return name in self._globals


class Rebinding:
    """One way of resolving a side's names: ``table(rebinding)`` builds the :data:`Table` once, when first needed
    (it may make :class:`ModuleView` s of this rebinding); ``purpose`` says where sides see it (``"on balls"``)."""

    def __init__(self, purpose: str, table: Callable[["Rebinding"], Table]) -> None:
        self.purpose = purpose
        self._build, self._table = table, None
        self._lock = threading.RLock()
        self._copies: "weakref.WeakKeyDictionary[types.FunctionType, types.FunctionType]" = weakref.WeakKeyDictionary()
        self._pending: dict = {}
        """Copies being filled, for the thread that holds the lock (a function that calls itself meets its own copy);
        a copy enters ``_copies``, which other threads read, only once it is whole."""
        self._views: dict[int, tuple[types.ModuleType, ModuleView]] = {}
        self.builtins = dict(vars(builtins), __import__=self._import)

    def table(self) -> Table:
        if self._table is None:
            with self._lock:
                if self._table is None:
                    self._table = self._build(self)
        return self._table

    def substitute(self, original: Any) -> Any:
        """What a side sees in place of ``original`` (``original`` itself when the table has nothing for it)."""
        found = self.table().get(id(original))
        return found[1] if found is not None and found[0] is original else original

    def registered(self, value: Any) -> bool:
        found = self.table().get(id(value))
        return found is not None and found[0] is value

    def resolve(self, value: Any) -> Any:
        """``value`` as a side sees it: a registered function or module's substitute, a function of the project's own
        code copied by :meth:`rebound`, the same for a partial's or a bound method's function, a project module's
        view; anything else unchanged."""
        found = self.table().get(id(value))
        if found is not None and found[0] is value:
            return found[1]
        if isinstance(value, types.FunctionType):
            return self.rebound(value) if _followed(value) else value
        if isinstance(value, types.ModuleType):
            return self._project_module_view(value)
        if isinstance(value, types.MethodType) and isinstance(value.__func__, types.FunctionType):
            return types.MethodType(self.resolve(value.__func__), value.__self__)
        if isinstance(value, functools.partial):
            return functools.partial(self.resolve(value.func), *map(self.resolve, value.args),
                                     **{k: self.resolve(v) for k, v in value.keywords.items()})
        return value

    def rebound(self, function: Callable) -> Callable:
        """``function`` with its global names (and its closure's and default values) resolved by :meth:`resolve`: the
        same code over :class:`_Names`. A copy is made once per function (cached); a function that assigns a global
        runs as written. Anything callable that is not a Python function (a partial, a bound method, a callable
        object) is resolved through its function."""
        if not isinstance(function, types.FunctionType):
            if isinstance(function, (types.MethodType, functools.partial)):
                return self.resolve(function)
            call = getattr(type(function), "__call__", None)
            if isinstance(call, types.FunctionType) and not isinstance(function, type):
                return types.MethodType(self.rebound(call), function)
            return function
        copy = self._copies.get(function)
        if copy is None:
            with self._lock:
                copy = self._copies.get(function) or self._pending.get(function)
                if copy is None:
                    copy = self._copy(function) if not _assigns_globals(function.__code__) else function
                    self._pending[function] = copy
                    try:
                        self._fill(function, copy)
                    finally:
                        del self._pending[function]
                    self._copies[function] = copy
        return copy

    def _import(self, name, globals=None, locals=None, fromlist=(), level=0):  # noqa: A002 - __import__'s signature
        return self.resolve(builtins.__import__(name, globals, locals, fromlist, level))

    def _project_module_view(self, module: types.ModuleType) -> types.ModuleType:
        """A module of the project (a helper module the side reaches as ``helpers.kl(...)``) seen through a view whose
        functions are followed; any other module unchanged."""
        found = self._views.get(id(module))
        if found is not None and found[0] is module:
            return found[1]
        filename = getattr(module, "__file__", None)
        if not isinstance(filename, str) or not _projects(module.__name__, filename):
            return module
        view = ModuleView(module, self)
        with self._lock:
            self._views[id(module)] = (module, view)
        return view

    def _copy(self, function: types.FunctionType) -> types.FunctionType:
        """``function``'s code over :class:`_Names`; its closure's cells that hold something resolved are fresh
        (filled by :meth:`_fill` once the copy is pending, so that a function that calls itself meets its copy)."""
        cells = function.__closure__
        if cells is not None:
            cells = tuple(types.CellType() if self._resolvable(cell) else cell for cell in cells)
        copy = types.FunctionType(function.__code__, _Names(function.__globals__, self), function.__name__, None, cells)
        copy.__qualname__, copy.__doc__, copy.__module__ = function.__qualname__, function.__doc__, function.__module__
        copy.__dict__.update(function.__dict__)
        return copy

    def _resolvable(self, cell) -> bool:
        """Whether a closure cell gets a fresh one in the copy: it holds a function (its copy, if followed, is made
        only when the copy is filled: the function may be the one being copied) or a registered function or module."""
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell (a name of the enclosing scope not yet bound)
            return False
        return isinstance(value, (types.FunctionType, types.MethodType, functools.partial)) or self.registered(value)

    def _fill(self, function: types.FunctionType, copy: types.FunctionType) -> None:
        if copy is function:
            return
        for mine, theirs in zip(copy.__closure__ or (), function.__closure__ or ()):
            if mine is not theirs:
                mine.cell_contents = self.resolve(theirs.cell_contents)
        copy.__defaults__ = (tuple(map(self.resolve, function.__defaults__)) if function.__defaults__
                             else function.__defaults__)
        copy.__kwdefaults__ = ({k: self.resolve(v) for k, v in function.__kwdefaults__.items()}
                               if function.__kwdefaults__ else function.__kwdefaults__)


def _followed(function: types.FunctionType) -> bool:
    """Whether the substitution follows a side into ``function``: the project's code (a test module, a helper, a
    statement of the catalogue), not a library's nor the suite's machinery."""
    return _projects(getattr(function, "__module__", None) or "", function.__code__.co_filename)


def _projects(module: str, filename: str) -> bool:
    if module.startswith(MACHINERY) or module.split(".")[0] in ("numpy", "scipy"):
        return False
    return module.startswith("theorems.") or not filename.startswith(LIBRARIES)


_WRITES = frozenset({"STORE_GLOBAL", "DELETE_GLOBAL"})


@functools.lru_cache(maxsize=4096)
def _assigns_globals(code: types.CodeType) -> bool:
    """Whether ``code`` (or a function or class defined in it) assigns or deletes a global: a copy over
    :class:`_Names` would write to the copy, not to the module."""
    if any(instruction.opname in _WRITES for instruction in dis.get_instructions(code)):
        return True
    return any(_assigns_globals(constant) for constant in code.co_consts if isinstance(constant, types.CodeType))


__all__ = ["LIBRARIES", "MACHINERY", "ModuleView", "Rebinding", "Table"]
