"""The examples in the docstrings of the streaming, kernel and cluster modules run as written."""

import doctest
import importlib

import pytest

pytestmark = pytest.mark.empirical


@pytest.mark.parametrize("name", ["empirical.heads.stream", "empirical.kernels", "empirical.cluster"])
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
