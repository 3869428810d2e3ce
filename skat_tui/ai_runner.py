"""The one way a screen runs an AI decision: the table's opponents, its hint and
the replay's "what would the AI play here".

A screen owns one ``AIRunner``; ``run`` starts a decision in a Textual worker
(the player itself thinks in ``engine.service``'s thread) and hands each newest
analysis, then the decision or the player's error, to the screen's callbacks
on the UI's event loop.  One decision runs at a time: ``run`` and ``cancel``
abandon the one before, and ``_deliver`` is the one place where whatever an
abandoned decision still reports is dropped, so an analysis of an earlier
position never reaches the screen.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from textual.dom import DOMNode

from engine.analysis import Analysis
from engine.game import GameState
from engine.limits import Limit
from engine.players.base import Decision, Player
from engine.service import MoveSearch, analyze

WORKER_GROUP = "ai"


@dataclass(eq=False)
class AIJob:
    """One decision: who decides, and where its reports go."""

    seat: int
    player: Player
    view: GameState
    limit: Limit | None
    on_analysis: Callable[[int, Analysis], None]
    on_decision: Callable[[int, Decision], None]
    on_failure: Callable[[int, Exception], None]
    """The player raised: the screen decides what a crash means (the table seats another player)."""
    min_seconds: float = 0.0
    """A decision is handed over no sooner than this, so a human can follow a fast player."""
    started: float = field(default_factory=time.monotonic)
    search: MoveSearch | None = None


class AIRunner:
    """Runs one AI decision at a time for ``host`` (a screen)."""

    def __init__(self, host: DOMNode) -> None:
        self.host = host
        self._job: AIJob | None = None

    @property
    def job(self) -> AIJob | None:
        """The decision in progress, or None."""
        return self._job

    def run(self, seat: int, player: Player, view: GameState, limit: Limit | None, *,
            on_analysis: Callable[[int, Analysis], None],
            on_decision: Callable[[int, Decision], None],
            on_failure: Callable[[int, Exception], None],
            min_seconds: float = 0.0) -> AIJob:
        """Start ``player``'s decision for ``seat`` from ``view``, abandoning any other."""
        self.cancel()
        job = AIJob(seat, player, view, limit, on_analysis, on_decision, on_failure, min_seconds)
        self._job = job
        self.host.run_worker(self._decide(job), name=f"ai-{player.name}", group=WORKER_GROUP)
        return job

    def cancel(self) -> None:
        """Abandon the decision in progress; its player stops at once."""
        job, self._job = self._job, None
        if job is not None and job.search is not None:
            job.search.stop()  # now, not when the cancelled worker next runs
        self.host.workers.cancel_group(self.host, WORKER_GROUP)

    def _deliver(self, job: AIJob, callback: Callable, value: object, last: bool = False) -> None:
        if job is not self._job:
            return  # from an abandoned decision
        if last:
            self._job = None  # idle before the callback, which may start the next decision
        if not self.host.is_attached:
            return  # the app is closing (or the screen is gone): its widgets may be removed already
        callback(job.seat, value)

    async def _decide(self, job: AIJob) -> None:
        job.search = analyze(job.player, job.view, job.limit)
        async with job.search as search:
            async for analysis in search:
                self._deliver(job, job.on_analysis, analysis)
        try:
            decision = search.best
        except Exception as error:  # the player's own failure; never the app's
            self._deliver(job, job.on_failure, error, last=True)
            return
        remaining = job.min_seconds - (time.monotonic() - job.started)
        if remaining > 0:
            await asyncio.sleep(remaining)
        self._deliver(job, job.on_decision, decision, last=True)
