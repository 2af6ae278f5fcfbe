"""Groups of heads evaluated in forked processes: both cores busy without Python's GIL between them.

The torch backend cuts each block's heads into groups (:func:`empirical.heads.tensor_rows.head_groups`). On threads
the groups share one interpreter, and a row function is thousands of small torch operations per block (Theorem 1's
running tables alone ten per column): the threads hand the GIL to each other at every one, and two groups ran only
1.19 times faster than one (measured in docs/benchmarks.md). Here every group but the first runs a whole pass in a
child made by ``fork`` after the heads are in memory (the child reads the parent's pages, copying none), and sends
back its results; the parent evaluates the first group meanwhile. Each group's arithmetic is the same code on the
same tensors as on a thread, so the results are the same bits.

``fork`` is used only where it is safe to: on Linux, from the main thread, with every head already in memory (a
:class:`empirical.heads.extraction.Heads`; a stream would extract its layers again in every child). Elsewhere the
groups stay on threads.

>>> parts = evaluate_in_processes(run_group, groups)     # doctest: +SKIP
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import sys
import threading
import traceback
from collections.abc import Callable

from theorems.errors import ModelRunFailed

_largest_growth = 0  # kB: the most memory a child added to what it shared with its parent when forked


def can_fork() -> bool:
    """Whether groups may be forked here: Linux (``fork`` is its default and safe with torch's CPU threads set to
    one), the main thread (no other thread of ours holds a lock the child would inherit), and not a daemonic process
    (multiprocessing forbids it children: a pool's worker)."""
    return (sys.platform.startswith("linux") and threading.current_thread() is threading.main_thread()
            and not multiprocessing.current_process().daemon)


def evaluate_in_processes(run_group: Callable[[slice, bool], dict], groups: list[slice]) -> list[dict]:
    """``[run_group(group, first) for group in groups]``, every group but the first in a forked child, the first here.

    ``run_group(group, first)`` returns a dict of numpy arrays; ``first`` is True only for the parent's own group (the
    one that may advance a progress bar). An exception in a child is raised here as ModelRunFailed with the child's
    traceback; a child that dies without an answer raises ModelRunFailed naming its heads and exit code.
    """
    context = multiprocessing.get_context("fork")
    children = []
    try:
        for group in groups[1:]:
            receive, send = context.Pipe(duplex=False)
            child = context.Process(target=_child, args=(run_group, group, send), daemon=True,
                                    name=f"heads-{group.start}-{group.stop}")
            child.start()
            send.close()  # the parent keeps only the reading end: a dead child reads as EOF
            children.append((group, child, receive))
        parts = [run_group(groups[0], True)]
        for group, child, receive in children:
            parts.append(_answer(group, child, receive))
        return parts
    finally:
        for _, child, receive in children:
            if child.is_alive():
                child.terminate()
            child.join()
            receive.close()


def largest_child_growth() -> int:
    """The most resident memory (kB) one forked child has added, during its life, to the pages it shared with this
    process when forked: this process's peak plus this bounds the memory of a pass (the bench's peak memory)."""
    return _largest_growth


def _resident_kb() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def _child(run_group: Callable[[slice, bool], dict], group: slice, send) -> None:
    at_fork = _resident_kb()
    try:
        result = run_group(group, False)
        growth = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - at_fork
        send.send(("result", (result, growth)))
    except BaseException as error:  # noqa: BLE001 - everything goes back to the parent, which raises it
        send.send(("error", (repr(error), traceback.format_exc())))
    finally:
        send.close()


def _answer(group: slice, child, receive) -> dict:
    try:
        kind, payload = receive.recv()
    except EOFError:
        child.join()
        raise ModelRunFailed(f"the process evaluating heads {group.start}..{group.stop - 1} ended without its results "
                             f"(exit code {child.exitcode})") from None
    if kind == "error":
        error, trace = payload
        raise ModelRunFailed(f"heads {group.start}..{group.stop - 1} failed in their process: {error}\n{trace}")
    global _largest_growth
    result, growth = payload
    _largest_growth = max(_largest_growth, growth)
    return result
