"""One error tree (``docs/errors.md``): every class of ``theorems.errors`` descends from ``TheoremsError``, keeps the
builtin base it had before the tree (so older ``except ValueError`` still catch it), is exported from ``theorems``
and is the same class at its old import location."""

import importlib
import inspect

import pytest
from hypothesis.errors import InvalidArgument as HypothesisInvalidArgument

import theorems
import theorems.errors as errors
from theorems.errors import TheoremsError

BUILTIN_BASES = {  # the bases each class had before the tree; none may be lost
    "InvalidArgument": (ValueError, HypothesisInvalidArgument),
    "InvalidArgumentType": (TypeError,),
    "IllDefined": (),
    "EngineInconsistency": (),
    "Undecided": (ArithmeticError,),
    "NoBallForm": (ArithmeticError,),
    "NotHomogeneous": (),
    "NotInvariant": (),
    "SideError": (),
    "SideValueError": (TypeError,),
    "SlowSide": (RuntimeError,),
    "TheoryFailure": (),
    "ModelError": (),
    "ModelUnavailableError": (RuntimeError,),
    "NoAttentionError": (RuntimeError,),
    "ExtractionMismatch": (RuntimeError,),
    "NoOutputProjectionError": (ValueError,),
    "ModelRunFailed": (RuntimeError,),
}
OLD_HOMES = {  # where each class was defined before the tree: that import must keep working
    "InvalidArgument": "theorems.arithmetic.validation", "IllDefined": "theorems.engine.search",
    "Undecided": "theorems.arithmetic.precision", "NoBallForm": "theorems.arithmetic.precision",
    "SideError": "theorems.engine.sides", "SideValueError": "theorems.engine.sides", "SlowSide": "theorems.engine.sides",
    "TheoryFailure": "theorems.app.plugin", "ModelUnavailableError": "empirical.heads.loading",
    "NoAttentionError": "empirical.heads.loading", "ExtractionMismatch": "empirical.heads.extraction",
    "NoOutputProjectionError": "empirical.heads.projections",
}


def _classes() -> dict[str, type]:
    return {name: value for name, value in vars(errors).items()
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == errors.__name__}


def test_every_class_is_a_theorems_error_with_a_docstring_and_is_listed():
    classes = _classes()
    assert set(classes) == set(errors.__all__) == set(BUILTIN_BASES) | {"TheoremsError"}
    for name, cls in classes.items():
        assert issubclass(cls, TheoremsError), name
        assert cls.__doc__ and cls.__doc__.strip(), f"{name} has no docstring saying when it is raised"


@pytest.mark.parametrize("name", sorted(BUILTIN_BASES))
def test_each_class_keeps_its_builtin_base(name):
    cls = getattr(errors, name)
    for base in BUILTIN_BASES[name]:
        assert issubclass(cls, base), f"{name} is no longer a {base.__name__}"


def test_ill_defined_is_a_verdict_not_a_bad_argument():
    assert not issubclass(errors.IllDefined, (ValueError, TypeError))


def test_the_model_errors_share_a_branch():
    for name in ("ModelUnavailableError", "NoAttentionError", "ExtractionMismatch", "NoOutputProjectionError",
                 "ModelRunFailed"):
        assert issubclass(getattr(errors, name), errors.ModelError), name


def test_every_class_is_exported_from_theorems():
    namespace = {}
    exec(f"from theorems import {', '.join(errors.__all__)}", namespace)  # noqa: S102 - the import users write
    for name in errors.__all__:
        assert namespace[name] is getattr(errors, name), name
        assert name in theorems.__all__, name


@pytest.mark.parametrize("name", sorted(OLD_HOMES))
def test_the_old_import_location_gives_the_same_class(name):
    if OLD_HOMES[name].startswith("empirical"):
        pytest.importorskip("torch")
    assert getattr(importlib.import_module(OLD_HOMES[name]), name) is getattr(errors, name)
