"""One decision of a player, run in a worker thread and watched while it thinks.

    with analyze(player, view, limit) as search:      # or: async with
        for analysis in search:                        # or: async for
            show(analysis)
    decision = search.best

The player thinks in a daemon thread (the numba core releases the GIL, so a
search and the UI run side by side).  Iterating the search gives the player's
newest ``Analysis`` each time and ends once the player has decided; a snapshot
the consumer was too slow for is replaced by the next one, so nothing stale
piles up.  ``search.best`` is then the ``Decision``, or raises what the player
raised.  Leaving the ``with`` block (also by an exception or a cancelled task)
asks the player to finish at once with its best move so far; ``search.stop()``
asks earlier.

``play()`` awaits a decision in one call; ``play_sync()`` is the plain call for
scripts and the tournament (no thread).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable, Iterator

from .analysis import Analysis
from .game import GameState
from .limits import Limit
from .players.base import Decision, Player


class MoveSearch:
    """A player's decision in a worker thread: a context manager, iterated for its
    snapshots.  Create it with ``analyze``; the player starts on entering the block."""

    def __init__(self, player: Player, view: GameState, limit: Limit | None) -> None:
        self.player = player
        self.view = view.copy()  # the caller may go on changing its own state
        self.limit = limit
        self._stop = threading.Event()
        self._changed = threading.Condition()
        self._newest: Analysis | None = None
        self._reports = 0
        """Snapshots reported so far: a consumer compares it with the count it has seen."""
        self._done = False
        self._outcome: Decision | BaseException | None = None
        self._thread: threading.Thread | None = None
        self._wake_loop: Callable[[], None] | None = None
        """Set by an async consumer: wakes its event loop after each report."""

    # ---------------------------------------------------------------- lifetime

    def __enter__(self) -> MoveSearch:
        if self._thread is not None:
            raise RuntimeError("a MoveSearch runs once")
        self._thread = threading.Thread(target=self._think, name=f"think-{self.player.name}", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    async def __aenter__(self) -> MoveSearch:
        return self.__enter__()

    async def __aexit__(self, *exc_info) -> None:
        self.stop()

    def stop(self) -> None:
        """Ask the player to finish now with its best move so far."""
        self._stop.set()

    @property
    def best(self) -> Decision:
        """The player's decision once the iteration has ended; raises what the player raised."""
        with self._changed:
            if not self._done:
                raise RuntimeError("the player is still thinking: iterate the search to its end first")
            outcome = self._outcome
        if isinstance(outcome, BaseException):
            raise outcome
        assert outcome is not None
        return outcome

    # ---------------------------------------------------------------- the player's thread

    def _think(self) -> None:
        # No wait for a background warm-up here: until the core is ready the
        # players make simple moves that need no compiler (engine.players.readiness.pending).
        try:
            decision = self.player.choose(self.view, self.limit, stop=self._stop, report=self._report)
            if decision.analysis is not None:
                self._report(decision.analysis)
        except BaseException as exc:  # handed to the consumer by ``best``, never lost in the thread
            self._finish(exc)
        else:
            self._finish(decision)

    def _report(self, analysis: Analysis) -> None:
        with self._changed:
            self._newest = analysis
            self._reports += 1
            self._changed.notify_all()
        self._wake()

    def _finish(self, outcome: Decision | BaseException) -> None:
        with self._changed:
            self._outcome = outcome
            self._done = True
            self._changed.notify_all()
        self._wake()

    def _wake(self) -> None:
        wake = self._wake_loop
        if wake is not None:
            wake()

    # ---------------------------------------------------------------- consumers

    def _look(self, seen: int, wait: bool = False) -> tuple[int, Analysis | None, bool]:
        """The report count, the newest snapshot if it is newer than report ``seen``
        (else None), and whether the player has decided.  ``wait``: block until one
        of them changes.  Older snapshots are never looked at: only the newest matters."""
        with self._changed:
            if wait:
                self._changed.wait_for(lambda: self._reports != seen or self._done)
            newer = self._newest if self._reports != seen else None
            return self._reports, newer, self._done

    def _check_started(self) -> None:
        if self._thread is None:
            raise RuntimeError("enter the search first: `with analyze(...) as search:`")

    def __iter__(self) -> Iterator[Analysis]:
        self._check_started()
        seen, done = 0, False
        while not done:
            seen, newest, done = self._look(seen, wait=True)
            if newest is not None:
                yield newest

    async def __aiter__(self) -> AsyncIterator[Analysis]:
        self._check_started()
        loop = asyncio.get_running_loop()
        woken = asyncio.Event()

        def wake() -> None:
            try:
                loop.call_soon_threadsafe(woken.set)
            except RuntimeError:
                pass  # the loop is closed: nobody is waiting any more

        self._wake_loop = wake
        seen, done = 0, False
        while not done:
            woken.clear()  # before looking: a report after the look sets it again
            seen, newest, done = self._look(seen)
            if newest is not None:
                yield newest
            elif not done:
                await woken.wait()


def analyze(player: Player, view: GameState, limit: Limit | None = None) -> MoveSearch:
    """The search for ``player``'s decision in ``view`` (the seat to move) within ``limit``;
    use it as a context manager (``with`` or ``async with``)."""
    return MoveSearch(player, view, limit)


async def play(player: Player, view: GameState, limit: Limit | None = None) -> Decision:
    """The player's decision for ``view`` within ``limit``, awaited without blocking the loop."""
    async with analyze(player, view, limit) as search:
        async for _ in search:
            pass
    return search.best


def play_sync(player: Player, view: GameState, limit: Limit | None = None) -> Decision:
    """Synchronous form for scripts and the tournament (no thread, no loop)."""
    return player.choose(view, limit)
