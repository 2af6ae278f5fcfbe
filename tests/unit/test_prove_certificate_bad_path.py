"""``certificate=PATH`` is validated before any work: a folder that cannot hold it is an error naming
``certificate``."""

import time

import pytest

from theorems import STATEMENTS
from theorems.engine.prove import prove
from theorems.errors import InvalidArgument

MOTIVATING = STATEMENTS["corollary3.motivating.corrected"]  # minutes to prove: an error after the work would show


@pytest.mark.parametrize("path", ["/dev/null/proof.json", ""])
def test_an_unwritable_certificate_path_is_named_before_any_work(path):
    started = time.perf_counter()
    with pytest.raises(InvalidArgument, match="certificate"):
        prove(MOTIVATING, certificate=path)
    assert time.perf_counter() - started < 2


def test_a_folder_is_not_a_certificate_file(tmp_path):
    with pytest.raises(InvalidArgument, match="certificate=.*is a directory"):
        prove(MOTIVATING, certificate=tmp_path)
