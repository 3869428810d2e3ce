"""The move search: a context manager streaming the newest analysis, stopping, errors."""

import asyncio
import threading

import pytest

from engine.analysis import Analysis, CardAccumulator
from engine.game import Deal, GameState
from engine.players.base import Decision, Player, RandomPlayer
from engine.service import analyze, play, play_sync

STEPS = 2000


class SlowThinker(Player):
    """Reports an analysis every 5 ms until stopped (or after STEPS reports)."""

    name = "slow"

    def __init__(self) -> None:
        self.stopped = threading.Event()

    def choose(self, view, limit=None, *, stop=None, report=None):
        moves = view.legal_moves()
        acc = CardAccumulator(card=0)
        for i in range(STEPS):
            if stop is not None and stop.wait(0.005):
                self.stopped.set()
                break
            acc.add(i % 120, i % 2 == 0, float(i))
            if report:
                report(Analysis(self.name, view.to_move, (), (acc.stats(),), None, i + 1, 0.0, limit))
        return Decision(moves[-1])


class Burst(Player):
    """Reports ``count`` snapshots as fast as it can, then waits for ``go`` before deciding."""

    name = "burst"

    def __init__(self, count: int) -> None:
        self.count = count
        self.reported = threading.Event()
        self.go = threading.Event()

    def choose(self, view, limit=None, *, stop=None, report=None):
        for i in range(self.count):
            report(Analysis(self.name, view.to_move, (), (), None, i + 1, 0.0, limit))
        self.reported.set()
        self.go.wait(10)
        return Decision(view.legal_moves()[0])


class Crashing(Player):
    name = "crash"

    def choose(self, view, limit=None, *, stop=None, report=None):
        raise RuntimeError("boom")


def fresh():
    return GameState.new(Deal.shuffled(1)).view(1)


async def test_play_returns_the_decision_of_a_worker_thread():
    main = threading.get_ident()
    seen = []

    class Where(RandomPlayer):
        def choose(self, view, limit=None, **kw):
            seen.append(threading.get_ident())
            return super().choose(view, limit)

    decision = await play(Where(3), fresh())
    assert decision.move in fresh().legal_moves()
    assert seen and seen[0] != main


def test_snapshots_stream_while_thinking_and_stop_ends_the_search():
    with analyze(SlowThinker(), fresh()) as search:
        got = []
        for snapshot in search:
            got.append(snapshot.simulations)
            if len(got) == 3:
                search.stop()
    assert len(got) >= 3 and got == sorted(got) and len(set(got)) == len(got)
    assert got[-1] < STEPS  # the player finished on the stop, not after all its steps
    assert search.best.move == fresh().legal_moves()[-1]


async def test_the_async_form_streams_the_same_way():
    async with analyze(SlowThinker(), fresh()) as search:
        got = []
        async for snapshot in search:
            got.append(snapshot.simulations)
            if len(got) == 3:
                search.stop()
    assert len(got) >= 3 and got == sorted(got) and got[-1] < STEPS
    assert search.best.move == fresh().legal_moves()[-1]


@pytest.mark.parametrize("form", ["sync", "async"])
def test_a_slow_consumer_gets_only_the_newest_snapshot(form):
    player = Burst(50)

    def consume(search):
        assert player.reported.wait(10)
        player.go.set()  # decides while nobody looks: the 49 older snapshots are gone
        return [snapshot.simulations for snapshot in search]

    async def consume_async(search):
        assert await asyncio.to_thread(player.reported.wait, 10)
        player.go.set()
        return [snapshot.simulations async for snapshot in search]

    with analyze(player, fresh()) as search:
        got = consume(search) if form == "sync" else asyncio.run(consume_async(search))
    assert got == [50]
    assert search.best.move == fresh().legal_moves()[0]


def test_leaving_the_block_stops_the_player():
    thinker = SlowThinker()
    with analyze(thinker, fresh()) as search:
        next(iter(search))
    assert thinker.stopped.wait(10)
    assert list(search)[-1].simulations < STEPS  # iterating after the block waits for the last report
    assert search.best.move == fresh().legal_moves()[-1]


async def test_cancelling_the_consuming_task_stops_the_player():
    thinker = SlowThinker()
    first = asyncio.Event()

    async def watch():
        async with analyze(thinker, fresh()) as search:
            async for _ in search:
                first.set()

    task = asyncio.create_task(watch())
    await first.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await asyncio.to_thread(thinker.stopped.wait, 10)


async def test_a_crashing_player_raises_in_the_caller_not_in_the_thread():
    with pytest.raises(RuntimeError, match="boom"):
        await play(Crashing(), fresh())
    with analyze(Crashing(), fresh()) as search:
        assert list(search) == []  # the iteration ends; the error waits in ``best``
    with pytest.raises(RuntimeError, match="boom"):
        search.best


def test_misuse_is_refused_with_a_clear_error():
    search = analyze(Burst(1), fresh())
    with pytest.raises(RuntimeError, match="enter the search first"):
        next(iter(search))
    with search:
        with pytest.raises(RuntimeError, match="still thinking"):
            search.best
        with pytest.raises(RuntimeError, match="runs once"):
            search.__enter__()
        search.player.go.set()
        list(search)
    assert search.best.move == fresh().legal_moves()[0]


def test_sync_wrapper():
    assert play_sync(RandomPlayer(1), fresh()).move in fresh().legal_moves()
