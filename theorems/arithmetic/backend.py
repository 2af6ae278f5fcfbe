"""What an arithmetic backend ``xp`` must provide: the :class:`Backend` protocol.

A statement's sides and a normaliser's ``F`` are written once against ``xp`` and evaluated with every backend:
:data:`~theorems.arithmetic.precision.F64` (the search), :data:`~theorems.arithmetic.precision.MP` (cross-checks),
:data:`~theorems.arithmetic.precision.ARB` (the certification), :data:`~theorems.arithmetic.box_jet.DUAL` (proofs on a box)
and :data:`~theorems.maths.gradient.TORCH` (automatic differentiation). The members below are exactly those the
code calls on ``xp`` (``xp.<name>`` in ``theorems/statements``, ``theorems/maths`` and the engine's sides and
certifier); everything else a side computes goes through numpy on the backend's arrays. ``pi`` is on every
backend too but no side uses it, so it is not part of the protocol.

>>> from theorems.arithmetic.precision import ARB, F64, MP
>>> all(isinstance(xp, Backend) for xp in (F64, MP, ARB))
True
>>> missing(object())[:3]
['name', 'number', 'exp']
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Backend(Protocol):
    """The operations a side may call on ``xp``; each maps element by element unless it says otherwise."""

    name: str
    """A short name for messages (``"float64"``, ``"mpmath"``, ``"arb"``, ``"dual"``, ``"torch"``)."""

    def number(self, value: Any, /) -> Any:
        """``value`` (an int, float or string) as one number of this backend (exact where the backend can be)."""

    def exp(self, x: Any, /) -> Any: ...

    def log(self, x: Any, /) -> Any: ...

    def sqrt(self, x: Any, /) -> Any: ...

    def tanh(self, x: Any, /) -> Any: ...

    def expm1(self, x: Any, /) -> Any: ...

    def sin(self, x: Any, /) -> Any: ...

    def cos(self, x: Any, /) -> Any: ...

    def abs(self, x: Any, /) -> Any: ...

    def norm(self, vector: Any, /, axis: int = -1) -> Any:
        """The Euclidean norm along ``axis``."""

    def max(self, values: Any, /, axis: int | None = None) -> Any:
        """The largest value (of all, or along ``axis``); on balls a sound maximum that decides nothing."""

    def spectral_norm(self, matrix: Any, /) -> Any:
        """``‖A‖₂`` of one matrix: its largest singular value."""

    def precision(self, *args: Any) -> AbstractContextManager:
        """A context in which the backend computes at its working precision (a no-op for float64)."""


MEMBERS: tuple[str, ...] = tuple(Backend.__annotations__) + tuple(
    name for name, member in vars(Backend).items() if callable(member) and not name.startswith("_"))
"""The protocol's members in order, for :func:`missing` (``isinstance(xp, Backend)`` says only yes or no)."""


def missing(xp: Any) -> list[str]:
    """The :class:`Backend` members ``xp`` lacks (empty for a complete backend), to name them in a message."""
    return [name for name in MEMBERS if not hasattr(xp, name)]
