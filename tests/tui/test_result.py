"""The result screen after a game: the skat is public once the game is over."""

from __future__ import annotations

from engine.cards import CardSet
from engine.game import Phase
from engine.record import read_records
from skat_tui.app import SkatApp
from skat_tui.persistence import ISS_RECORDS, TableSession, series_save_path
from skat_tui.screens.dialogs import ResultScreen
from skat_tui.screens.table import TableScreen
from skat_tui.settings import data_dir

from tui_fakes import DeclaringPlayer, PassivePlayer, wait_until


async def test_after_an_opponents_game_the_result_shows_the_skat_and_the_record_keeps_it(fast_settings):
    session = TableSession.new(3, series_save_path())
    app = SkatApp(session=session, settings=fast_settings, players={1: DeclaringPlayer(), 2: PassivePlayer()})
    async with app.run_test(size=(100, 30)) as pilot:
        screen = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        await wait_until(pilot, lambda: screen.my_turn)
        state = screen.state
        while state.phase == Phase.BIDDING and screen.my_turn:
            await pilot.press("p")
            await wait_until(pilot, lambda: screen.my_turn or state.phase != Phase.BIDDING)
        assert state.declarer == 1 and state.skat_taken  # West plays a game after taking the skat
        while not state.is_over:
            await wait_until(pilot, lambda: screen.my_turn or state.is_over)
            if screen.my_turn:
                legal = state.legal_cards()
                hand = screen.query_one("#hand").cards
                await pilot.press("1234567890"[next(i for i, c in enumerate(hand) if legal >> c & 1)])
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        text = str(app.screen.query_one("#result-text").render())
        skat, discard = CardSet(state.deal.skat).unicode(), CardSet(state.discard).unicode()
        assert f"Skat: West picked up {skat} and put away {discard}." in text
        records, errors = read_records(data_dir() / ISS_RECORDS)
        assert not errors and len(records) == 1
        again = records[0].replay()
        assert again.skat_taken and again.deal.skat == state.deal.skat and again.discard == state.discard
