"""The one AI runner: one decision at a time, nothing from an abandoned one, crashes handed over."""

from __future__ import annotations

import threading

from textual.app import App

from engine.analysis import Analysis
from engine.cards import cards_of
from engine.game import Deal, GameState, Phase
from engine.players.base import Decision, RandomPlayer
from skat_tui.ai_runner import AIJob, AIRunner
from skat_tui.app import SkatApp
from skat_tui.persistence import TableSession, series_save_path
from skat_tui.players import PlayerChoice
from skat_tui.settings import Settings
from skat_tui.widgets.debug_panel import DebugPanel

from test_replay import played_records
from tui_fakes import CrashingPlayer, PassivePlayer, ThinkingPlayer, wait_until


def card_play_view() -> GameState:
    """A position in the card play, seen by the seat to move."""
    for seed in range(20):
        state = GameState.new(Deal.shuffled(seed))
        player = RandomPlayer(seed)
        while state.phase not in (Phase.PLAY, Phase.PASSED):
            state.push(player.choose(state.view(state.to_move)).move)
        if state.phase == Phase.PLAY:
            return state.view(state.to_move)
    raise AssertionError("no deal of the first 20 was played")


class Host(App):
    """A bare app whose screen hosts the runner, recording what it hands over."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[tuple[str, str, object]] = []

    def record(self, tag: str):
        return (lambda kind: lambda seat, value: self.events.append((tag, kind, value)))

    def start(self, tag: str, player, view: GameState) -> None:
        on = self.record(tag)
        self.runner.run(view.to_move, player, view, None, on_analysis=on("analysis"), on_decision=on("decision"),
                        on_failure=on("failure"))

    def on_mount(self) -> None:
        self.runner = AIRunner(self.screen)


async def test_a_new_decision_abandons_the_old_one_and_nothing_of_it_arrives_later():
    app = Host()
    view = card_play_view()
    first, second = ThinkingPlayer(steps=10**9), ThinkingPlayer(steps=2)
    second.release.set()
    async with app.run_test() as pilot:
        app.start("first", first, view)
        await wait_until(pilot, lambda: any(tag == "first" for tag, _, _ in app.events))
        app.start("second", second, view)
        switched = len(app.events)
        await wait_until(pilot, lambda: first.stopped.is_set())  # the abandoned player stopped
        await wait_until(pilot, lambda: ("second", "decision") in [(t, k) for t, k, _ in app.events])
        # the first player's final analysis came after the switch and was dropped
        assert all(tag == "second" for tag, _, _ in app.events[switched:])
        assert [k for t, k, _ in app.events if t == "second"][-1] == "decision"
        assert app.runner.job is None


async def test_cancel_stops_the_player_and_drops_its_answer():
    app = Host()
    thinker = ThinkingPlayer(steps=10**9)
    async with app.run_test() as pilot:
        app.start("one", thinker, card_play_view())
        await wait_until(pilot, lambda: len(app.events) >= 1)
        app.runner.cancel()
        seen = len(app.events)
        await wait_until(pilot, lambda: thinker.stopped.is_set())
        await pilot.pause(0.1)
        assert len(app.events) == seen and app.runner.job is None


async def test_a_crashing_player_is_handed_to_the_screen_and_the_app_goes_on():
    app = Host()
    async with app.run_test() as pilot:
        app.start("crash", CrashingPlayer(), card_play_view())
        await wait_until(pilot, lambda: len(app.events) == 1)
        tag, kind, error = app.events[0]
        assert kind == "failure" and "simulated AI bug" in str(error)
        assert app.is_running and app.runner.job is None
        app.start("after", PassivePlayer(), card_play_view())  # the runner still serves
        await wait_until(pilot, lambda: len(app.events) == 2)
        assert app.events[1][1] == "decision"


async def test_nothing_is_handed_to_a_screen_that_has_left_the_app():
    """A decision that ends while the app closes must not reach widgets already removed."""
    from textual.widgets import Static

    from engine.game import Play

    app = Host()
    async with app.run_test():
        gone = Static()  # never mounted: not attached to the app, like a screen being torn down
        runner = AIRunner(gone)
        handed: list = []
        view = card_play_view()
        job = AIJob(view.to_move, PassivePlayer(), view, None, on_analysis=lambda *a: handed.append(a),
                    on_decision=lambda *a: handed.append(a), on_failure=lambda *a: handed.append(a))
        runner._job = job
        runner._deliver(job, job.on_decision, Decision(Play(next(iter(cards_of(view.legal_cards()))))), last=True)
        assert handed == [] and runner.job is None


class PatientHinter(PassivePlayer):
    """Reports one analysis in any phase, then thinks until it is stopped."""

    name = "patient"

    def __init__(self) -> None:
        self.stopped = threading.Event()

    def choose(self, view, limit=None, *, stop=None, report=None) -> Decision:
        report(Analysis(self.name, view.to_move, (), (), None, 1, 0.0, limit))
        stop.wait(60)
        self.stopped.set()
        return super().choose(view, limit)


async def test_a_hint_still_thinking_stops_when_you_move_and_never_shows_later(fast_settings, monkeypatch):
    import skat_tui.screens.table as table_module

    hinter = PatientHinter()
    monkeypatch.setattr(table_module, "resolve_player", lambda kind, **_: PlayerChoice(hinter, kind))
    app = SkatApp(session=TableSession.new(3, series_save_path()), settings=fast_settings,
                  players={1: PassivePlayer(), 2: PassivePlayer()})
    async with app.run_test(size=(120, 32)) as pilot:
        screen = app.screen
        await wait_until(pilot, lambda: screen.my_turn)
        await pilot.press("b")  # the others pass: you decide about the skat, then discard
        await wait_until(pilot, lambda: screen.my_turn and screen.state.phase == Phase.SKAT)
        await pilot.press("i")
        await wait_until(pilot, lambda: screen.last_analysis is not None)
        assert screen.last_analysis[1].startswith("Hint for")
        await pilot.press("s")  # your move; your turn again, and no opponent's decision starts
        assert screen.my_turn and screen.state.phase == Phase.DISCARD
        await wait_until(pilot, lambda: hinter.stopped.is_set())
        await pilot.pause(0.1)
        assert not any((n.title or "") == "Hint" for n in app._notifications)
        assert screen.runner.job is None


async def test_stepping_away_in_the_replay_stops_the_ai_and_drops_its_answer(monkeypatch):
    import skat_tui.screens.replay_screen as replay_module

    thinker = ThinkingPlayer(steps=10**9)
    monkeypatch.setattr(replay_module, "resolve_player", lambda kind, **_: PlayerChoice(thinker, kind))
    app = SkatApp(records=played_records(1), settings=Settings())
    async with app.run_test(size=(110, 32)) as pilot:
        screen = app.screen
        screen.navigator.next_trick()
        screen.navigator.forward()
        screen.refresh_position()
        await pilot.press("a")
        panel = screen.query_one(DebugPanel)
        await wait_until(pilot, lambda: panel.analysis is not None)
        await pilot.press("v")  # another view of the same position: the AI goes on
        assert screen.runner.job is not None and not thinker.stopped.is_set()
        await pilot.press("right")
        await wait_until(pilot, lambda: thinker.stopped.is_set())
        await pilot.pause(0.1)
        assert not panel.analysis.final  # the final analysis of the abandoned search never arrived
        assert not any("would choose" in n.message for n in app._notifications)
