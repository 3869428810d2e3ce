"""Fake players and the waiting and playing helpers of the TUI tests."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from engine.analysis import Analysis, CardAccumulator
from engine.cards import cards_of
from engine.game import Bid, GameState, Hold, Pass, Phase, PickUp
from engine.players.base import Decision, Player
from skat_tui.app import SkatApp
from skat_tui.persistence import TableSession, series_save_path
from skat_tui.screens.declaration import DeclarationDialog
from skat_tui.screens.dialogs import ResultScreen
from skat_tui.screens.settings_screen import SettingsScreen
from skat_tui.screens.table import TableScreen


class PassivePlayer(Player):
    """Passes every bid and plays its lowest legal card: a predictable opponent."""

    name = "passive"

    def choose(self, view, limit=None, *, stop=None, report=None) -> Decision:
        moves = view.legal_moves()
        if view.phase == Phase.BIDDING:
            return Decision(Pass())
        return Decision(moves[0])


class HoldingPassivePlayer(PassivePlayer):
    """A passive player that holds each card until ``release`` is set (or its search
    is stopped): whatever the table shows before it plays stays there to be checked."""

    name = "holding"

    def __init__(self) -> None:
        self.release = threading.Event()

    def choose(self, view, limit=None, *, stop=None, report=None) -> Decision:
        if view.phase == Phase.PLAY:
            while not self.release.wait(0.01):
                if stop is not None and stop.is_set():
                    break
        return super().choose(view, limit)


class ThinkingPlayer(PassivePlayer):
    """Reports analyses of its legal cards step by step, like MCU would, and
    waits for ``release`` (or a stop) before answering with the first legal move."""

    name = "thinking"

    def __init__(self, steps: int = 4, pause: float = 0.02) -> None:
        self.steps = steps
        self.pause = pause
        self.release = threading.Event()
        self.stopped = threading.Event()
        self.stop_signal: threading.Event | None = None
        """The stop event of the latest decision: set when the app asks the player to finish."""
        self.calls = 0

    def choose(self, view: GameState, limit=None, *, stop=None, report=None) -> Decision:
        self.calls += 1
        self.stop_signal = stop
        if view.phase != Phase.PLAY:
            return super().choose(view, limit)
        legal = list(cards_of(view.legal_cards()))
        accumulators = {card: CardAccumulator(card) for card in legal}
        started = time.monotonic()
        world = 0
        while True:
            world += 1
            for i, card in enumerate(legal):
                points = (37 * world + 23 * i) % 121
                accumulators[card].add(points, points >= 61, points / 120)
            if report is not None:
                report(Analysis("thinking", view.to_move, tuple(legal),
                                tuple(a.stats() for a in accumulators.values()), None, world,
                                time.monotonic() - started, limit))
            if stop is not None and stop.is_set():
                self.stopped.set()
                break
            if world >= self.steps and self.release.wait(self.pause):
                break
            time.sleep(self.pause)
        chosen = legal[0]
        final = Analysis("thinking", view.to_move, tuple(legal), tuple(a.stats() for a in accumulators.values()),
                         chosen, world, time.monotonic() - started, limit, final=True)
        return Decision(super().choose(view, limit).move, final)


class CrashingPlayer(PassivePlayer):
    """Fails on its first card: the table must fall back and go on."""

    name = "crashing"

    def choose(self, view, limit=None, *, stop=None, report=None) -> Decision:
        if view.phase == Phase.PLAY:
            raise RuntimeError("simulated AI bug")
        return super().choose(view, limit)


def new_app(settings, players: dict[int, Player] | None = None, seed: int = 3, rules=None) -> SkatApp:
    """The app at a new series (``seed``; seed 3: both passive opponents pass and the human,
    forehand, may open the bidding) by ``rules``, against passive opponents or ``players``."""
    session = TableSession.new(seed, series_save_path(), *(() if rules is None else (rules,)))
    return SkatApp(session=session, settings=settings, players=players or {1: PassivePlayer(), 2: PassivePlayer()})


def table(app: SkatApp) -> TableScreen:
    """The app's table screen, whatever dialog is on top of it."""
    return next(s for s in app.screen_stack if isinstance(s, TableScreen))


async def at_my_turn(pilot, app: SkatApp) -> TableScreen:
    """The table screen, once it is the human's turn."""
    screen = table(app)
    await wait_until(pilot, lambda: screen.my_turn)
    return screen


