"""glibc's allocator told to keep freed memory: the algorithms' blocks reuse their pages instead of faulting them in.

Each block of rows makes arrays of a few MiB per operation (``[H, C, G, L]``, :data:`empirical.heads.rows.TORCH_BUDGET`).
By default glibc serves blocks that large by ``mmap`` (its threshold adapts up to 32 MiB) and gives freed memory at the
top of its heap back to the kernel (past 128 KiB), so the next block's arrays fault their pages in again, zeroed by the
kernel: Alg. 3 at the paper's grids paid 1.6 million page faults and 2.9 s of system time per process for it (of 21 s;
measured in docs/benchmarks.md). Raising both thresholds keeps up to :data:`KEPT` bytes of freed heap for reuse.

This changes the whole process's allocator, so only the command line's own processes take it (``python -m
empirical``, each algorithm of ``bench``, the workers of ``--cluster local``), never a library function; elsewhere
than glibc it does nothing.

>>> retain_freed_memory()      # in a command's own process            # doctest: +SKIP
True
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

KEPT = 1 << 30
"""Freed heap glibc keeps (its trim threshold), and the size from which it maps a block by itself: 1 GiB."""

_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt's parameters (malloc.h)


def environment() -> dict[str, str]:
    """The same setting as environment variables, read by glibc when a process starts (what a Dask nanny sets before
    it spawns a local worker, in place of Dask's own ``MALLOC_TRIM_THRESHOLD_``, which gives memory back at 64 KiB).

    >>> environment()
    {'MALLOC_TRIM_THRESHOLD_': '1073741824', 'MALLOC_MMAP_THRESHOLD_': '1073741824'}
    """
    return {"MALLOC_TRIM_THRESHOLD_": str(KEPT), "MALLOC_MMAP_THRESHOLD_": str(KEPT)}


def retain_freed_memory() -> bool:
    """Tell glibc to keep up to :data:`KEPT` bytes of freed memory and map blocks by themselves only from that size;
    True where it accepted both (Linux with glibc), False elsewhere."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return False
    return bool(mallopt(_M_TRIM_THRESHOLD, KEPT)) and bool(mallopt(_M_MMAP_THRESHOLD, KEPT))
