"""The examples in the docstrings of the derivation modules run as written."""

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["theorems.engine.derivation", "theorems.engine.plugin", "theorems.statements.proofs"])
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