async def wait_until(pilot, predicate: Callable[[], bool], timeout: float = 30.0) -> None:
    """Let the app run until ``predicate()`` holds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the app")
        await pilot.pause(0.01)


def footer_settled(app) -> bool:
    """The footer lists the keys the screen has now and has been laid out since: it is
    rebuilt after a refresh once the bindings change, so a look before that sees an empty
    or half-built footer."""
    screen = app.screen
    keys = list(screen.query_one("Footer").query("FooterKey"))
    listed = {str(key.description) for key in keys if not key.has_class("-command-palette")}
    active = {binding.description for _, binding, _, _ in screen.active_bindings.values() if binding.show}
    return bool(keys) and listed == active and all(key.size.width > 0 for key in keys)


async def play_to_the_result(pilot, app, screen) -> ResultScreen:
    """Play the human's cards at the cursor until the game ends; the result screen."""
    while not isinstance(app.screen, ResultScreen):
        await wait_until(pilot, lambda: screen.my_turn or isinstance(app.screen, ResultScreen))
        if screen.my_turn:
            await pilot.press("enter")
    return app.screen


async def ask_for_the_discard_hint(pilot, screen, timeout: float = 30.0) -> GameState:
    """At the human's first turn: bid, take the skat and ask for a hint at the discard; the
    state it was asked in, once the hint is on the status line."""
    await wait_until(pilot, lambda: screen.my_turn)
    await pilot.press("b", "s")
    state = screen.state
    assert state.phase == Phase.DISCARD
    await pilot.press("i")
    await wait_until(pilot, lambda: screen.message.startswith("Hint: put away"), timeout=timeout)
    return state


FIRST_TWO_CARDS = ("1", "2")


async def win_the_bidding_to_the_declaration(pilot, screen, discard: tuple[str, str] = FIRST_TWO_CARDS) -> None:
    """At the table, as the human's first turn comes: bid, pick up the skat, put away the cards
    under the ``discard`` keys, and wait for the declaration dialog (against passive opponents)."""
    await wait_until(pilot, lambda: screen.my_turn)
    await pilot.press("b", "s", *discard, "x")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, DeclarationDialog))


async def declare_grand_and_reach_play(pilot, screen, discard: tuple[str, str] = FIRST_TWO_CARDS) -> None:
    """As ``win_the_bidding_to_the_declaration``, then declare grand and wait for the human's first card."""
    await win_the_bidding_to_the_declaration(pilot, screen, discard)
    await pilot.press("5", "enter")
    await wait_until(pilot, lambda: screen.my_turn)


class FixedAnalysisPlayer(PassivePlayer):
    """Answers at once with a made-up but fixed analysis: for stable snapshots."""

    name = "fixed"

    def choose(self, view, limit=None, *, stop=None, report=None) -> Decision:
        if view.phase != Phase.PLAY:
            return super().choose(view, limit)
        legal = list(cards_of(view.legal_cards()))
        accumulators = [CardAccumulator(card) for card in legal]
        for world in range(40):
            for i, acc in enumerate(accumulators):
                points = (37 * world + 23 * i) % 121
                acc.add(points, points >= 61, float(points))
        final = Analysis("fixed", view.to_move, tuple(legal), tuple(a.stats() for a in accumulators), legal[0],
                         40, 0.5, limit, final=True)
        return Decision(super().choose(view, limit).move, final)


class DeclaringPlayer(PassivePlayer):
    """Bids the lowest value (or holds), takes the skat, puts away and declares
    whatever the engine lists first: an opponent who plays a game."""

    name = "declaring"

    def choose(self, view, limit=None, *, stop=None, report=None) -> Decision:
        if view.phase == Phase.BIDDING:
            moves = view.legal_moves()
            bids = [m for m in moves if isinstance(m, Bid)]
            holds = [m for m in moves if isinstance(m, Hold)]
            if bids:
                return Decision(min(bids, key=lambda m: m.value))
            return Decision(holds[0] if holds else Pass())
        if view.phase == Phase.SKAT:
            return Decision(next(m for m in view.legal_moves() if isinstance(m, PickUp)))
        return super().choose(view, limit)


async def open_settings_at_my_turn(pilot, app) -> None:
    """Wait until the human is to move at the table, then open the settings with `o`."""
    screen = app.screen
    await wait_until(pilot, lambda: isinstance(screen, TableScreen) and screen.my_turn)
    await pilot.press("o")
    assert isinstance(app.screen, SettingsScreen)


async def fill_in_and_save(pilot, app, values: dict[str, object]) -> None:
    """On the open settings screen: set each field (by id) to its value, then save (Ctrl+S)."""
    for field_id, value in values.items():
        app.screen.query_one(f"#{field_id}").value = value
    await pilot.press("ctrl+s")


class KontraPlayer(PassivePlayer):
    """A passive player that says Kontra (and Re) whenever the engine allows it."""

    name = "kontra"

    def choose(self, view, limit=None, *, stop=None, report=None) -> Decision:
        from engine.game import Kontra, Re

        calls = [m for m in view.legal_moves() if isinstance(m, (Kontra, Re))] if view.phase == Phase.PLAY else []
        return Decision(calls[0]) if calls else super().choose(view, limit)
