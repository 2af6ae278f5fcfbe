"""A proof as data: the certificate ``prove(..., certificate=PATH)`` writes, in the format that
``python -m theorems verify-proof PATH`` reads (:mod:`theorems.checker.certificate`; ``docs/proofs.md``,
"Certificate format").

The prover records each box it closed (its corners, the faces it collapsed to per element, the bound of
``small/big`` it proved there and the method that closed it); this module turns that record and the domain into
JSON and hands the file to the independent checker. Nothing here bounds anything: it only writes what the
search found, so the checker judges the search, not this module.

>>> spec = domain_spec({"gaps": [(0.0, 10.0)], "T": 1.0, "name": "x"})
>>> spec["gaps"], spec["T"]
({'intervals': [[0.0, 10.0]]}, {'value': 1.0})
"""

from __future__ import annotations

import dataclasses
import json
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from theorems.arithmetic.files import check_output_path
from theorems.checker.certificate import FORMAT
from theorems.checker import verify as checker
from theorems.engine.prove.domain import interval_bounds, is_interval
from theorems.engine.prove.state import now
from theorems.errors import InvalidArgument

METHODS = ("mean-value", "mean-value+faces", "taylor2", "taylor2+faces", "mean-value+branches", "taylor2+branches")
"""How a box was closed: the dual's enclosure (plain interval value ∩ mean-value form) or the second-order Taylor
form (jets of order 2, :mod:`theorems.arithmetic.box_jet`) on the whole box, or either after the face reductions where ``g`` is
certainly monotone, or either path by path where a decision of the side is undecided on the box
(:mod:`theorems.engine.prove.branches`; no faces there)."""


@dataclasses.dataclass(frozen=True)
class Leaf:
    """One closed box: ``low``/``high`` over the free coordinates, ``faces[e]`` the face reductions of element
    ``e`` in the order applied, ``bound`` the proved upper bound of ``small/big`` (``None``: only the theorem)."""

    low: tuple[float, ...]
    high: tuple[float, ...]
    faces: Mapping[int, tuple[tuple[int, str], ...]]
    bound: float | None
    form: str = "mean-value"
    """The enclosure that closed the box: ``"mean-value"`` or ``"taylor2"`` (where any element needed it)."""
    piece: int | None = None
    """The piece of a shift reduction's base it lies in (``None``: no shift)."""

    @property
    def method(self) -> str:
        return f"{self.form}+faces" if any(self.faces.values()) else self.form

    def to_json(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"low": [float(x) for x in self.low], "high": [float(x) for x in self.high],
                                 "method": self.method}
        if self.bound is not None:
            entry["bound"] = float(self.bound)
        faces = {str(e): [[int(k), side] for k, side in steps] for e, steps in self.faces.items() if steps}
        if faces:
            entry["faces"] = faces
        if self.piece is not None:
            entry["piece"] = int(self.piece)
        return entry


def checked_path(path) -> Path:
    """``path`` validated before any work: a file whose folder exists (or can be made) and is writable.

    >>> checked_path("/dev/null/proof.json")
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: certificate='/dev/null/proof.json' cannot be written: '/dev/null' is not a directory
    """
    return check_output_path(path, name="certificate", kind="file")


def domain_spec(domain: Mapping[str, Any]) -> dict[str, Any]:
    """``prove``'s domain (intervals, arrays of intervals, fixed values, named objects) as the certificate's JSON."""
    spec = {}
    for key, value in domain.items():
        if is_interval(value):
            spec[key] = {"interval": [float(value[0]), float(value[1])]}
            continue
        bounds = interval_bounds(key, value)
        if bounds is not None:
            spec[key] = {"intervals": bounds.tolist()}
        elif isinstance(value, np.ndarray):
            spec[key] = {"value": value.astype(float).tolist()}
        elif isinstance(value, (bool, np.bool_)):
            raise InvalidArgument(f"domain[{key!r}]={value!r}: a boolean cannot be written to a certificate")
        elif isinstance(value, (int, np.integer)):
            spec[key] = {"value": int(value)}
        elif isinstance(value, (float, np.floating)):
            spec[key] = {"value": float(value)}
        elif isinstance(value, (list, tuple)) and all(isinstance(v, (int, float)) for v in np.ravel(value)):
            spec[key] = {"value": np.asarray(value, dtype=float).tolist()}
        else:  # a normaliser or another object: the checker takes it, by name, from the statement's declared domain
            spec[key] = {"name": str(getattr(value, "name", value))}
    return spec


