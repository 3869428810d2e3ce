"""Kontra and Re at the table: keys when the engine allows them, the computer's calls
announced, both in the header, the result and the score sheet."""

from __future__ import annotations

from engine.game import Kontra, Phase
from engine.house_rules import HouseRules
from skat_tui.app import SkatApp
from skat_tui.persistence import TableSession, series_save_path
from skat_tui.widgets.score_sheet import score_rows
from skat_tui.widgets.table import InfoBar
from tui_fakes import (
    DeclaringPlayer, KontraPlayer, PassivePlayer, declare_grand_and_reach_play, footer_settled, play_to_the_result,
    wait_until,
)

KONTRA = HouseRules(kontra=True)


def footer_keys(app) -> set[str]:
    return {binding.key for _, binding, enabled, _ in app.screen.active_bindings.values() if enabled and binding.show}


async def test_a_defender_says_kontra_with_c_before_the_first_card(fast_settings):
    session = TableSession.new(3, series_save_path(), KONTRA)
    app = SkatApp(session=session, settings=fast_settings, players={1: DeclaringPlayer(), 2: PassivePlayer()})
    async with app.run_test(size=(100, 40)) as pilot:
        screen = app.screen
        while not (screen.my_turn and screen.state.phase == Phase.PLAY):
            await wait_until(pilot, lambda: screen.my_turn)
            if screen.state.phase == Phase.BIDDING:
                await pilot.press("p")
        assert screen.state.declarer != screen.human_seat
        await wait_until(pilot, lambda: footer_settled(app))
        assert "c" in footer_keys(app) and "r" not in footer_keys(app)
        assert "c = Kontra" in screen.message
        await pilot.press("c")
        assert screen.state.kontra == screen.human_seat and screen.my_turn  # still his card to play
        assert "Kontra (You)" in screen.query_one(InfoBar).plain()
        await wait_until(pilot, lambda: footer_settled(app))
        assert "c" not in footer_keys(app)
        await pilot.press("c")  # said once only: nothing changes
        assert screen.state.kontra == screen.human_seat and not any(
            isinstance(m, Kontra) for m in screen.state.legal_moves())
        result = await play_to_the_result(pilot, app, screen)
        text = str(result.query_one("#result-text").render())
        assert "Kontra (You): doubles the game value" in text
        assert score_rows(session.series)[0][4].endswith(" K")


async def test_the_computers_kontra_is_announced_and_the_declarer_answers_re(fast_settings):
    session = TableSession.new(3, series_save_path(), KONTRA)
    app = SkatApp(session=session, settings=fast_settings, players={1: KontraPlayer(), 2: PassivePlayer()})
    async with app.run_test(size=(100, 40)) as pilot:
        screen = app.screen
        await declare_grand_and_reach_play(pilot, screen)
        assert "r" not in footer_keys(app) and "c" not in footer_keys(app)  # the declarer never says Kontra
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.state.kontra is not None)
        assert any(n.title == "Kontra" and "West says Kontra" in n.message for n in app._notifications)
        await wait_until(pilot, lambda: screen.my_turn)
        assert "Kontra (West)" in screen.query_one(InfoBar).plain()
        await wait_until(pilot, lambda: footer_settled(app))
        assert "r" in footer_keys(app) and "r = Re" in screen.message
        await pilot.press("r")
        assert screen.state.re and "Re" in screen.query_one(InfoBar).plain()
        result = await play_to_the_result(pilot, app, screen)
        text = str(result.query_one("#result-text").render())
        game = session.series.entries[0].result
        assert (f"Kontra (West) and Re: each doubles the game value: {game.game_value // 4} × 4 = "
                f"{game.game_value}") in text
        assert score_rows(session.series)[0][4].endswith(" KR")


async def test_without_the_house_rule_no_call_is_offered(fast_settings):
    session = TableSession.new(3, series_save_path())
    app = SkatApp(session=session, settings=fast_settings, players={1: KontraPlayer(), 2: PassivePlayer()})
    async with app.run_test(size=(100, 40)) as pilot:
        screen = app.screen
        await declare_grand_and_reach_play(pilot, screen)
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.my_turn)
        await wait_until(pilot, lambda: footer_settled(app))
        assert screen.state.kontra is None and not {"c", "r"} & footer_keys(app)


def test_the_score_sheet_explains_its_marks_for_the_rules_of_the_series():
    from engine.series import Series
    from skat_tui.persistence import TABLE_NAMES
    from skat_tui.widgets.score_sheet import score_legend

    assert score_legend(Series(TABLE_NAMES)) == ""
    assert score_legend(Series(TABLE_NAMES, rules=KONTRA)) == "K Kontra, R Re"


async def test_the_replay_of_a_kontra_record_shows_the_calls(tmp_path):
    from engine.game import Bid, Deal, GameState, Pass, Re
    from engine.record import GameRecord, format_record, read_records
    from skat_tui.screens.replay_screen import ReplayScreen, record_title
    from skat_tui.settings import Settings

    def called_game(seed: int) -> GameState:
        """Forehand plays the first game listed; everyone says Kontra or Re whenever he may."""
        state = GameState.new(Deal.shuffled(seed), rules=KONTRA)
        while not state.is_over:
            moves = state.legal_moves()
            if state.phase == Phase.BIDDING:
                move = next((m for m in moves if isinstance(m, Bid)), Pass()) if state.to_move == 0 else Pass()
            else:
                move = next((m for m in moves if isinstance(m, (Kontra, Re))), moves[0])
            state.push(move)
        return state

    # Re comes only if the declarer's next turn falls within three cards of the Kontra
    state = next(s for s in map(called_game, range(1, 100)) if s.re)
    assert state.kontra is not None
    path = tmp_path / "kontra.sgf"
    path.write_text(format_record(GameRecord.from_state(state, id="k1", players=("Ann", "Bob", "Cid"))) + "\n")
    records, errors = read_records(str(path))
    assert not errors and record_title(0, records[0]).endswith("(Kontra, Re)")
    app = SkatApp(records=records, settings=Settings())
    async with app.run_test(size=(110, 32)) as pilot:
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("end")
        assert f"Kontra ({('Ann', 'Bob', 'Cid')[state.kontra]}) · Re" in app.screen.query_one(InfoBar).plain()
        assert any(n.title == "Result" and "and Re: each doubles the game value" in n.message
                   for n in app._notifications)
