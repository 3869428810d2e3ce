"""Worker processes that never outlive the process that started them.

A pool's workers end when their parent dies, whatever killed it (SIGKILL too): on
Linux the kernel sends them SIGKILL (``PR_SET_PDEATHSIG``), which works while a worker
holds the interpreter lock in compiled code; elsewhere, and as a second guard, a thread
of each worker waits on ``multiprocessing``'s parent sentinel, which is ready once the
parent is gone.  A worker ignores Ctrl+C: the parent decides what stops, and
``stop_workers`` ends the workers at once instead of after their current task.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from concurrent.futures import ProcessPoolExecutor

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` fresh (spawned) processes, each ending with this one."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_end_with_parent, initargs=(os.getpid(),))


def stop_workers() -> None:
    """End every worker process of this process now (after Ctrl+C or SIGTERM): a worker
    would otherwise finish the task it is on, minutes with a long search."""
    for child in multiprocessing.active_children():
        child.terminate()
    for child in multiprocessing.active_children():
        child.join(5)


def _end_with_parent(parent_pid: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent_pid:  # the parent died before the line above took effect
        os._exit(1)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_when_ready, args=(parent.sentinel,), daemon=True,
                         name="end-with-parent").start()


def _exit_when_ready(sentinel: int) -> None:
    from multiprocessing.connection import wait

    wait([sentinel])
    os._exit(1)
