"""The async move interface: streaming analysis, stopping, errors."""

import asyncio
import threading
import time

import pytest

from engine.analysis import Analysis, CardAccumulator
from engine.game import Deal, GameState
from engine.players.base import Decision, Player, RandomPlayer
from engine.service import play, play_sync, start_search


class SlowThinker(Player):
    """Reports an analysis every 5 ms until stopped (or after 10 s)."""

    name = "slow"

    def choose(self, view, limit=None, *, stop=None, report=None):
        moves = view.legal_moves()
        acc = CardAccumulator(card=0)
        for i in range(2000):
            if stop is not None and stop.is_set():
                break
            acc.add(i % 120, i % 2 == 0, float(i))
            if report:
                report(Analysis(self.name, view.to_move, (), (acc.stats(),), None, i + 1, 0.0, limit))
            time.sleep(0.005)
        return Decision(moves[-1])


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


async def test_snapshots_stream_while_thinking_and_stop_returns_fast():
    search = start_search(SlowThinker(), fresh())
    got = []
    async for snapshot in search:
        got.append(snapshot.worlds)
        if len(got) == 3:
            start = time.perf_counter()
            search.stop()
    decision = await search.result()
    assert len(got) >= 3 and got == sorted(got)
    # generous on a noisy machine, yet far below the 10 s a search that ignores stop() would take
    assert time.perf_counter() - start < 1.0
    assert decision.move == fresh().legal_moves()[-1]


async def test_a_crashing_player_raises_in_the_caller_not_in_the_thread():
    with pytest.raises(RuntimeError, match="boom"):
        await play(Crashing(), fresh())


def test_sync_wrapper():
    assert play_sync(RandomPlayer(1), fresh()).move in fresh().legal_moves()


def test_a_search_waits_for_the_background_warm_up_or_a_stop(monkeypatch):
    from engine.tools import warmup

    running = threading.Event()
    running.set()
    done = threading.Event()
    monkeypatch.setattr(warmup, "_background", running)
    monkeypatch.setattr(warmup, "_done", done)
    stop = threading.Event()
    waiter = threading.Thread(target=warmup.wait_for_background_warm_up, args=(stop,))
    waiter.start()
    time.sleep(0.2)
    assert waiter.is_alive()  # the core is still compiling
    done.set()
    waiter.join(1.0)
    assert not waiter.is_alive()
    monkeypatch.setattr(warmup, "_done", threading.Event())
    waiter = threading.Thread(target=warmup.wait_for_background_warm_up, args=(stop,))
    waiter.start()
    time.sleep(0.1)
    stop.set()  # a stop ends the wait at once
    waiter.join(1.0)
    assert not waiter.is_alive()
    monkeypatch.setattr(warmup, "_background", threading.Event())
    warmup.wait_for_background_warm_up(None)  # no background warm-up: no wait


def test_a_failed_background_warm_up_does_not_hold_searches(monkeypatch):
    from engine.tools import warmup

    def broken_warm_up():
        raise RuntimeError("simulated compiler failure")

    monkeypatch.setattr(warmup, "_background", threading.Event())
    monkeypatch.setattr(warmup, "_done", threading.Event())
    monkeypatch.setattr(warmup, "warm_up", broken_warm_up)
    monkeypatch.setattr(warmup, "background_failure", None)
    warmup.warm_up_in_background().join(5.0)
    waiter = threading.Thread(target=warmup.wait_for_background_warm_up, args=(threading.Event(),), daemon=True)
    waiter.start()
    waiter.join(0.5)
    assert not waiter.is_alive()  # no search waits for a warm-up that failed
    assert "simulated compiler failure" in str(warmup.background_failure)
