"""The default profile is loaded here, once (the plugin then loads ``$HYPOTHESIS_PROFILE`` and Hypothesis's
plugin ``--hypothesis-profile``, which override it);
tests are marked by the folder they live in, so that ``pytest -m theory`` selects tests/theory."""

from pathlib import Path

import pytest

from theorems.app import profiles

profiles.load("dev")

_MARKS = {"theory": pytest.mark.theory, "symbolic": pytest.mark.symbolic, "empirical": pytest.mark.empirical}


def pytest_collection_modifyitems(items):
    for item in items:
        folder = Path(str(item.fspath)).parent.name
        if folder in _MARKS:
            item.add_marker(_MARKS[folder])
