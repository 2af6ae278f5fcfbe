"""Reading a proof certificate (``prove(..., certificate=PATH)``, ``docs/proofs.md``, "Certificate format") into
exact data: every endpoint a :class:`~fractions.Fraction` (a JSON float is the dyadic rational it denotes), every
malformed field an :class:`~theorems.errors.InvalidArgument` naming the file and the field.

>>> domain = CertificateDomain.parse({"gaps": {"intervals": [[0, 10]]}, "T": {"value": 1.0}}, where="domain")
>>> domain.free, domain.lows, domain.describe()
(('gaps',), (Fraction(0, 1),), 'gaps ∈ [0, 10]^1, T = 1')
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from theorems.arithmetic.decimals import domain_text
from theorems.arithmetic.files import check_text_file
from theorems.errors import InvalidArgument, InvalidArgumentType

FORMAT = "theorems.proof-certificate"
VERSION = 2
"""The newest certificate format version this checker reads (2: a shift reduction, ``"shift"``, and boxes by
``"piece"``; a certificate without one is written as version 1)."""
SIDES_INVARIANT = ("each", "difference")
"""What a shift reduction claims does not move: each side (the claim ``small ≤ big + slack·|big|`` is the same at
``l`` and ``l − max l``), or only ``lhs − rhs`` (the slack is then measured at the shifted instance)."""
SIDES = ("low", "high")


def exact(value, *, where: str) -> Fraction:
    """A JSON number (or a string such as ``"1/3"``) as the exact rational it denotes."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InvalidArgument(f"{where} must be a number, got {value!r}")
    try:
        number = Fraction(value)
    except (ValueError, ZeroDivisionError, OverflowError):
        raise InvalidArgument(f"{where} must be a finite number, got {value!r}") from None
    return number


@dataclasses.dataclass(frozen=True)
class CertificateDomain:
    """Instance keys (or parameters) in order: the free ones (``free``, of shapes ``shapes``) flattened into the
    box coordinates ``lows``/``highs``, the others ``fixed`` (numbers, arrays, or a named object)."""

    order: tuple[str, ...]
    free: tuple[str, ...]
    shapes: tuple[tuple[int, ...], ...]
    lows: tuple[Fraction, ...]
    highs: tuple[Fraction, ...]
    fixed: Mapping[str, Any]

    @classmethod
    def parse(cls, spec, *, where: str) -> "CertificateDomain":
        if not isinstance(spec, Mapping) or not spec:
            raise InvalidArgument(f"{where} must be a non-empty object of keys to intervals or values")
        free, shapes, lows, highs, fixed = [], [], [], [], {}
        for key, entry in spec.items():
            at = f"{where}[{key!r}]"
            if not isinstance(entry, Mapping) or len(entry) != 1:
                raise InvalidArgument(f"{at} must be one of {{'interval': [low, high]}}, {{'intervals': [[low, high], "
                                      f"...]}}, {{'value': ...}}, {{'name': ...}}; got {entry!r}")
            (kind, value), = entry.items()
            if kind in ("interval", "intervals"):
                bounds = np.array(value, dtype=object)
                if bounds.ndim < 1 or bounds.shape[-1] != 2 or (kind == "interval") != (bounds.ndim == 1):
                    shape = "[low, high]" if kind == "interval" else "a (nested) list of [low, high] pairs"
                    raise InvalidArgument(f"{at}: {kind!r} must be {shape}")
                pairs = [(exact(lo, where=at), exact(hi, where=at)) for lo, hi in bounds.reshape(-1, 2)]
                if any(lo > hi for lo, hi in pairs):
                    raise InvalidArgument(f"{at}: every interval must have low <= high")
                free.append(key)
                shapes.append(tuple(bounds.shape[:-1]))
                lows.extend(lo for lo, _ in pairs)
                highs.extend(hi for _, hi in pairs)
            elif kind == "value":
                fixed[key] = _value(value, where=at)
            elif kind == "name":
                fixed[key] = _Named(str(value))
            else:
                raise InvalidArgument(f"{at}: unknown kind {kind!r} (interval, intervals, value or name)")
        if not free:
            raise InvalidArgument(f"{where} has no interval: nothing was proved over it")
        return cls(tuple(spec), tuple(free), tuple(shapes), tuple(lows), tuple(highs), fixed)

    @property
    def size(self) -> int:
        return len(self.lows)

    def sizes(self) -> list[int]:
        return [math.prod(shape) for shape in self.shapes]

    def assemble(self, coordinates, *, wrap, fixed) -> dict[str, Any]:
        """The instance whose free coordinates are ``coordinates`` (arrays through ``wrap``), ``fixed`` the values
        of the others."""
        values, at = {}, 0
        for key, shape, n in zip(self.free, self.shapes, self.sizes()):
            chunk = coordinates[at:at + n]
            at += n
            values[key] = chunk[0] if not shape else wrap(np.array(chunk, dtype=object).reshape(shape))
        return {key: values[key] if key in values else fixed[key] for key in self.order}

    def describe(self, lows=None, highs=None) -> str:
        """The domain (or the box ``[lows, highs]`` of it) as text, as the prover prints it (the shared printing of
        :mod:`theorems.arithmetic.decimals`: the shortest decimals inside each interval)."""
        return domain_text(order=self.order, shapes=dict(zip(self.free, self.shapes)), fixed=self.fixed,
                           lows=lows or self.lows, highs=highs or self.highs)


