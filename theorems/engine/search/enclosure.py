"""A side's second enclosure: the same side evaluated in interval arithmetic (:mod:`theorems.arithmetic.interval`,
code apart from the ball forms) at the same point, or ``None`` where intervals cannot evaluate it.

scipy's plain Python functions ``softmax``, ``log_softmax`` and ``logsumexp`` are no numpy function: no dispatch
reaches them, and scipy's own code turns an interval array into a plain array on the way in. So the side is run as a
copy (:func:`rebound`) whose module globals, closures and defaults see those three as their interval forms, whether
the side reaches them by attribute (``scipy.special.softmax``) or by a name bound at import (``from scipy.special
import softmax``); nothing in scipy is replaced. A side whose value needs anything intervals do not have (a function
with no interval form, ``float()`` of a wide interval, a comparison the intervals do not decide) has no second
enclosure: that is never a disagreement.

>>> import numpy as np, scipy.special
>>> side = lambda i, xp: scipy.special.rel_entr(scipy.special.softmax(i["l"]), 0.5)
>>> enclosed = side_enclosure(side, {"l": np.array([0.0, 1.0])})
>>> type(enclosed[0]).__name__, [round(x.midpoint(), 6) for x in enclosed]
('Interval', [-0.166774, 0.277719])
"""

from __future__ import annotations

import contextlib
import fractions
import sys
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from theorems.arithmetic import interval
from theorems.arithmetic.interval import IV, Interval, at_points, interval_bits, intervals, points_taken
from theorems.engine.statement import as_written
from theorems.errors import SideError

_LIBRARIES = {"numpy", "scipy", "mpmath", "flint", "hypothesis", "torch", "jax", "sympy"}
"""Packages whose functions are run as they are (their code is not the side's), beside the standard library and
the arithmetic of this package."""


def side_enclosure(function: Callable[[Any, Any], Any], instance, *, parameters: Callable | None = None,
                   bits: int = interval.BITS, points: bool = False):
    """``function(instance, xp)`` (a side) in intervals at ``bits`` bits, as an object array of
    :class:`~theorems.arithmetic.interval.Interval` (at least 1-d), or ``None`` where intervals cannot evaluate it.
    ``parameters`` (a statement's, for the prover) builds the instance from ``instance`` first.

    With ``points``, an undecided comparison, ``float()`` of a wide interval and a rounding function take midpoints
    (:func:`~theorems.arithmetic.interval.at_points`): the result is then ``(array, operations taken at points)``.
    """
    outcome = _evaluate(function, instance, parameters, bits, points)
    if outcome is None:
        return None
    return outcome if points else outcome[0]


def _evaluate(function, instance, parameters, bits: int, points: bool):
    copy = rebound(as_written(function))  # a statement's side as written: its names are rebound to intervals here
    build = (lambda values, xp: values) if parameters is None else rebound(parameters)
    with interval_bits(bits), np.errstate(all="ignore"), (at_points() if points else contextlib.nullcontext()):
        try:
            value = copy(build(intervals(dict(instance)), IV), IV)
            taken = points_taken() if points else ()
            values = _as_intervals(value)
        except SideError:
            raise
        except Exception:  # noqa: BLE001 - no interval form for something the side does: no second enclosure
            return None
    return None if values is None else (values, taken)


def _as_intervals(value) -> np.ndarray | None:
    """The side's value as an object array of intervals; ``None`` where an element is no real number."""
    array = np.atleast_1d(np.asarray(value, dtype=object))
    out = np.empty(array.shape, dtype=object)
    for at in np.ndindex(array.shape):
        element = array[at]
        if isinstance(element, Interval):
            out[at] = element
        elif isinstance(element, (int, float, np.integer, np.floating, fractions.Fraction)) and not isinstance(
                element, (bool, np.bool_)):
            out[at] = Interval.of(element)  # a number the side's code made: its exact value, as the ball holds it
        else:
            return None
    return out


def rebound(function: Callable) -> Callable:
    """A copy of ``function`` that reaches scipy's ``softmax``, ``log_softmax`` and ``logsumexp`` as their interval
    forms (:data:`~theorems.arithmetic.interval.SCIPY_FORMS`), as do the functions it calls, found in its globals,
    closure and defaults (a library's own functions are left as they are). Any other callable is returned as it is.
    """
    return _Rebinder().substitute(function)


class _View:
    """A module seen with some attributes replaced (scipy, scipy.special): nothing in the module itself changes."""

    def __init__(self, module, replaced: dict[str, Any]) -> None:
        self._module, self._replaced = module, replaced

    def __getattr__(self, name: str):
        return self._replaced[name] if name in self._replaced else getattr(self._module, name)


class _Rebinder:
    """One rebinding: the copies made so far (recursion and shared module globals)."""

    def __init__(self) -> None:
        self.copies: dict[int, Any] = {}
        self.globals: dict[int, dict] = {}
        self.forms, self.modules = _scipy_forms()

    def substitute(self, value):
        key = id(value)
        if key in self.forms:
            return self.forms[key]
        if key in self.modules:
            return self.modules[key]
        if isinstance(value, types.FunctionType) and not _library(value):
            return self.copies.get(key) or self._copy(value)
        return value

    def _copy(self, function: types.FunctionType) -> types.FunctionType:
        closure = None if function.__closure__ is None else tuple(self._cell(c) for c in function.__closure__)
        copy = types.FunctionType(function.__code__, self._globals(function.__globals__), function.__name__,
                                  None, closure)
        self.copies[id(function)] = copy
        copy.__defaults__ = None if function.__defaults__ is None else tuple(
            self.substitute(v) for v in function.__defaults__)
        copy.__kwdefaults__ = None if function.__kwdefaults__ is None else {
            k: self.substitute(v) for k, v in function.__kwdefaults__.items()}
        copy.__dict__.update(function.__dict__)
        return copy

    def _globals(self, namespace: dict) -> dict:
        key = id(namespace)
        if key not in self.globals:
            copy: dict = {}
            self.globals[key] = copy  # before filling it: functions of this module refer to it
            copy.update({name: self.substitute(value) for name, value in namespace.items()})
        return self.globals[key]

    def _cell(self, cell):
        try:
            contents = cell.cell_contents
        except ValueError:  # an empty cell (a name not bound yet)
            return cell
        return types.CellType(self.substitute(contents))


def _library(function: types.FunctionType) -> bool:
    module = getattr(function, "__module__", None) or ""
    package = module.split(".")[0]
    return package in _LIBRARIES or package in sys.stdlib_module_names or module.startswith("theorems.arithmetic")


def _scipy_forms() -> tuple[dict[int, Any], dict[int, _View]]:
    """``(id of each scipy function with an interval form -> the form, id of scipy and scipy.special -> views)``:
    the attribute as it is now, scipy's original and every function it wraps (``__wrapped__``)."""
    try:
        import scipy
        import scipy.special as special
        from scipy.special import _logsumexp
    except ImportError:  # scipy is optional
        return {}, {}
    forms: dict[int, Any] = {}
    for name, form in interval.SCIPY_FORMS.items():
        for found in (getattr(special, name, None), getattr(_logsumexp, name, None)):
            while found is not None:
                forms[id(found)] = form
                found = getattr(found, "__wrapped__", None)
    special_view = _View(special, {name: form for name, form in interval.SCIPY_FORMS.items()})
    return forms, {id(special): special_view, id(scipy): _View(scipy, {"special": special_view})}
