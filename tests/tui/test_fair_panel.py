"""During a live game the debug panel shows a computer's decision only as far as your
seat may know it; the setting "show computers' cards" shows it all and marks the game."""

from __future__ import annotations

from engine.cards import Card, cards_of
from engine.players.heuristic import HeuristicPlayer
from engine.record import read_records
from engine.rules import legal_cards
from skat_tui.analysis_table import CONTRACT_HIDDEN_LINE, HIDDEN_LINE
from skat_tui.app import SkatApp
from skat_tui.persistence import ISS_RECORDS, TableSession, series_save_path
from skat_tui.screens.dialogs import ResultScreen, ScoreSheetScreen
from skat_tui.settings import data_dir
from skat_tui.widgets.belief_grid import BeliefGrid
from skat_tui.widgets.cards import HandRow
from skat_tui.widgets.debug_panel import DebugPanel
from skat_tui.widgets.score_sheet import score_rows
from test_debug_panel import grand_with_the_panel_open, west_thinks
from tui_fakes import FixedAnalysisPlayer, PassivePlayer, ThinkingPlayer, wait_until


def named_cards(text: str, cards) -> set[Card]:
    return {card for card in cards if card.unicode() in text}


def lead_leaving_west_a_choice(screen) -> int:
    """A card of your hand after which West (next to play) has more than one legal card."""
    state = screen.state
    hand = screen.query_one(HandRow).cards
    return next(c for c in hand if legal_cards(state.hands[1], state.game, c).bit_count() > 1)


async def test_the_panel_does_not_name_a_thinking_computers_cards(fast_settings):
    west = ThinkingPlayer(steps=3)
    app = west_thinks(west, fast_settings, show_cards=False)
    async with app.run_test(size=(120, 32)) as pilot:
        screen, panel = await grand_with_the_panel_open(app, pilot)
        screen.choose_card(lead_leaving_west_a_choice(screen))
        west_hand = set(cards_of(screen.state.hands[1]))
        await wait_until(pilot, lambda: screen.thinking_seat == 1 and "worlds" in panel.plain())
        text = panel.plain()
        assert "West" in text and HIDDEN_LINE in text
        assert named_cards(text, west_hand) == set()  # none of its legal cards, which are its hand
        west.release.set()
        await wait_until(pilot, lambda: screen.state.to_move != 1)
        played = screen.state.trick[1]
        text = panel.plain()
        assert named_cards(text, west_hand) == {played}  # on the table now, with its figures
        assert any(line.startswith("▶") and played.unicode() in line for line in text.splitlines())


async def test_the_belief_grid_places_only_your_own_cards_during_the_game(fast_settings):
    from engine.limits import Limit
    from engine.players.registry import make_player

    west = make_player("mcu:simulations=30,sampler=inference", seed=2)
    west.limit = Limit(simulations=30)
    app = west_thinks(west, fast_settings, show_cards=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, panel = await grand_with_the_panel_open(app, pilot)
        screen.choose_card(lead_leaving_west_a_choice(screen))
        grid = screen.query_one(BeliefGrid)
        await wait_until(pilot, lambda: screen.state.to_move != 1, timeout=60)
        await pilot.pause()
        mine = set(cards_of(screen.state.hands[screen.human_seat]))
        assert grid.rows and set(map(Card, grid.rows)) <= mine  # never East's cards, the skat, or West's by omission


async def test_a_computers_bid_shows_no_limit_and_no_games_during_the_game(fast_settings):
    fast_settings.show_computer_cards = False
    app = SkatApp(session=TableSession.new(3, series_save_path()), settings=fast_settings,
                  players={1: HeuristicPlayer(1), 2: PassivePlayer()})
    async with app.run_test(size=(120, 32)) as pilot:
        screen = app.screen
        panel = screen.query_one(DebugPanel)
        await wait_until(pilot, lambda: screen.last_analysis is not None)
        text = "\n".join(line for line in panel.plain().splitlines() if not line.startswith("East"))  # its public pass
        assert "West (heuristic" in text and "bidding" in text and CONTRACT_HIDDEN_LINE in text
        assert "goes up to" not in text and "passes" not in text and "hand estimates" not in text


async def play_out(pilot, screen) -> None:
    state = screen.state
    while not state.is_over:
        await wait_until(pilot, lambda: screen.my_turn or state.is_over)
        if screen.my_turn:
            screen.choose_card(next(c for c in screen.query_one(HandRow).cards if state.legal_cards() >> c & 1))


async def test_with_the_setting_the_panel_shows_the_computers_cards_and_the_game_is_marked(fast_settings):
    app = west_thinks(FixedAnalysisPlayer(), fast_settings, show_cards=True)
    east = app.fixed_players[2]  # holds its card: West's analysis stays on the panel until released
    async with app.run_test(size=(120, 32)) as pilot:
        screen, panel = await grand_with_the_panel_open(app, pilot)
        screen.choose_card(lead_leaving_west_a_choice(screen))
        west_hand = set(cards_of(screen.state.hands[1]))
        await wait_until(pilot, lambda: screen.state.to_move == 2)
        assert len(named_cards(panel.plain(), west_hand)) > 1  # all its legal cards
        east.release.set()
        await play_out(pilot, screen)
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        assert "marked *" in str(app.screen.query_one("#result-text").render())
        assert score_rows(screen.session.series, screen.session.cards_shown)[0][0] == "1 *"
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.my_turn)
        await pilot.press("t")
        assert isinstance(app.screen, ScoreSheetScreen)
    records, _ = read_records(data_dir() / ISS_RECORDS)
    assert [r.cards_shown for r in records] == [True]
    assert "CS[1]" in (data_dir() / ISS_RECORDS).read_text()


async def test_a_fair_game_is_not_marked(fast_settings):
    app = SkatApp(session=TableSession.new(3, series_save_path()), settings=fast_settings,
                  players={1: FixedAnalysisPlayer(), 2: FixedAnalysisPlayer()})
    async with app.run_test(size=(120, 32)) as pilot:
        screen, panel = await grand_with_the_panel_open(app, pilot)
        await play_out(pilot, screen)
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        assert score_rows(screen.session.series, screen.session.cards_shown)[0][0] == "1"
    records, _ = read_records(data_dir() / ISS_RECORDS)
    assert [r.cards_shown for r in records] == [False]


def test_the_mark_survives_a_save():
    session = TableSession.new(3)
    session.start_game()
    session.mark_cards_shown()
    assert TableSession.from_json(session.to_json()).cards_shown == {0}