@dataclasses.dataclass(frozen=True)
class _Named:
    """A fixed value written by name (a normaliser): the statement's declared domain must hold it."""

    name: str


def _value(value, *, where: str):
    if isinstance(value, (list, tuple)):
        array = np.array(value, dtype=object)
        return np.array([float(exact(v, where=where)) for v in array.ravel()]).reshape(array.shape)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return float(exact(value, where=where))


@dataclasses.dataclass(frozen=True)
class BoxClaim:
    """One box of the certificate: ``low``/``high`` over the domain's coordinates; ``bound`` the claimed upper
    bound of ``small/big`` on it (``None``: only the theorem's ``1 + slack``); ``faces[e]`` the face reductions
    claimed for element ``e`` (key ``None``: every element), each ``(coordinate, "low" | "high")``."""

    low: tuple[Fraction, ...]
    high: tuple[Fraction, ...]
    bound: Fraction | None
    faces: Mapping[int | None, tuple[tuple[int, str], ...]]
    method: str
    piece: int = 0
    """The piece of a shift reduction's base the box lies in (0 without one)."""


@dataclasses.dataclass(frozen=True)
class Homogeneity:
    """The claimed reduction: the sides scale as ``λ^deg`` when every key ``k`` is scaled by ``λ^degrees[k]``
    (``λ > 0``), so the theorem on ``base`` (where the ``scale`` key is fixed) gives it on the domain."""

    degrees: Mapping[str, Fraction]
    scale: str
    base: CertificateDomain


@dataclasses.dataclass(frozen=True)
class Shift:
    """The claimed shift reduction, applied after a homogeneity reduction (at the base's fixed ``T``): the sides
    (``sides``: each, or their difference) do not move when ``key`` moves by ``c·1``, so the theorem at
    ``l − (max l)·1`` gives it at ``l``. ``pieces[i] = (top, domain)``: the boxes of piece ``i`` tile ``domain``, which
    must hold every shifted instance whose largest entry is entry ``top`` (there it is 0)."""

    key: str
    sides: str
    pieces: tuple[tuple[int, CertificateDomain], ...]


@dataclasses.dataclass(frozen=True)
class Source:
    """Where the certificate's statement lives: a module (dotted name) and the statement's name in it, and the
    module's file (what ``verify-proof`` imports when the statement is not in the catalogue)."""

    module: str
    name: str | None
    file: str | None


@dataclasses.dataclass(frozen=True)
class ProofCertificate:
    path: str
    statement_id: str
    relation: str | None
    slack: Fraction
    domain: CertificateDomain
    homogeneity: Homogeneity | None
    boxes: tuple[BoxClaim, ...]
    bits: int = 0
    shift: Shift | None = None
    source: Source | None = None

    @property
    def proved_on(self) -> CertificateDomain:
        """The domain the boxes are evaluated in: a shift reduction's first piece (every piece has its keys and
        shapes), the homogeneity reduction's base, or the domain itself."""
        return self.pieces[0]

    @property
    def pieces(self) -> tuple[CertificateDomain, ...]:
        """The domains the boxes tile, box ``b`` in ``pieces[b.piece]``."""
        if self.shift:
            return tuple(domain for _, domain in self.shift.pieces)
        return (self.homogeneity.base if self.homogeneity else self.domain,)


