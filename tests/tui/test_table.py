"""A whole game at the table by keys, results, records, resume, AI failures."""

from __future__ import annotations

import json

from engine.game import Phase
from engine.rules import sorted_cards
from skat_tui.app import SkatApp, open_session
from skat_tui.persistence import ISS_RECORDS, series_save_path
from skat_tui.screens.declaration import DeclarationDialog
from skat_tui.screens.dialogs import ConfirmScreen, ResultScreen
from skat_tui.screens.table import TableScreen
from skat_tui.settings import data_dir
from skat_tui.widgets.cards import HandRow
from skat_tui.widgets.table import SeatPanel, TrickArea

from tui_fakes import (
    CrashingPlayer, PassivePlayer, at_my_turn, declare_grand_and_reach_play, new_app, table, wait_until,
    win_the_bidding_to_the_declaration,
)

SEED = 3  # the human (forehand) meets a trick it cannot follow with every card


def key_for(index: int) -> str:
    return "1234567890"[index]


async def test_whole_game_by_keys(fast_settings):
    app = new_app(fast_settings)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await at_my_turn(pilot, app)
        state = screen.state
        # Both opponents passed: forehand may open.
        assert state.phase == Phase.BIDDING and state.bid_stage == 2
        assert "West: pass" in screen.query_one(TrickArea).plain()
        await pilot.press("b")
        assert state.phase == Phase.SKAT and state.declarer == screen.human_seat
        await pilot.press("s")
        assert state.phase == Phase.DISCARD
        assert len(screen.query_one(HandRow).labels()) == 12
        # A single card is refused by the engine, with its reason.
        await pilot.press("1", "x")
        assert state.phase == Phase.DISCARD
        assert "discard exactly two cards" in screen.message
        await pilot.press("2", "x")
        assert state.phase == Phase.DECLARE
        await wait_until(pilot, lambda: isinstance(app.screen, DeclarationDialog))
        dialog = app.screen
        # After taking the skat, announcements are disabled with the engine's reason.
        schneider = dialog.query_one("#flag-schneider")
        assert schneider.disabled and "hand game" in str(schneider.tooltip)
        await pilot.press("5", "enter")  # Grand
        assert state.declaration is not None and state.declaration.game.name == "GRAND"
        refused = 0
        used_enter = False
        while not state.is_over:
            await wait_until(pilot, lambda: screen.my_turn or state.is_over)
            if state.is_over:
                break
            hand = screen.query_one(HandRow).cards
            assert hand == sorted_cards(state.hands[screen.human_seat], state.game)
            legal = state.legal_cards()
            illegal = [i for i, c in enumerate(hand) if not legal >> c & 1]
            if illegal and not refused:
                before = len(state.moves)
                await pilot.press(key_for(illegal[0]))
                assert len(state.moves) == before
                assert "Not allowed" in screen.message and "does not follow" in screen.message
                refused += 1
            playable = [i for i, c in enumerate(hand) if legal >> c & 1]
            if not used_enter:
                # walk the cursor to the card and play it with Enter
                row = screen.query_one(HandRow)
                for _ in range(len(hand)):  # the cursor steps over illegal cards
                    if row.cursor == playable[-1]:
                        break
                    await pilot.press("right")
                before = len(state.moves)
                await pilot.press("enter")
                assert len(state.moves) > before and state.moves[before][1].card == hand[playable[-1]]
                used_enter = True
            else:
                await pilot.press(key_for(playable[-1]))
        assert refused == 1
        assert len(state.tricks) == 10
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        text = str(app.screen.query_one("#result-text").render())
        assert "Multiplier:" in text and "Game value:" in text and "Matadors:" in text
        assert len(app.session.series.entries) == 1
        from engine.record import read_records

        recorded, errors = read_records(data_dir() / ISS_RECORDS)
        assert not errors and len(recorded) == 1 and recorded[0].moves == list(state.moves)
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.state is not state)
        assert app.session.game_number == 2
        # The dealer rotated: the human is now rearhand and the dealer.
        assert screen.human_seat == 2


async def test_card_click_plays_and_last_trick(fast_settings):
    app = new_app(fast_settings)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = table(app)
        await declare_grand_and_reach_play(pilot, screen)
        state = screen.state
        hand = screen.query_one(HandRow)
        first = hand.cards[0]
        before = len(state.moves)
        assert await pilot.click("#card-0")
        # The opponents answer at once, so check the move the click made, not the last one.
        await wait_until(pilot, lambda: len(state.moves) > before)
        seat, move = state.moves[before]
        assert seat == screen.human_seat and move.card == first
        await wait_until(pilot, lambda: bool(state.tricks))
        await pilot.press("l")
        assert "Last trick" in screen.query_one(TrickArea).plain()
        await pilot.press("l")
        assert "Last trick" not in screen.query_one(TrickArea).plain()


