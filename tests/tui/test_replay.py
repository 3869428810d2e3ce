"""Replay navigation (plain class) and the replay screen."""

from __future__ import annotations

import pytest

from engine.game import Deal, Phase, Play
from engine.players.base import RandomPlayer
from engine.series import play_game
from skat_tui.app import SkatApp
from engine.record import GameRecord
from skat_tui.screens.dialogs import GamePickerScreen
from skat_tui.screens.replay_screen import ReplayScreen
from skat_tui.settings import Settings
from skat_tui.widgets.debug_panel import DebugPanel
from skat_tui.widgets.table import SeatPanel, TrickArea
from tui_fakes import ThinkingPlayer, wait_until


def played_records(count: int) -> list[GameRecord]:
    """Finished, declared games from seeded random players."""
    records, seed = [], 0
    while len(records) < count:
        seed += 1
        players = [RandomPlayer(seed * 3 + i) for i in range(3)]
        state = play_game(Deal.shuffled(seed), players)
        if state.result() is not None and len(state.tricks) == 10:
            records.append(GameRecord.from_state(state, id=f"g{seed}", players=("Ann", "Bob", "Cid")))
    return records


async def test_replay_screen_steps_views_and_analyses():
    records = played_records(2)
    settings = Settings()
    app = SkatApp(records=records, settings=settings)
    async with app.run_test(size=(110, 32)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GamePickerScreen))
        await pilot.press("down", "enter")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        nav = screen.navigator
        assert nav.game_index == 1
        await pilot.press("right", "right")
        assert nav.position == 2
        assert "move 2/" in screen.status_text()
        await pilot.press("left")
        assert nav.position == 1
        await pilot.press("right_square_bracket", "right_square_bracket")
        assert len(nav.state.tricks) == 1
        assert "took" in screen.query_one(TrickArea).plain()
        # All hands open: West shows cards, not backs.
        assert "▆" not in screen.query_one("#seat-west", SeatPanel).plain()
        await pilot.press("v")  # forehand's view: the others are face down
        assert "Ann's view" in screen.status_text()
        assert "▆" in screen.query_one("#seat-west", SeatPanel).plain()
        await pilot.press("end")
        assert nav.state.is_over and ("won" in screen.status_text() or "lost" in screen.status_text())
        await pilot.press("home")
        assert nav.position == 0
        assert "Bidding" in screen.query_one(TrickArea).plain()


async def test_replay_debug_panel_runs_an_ai_at_the_position(monkeypatch):
    import skat_tui.screens.replay_screen as replay_module
    from skat_tui.players import PlayerChoice

    thinker = ThinkingPlayer(steps=2)
    thinker.release.set()
    monkeypatch.setattr(replay_module, "resolve_player", lambda kind, **_: PlayerChoice(thinker, kind))
    records = played_records(1)
    app = SkatApp(records=records, settings=Settings())
    async with app.run_test(size=(110, 32)) as pilot:
        screen = app.screen
        nav = screen.navigator
        nav.next_trick()
        nav.forward()
        screen.refresh_position()
        await pilot.press("a")
        panel = screen.query_one(DebugPanel)
        assert panel.has_class("visible")
        await wait_until(pilot, lambda: panel.analysis is not None and panel.analysis.final)
        assert set(panel.analysis.legal) == set(Play(c).card for c in _legal(nav.state))
        assert sum(1 for line in panel.plain().splitlines() if line.startswith("▶")) == 1


def _legal(state):
    from engine.cards import cards_of

    return list(cards_of(state.legal_cards()))


def test_game_titles_name_the_declarer_the_game_and_how_it_ended():
    from pathlib import Path

    from engine.record import read_records
    from skat_tui.screens.replay_screen import record_title

    records, _ = read_records(Path(__file__).parent.parent / "data" / "iss-samples.sgf")
    titles = [record_title(i, r) for i, r in enumerate(records)]
    assert "2. 684159 · foo, xskat:2, xskat · xskat: Grand won +96" in titles
    assert "9. 30 · bonsai, bar, foo · ended: foo left the table" in titles
    assert "1. 541932 · zoot, kermit, foo · foo: Karo lost -54" == record_title(0, records[0], german=True)


async def test_the_game_picker_uses_the_dialog_width():
    app = SkatApp(records=played_records(2), settings=Settings())
    async with app.run_test(size=(110, 32)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GamePickerScreen))
        games = app.screen.query_one("#game-list")
        assert games.size.width > 80  # one line a game, not wrapped into a narrow column
        prompts = [str(games.get_option_at_index(i).prompt) for i in range(games.option_count)]
        assert len(prompts) == 2 and all(p.count(" · ") == 2 for p in prompts)


async def test_a_game_a_player_left_ends_with_who_left_not_passed_in():
    from pathlib import Path

    from engine.record import read_records

    records, _ = read_records(Path(__file__).parent.parent / "data" / "iss-samples.sgf")
    app = SkatApp(records=records, settings=Settings())
    async with app.run_test(size=(110, 32)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GamePickerScreen))
        await pilot.press(*["down"] * 8, "enter")
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.navigator.game_index == 8
        await pilot.press("end")
        status = screen.status_text()
        assert "foo left the table before a game was declared (bid 18): the game is not scored." in status
        assert "passed" not in status
        await pilot.pause()
        assert any("foo left the table" in n.message for n in app._notifications)


async def test_the_result_toast_goes_when_leaving_the_end_or_the_game():
    app = SkatApp(records=played_records(2), settings=Settings())
    async with app.run_test(size=(110, 32)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GamePickerScreen))
        await pilot.press("enter")
        screen = app.screen

        def result_toasts():
            return [n for n in app._notifications if n.title == "Result"]

        await pilot.press("end")
        await pilot.pause()
        assert result_toasts()
        await pilot.press("home")
        await pilot.pause()
        assert not result_toasts()
        await pilot.press("end")
        await pilot.pause()
        assert result_toasts()
        await pilot.press("g")
        await wait_until(pilot, lambda: isinstance(app.screen, GamePickerScreen))
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: app.screen is screen and screen.navigator.game_index == 1)
        assert not result_toasts()


async def test_an_empty_hand_face_down_says_so():
    app = SkatApp(records=played_records(1), settings=Settings())
    async with app.run_test(size=(110, 32)) as pilot:
        screen = app.screen
        await pilot.press("end", "v")  # forehand's view: the others' (empty) hands face down
        west = screen.query_one("#seat-west", SeatPanel).plain()
        assert "no cards left" in west and " 0\n" not in west