def read(path) -> ProofCertificate:
    """The certificate at ``path``, checked field by field (:class:`InvalidArgument` names the file and the field)."""
    if not isinstance(path, (str, Path)):
        raise InvalidArgumentType(f"path must be a str or a pathlib.Path, not {type(path).__name__}")
    file = check_text_file(path, name="path", kind="a proof certificate (JSON)")
    try:
        data = json.loads(file.read_text(encoding="utf-8-sig"))
    except OSError as error:
        raise InvalidArgument(f"path={str(path)!r} cannot be read: {error.strerror or error}") from None
    except json.JSONDecodeError as error:
        raise InvalidArgument(f"path={str(path)!r} is not a proof certificate: not JSON ({error})") from None
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise InvalidArgument(f"path={str(path)!r} is not a proof certificate (no \"format\": {FORMAT!r}); "
                              "write one with prove(..., certificate=PATH)")
    return parse(data, path=str(path))


def parse(data: Mapping, *, path: str = "<certificate>") -> ProofCertificate:
    def field(name, kinds):
        if name not in data:
            raise InvalidArgument(f"certificate {path}: the field {name!r} is missing")
        if not isinstance(data[name], kinds):
            raise InvalidArgument(f"certificate {path}: {name!r} must be {kinds}, got {data[name]!r}")
        return data[name]

    version = field("version", int)
    if version > VERSION or version < 1:
        raise InvalidArgument(f"certificate {path} has format version {version}; this checker reads versions 1 to "
                              f"{VERSION}: upgrade attention-normalisation-limits to check it")
    statement_id = field("statement", str)
    relation = data.get("relation")
    slack = exact(field("slack", (int, float, str)), where=f"certificate {path}: 'slack'")
    if not 0 <= slack <= 1:
        raise InvalidArgument(f"certificate {path}: 'slack' must lie in [0, 1], got {float(slack)}")
    domain = CertificateDomain.parse(field("domain", Mapping), where=f"certificate {path}: 'domain'")
    homogeneity = _homogeneity(data.get("reduction"), domain, path=path)
    shift = _shift(data.get("shift"), homogeneity.base if homogeneity else domain, path=path)
    if shift is not None and version < 2:
        raise InvalidArgument(f"certificate {path}: a shift reduction needs format version 2, got {version}")
    pieces = [d for _, d in shift.pieces] if shift else [homogeneity.base if homogeneity else domain]
    boxes = tuple(_box(box, pieces, where=f"certificate {path}: boxes[{i}]")
                  for i, box in enumerate(field("boxes", list)))
    if not boxes:
        raise InvalidArgument(f"certificate {path}: 'boxes' is empty")
    bits = data.get("bits", 0)
    if isinstance(bits, bool) or not isinstance(bits, int) or not 0 <= bits <= 4096:
        raise InvalidArgument(f"certificate {path}: 'bits' must be an integer in 0..4096 (the precision to check at)")
    return ProofCertificate(path, statement_id, relation, slack, domain, homogeneity, boxes, bits, shift,
                            _source(data.get("source"), path=path))


def _box(entry, pieces, *, where: str) -> BoxClaim:
    if not isinstance(entry, Mapping) or "low" not in entry or "high" not in entry:
        raise InvalidArgument(f"{where} must be an object with 'low' and 'high'")
    piece = entry.get("piece", 0)
    if isinstance(piece, bool) or not isinstance(piece, int) or not 0 <= piece < len(pieces):
        raise InvalidArgument(f"{where}.piece must be an integer in 0..{len(pieces) - 1}, got {piece!r}")
    size = pieces[piece].size
    low, high = ([exact(x, where=f"{where}.{side}") for x in _list(entry[side], f"{where}.{side}")]
                 for side in SIDES)
    if len(low) != size or len(high) != size:
        raise InvalidArgument(f"{where}: 'low' and 'high' must have {size} coordinates, got {len(low)} and {len(high)}")
    if any(a > b for a, b in zip(low, high)):
        raise InvalidArgument(f"{where}: low must be <= high in every coordinate")
    bound = entry.get("bound")
    faces = entry.get("faces") or {}
    if isinstance(faces, list):
        faces = {None: faces}
    if not isinstance(faces, Mapping):
        raise InvalidArgument(f"{where}.faces must be a list of [coordinate, 'low'|'high'] or an object of them by element")
    parsed = {}
    for element, steps in faces.items():
        key = None if element is None or element == "*" else int(element)
        parsed[key] = tuple(_face(step, size, where=f"{where}.faces") for step in _list(steps, f"{where}.faces"))
    return BoxClaim(tuple(low), tuple(high), None if bound is None else exact(bound, where=f"{where}.bound"), parsed,
                    str(entry.get("method", "")), piece)


