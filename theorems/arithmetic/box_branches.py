"""Branch evaluation of a side on a box: where a decision of the side is undecided on the box (an undecided ``max``,
``min``, ``abs``, a comparison behind ``np.where``, ``if`` or a sort), take one of its outcomes, and record where
that outcome is the side's.

A side evaluated once per sequence of outcomes (:class:`Branches`, enumerated depth first by :meth:`next_prefix`)
gives one enclosure per *path*; at every point of the box the side equals the path whose every outcome is the one
taken there, so the hull of the paths' enclosures holds the side, and a claim ``g ≤ 0`` proved on every path is
proved on the box. Each path's function is one fixed formula (``max(a, b)`` is ``a`` on the path that took ``a``),
smooth where its operations are, so the second-order form applies to it on the whole box even where the side has a
kink (the stable softmax's ``l − max l`` cancels on each path).

Each outcome carries its *conditions*: jets ``c`` with ``c ≥ 0`` wherever the side takes it (``a − b`` for ``max``
taking ``a``, ``b − a`` for ``a < b`` being true: the closure of each set). A path need only be bounded where its
conditions hold: ``g + Σ λ_j c_j ≤ 0`` on the box with ``λ_j ≥ 0`` gives ``g ≤ 0`` wherever every ``c_j ≥ 0``
(the prover picks the ``λ``, :mod:`theorems.engine.prove.branches`), so a branch whose value differs from the side's
away from where it is taken costs nothing there. ``continuous`` is False once a comparison (not a ``max``, ``min``
or ``abs``) was split: the side may jump between paths, and no face reduction (a monotone coordinate moved to its
end) is sound on such a box.

The choices live in a context variable (:func:`branching`), as the box does; outside a branch evaluation a rule
that meets an undecided decision raises as before (:func:`current`: ``None``).
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
from collections.abc import Sequence

_BRANCHES: contextvars.ContextVar["Branches | None"] = contextvars.ContextVar("box_branches", default=None)


@dataclasses.dataclass
class Branches:
    """One branch evaluation: ``prefix`` the outcomes to take first (then the first of each), ``made`` each
    ``(outcome, how many)``, ``conditions`` the jets ``c ≥ 0`` that hold wherever this path is the side's,
    ``continuous`` whether only kinks of continuous functions were split."""

    prefix: list[int] = dataclasses.field(default_factory=list)
    made: list[tuple[int, int]] = dataclasses.field(default_factory=list)
    conditions: list = dataclasses.field(default_factory=list)
    continuous: bool = True

    def choose(self, options: Sequence[Sequence], *, continuous: bool) -> int:
        """The outcome to take among ``len(options)``, ``options[i]`` the conditions under which outcome ``i`` is
        the side's; its conditions recorded."""
        at = len(self.made)
        pick = self.prefix[at] if at < len(self.prefix) else 0
        self.made.append((pick, len(options)))
        self.conditions.extend(options[pick])
        self.continuous = self.continuous and continuous
        return pick

    def next_prefix(self) -> list[int] | None:
        """The outcomes of the next path in depth-first order, or ``None`` after the last."""
        made = list(self.made)
        while made and made[-1][0] == made[-1][1] - 1:
            made.pop()
        return [pick for pick, _ in made[:-1]] + [made[-1][0] + 1] if made else None


def current() -> Branches | None:
    """The branch evaluation in force (``None``: an undecided decision raises)."""
    return _BRANCHES.get()


@contextlib.contextmanager
def branching(branches: Branches):
    """Within this block an undecided decision takes the outcome ``branches`` picks."""
    token = _BRANCHES.set(branches)
    try:
        yield branches
    finally:
        _BRANCHES.reset(token)


__all__ = ["Branches", "branching", "current"]
