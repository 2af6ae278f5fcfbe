"""A side's value and cost, checked before any verdict: a real scalar (or an array of them), in time.

A side must return a real number: a Python ``int`` or ``float``, a numpy integer or floating scalar, a 0-d
or n-d numpy array of those (claimed elementwise), a :class:`~theorems.arithmetic.precision.Ball`, an arb, an
mpmath number, or an object array of those; any other library's scalar (a 0-d torch or JAX-style tensor:
anything with ``.item()`` that gives a real number) is read as that number (:func:`foreign_scalar`): such a
side is searched in float64, and balls cannot run through its library, so its violations are candidates,
never certified. A string, ``None``, a bool, a complex number, a list or any other value is a
:class:`SideValueError` naming the statement, the side and the type: numpy would otherwise read ``'100'`` as
100.0 and ``None`` as nan. A float64 side call slower than ``statement.side_seconds`` (default
:data:`SIDE_SECONDS`) stops the search with :class:`SlowSide`.

>>> import numpy as np
>>> check_side_value("1.5", statement_id="my.bound", side="rhs")
Traceback (most recent call last):
    ...
theorems.errors.SideValueError: statement 'my.bound': rhs returned str '1.5'; a side must return a real number (int, float, numpy real scalar or array, ball, a 0-d tensor with .item()) or an array of them
>>> check_side_value(np.array([1.0, 2.0]), statement_id="my.bound", side="lhs").shape
(2,)
"""

from __future__ import annotations

import numbers
import time
from collections.abc import Mapping
from typing import Any

import flint
import mpmath
import numpy as np

from theorems.arithmetic.precision import F64, Ball
from theorems.errors import InvalidArgument, SideError, SideValueError, SlowSide

SIDE_SECONDS = 5.0
"""The default limit on one float64 call of a side, in seconds (``Statement.side_seconds`` overrides it):
the search makes thousands of such calls, so a slower side cannot finish."""

_SCALARS = (Ball, flint.arb, mpmath.mpf, int, float, np.integer, np.floating)


def _real_scalar(value) -> bool:
    return isinstance(value, _SCALARS) and not isinstance(value, (bool, np.bool_))


def foreign_scalar(value: Any) -> bool:
    """Whether ``value`` is another array library's scalar: not numpy's or Python's, with an ``.item()`` method.

    >>> foreign_scalar(np.float64(1.0)), foreign_scalar(1.0), foreign_scalar(type("T", (), {"item": lambda s: 2.0})())
    (False, False, True)
    """
    return (not isinstance(value, (np.ndarray, np.generic, numbers.Number, str, bytes, Ball, flint.arb))
            and callable(getattr(value, "item", None)))


def _item(value: Any) -> Any:
    """``value.item()`` when it is a real number, else ``value`` itself (rejected below, by its own type)."""
    try:
        item = value.item()
    except Exception:  # noqa: BLE001 - a tensor of several elements, or an item() that fails: not a scalar
        return value
    return item if _real_scalar(item) else value


def check_side_value(value: Any, *, statement_id: str, side: str) -> Any:
    """``value`` when it is a real scalar or an array of real scalars (another library's scalar as its
    ``.item()``); :class:`SideValueError` otherwise."""
    if foreign_scalar(value):
        value = _item(value)
    if isinstance(value, np.ndarray):
        kind = value.dtype.kind
        if kind in "iuf" or (kind == "O" and all(_real_scalar(v) for v in value.flat)):
            return value
        what = f"an array of dtype {value.dtype}" + (
            f" holding {type(next(v for v in value.flat if not _real_scalar(v))).__name__}" if kind == "O" else "")
    elif _real_scalar(value) or (isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))):
        return value
    else:
        shown = repr(value)
        what = f"{type(value).__name__} {shown if len(shown) <= 40 else shown[:37] + '...'}"
    raise SideValueError(f"statement {statement_id!r}: {side} returned {what}; a side must return a real number "
                         "(int, float, numpy real scalar or array, ball, a 0-d tensor with .item()) or an array of "
                         "them")