def certificate_json(*, statement, domain: Mapping[str, Any], slack: float, leaves, reduction=None, shift=None,
                     bits: int = 0) -> dict:
    """The certificate of a proof of ``statement`` on ``domain`` whose closed boxes are ``leaves`` (``bits``: the
    precision the checker should work at, at least; 0: its own); ``reduction``/``shift``: the reductions'
    fields (:mod:`~theorems.engine.prove.reduction`); ``source``: where the statement lives (:func:`source_of`)."""
    data = {"bits": int(bits), "format": FORMAT, "version": 2 if shift else 1, "statement": statement.id,
            "relation": statement.relation, "slack": float(slack), "domain": domain_spec(domain),
            "reduction": reduction, "boxes": [leaf.to_json() for leaf in leaves]}
    if shift:
        data["shift"] = shift
    source = source_of(statement)
    if source is not None:
        data["source"] = source
    return data


def source_of(statement) -> dict[str, Any] | None:
    """Where ``statement`` lives, so that ``verify-proof PATH`` finds it: the module of its ``lhs`` and the
    module-level name bound to it there (``None``: none found; then the module is searched by the statement's id,
    in module-level tuples and lists too), and the module's file. ``None`` for a statement whose sides come from no
    importable module (``__main__``, a lambda typed at a prompt)."""
    module = sys.modules.get(getattr(statement.lhs, "__module__", None) or "")
    if module is None or module.__name__ == "__main__":
        return None
    name = next((key for key, value in vars(module).items() if value is statement), None)
    file = getattr(module, "__file__", None)
    return {"module": module.__name__, "name": name, "file": str(Path(file).resolve()) if file else None}


def write(path: Path, data: Mapping[str, Any]) -> None:
    path.write_text(json.dumps(data), encoding="utf-8")


CHECK_BOXES = 5000
"""The most boxes the plugin and ``check --prove`` re-check at once (the checker is the slower, smaller one:
about 1–7 ms a box); a larger proof says how to re-check it."""


def checked(proof, statement, *, path: Path, deadline: float | None = None) -> Any:
    """``proof`` with the checker's verdict: its certificate written to ``path`` (validated already: by
    :func:`checked_path`, or a temporary file) and re-checked by ``deadline`` (a reading of the prover's clock,
    :func:`~theorems.engine.prove.state.now`; ``None``: none). A proof that is not ``proved`` is returned as it is, and no
    file is written: a certificate exists only for a proof. A proof whose certificate the checker rejects is
    ``undecided`` (prover and checker disagree, so one of them is wrong), and its file is removed."""
    if proof.status != "proved" or proof.certificate_data is None:
        return proof
    write(path, proof.certificate_data)
    status, text = check(path, statement, deadline=deadline)
    if status == "rejected":  # two computations disagree: one of them is wrong, so nothing is proved
        path.unlink(missing_ok=True)
        return dataclasses.replace(proof, status="undecided", sup=None, checker=status, checker_detail=text,
                                   detail=f"the prover closed every box, but the independent checker rejected its "
                                          f"certificate: {text}")
    return dataclasses.replace(proof, checker=status, checker_detail=text)


def checked_if_small(proof, statement) -> Any:
    """``proof`` re-checked in a temporary file when it has at most :data:`CHECK_BOXES` boxes, else with
    ``checker_detail`` saying how to re-check it."""
    if proof.status != "proved" or proof.checker is not None:
        return proof
    if proof.boxes > CHECK_BOXES:
        return dataclasses.replace(proof, checker_detail=f"not run here ({proof.boxes} boxes > {CHECK_BOXES}): "
                                   "prove(..., certificate=PATH), then python -m theorems verify-proof PATH")
    with tempfile.TemporaryDirectory() as folder:
        return checked(proof, statement, path=Path(folder) / "proof.json")


class _OutOfTime(Exception):
    """The deadline passed while the checker re-checked a certificate (raised from its progress callback)."""


def check(path: Path, statement, *, deadline: float | None = None) -> tuple[str, str]:
    """``(status, text)``: the independent checker's verdict on the certificate at ``path``, or ``"not checked"``
    when ``deadline`` passes first (checked after each box)."""
    def progress(done: int, total: int) -> None:
        if deadline is not None and now() > deadline and done < total:
            raise _OutOfTime(f"the time limit was reached while the checker re-checked box {done} of {total}")

    try:
        result = checker.verify_proof(path, statement=statement, progress=progress)
    except InvalidArgument as error:  # e.g. a fixed object the statement's declared domain does not hold
        return "not checked", str(error)
    except _OutOfTime as error:
        return "not checked", str(error)
    return result.status, result.describe()
