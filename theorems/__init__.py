"""The statements of "Limitations of Normalization in Attention Mechanism" as executable predicates.

>>> from theorems import STATEMENTS, check
>>> check(STATEMENTS["lemma1.upper"], max_examples=50, seed=0).found
'holds'

Every public name is loaded on first use (PEP 562), so that ``import theorems.app.plugin`` (at every
pytest start, through the ``pytest11`` entry point) loads neither python-flint, mpmath nor the catalogue. The
error classes (:mod:`theorems.errors`, which imports no project module) are exported here too.
"""

import importlib

_WHERE = {
    "theorems.engine.derivation": ("Derivation", "Link", "Term", "expect", "gate"),
    "theorems.engine.prove": ("Proof", "prove"),
    "theorems.checker": ("ProofCheck",),
    "theorems.app.verify": ("verify_proof",),
    "theorems.engine.search": ("Certificate", "Counterexample", "Necessity", "SearchReport", "Tightness", "Verdict",
                               "certify", "check", "investigate", "necessity", "refute"),
    "theorems.engine.statement": ("Hypothesis", "Statement"),
    # the catalogue imports the statement families, which import `strategies`, which imports
    # `theorems.maths.normalisers`: loaded lazily, `import strategies` has no import cycle
    "theorems.catalogue": ("STATEMENTS", "select"),
    # the error tree (docs/errors.md): `except TheoremsError` catches every error the suite raises
    "theorems.errors": ("EngineInconsistency", "ExtractionMismatch", "IllDefined", "InvalidArgument",
                        "InvalidArgumentType", "ModelError",
                        "ModelRunFailed", "ModelUnavailableError", "NoAttentionError", "NoBallForm",
                        "NoOutputProjectionError", "NotHomogeneous", "NotInvariant", "SideError", "SideValueError",
                        "SlowSide",
                        "TheoremsError", "TheoryFailure", "Undecided"),
}
_MODULE = {name: module for module, names in _WHERE.items() for name in names}

__all__ = sorted(_MODULE)


def __getattr__(name: str):
    module = _MODULE.get(name)
    if module is None:
        raise AttributeError(f"module 'theorems' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next look-up is an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
