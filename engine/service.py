"""The async move interface: ask a player for its move within a budget.

The player thinks in a worker thread (the numba core releases the GIL, so
searches and the UI run side by side).  ``MoveSearch`` is an async iterator
of analysis snapshots while it thinks; ``await search.result()`` gives the
``Decision``; ``search.stop()`` asks the player to finish with its best move
so far.  ``play()`` is the one-call form, ``play_sync()`` the wrapper for
scripts and the tournament.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator

from .analysis import Analysis
from .game import GameState
from .limits import Limit
from .players.base import Decision, Player

_DONE = object()


class MoveSearch:
    """A running decision.  Create with ``start_search`` inside a running loop."""

    def __init__(self, player: Player, view: GameState, limit: Limit | None) -> None:
        self.player = player
        self.view = view.copy()  # the caller may go on changing its own state
        self.limit = limit
        self.latest: Analysis | None = None
        self._stop = threading.Event()
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue = asyncio.Queue()
        self._future: asyncio.Future[Decision] = self._loop.create_future()
        self._thread = threading.Thread(target=self._run, name=f"think-{player.name}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            # No wait for a background warm-up here: until the core is ready the
            # players make simple moves that need no compiler (engine.tools.warmup.pending).
            decision = self.player.choose(self.view, self.limit, stop=self._stop, report=self._report)
        except BaseException as exc:  # handed to the awaiting side, never lost in the thread
            self._call(self._fail, exc)
        else:
            if decision.analysis is not None:
                self._report(decision.analysis)
            self._call(self._succeed, decision)

    def _call(self, fn, arg) -> None:
        try:
            self._loop.call_soon_threadsafe(fn, arg)
        except RuntimeError:
            pass  # the loop is closed: nobody is waiting any more

    def _report(self, analysis: Analysis) -> None:
        self.latest = analysis
        self._call(self._queue.put_nowait, analysis)

    def _succeed(self, decision: Decision) -> None:
        if not self._future.done():
            self._future.set_result(decision)
        self._queue.put_nowait(_DONE)

    def _fail(self, exc: BaseException) -> None:
        if not self._future.done():
            self._future.set_exception(exc)
        self._queue.put_nowait(_DONE)

    def stop(self) -> None:
        """Ask the player to finish now with its best move so far."""
        self._stop.set()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    async def result(self) -> Decision:
        return await asyncio.shield(self._future)

    def __aiter__(self) -> AsyncIterator[Analysis]:
        return self._snapshots()

    async def _snapshots(self) -> AsyncIterator[Analysis]:
        while True:
            item = await self._queue.get()
            if item is _DONE:
                return
            # skip stale snapshots when the consumer is slower than the player
            while not self._queue.empty():
                nxt = self._queue.get_nowait()
                if nxt is _DONE:
                    yield item
                    return
                item = nxt
            yield item


def start_search(player: Player, view: GameState, limit: Limit | None = None) -> MoveSearch:
    return MoveSearch(player, view, limit)


async def play(player: Player, view: GameState, limit: Limit | None = None) -> Decision:
    """The player's decision for ``view`` (the seat to move) within ``limit``."""
    return await start_search(player, view, limit).result()


def play_sync(player: Player, view: GameState, limit: Limit | None = None) -> Decision:
    """Synchronous form for scripts and the tournament (no thread, no loop)."""
    return player.choose(view, limit)
