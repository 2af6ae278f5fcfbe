"""The examples in the docstrings of the public modules run as written."""

import doctest
import importlib

import pytest

MODULES = ["theorems.precision", "theorems.validation", "theorems.batches", "theorems.normalisers", "theorems.statement",
           "theorems.search", "theorems", "strategies", "strategies.logits", "strategies.temperatures",
           "strategies.spherical", "strategies.sizes", "strategies.normalisers", "theorems.secular"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
