"""One runner for work shared out to worker processes or a Dask cluster.

``run_tasks(function, tasks, collect, ...)`` calls ``function(*task)`` for each task:
here, one after the other (``workers <= 1``), in a pool of ``workers`` fresh processes
(``engine.processes``: each ends with its parent, at most two tasks queued per worker),
or on the Dask scheduler at ``scheduler``.  ``collect(index, result)`` gets each result
in this process as it comes (in any order from a pool or a cluster).  With
``errors_as_results`` a task that raises hands its exception to ``collect`` and the
others go on; without, the exception stops the run.

Whatever stops the run (Ctrl+C, an exception from a task or from ``collect``) cancels
the tasks not yet started and ends the workers at once (``stop_workers``) or cancels
the cluster's futures, and is raised again.  The tournament and the review use it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

DASK_MISSING = "--scheduler needs dask.distributed: pip install 'skat-table[cluster]'"
"""What a run on a cluster says when Dask is not installed."""


def run_tasks(function: Callable, tasks: Sequence[tuple], collect: Callable[[int, object], None], workers: int = 1,
              scheduler: str | None = None, errors_as_results: bool = False) -> None:
    """``collect(index, function(*tasks[index]))`` for every task, here, in worker processes
    or on a Dask cluster (see the module's docstring)."""
    if scheduler:
        _run_dask(function, tasks, collect, scheduler, errors_as_results)
    elif workers <= 1:
        for index, task in enumerate(tasks):
            collect(index, _result(lambda: function(*task), errors_as_results))
    else:
        _run_processes(function, tasks, collect, workers, errors_as_results)


def _result(get: Callable[[], object], errors_as_results: bool) -> object:
    if not errors_as_results:
        return get()
    try:
        return get()
    except Exception as exc:  # one failed task must not cost the others their result
        return exc


def _run_processes(function, tasks, collect, workers: int, errors_as_results: bool) -> None:
    from concurrent.futures import FIRST_COMPLETED, wait

    from .processes import stop_workers, worker_pool

    queue = list(reversed(list(enumerate(tasks))))
    with worker_pool(workers) as pool:
        pending = {}
        try:
            while queue or pending:
                while queue and len(pending) < workers * 2:
                    index, task = queue.pop()
                    pending[pool.submit(function, *task)] = index
                ready, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in ready:
                    index = pending.pop(future)
                    collect(index, _result(future.result, errors_as_results))
        except BaseException:  # Ctrl+C, or a failure that stops the run: no more tasks
            for future in pending:
                future.cancel()
            pool.shutdown(wait=False, cancel_futures=True)
            stop_workers()
            raise


def _run_dask(function, tasks, collect, address: str, errors_as_results: bool) -> None:
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise RuntimeError(DASK_MISSING) from None
    with Client(address) as client:
        futures = {client.submit(function, *task, pure=False): index for index, task in enumerate(tasks)}
        try:
            for future in as_completed(futures):
                collect(futures[future], _result(future.result, errors_as_results))
        except BaseException:
            client.cancel(list(futures))
            raise
