"""What ``prove`` returns (:class:`Proof`) and what one branch-and-bound ends with (:class:`Outcome`).

>>> proof = Proof(statement_id="s", status="proved", domain="gaps ∈ [0, 10]^1, T ∈ [0.1, 10]", slack=1e-6, boxes=9,
...               seconds=0.1, sup=None, box={"T": [0.09999999999999999, 10.0]}, method="m", checker="proved",
...               tokens=2)
>>> proof.scope()
'T ∈ [0.1, 10], L = 2; method: m; independent checker: proved'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from theorems.arithmetic.decimals import interval_text, number_text
from theorems.engine.search import Counterexample
from theorems.engine.statement import jsonable

STATUSES = ("proved", "refuted", "undecided")


@dataclasses.dataclass(frozen=True, kw_only=True)
class Proof:
    """The outcome of :func:`~theorems.engine.prove.prove`. ``status`` is ``"proved"`` (``small ≤ big + slack·|big|``
    on the whole domain), ``"refuted"`` (``counterexample`` certified in balls, as in ``check``) or ``"undecided"``
    (the budget ran out, or a side has no ball form: ``detail`` says which; ``worst_box`` is where)."""

    statement_id: str
    status: str
    domain: str
    slack: float
    boxes: int
    seconds: float
    sup: tuple[float, float] | None
    worst_box: str | None = None
    counterexample: Counterexample | None = None
    detail: str = ""
    box: Mapping[str, Any] | None = None
    method: str = ""
    checker: str | None = None
    checker_detail: str = ""
    tokens: int | None = None
    certificate_data: Mapping[str, Any] | None = dataclasses.field(default=None, repr=False, compare=False)
    """The proof as a certificate's JSON (when proved): :func:`theorems.engine.prove.certificate.checked` writes
    and re-checks it."""

    def scope(self) -> str:
        """What was proved, in one line: the ``T`` range, ``L``, the method and the checker's agreement."""
        box = self.box or {}
        t = box.get("T")
        parts = ["T ∈ [{}, {}]".format(*interval_text(*t)) if isinstance(t, list) else
                 f"T = {number_text(t)}" if isinstance(t, (int, float)) else "no T"]
        if self.tokens is not None:
            parts[0] += f", L = {self.tokens}"
        if self.method:
            parts.append(f"method: {self.method}")
        parts.append(f"independent checker: {self.checker}" if self.checker else
                     f"independent checker: {self.checker_detail or 'not run'}")
        return "; ".join(parts)

    def describe(self) -> str:
        sup = f"sup ratio ∈ [{self.sup[0]:.9g}, {self.sup[1]:.9g}]" if self.sup else "no ratio enclosure"
        text = f"{self.status} on {self.domain}, slack {self.slack:g} ({self.boxes} boxes, {self.seconds:.1f} s; {sup})"
        if self.status == "undecided":
            text += f"; {self.detail}" + (f"; worst box {self.worst_box}" if self.worst_box else "")
        if self.status == "proved":
            text += f"; {self.scope()}"
        if self.counterexample is not None:
            cx = self.counterexample
            text += (f"; counterexample {jsonable(cx.instance)}: lhs = {cx.lhs:.6g}, rhs = {cx.rhs:.6g} "
                     f"(certified: {cx.method})")
        return text

    def to_json(self) -> dict[str, Any]:
        return {"statement": self.statement_id, "status": self.status, "domain": self.domain, "slack": self.slack,
                "boxes": self.boxes, "seconds": round(self.seconds, 3), "sup": list(self.sup) if self.sup else None,
                "worst_box": self.worst_box, "detail": self.detail,
                "counterexample": self.counterexample.to_json() if self.counterexample else None,
                "box": self.box, "method": self.method, "checker": self.checker, "tokens": self.tokens,
                "scope": self.scope()}


@dataclasses.dataclass(frozen=True, kw_only=True)
class Outcome:
    """How one branch-and-bound ended: ``status`` (one of :data:`STATUSES`), ``worst_box`` (the open box it stopped
    at), ``counterexample`` (a refutation's, certified), ``detail`` (why it is undecided); ``search`` is its state
    (:class:`~theorems.engine.prove.state.BranchAndBound`: boxes, the enclosure of the sup, the closed boxes)."""

    status: str
    search: Any
    worst_box: str | None = None
    counterexample: Counterexample | None = None
    detail: str = ""

    @property
    def proved(self) -> bool:
        return self.status == "proved"


__all__ = ["Outcome", "Proof", "STATUSES"]