async def test_resume_after_interrupted_game(fast_settings):
    app = new_app(fast_settings)
    async with app.run_test() as pilot:
        screen = table(app)
        await declare_grand_and_reach_play(pilot, screen, discard=("3", "4"))
        await pilot.press(key_for(0))
        moves_before_exit = list(screen.state.moves)
    # The process "dies" here: only the save file is left.
    saved = json.loads(series_save_path().read_text())
    assert len(saved["current"]["moves"]) == len(moves_before_exit)
    session, notices = open_session(None)
    assert session.seed == SEED and not notices
    assert list(session.state.moves) == moves_before_exit
    app2 = SkatApp(session=session, settings=fast_settings, players={1: PassivePlayer(), 2: PassivePlayer()})
    async with app2.run_test() as pilot:
        screen = table(app2)
        await wait_until(pilot, lambda: screen.my_turn)
        assert any("Resumed game 1" in n.message for n in app2._notifications)
        assert screen.state.declaration is not None
        assert len(screen.query_one(HandRow).cards) == 10 - len(screen.state.tricks)


def crashing_west_app(fast_settings, monkeypatch, stand_in):
    """A table whose West AI crashes; the table's fallback players are ``stand_in(kind)``.
    Returns the app and the list of the kinds the table asked for."""
    import skat_tui.screens.table as table_module
    from skat_tui.players import PlayerChoice

    asked = []

    def fallback(kind, **params):
        asked.append(kind)
        return PlayerChoice(stand_in(kind), kind)

    monkeypatch.setattr(table_module, "resolve_player", fallback)
    return new_app(fast_settings, players={1: CrashingPlayer(), 2: PassivePlayer()}), asked


async def play_until_west_has_played(pilot, screen) -> None:
    """Declare the game won in the bidding and play legal cards until West has had to play one."""
    await win_the_bidding_to_the_declaration(pilot, screen)
    await pilot.press("5", "enter")
    state = screen.state
    west = screen.places.index(1)
    while not any(s == west for s, m in state.moves if m.__class__.__name__ == "Play"):
        await wait_until(pilot, lambda: screen.my_turn or state.is_over)
        hand, legal = screen.query_one(HandRow).cards, state.legal_cards()
        before = len(state.moves)
        await pilot.press(key_for(next(i for i, c in enumerate(hand) if legal >> c & 1)))
        await wait_until(pilot, lambda: len(state.moves) > before)


async def test_a_fallback_that_fails_too_hands_the_seat_to_the_random_player(fast_settings, monkeypatch):
    """E.g. a heuristic player that cannot decide in a phase of a house rule: the table must
    not ask it again and again."""
    app, asked = crashing_west_app(fast_settings, monkeypatch,
                                   lambda kind: CrashingPlayer() if kind == "heuristic" else PassivePlayer())
    async with app.run_test() as pilot:
        screen = table(app)
        await play_until_west_has_played(pilot, screen)
        assert asked == ["heuristic", "random"] and screen.players[1].kind == "random"
        errors = [n.message for n in app._notifications if n.title == "AI error"]
        assert "The heuristic player takes over" in errors[0] and "The random player takes over" in errors[1]


async def test_ai_crash_falls_back_and_game_goes_on(fast_settings, monkeypatch):
    # the passive player stands in for the (slow to compile) heuristic player
    app, asked = crashing_west_app(fast_settings, monkeypatch, lambda kind: PassivePlayer())
    async with app.run_test() as pilot:
        screen = table(app)
        await play_until_west_has_played(pilot, screen)
        state = screen.state
        assert asked == ["heuristic"] and screen.players[1].kind == "heuristic"
        assert not state.is_over or len(state.tricks) == 10
        assert any("AI error" == (n.title or "") for n in app._notifications)


async def test_quit_asks_during_a_game(fast_settings):
    app = new_app(fast_settings)
    async with app.run_test() as pilot:
        await at_my_turn(pilot, app)
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert not isinstance(app.screen, ConfirmScreen)
        await pilot.press("q", "y")
        await pilot.pause()
    assert app.return_code == 0 or app.return_code is None


async def test_help_lists_every_binding(fast_settings):
    app = new_app(fast_settings)
    async with app.run_test() as pilot:
        await at_my_turn(pilot, app)
        await pilot.press("question_mark")
        help_text = str(app.screen.query_one("#help-text").render())
        for words in ("bid the next value", "take the skat", "schneider", "last trick", "debug panel", "quit"):
            assert words in help_text
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)


async def test_fits_80_by_24(fast_settings):
    app = new_app(fast_settings)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_my_turn(pilot, app)
        hand = screen.query_one(HandRow)
        region = screen.query_one("#card-9").region
        assert region.right <= 80 and region.bottom <= 24 and region.height == 3
        west = screen.query_one("#seat-west", SeatPanel)
        assert "10" in west.plain()  # the face-down count
