"""Profiles are loaded here, once (``--hypothesis-profile`` from Hypothesis's pytest plugin overrides);
tests are marked by the folder they live in, so that ``pytest -m theory`` selects tests/theory."""

from pathlib import Path

import pytest

from theorems.engine import profiles

profiles.load()

_MARKS = {"theory": pytest.mark.theory, "symbolic": pytest.mark.symbolic, "empirical": pytest.mark.empirical}


def pytest_collection_modifyitems(items):
    for item in items:
        folder = Path(str(item.fspath)).parent.name
        if folder in _MARKS:
            item.add_marker(_MARKS[folder])
