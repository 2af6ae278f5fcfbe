"""``theorems.verify_proof(path)``: a certificate re-checked by the independent checker, its statement looked up in the
catalogue by the certificate's id or, for a statement of one's own, in the module the certificate names (the checker
itself, below the catalogue, takes the statement or a mapping of them).

**Importing a module runs its code.** A certificate of a statement that is not in the catalogue records where the
statement lives (``"source"``: its module, its name there, the module's file, written by ``prove``); re-checking it
imports that module, and only that one, by its dotted name, or, where that name does not import, from the file
recorded. Re-check only certificates whose module you would run yourself; ``statement=`` (``--statements`` on the
command line) names the statement instead, and ``imports=False`` (``--no-import``) refuses to import anything.

>>> verify_proof("no-such-proof.json")
Traceback (most recent call last):
...
theorems.errors.InvalidArgument: ...
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from theorems import checker
from theorems.catalogue import STATEMENTS
from theorems.checker import REFINE, ProofCheck
from theorems.checker.certificate import read
from theorems.engine.statement import Statement
from theorems.errors import InvalidArgument


def verify_proof(path, *, statement=None, refine: int = REFINE, progress: Callable[[int, int], None] | None = None,
                 imports: bool = True) -> ProofCheck:
    """Re-check the certificate at ``path``; ``statement`` defaults to the catalogue's statement of the
    certificate's id, else to the statement in the module the certificate names (imported: see the module's
    docstring; ``imports=False`` refuses). Everything else is :func:`theorems.checker.verify_proof`'s."""
    if statement is None and imports:
        certificate = read(path)
        if certificate.statement_id not in STATEMENTS and certificate.source is not None:
            statement = statement_from_source(certificate.source, certificate.statement_id, where=str(path))
    return checker.verify_proof(path, statement=statement, refine=refine, progress=progress,
                                known=None if statement is not None else STATEMENTS)


def statement_from_source(source, statement_id: str, *, where: str) -> Statement:
    """The statement ``statement_id`` of the module ``source`` names (a :class:`~theorems.checker.certificate.Source`):
    the value of its recorded name, else the module-level statement with that id (alone, or in a module-level tuple,
    list or dict). The module is imported by its dotted name, or from its recorded file where the name does not
    import. An :class:`~theorems.errors.InvalidArgument` names what is missing."""
    module = _imported(source, where=where)
    candidates = [vars(module).get(source.name)] if source.name else []
    candidates += [value for value in vars(module).values() if not isinstance(value, type)]
    for value in candidates:
        for found in _statements_in(value):
            if found.id == statement_id:
                return found
    raise InvalidArgument(f"certificate {where}: the module {source.module!r} it names has no statement "
                          f"{statement_id!r} (pass statement=..., or --statements MODULE)")


def _imported(source, *, where: str):
    try:
        return importlib.import_module(source.module)
    except ImportError as error:
        failure = error
    file = Path(source.file) if source.file else None
    if file is None or not file.is_file():
        raise InvalidArgument(f"certificate {where}: its statement's module {source.module!r} cannot be imported "
                              f"({failure}) and its file {source.file!r} is not there") from None
    spec = importlib.util.spec_from_file_location(source.module, file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[source.module] = module  # as an import would: the module's own dataclasses look themselves up
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[source.module]
        raise InvalidArgument(f"certificate {where}: importing {file} failed: {type(error).__name__}: {error}") from None
    return module


def _statements_in(value) -> list[Statement]:
    if isinstance(value, Statement):
        return [value]
    if isinstance(value, (tuple, list)):
        return [v for v in value if isinstance(v, Statement)]
    if isinstance(value, Mapping):
        return [v for v in value.values() if isinstance(v, Statement)]
    return []


__all__ = ["statement_from_source", "verify_proof"]