def _face(step, size: int, *, where: str) -> tuple[int, str]:
    if (not isinstance(step, (list, tuple)) or len(step) != 2 or not isinstance(step[0], int)
            or not 0 <= step[0] < size or step[1] not in SIDES):
        raise InvalidArgument(f"{where}: each face must be [coordinate in 0..{size - 1}, 'low' | 'high'], got {step!r}")
    return int(step[0]), str(step[1])


def _list(value, where: str) -> list:
    if not isinstance(value, list):
        raise InvalidArgument(f"{where} must be a list, got {value!r}")
    return value


def _homogeneity(entry, domain: CertificateDomain, *, path: str) -> Homogeneity | None:
    if entry is None:
        return None
    where = f"certificate {path}: 'reduction'"
    if not isinstance(entry, Mapping) or entry.get("kind") != "homogeneity":
        raise InvalidArgument(f"{where} must be null or {{'kind': 'homogeneity', 'degrees': ..., 'scale': ..., "
                              f"'base': ...}}; this checker re-proves no other reduction, got {entry!r}")
    degrees = entry.get("degrees")
    if not isinstance(degrees, Mapping) or not degrees:
        raise InvalidArgument(f"{where}: 'degrees' must map keys to their degrees")
    degrees = {str(k): exact(v, where=f"{where}.degrees[{k!r}]") for k, v in degrees.items()}
    scale = entry.get("scale")
    if scale not in degrees or degrees[scale] != 1:
        raise InvalidArgument(f"{where}: 'scale' must name a key of degree 1 in 'degrees', got {scale!r}")
    base = CertificateDomain.parse(entry.get("base"), where=f"{where}.base")
    return Homogeneity(degrees, scale, base)


def _shift(entry, before: CertificateDomain, *, path: str) -> Shift | None:
    """The ``"shift"`` field: ``{"key": K, "sides": "each" | "difference", "pieces": [{"top": i, "domain": ...}]}``,
    every piece of the same keys and shapes as ``before`` (the domain the shift applies to)."""
    if entry is None:
        return None
    where = f"certificate {path}: 'shift'"
    if not isinstance(entry, Mapping) or not isinstance(entry.get("pieces"), list) or not entry["pieces"]:
        raise InvalidArgument(f"{where} must be null or {{'key': ..., 'sides': ..., 'pieces': [...]}}, got {entry!r}")
    key, sides = entry.get("key"), entry.get("sides")
    if key not in before.free or len(before.shapes[before.free.index(key)]) != 1:
        raise InvalidArgument(f"{where}: 'key' must name a vector of intervals of the domain, got {key!r}")
    if sides not in SIDES_INVARIANT:
        raise InvalidArgument(f"{where}: 'sides' must be one of {SIDES_INVARIANT}, got {sides!r}")
    length = before.shapes[before.free.index(key)][0]
    pieces = []
    for i, piece in enumerate(entry["pieces"]):
        at = f"{where}.pieces[{i}]"
        top = piece.get("top") if isinstance(piece, Mapping) else None
        if isinstance(top, bool) or not isinstance(top, int) or not 0 <= top < length:
            raise InvalidArgument(f"{at}.top must be an entry of {key!r} (0..{length - 1}), got {top!r}")
        domain = CertificateDomain.parse(piece.get("domain"), where=f"{at}.domain")
        if (domain.order, domain.free, domain.shapes) != (before.order, before.free, before.shapes):
            raise InvalidArgument(f"{at}.domain must have the keys and shapes of the domain it reduces")
        pieces.append((top, domain))
    return Shift(str(key), str(sides), tuple(pieces))


def _source(entry, *, path: str) -> Source | None:
    """The optional ``"source"`` field: ``{"module": M, "name": N, "file": F}`` (name and file may be null)."""
    if entry is None:
        return None
    where = f"certificate {path}: 'source'"
    if not isinstance(entry, Mapping) or not isinstance(entry.get("module"), str) or not entry["module"]:
        raise InvalidArgument(f"{where} must be null or {{'module': ..., 'name': ..., 'file': ...}}, got {entry!r}")
    name, file = entry.get("name"), entry.get("file")
    for field, value in (("name", name), ("file", file)):
        if value is not None and not isinstance(value, str):
            raise InvalidArgument(f"{where}.{field} must be a string or null, got {value!r}")
    return Source(entry["module"], name, file)
