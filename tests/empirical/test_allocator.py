"""glibc told to keep freed memory (``empirical.allocator``): a block's arrays reuse the pages the last block freed."""

import subprocess
import sys

import pytest

pytestmark = [pytest.mark.empirical,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt: Linux only")]

FAULTS = """
import resource, sys
import numpy as np
SIZE = 40 << 17  # 40 MiB of float64: above the 32 MiB up to which glibc's own threshold adapts
from empirical.allocator import retain_freed_memory
accepted = retain_freed_memory() if sys.argv[1] == "keep" else None
np.ones(SIZE)  # the first: faulted in whatever the setting
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(20):  # arrays made and freed, as a pass makes a block's
    np.ones(SIZE)
print(accepted, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _faults(mode: str) -> tuple[str, int]:
    # a process of its own: the setting is the whole process's, and this test's process keeps glibc's defaults
    out = subprocess.run([sys.executable, "-c", FAULTS, mode], capture_output=True, text=True, check=True).stdout
    accepted, faults = out.split()
    return accepted, int(faults)


def test_kept_memory_is_reused_without_faulting_its_pages_in_again():
    accepted, kept = _faults("keep")
    _, default = _faults("default")
    assert accepted == "True"
    # glibc's default maps each array afresh and faults its pages in again (how many faults a page size and the
    # kernel's huge pages decide); kept, every array reuses the first one's pages
    assert default >= 20
    assert kept * 10 < default
