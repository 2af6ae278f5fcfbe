"""A side's second enclosure: the same side evaluated in interval arithmetic (:mod:`theorems.arithmetic.interval`,
code apart from the ball forms) at the same point, or ``None`` where intervals cannot evaluate it.

scipy's plain Python functions ``softmax``, ``log_softmax`` and ``logsumexp`` are no numpy function: no dispatch
reaches them, and scipy's own code turns an interval array into a plain array on the way in. So the side is run as a
copy (:func:`rebound`, through the suite's one name-substitution mechanism, :mod:`theorems.arithmetic.rebinding`)
whose module globals, closures and defaults see those three as their interval forms, whether the side reaches them
by attribute (``scipy.special.softmax``) or by a name bound at import (``from scipy.special import softmax``);
nothing in scipy is replaced. A side whose value needs anything intervals do not have (a function
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
from collections.abc import Callable
from typing import Any

import numpy as np

from theorems.arithmetic import interval
from theorems.arithmetic.interval import IV, Interval, at_points, interval_bits, intervals, points_taken
from theorems.arithmetic.rebinding import ModuleView, Rebinding, Table
from theorems.engine.statement import as_written
from theorems.errors import SideError


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
    forms (:data:`~theorems.arithmetic.interval.SCIPY_FORMS`), as do the functions of the project it calls
    (:class:`~theorems.arithmetic.rebinding.Rebinding`, the mechanism the ball evaluation's names go through too).
    """
    return IN_INTERVALS.rebound(function)


def _scipy_originals(name: str) -> list:
    """Every object a side may hold for scipy's function ``name``: the attribute of ``scipy.special``, of its module
    ``scipy.special._logsumexp``, and every function they wrap (``__wrapped__``)."""
    try:
        import scipy.special as special
        from scipy.special import _logsumexp
    except ImportError:  # scipy is optional
        return []
    found = []
    for outer in (getattr(special, name, None), getattr(_logsumexp, name, None)):
        while outer is not None:
            found.append(outer)
            outer = getattr(outer, "__wrapped__", None)
    return found


def _interval_forms(rebinding: Rebinding) -> Table:
    """scipy's three Python functions (each object a side may hold for one) to their interval forms; ``scipy`` and
    ``scipy.special`` to views that show them."""
    try:
        import scipy
        import scipy.special as special
    except ImportError:  # scipy is optional
        return {}
    table = {id(original): (original, form) for name, form in interval.SCIPY_FORMS.items()
             for original in _scipy_originals(name)}
    table.update({id(m): (m, ModuleView(m, rebinding, fixed=True)) for m in (scipy, special)})
    return table


IN_INTERVALS = Rebinding("in intervals", _interval_forms)
"""The rebinding of a side evaluated in intervals (the second enclosure)."""
