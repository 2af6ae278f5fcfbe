"""The examples in the docstrings of the public modules run as written."""

import doctest
import importlib

import pytest

MODULES = ["theorems.engine.precision", "theorems.engine.validation", "theorems.maths.batches", "theorems.maths.normalisers", "theorems.engine.statement",
           "theorems.engine.search", "theorems", "strategies", "strategies.logits", "strategies.temperatures",
           "strategies.spherical", "strategies.sizes", "strategies.normalisers", "theorems.maths.secular", "theorems.maths.spherical",
           "theorems.engine.hypothesis_internals", "theorems.maths.gradient",
           "theorems.engine.proof", "theorems.engine.boxes", "theorems.engine.dual"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
