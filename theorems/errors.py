"""Every exception the suite raises, as one family: ``except TheoremsError`` catches them all.

One root, :class:`TheoremsError`; each class also keeps the builtin base it has always had (``ValueError``,
``TypeError``, ``ArithmeticError``, ``RuntimeError``), so ``except ValueError`` and ``pytest.raises(TypeError)``
written before the tree still catch what they caught::

    TheoremsError
    ├── InvalidArgument            bad value of an argument        (also ValueError, Hypothesis's InvalidArgument)
    ├── InvalidArgumentType        argument of the wrong type      (also TypeError)
    ├── IllDefined                 a side has no value at an instance: a verdict, not a bad argument
    ├── EngineInconsistency        a side's balls and its interval enclosure are disjoint: the engine is wrong
    ├── Undecided                  a ball comparison unknown at the working precision (also ArithmeticError)
    ├── NoBallForm                 an operation with no sound ball form              (also ArithmeticError)
    ├── NotHomogeneous             a graded evaluation mixes degrees: homogeneity is not proved
    ├── NotInvariant               a tagged evaluation meets an operation not invariant under a shift of the logits
    ├── SideError                  a side that cannot be checked at all
    │   ├── SideValueError         ... it returns no real number                     (also TypeError)
    │   └── SlowSide               ... one float64 call takes too long               (also RuntimeError)
    ├── TheoryFailure              a theory test's verdict differs from the expected one (the pytest plugin)
    └── ModelError                 a real model cannot be loaded, read or run (``empirical``)
        ├── ModelUnavailableError  weights or tokenizer not found                    (also RuntimeError)
        ├── NoAttentionError       no per-head attention weights                     (also RuntimeError)
        ├── ExtractionMismatch     recomputed alpha differs from the model's own     (also RuntimeError)
        ├── NoOutputProjectionError  W_O unknown for the architecture                (also ValueError)
        └── ModelRunFailed         a run broke where no argument explains it         (also RuntimeError)

This module imports no module of the project (the lowest floor of ``docs/architecture.md``), so any module may
raise from it; the classes are also importable where they were defined before (``theorems.arithmetic.validation``,
``theorems.engine.search``, ``theorems.arithmetic.precision``, ``theorems.engine.sides``, ``theorems.app.plugin``,
``empirical.heads.*``) and from ``theorems``.

>>> from theorems import TheoremsError
>>> from theorems.maths.normalisers import softmax
>>> try:
...     softmax(temperature=0.0)
... except TheoremsError as error:
...     print(type(error).__name__, "-", error)
InvalidArgument - temperature=0.0 must be a finite number > 0
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable
from typing import Any

from hypothesis.errors import InvalidArgument as _HypothesisInvalidArgument

__all__ = [
    "EngineInconsistency", "ExtractionMismatch", "IllDefined", "InvalidArgument", "InvalidArgumentType", "ModelError",
    "ModelRunFailed",
    "ModelUnavailableError", "NoAttentionError", "NoBallForm", "NoOutputProjectionError", "NotHomogeneous",
    "NotInvariant", "SideError", "SideValueError", "SlowSide", "TheoremsError", "TheoryFailure", "Undecided",
]


class TheoremsError(Exception):
    """The root: every exception raised on purpose by ``theorems``, ``strategies`` and ``empirical``."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if isinstance(self, _watched()):  # told at creation: a side cannot hide it by catching it
            for notice in _WATCHERS.get():
                notice(self)


def _watched() -> tuple[type, ...]:
    """The exceptions a :func:`watching` is told of: an undecided or unproved step of an evaluation on a box."""
    return Undecided, NoBallForm, NotHomogeneous, NotInvariant


_WATCHERS: contextvars.ContextVar[tuple] = contextvars.ContextVar("theorems_watchers", default=())


@contextlib.contextmanager
def watching(notice: Callable[[BaseException], None]):
    """Within this block, every ``Undecided``, ``NoBallForm``, ``NotHomogeneous`` or ``NotInvariant``
    created (raised) calls ``notice`` with itself, even one a
    side then catches in its own ``try``/``except``: an evaluation of a box (the prover's, the checker's, each with
    its own ``notice``) during which one was raised is failed as if it had propagated.

    >>> seen = []
    >>> with watching(seen.append):
    ...     try:
    ...         raise Undecided("x > 0 is undecided on this box")
    ...     except ArithmeticError:
    ...         pass
    >>> [type(e).__name__ for e in seen]
    ['Undecided']
    """
    token = _WATCHERS.set(_WATCHERS.get() + (notice,))
    try:
        yield
    finally:
        _WATCHERS.reset(token)


