"""Certification: re-evaluate both sides of a statement in arb ball arithmetic, raising the precision until the
sign of the violation is proved (:mod:`theorems.engine.search.decide` reads the balls).

>>> from theorems import STATEMENTS
>>> certify(STATEMENTS["corollary1.own-key.upper"], {"q": np.array([1.0]), "keys": np.array([[0.0], [-2.0]]), "T": 1.0}).bits
128
"""

from __future__ import annotations

import numpy as np

from theorems.arithmetic import precision
from theorems.arithmetic.precision import ARB, BITS, F64, NoBallForm, Undecided, balls
from theorems.engine import sides
from theorems.engine.search.crosscheck import FloatSides, cross_check
from theorems.engine.search.decide import decide
from theorems.engine.search.report import Certificate
from theorems.engine.sides import SideError
from theorems.engine.statement import Instance, Statement, jsonable
from theorems.errors import IllDefined, nothing_hidden


def _side_values(statement: Statement, instance: Instance, side: str):
    with precision.escapes() as escaped, nothing_hidden():  # an undecided comparison the side caught: no value
        value = sides.evaluate(statement, side, balls(dict(instance)), ARB)
    if escaped and _holds_floats(value):
        # the side turned instance values into doubles and returned a float computed from them in float64:
        # its rounding is not bounded, so nothing is certified from it
        raise NoBallForm(f"{side}: float() of an instance value, then float64 arithmetic",
                         "the side's value was computed outside ball arithmetic (math.*, float(), np.asarray(..., float))")
    values = np.atleast_1d(np.asarray(value, dtype=object))
    return _as_balls(values)  # a side may return a plain constant: it is exact


def _holds_floats(value) -> bool:
    if isinstance(value, np.ndarray):
        return value.dtype.kind == "f" or (value.dtype == object and any(
            isinstance(v, (float, np.floating)) for v in value.flat))
    return isinstance(value, (float, np.floating))


_as_balls = np.frompyfunc(lambda x: x if isinstance(x, precision.Ball) else precision.Ball(x), 1, 1)


def certify(statement: Statement, instance: Instance, *, bits: tuple[int, ...] = BITS) -> Certificate:
    """Prove or rule out the violation at ``instance`` in ball arithmetic, raising precision up to ``bits[-1]``.

    Raises :class:`IllDefined` when a side is ``nan`` (at every precision, and in float64 too),
    ``inf − inf``, or raises an error other than :class:`~theorems.arithmetic.precision.Undecided`; raises
    :class:`~theorems.errors.EngineInconsistency` when a side's balls and its interval enclosure are disjoint
    (:func:`~theorems.engine.search.crosscheck.cross_check`, at every precision: no outcome rests on such balls).

    >>> from theorems import STATEMENTS
    >>> cx = certify(STATEMENTS["corollary1.own-key.upper"], {"q": np.array([1.0]), "keys": np.array([[0.0], [-2.0]]), "T": 1.0})
    >>> cx.status, cx.counterexample.method.startswith("arb ball arithmetic")
    ('violated', True)
    """
    detail, bound = "", np.inf
    floats = FloatSides(statement, instance)  # once: what triggers the interval enclosure at every precision
    for attempt, working in enumerate(bits):
        last = attempt == len(bits) - 1
        with ARB.precision(working), precision.enclosure_notes() as notes:
            try:
                values = {side: _side_values(statement, instance, side) for side in ("lhs", "rhs")}
            except Undecided as error:
                detail = f"a comparison inside a side is undecided at 1024 bits ({error})"
                continue
            except SideError:
                raise
            except Exception as error:  # noqa: BLE001 - a side that raises is ill-defined, named with its error
                return _raised(statement, instance, error, working)
            cross_check(statement, instance, values, floats)
            outcome = decide(statement, instance, values, working, last, notes)
        if outcome.status != "undecided":
            return outcome
        detail, bound = outcome.detail, outcome.bound
    return Certificate("inconclusive", bits=bits[-1], detail=detail, bound=bound)


def _raised(statement: Statement, instance: Instance, error: Exception, bits: int) -> Certificate:
    """A side raised in balls: inconclusive when float64 evaluates it, else :class:`IllDefined` naming the side."""
    side = _failing_side(statement, instance)
    if not _raises_in_float(statement, instance, side):
        # float64 evaluates it: the side uses an operation balls do not support; not a verdict
        why = str(error) if isinstance(error, NoBallForm) else f"{type(error).__name__}: {error}"
        library = _foreign_library(statement, instance, side)
        if library:
            why = (f"it returns a {library} scalar (read with .item()): it was searched in float64, and ball "
                   f"arithmetic cannot run through {library.split('.')[0]}, so nothing is certified from it ({why})")
        return Certificate("inconclusive", bits=bits, detail=f"{side} cannot be evaluated in balls: {why}")
    raise IllDefined(statement.id, instance, side, f"raises {type(error).__name__}: {error}",
                     shown=jsonable(instance)) from error


def _foreign_library(statement: Statement, instance: Instance, side: str) -> str:
    """The type (``torch.Tensor``) of the side's float64 value when it is another array library's scalar, else
    ``""``."""
    function = getattr(statement, side)
    with np.errstate(all="ignore"):
        try:
            value = function(instance, F64)
        except Exception:  # noqa: BLE001
            return ""
    return f"{type(value).__module__.split('.')[0]}.{type(value).__name__}" if sides.foreign_scalar(value) else ""


def _failing_side(statement: Statement, instance: Instance) -> str:
    try:
        _side_values(statement, instance, "lhs")
    except Undecided:
        return "rhs"
    except SideError:
        raise
    except Exception:  # noqa: BLE001
        return "lhs"
    return "rhs"


def _raises_in_float(statement: Statement, instance: Instance, side: str) -> bool:
    function = getattr(statement, side)
    with np.errstate(all="ignore"):
        try:
            function(instance, F64)
        except Exception:  # noqa: BLE001
            return True
    return False