def evaluate(statement, side: str, instance, xp, *, timed: bool = False) -> Any:
    """``statement.<side>(instance, xp)``, its value checked; timed against the limit when ``timed``."""
    function = getattr(statement, side)
    start = time.perf_counter()
    value = function(instance, xp)
    seconds = time.perf_counter() - start
    limit = statement.side_seconds or SIDE_SECONDS
    if timed and seconds > limit:
        raise SlowSide(f"statement {statement.id!r}: one float64 call of {side} took {seconds:.1f} s, over the "
                       f"limit of {limit:g} s (Statement(side_seconds=...) raises it); the search needs thousands "
                       "of calls")
    return check_side_value(value, statement_id=statement.id, side=side)


class _Read(Exception):
    """Raised by :class:`_KeyReader` at the first key a side reads."""


class _KeyReader(Mapping):
    """A stand-in instance that stops a side at the first key it reads (to learn whether it reads keys at all)."""

    def __getitem__(self, key):
        raise _Read(key)

    def __iter__(self):
        return iter(())

    def __len__(self):
        return 0


class _Missing(KeyError):
    """A key a side read that the drawn instance does not have."""


class _Strict(dict):
    def __missing__(self, key):
        raise _Missing(key)


def misdrawn(statement, side: str, instance) -> InvalidArgument | None:
    """Where ``side`` raised on ``instance``: an :class:`InvalidArgument` naming the statement when the cause is its
    strategy, not the bound — it draws something that is not a mapping while the side reads keys, or a mapping
    without a key the side reads (a statement ill-defined there would be a wrong verdict on a wrong question);
    ``None`` otherwise. The side is re-run on a stand-in instance; any other error of it means no diagnosis.

    >>> from types import SimpleNamespace
    >>> s = SimpleNamespace(id="my.bound", lhs=lambda i, xp: i["l"][0])
    >>> print(misdrawn(s, "lhs", 0.5))
    statement 'my.bound': lhs reads instance['l'], but the statement's strategy draws float (0.5), not a mapping; draw mappings of the keys the sides read (st.fixed_dictionaries({'l': ...}))
    >>> print(misdrawn(s, "lhs", {"x": 1.0}))
    statement 'my.bound': lhs reads instance['l'], but the statement's strategy draws mappings with the keys ['x'] only; add 'l' to them
    """
    function = getattr(statement, side)
    with np.errstate(all="ignore"):
        if not isinstance(instance, Mapping):
            try:
                function(_KeyReader(), F64)
            except _Read as read:
                (key,) = read.args
                return InvalidArgument(
                    f"statement {statement.id!r}: {side} reads instance[{key!r}], but the statement's strategy draws "
                    f"{type(instance).__name__} ({instance!r:.80}), not a mapping; draw mappings of the keys the "
                    f"sides read (st.fixed_dictionaries({{{key!r}: ...}}))")
            except Exception:  # noqa: BLE001 - the side failed before reading a key: nothing to say about the strategy
                return None
            return None
        try:
            function(_Strict(instance), F64)
        except _Missing as missing:
            (key,) = missing.args
            return InvalidArgument(
                f"statement {statement.id!r}: {side} reads instance[{key!r}], but the statement's strategy draws "
                f"mappings with the keys {sorted(map(str, instance))} only; add {key!r} to them")
        except Exception:  # noqa: BLE001 - raised for another reason: ill-defined there, as the search says
            return None
    return None


def broadcast_sides(lhs, rhs, *, statement) -> tuple[np.ndarray, np.ndarray]:
    """``lhs`` and ``rhs`` broadcast to one shape; :class:`SideValueError` naming both shapes when they cannot be
    (the relation is claimed elementwise, so a side of 3 values against one of 2 is no claim at all)."""
    try:
        return np.broadcast_arrays(lhs, rhs)
    except ValueError:
        raise SideValueError(f"statement {statement.id!r} ({statement.formula}): lhs has shape {np.shape(lhs)} and rhs has shape "
                             f"{np.shape(rhs)}, which do not broadcast; the relation is claimed elementwise, so both "
                             "sides must have one shape (or one of them be a scalar)") from None