@contextlib.contextmanager
def unwatched():
    """Within this block no :func:`watching` is told: for the suite's own code that catches what it raises (a
    rigorous fallback, never a side's)."""
    token = _WATCHERS.set(())
    try:
        yield
    finally:
        _WATCHERS.reset(token)



@contextlib.contextmanager
def nothing_hidden():
    """Within this block, the first ``Undecided``, ``NoBallForm``, ``NotHomogeneous`` or ``NotInvariant`` raised is
    raised again when the block ends normally, even where the code inside caught it: a side's value that rests on a
    decision it hid (``try: ... except Exception: return fallback``) is no value (the prover's boxes, the checker's
    and the certifier's points, each in its own evaluation).

    >>> def side(x):
    ...     try:
    ...         raise Undecided("x > 0 is undecided on this box")
    ...     except ArithmeticError:
    ...         return 0.0
    >>> with nothing_hidden():
    ...     value = side(1.0)
    Traceback (most recent call last):
    theorems.errors.Undecided: x > 0 is undecided on this box
    """
    raised = []
    with watching(raised.append):
        yield
    if raised:
        raise raised[0]

class InvalidArgument(TheoremsError, _HypothesisInvalidArgument, ValueError):
    """An argument with a bad value (out of range, wrong shape, off the simplex, too much work, an unwritable
    path), raised at entry before any expensive step; the message names the argument, its value and what it must
    be. Hypothesis's own ``InvalidArgument`` too (what ``hypothesis.extra.numpy`` raises for a bad strategy
    argument), and a ``ValueError``."""


class InvalidArgumentType(TheoremsError, TypeError):
    """An argument of the wrong type (a string or ``bool`` for a number, a float for a count, a non-boolean
    mask, not a ``Statement``); the message names the argument and the type it must have. Also a
    ``TypeError``."""


class IllDefined(TheoremsError):
    """A side of a statement has no value at an instance: it is ``nan``, ``inf − inf``, or it raises.

    Not a counterexample and never "holds": ``check`` reports ``found == "ill-defined"``. A verdict about the
    statement, not a bad argument: no longer a ``ValueError``.
    """

    def __init__(self, statement_id: str, instance, side: str, reason: str, *, shown: Any = None) -> None:
        """``shown`` is the instance as the message and :meth:`to_json` show it (the raise sites pass
        :func:`theorems.engine.statement.jsonable` of it; this module imports nothing from the project);
        without it, the instance itself."""
        self.statement_id, self.instance, self.side, self.reason = statement_id, instance, side, reason
        self.shown = instance if shown is None else shown
        super().__init__(f"statement {statement_id!r} is ill-defined at instance {self.shown!r}: {side} {reason}")

    def to_json(self) -> dict[str, Any]:
        return {"statement": self.statement_id, "instance": self.shown, "side": self.side, "reason": self.reason}


class EngineInconsistency(TheoremsError):
    """The engine's enclosure of a side (its balls, or a proof box's enclosure) and a second rigorous enclosure of the
    same side at the same point (interval arithmetic, code apart from the ball forms) are disjoint: one of the
    engine's own forms computes another function than the one it stands for. A bug in the suite, not in the
    user's bound: no certificate rests on such balls, and ``check`` reports ``found == "engine-inconsistency"``
    (never matching ``expected``). ``value`` is the interval's midpoint, ``reference`` says how it was computed and
    which float64 value triggered the comparison; ``forms`` names the dispatch-table entries the side went through
    in balls, where the engine can tell (``docs/soundness.md``, "Cross-checks and engine inconsistencies").

    >>> error = EngineInconsistency("kl.identity", {"L": 3}, "lhs", ball="[-0.675 +/- 1e-16]", value=0.675,
    ...                             reference="float64", forms=("scipy.special.rel_entr",))
    >>> error.to_json()["forms"], "suite" in str(error)
    (['scipy.special.rel_entr'], True)
    """

    def __init__(self, statement_id: str, instance, side: str, *, ball: str, value: float, reference: str,
                 forms: tuple[str, ...] = (), element: tuple[int, ...] = (), shown: Any = None) -> None:
        self.statement_id, self.instance, self.side = statement_id, instance, side
        self.ball, self.value, self.reference, self.forms, self.element = ball, value, reference, tuple(forms), element
        self.shown = instance if shown is None else shown
        through = f"; the side went through the ball forms {', '.join(self.forms)}" if self.forms else ""
        super().__init__(
            f"engine inconsistency in statement {statement_id!r} at instance {self.shown!r}: {side} "
            f"(element {list(element)}) is {ball} in ball arithmetic but {value!r} in {reference}{through}. "
            "The suite's own arithmetic is wrong here (a bug in the suite, not in your bound): nothing is certified "
            "from it; please report it with this message")

    def to_json(self) -> dict[str, Any]:
        return {"statement": self.statement_id, "instance": self.shown, "side": self.side, "ball": self.ball,
                "value": self.value, "reference": self.reference, "forms": list(self.forms),
                "element": list(self.element)}


