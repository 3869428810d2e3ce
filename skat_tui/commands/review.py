"""`skat review`: every decision of recorded games reviewed, as tables or JSON lines."""

from __future__ import annotations

import argparse
import contextlib
import sys

from . import EXIT_INTERRUPTED


@contextlib.contextmanager
def _ctrl_c_noted():
    """Yield an event set by Ctrl+C (SIGINT) while the block runs.  The signal still raises
    KeyboardInterrupt; the event also keeps it when Python swallows that exception (raised
    inside a finalizer it is only printed as "Exception ignored"), so the caller can stop at
    its next step and exit 130 all the same.  A SIGINT the shell ignores stays ignored."""
    import signal
    import threading

    noted = threading.Event()
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield noted
        return

    def on_sigint(signum, frame):
        noted.set()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_sigint)
    try:
        yield noted
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from engine.limits import Limit
    from engine.record import read_records
    from engine.review import describe_game, review_records, store_cached
    from engine.tournament import default_workers

    err = Console(stderr=True)
    records, errors = read_records(args.file)
    for problem in errors:
        err.print(f"{args.file}: {problem}", highlight=False)
    if args.id is not None:
        records = [r for r in records if r.id == args.id]
        if not records:
            err.print(f"skat review: no record with ID {args.id} in {args.file}", highlight=False)
            return 2
    playable = []
    for record in records:
        try:
            describe_game(record)
        except ValueError as exc:  # the moves do not replay: said once, the others are reviewed
            err.print(f"{args.file}: line {record.line}, record {record.id}: {exc}", highlight=False)
            errors.append(exc)
            continue
        playable.append(record)
    limit = Limit(time=args.time) if args.time is not None else Limit(
        simulations=args.simulations if args.simulations is not None else 100)
    workers = args.workers if args.workers is not None else default_workers()
    out = Console(highlight=False, soft_wrap=args.json)
    index_of = {id(record): i for i, record in enumerate(playable)}
    finished: dict[int, object] = {}  # index → review, or None for a failed one
    shown = [0]  # reviews are printed in the file's order, each as soon as those before it are done
    reviews: list = []

    def emit() -> None:
        while shown[0] in finished:
            review = finished.pop(shown[0])
            shown[0] += 1
            if review is None:
                continue
            reviews.append(review)
            if args.json:
                for line in review.json_lines():
                    print(line)
                sys.stdout.flush()
            else:
                from ..review_table import review_report

                out.print(review_report(review, args.german))

    def show(index: int, review) -> None:
        finished[index] = review
        emit()

    def failed(record, exc: Exception) -> None:
        errors.append(exc)
        err.print(f"{args.file}: line {record.line}, record {record.id}: the review failed: {exc}", highlight=False)
        finished[index_of[id(record)]] = None
        emit()

    interrupted = False
    # stdout is not redirected through the bar: the reviews go to stdout, the bar to stderr
    with (Progress(TextColumn("[bold]reviewing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   console=err, transient=True, redirect_stdout=False, redirect_stderr=False) as progress,
          _ctrl_c_noted() as ctrl_c):
        task = progress.add_task("records", total=len(playable))

        def on_progress(done: float, total: int) -> None:
            if ctrl_c.is_set():
                raise KeyboardInterrupt  # a Ctrl+C whose exception was swallowed on its way here
            progress.update(task, completed=done)

        try:
            review_records(playable, args.player, limit, args.seed, workers, args.scheduler,
                           on_progress=on_progress, on_review=show, on_error=failed)
        except KeyboardInterrupt:
            interrupted = True  # the reviews printed so far stay complete, and are kept
        except (RuntimeError, ImportError, OSError) as exc:
            err.print(f"skat review: {exc}", highlight=False)
            return 2
        interrupted = interrupted or ctrl_c.is_set()
    if not args.no_cache and reviews:
        try:
            store_cached(args.file, reviews)
        except OSError as exc:
            err.print(f"skat review: could not store the reviews beside {args.file}: {exc.strerror}",
                      highlight=False)
    if interrupted:
        return EXIT_INTERRUPTED
    return 1 if errors else 0
