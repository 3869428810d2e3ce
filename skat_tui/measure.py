"""Measure keypress-to-screen-update latency of the table while two AIs think.

    python -m skat_tui.measure [--west mcu] [--east pimc] [--presses 60]

West is asked for its move and East starts a second search beside it; both
search a real card-play position (the opening lead of a heuristic-bid game)
with their card search (MCU playouts, PIMC solves) until the measurement ends; meanwhile the debug panel is toggled
with ``d`` again and again.  The latency of one press is the time from the
key event to the first screen update that shows the panel in its new state.
Prints p50 / p95 / max in milliseconds.  A measurement, not a timed test:
numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import threading
import time

from textual import events

from engine.game import GameState
from engine.players.base import Decision, Player
from engine.service import analyze

from .app import SkatApp
from .persistence import TableSession
from .players import resolve_player
from .settings import Settings


class IdlePlayer(Player):
    """Waits without using the CPU until stopped (the baseline: no AI load)."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = f"idle {inner.name}"
        self.decisions = 0

    def choose(self, view: GameState, limit=None, *, stop=None, report=None) -> Decision:
        if stop is not None:
            stop.wait()
        self.decisions += 1
        return self.inner.choose(view, limit)


class BusyPlayer(Player):
    """Keeps the wrapped AI searching a card-play position until stopped
    (reporting its analyses, as in a real game), then answers the position it
    was asked about."""

    def __init__(self, inner: Player, play_view: GameState) -> None:
        self.inner = inner
        self.play_view = play_view
        self.name = f"busy {inner.name}"
        self.decisions = 0

    def choose(self, view: GameState, limit=None, *, stop=None, report=None) -> Decision:
        while stop is not None and not stop.is_set():
            self.inner.choose(self.play_view, limit, stop=stop, report=report)
            self.decisions += 1
        return self.inner.choose(view, limit)


def opening_lead_view(seed: int) -> GameState:
    """The view of the seat to lead the first trick of a game bid by heuristic players."""
    from engine.game import Deal, Phase
    from engine.players.heuristic import HeuristicPlayer

    for offset in range(100):
        state = GameState.new(Deal.shuffled(seed + offset))
        bidders = [HeuristicPlayer(i) for i in range(3)]
        while not state.is_over and state.phase != Phase.PLAY:
            state.push(bidders[state.to_move].choose(state.view(state.to_move)).move)
        if state.phase == Phase.PLAY and state.declaration.game != state.declaration.game.NULL:
            return state.view(state.to_move)
    raise RuntimeError("no suit or grand game among 100 deals")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def measure(west: str, east: str, presses: int, seed: int, idle: bool = False) -> list[float]:
    settings = Settings()
    settings.ai_delay = 0.0
    west_choice, east_choice = resolve_player(west, seed=seed), resolve_player(east, seed=seed + 1)
    for choice in (west_choice, east_choice):
        if choice.notice:
            print(f"note: {choice.notice}")
    if idle:
        busy_west, busy_east = IdlePlayer(west_choice.player), IdlePlayer(east_choice.player)
    else:
        position = opening_lead_view(seed)
        busy_west, busy_east = BusyPlayer(west_choice.player, position), BusyPlayer(east_choice.player, position)
    # Game 1: you are forehand, so West (middlehand) is the first to decide and starts thinking at once.
    app = SkatApp(session=TableSession.new(seed), settings=settings, players={1: busy_west, 2: busy_east})
    latencies: list[float] = []
    waiting: dict[str, object] = {}
    shown = threading.Event()

    async with app.run_test(size=(100, 30)) as pilot:
        original_display = app._display

        def timed_display(screen, renderable) -> None:
            original_display(screen, renderable)
            expected = waiting.get("visible")
            if renderable is not None and expected is not None:
                panel = app.screen.query_one("#debug")
                if panel.has_class("visible") == expected:
                    latencies.append(time.perf_counter() - waiting.pop("sent"))
                    waiting.pop("visible")
                    shown.set()

        app._display = timed_display  # type: ignore[method-assign]
        table = app.screen
        while table.thinking_seat is None:
            await pilot.pause(0.05)
        # The second AI: East thinks about its own position at the same time.
        east_state = table.state.copy()
        with analyze(busy_east, east_state.view(2)):
            await asyncio.sleep(0.5)  # let both searches get going
            rng = random.Random(seed)
            for _ in range(presses):
                panel = app.screen.query_one("#debug")
                shown.clear()
                waiting["visible"] = not panel.has_class("visible")
                waiting["sent"] = time.perf_counter()
                app._driver.send_message(events.Key("d", "d"))
                deadline = time.perf_counter() + 5
                while not shown.is_set() and time.perf_counter() < deadline:
                    await asyncio.sleep(0.001)
                await asyncio.sleep(rng.uniform(0.05, 0.15))
        assert table.thinking_seat is not None, "West stopped thinking during the measurement"
        print(f"while measuring: West searched the card-play position {busy_west.decisions} times, "
              f"East {busy_east.decisions} times")
        table.stop_thinking()
    return latencies


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--west", default="mcu", help="player type of West (default mcu)")
    parser.add_argument("--east", default="pimc", help="player type of East (default pimc)")
    parser.add_argument("--presses", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--idle", action="store_true", help="baseline: the AIs wait instead of thinking")
    args = parser.parse_args(argv)
    # Never touch the user's saved series or settings.
    scratch = tempfile.mkdtemp(prefix="skat-measure-")
    os.environ["SKAT_DATA_DIR"] = os.environ["SKAT_CONFIG_DIR"] = scratch
    latencies = asyncio.run(measure(args.west, args.east, args.presses, args.seed, args.idle))
    if not latencies:
        raise SystemExit("no screen updates were seen")
    ms = [x * 1000 for x in latencies]
    load = "with idle AIs (baseline)" if args.idle else "while two AIs think"
    print(f"{len(ms)} key presses {load}: p50 {percentile(ms, 0.5):.1f} ms, "
          f"p95 {percentile(ms, 0.95):.1f} ms, max {max(ms):.1f} ms, mean {statistics.mean(ms):.1f} ms")


if __name__ == "__main__":
    main()