class Undecided(TheoremsError, ArithmeticError):
    """A comparison of two overlapping balls: its answer is not known at the working precision.

    Raised by :class:`~theorems.arithmetic.precision.Ball` comparisons (and so by ``np.max``, ``np.sort``,
    ``np.where(a > b, ...)`` on object arrays of balls) instead of guessing; the certifier retries at a higher
    precision and reports the instance as inconclusive when the answer is still unknown at
    :data:`~theorems.arithmetic.precision.MAX_BITS`.
    """


class NoBallForm(TheoremsError, ArithmeticError):
    """An operation that would leave ball arithmetic: it has no sound ball form here.

    Raised instead of silently handing back a float64 (``float()`` of a ball that is not an exact
    double, ``math.exp(ball)``, ``int()`` of a ball that is not an exact integer,
    ``np.asarray(balls, float)``) or a numpy/scipy function that has no ball form (its name is in the
    message). The certifier never certifies from such a side: the float64 violation becomes a
    *candidate* counterexample with this reason (``docs/soundness.md``).

    >>> import math, flint
    >>> from theorems.arithmetic.precision import Ball
    >>> math.exp(Ball(flint.arb(1) / 3))
    Traceback (most recent call last):
        ...
    theorems.errors.NoBallForm: float() of [0.333333333333333 +/- 3.71e-16] has no ball form here: it would drop the ball's radius (float(), math.*, np.asarray(..., float) call it); compute with xp (xp.exp, xp.log, ...) or numpy on the ball array
    """

    def __init__(self, operation: str, why: str = "") -> None:
        self.operation = operation
        super().__init__(f"{operation} has no ball form here" + (f": {why}" if why else ""))


class NotHomogeneous(TheoremsError):
    """A graded evaluation of a statement's sides (the proof checker's re-proof of a homogeneity reduction,
    ``theorems.checker``) met an operation that is not homogeneous: a sum or comparison of quantities of
    different degrees (``1/(4T) < √2``), ``exp``/``log`` of a quantity of nonzero degree, or two sides of different
    degrees. The checker rejects the certificate's reduction; it never reaches a user as an error of theirs."""


class NotInvariant(TheoremsError):
    """A tagged evaluation of a statement's sides (the proof checker's re-proof of a shift reduction,
    ``theorems.checker``) met an operation whose result is not known to move by a fixed multiple of ``c`` when the
    shifted key moves by ``c·1``: ``exp``/``log``/``abs`` or a comparison of a quantity that moves (``l[0] > 0``),
    a product of two quantities of which one moves and the other is no exact number (``T·l`` with ``T`` in the box),
    or two sides that move differently. The checker rejects the certificate's reduction; it never reaches a user
    as an error of theirs."""


class SideError(TheoremsError):
    """A side that cannot be checked at all (its value or its cost): raised before any verdict."""


class SideValueError(SideError, TypeError):
    """A side returned something that is not a real number or an array of real numbers."""


class SlowSide(SideError, RuntimeError):
    """One float64 call of a side took longer than its limit."""


class TheoryFailure(TheoremsError):
    """A verdict that differs from the expected one; its text is the whole failure report (raised by the pytest
    plugin's theory tests)."""


class ModelError(TheoremsError):
    """A real model (``empirical``) cannot be loaded, read or run as the algorithms need."""


class ModelUnavailableError(ModelError, RuntimeError):
    """The weights (or tokenizer) cannot be found locally and cannot be downloaded."""


class NoAttentionError(ModelError, RuntimeError):
    """The model cannot return per-head attention weights (no eager attention)."""


class ExtractionMismatch(ModelError, RuntimeError):
    """alpha recomputed from q, k differs from the model's attentions: the architecture does more."""


class NoOutputProjectionError(ModelError, ValueError):
    """The model's attention output projection ``W_O`` is not known for its architecture."""


class ModelRunFailed(ModelError, RuntimeError):
    """Running a model broke in a way no argument explains: the tokenizer built windows of another length than
    asked, or a benchmark's child process died (killed for memory, a crash in the forward pass), or a group of heads'
    process failed or died (``empirical.heads.forked_groups``)."""
