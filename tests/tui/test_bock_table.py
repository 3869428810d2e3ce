"""Bock rounds at the table: the header counts the Bock games ("Bock 2/3"), the score
sheet marks them, the result screen explains the doubling and the events that bring one."""

from __future__ import annotations

from engine.cards import CardSet
from engine.house_rules import HouseRules
from engine.rules import GameType
from engine.scoring import Declaration, score_game
from engine.series import Series
from skat_tui.app import SkatApp
from skat_tui.persistence import TABLE_NAMES, FinishedGame, TableSession, deal_for
from skat_tui.screens.dialogs import ResultScreen, series_lines
from skat_tui.widgets.score_sheet import bock_game_number, score_legend, score_rows
from skat_tui.widgets.table import InfoBar
from tui_fakes import DeclaringPlayer, PassivePlayer, wait_until

BOCK = HouseRules(bock=True)


def a_grand_worth_168():
    """Forehand's schwarz grand with four jacks: 4 + 1 game + 1 schneider + 1 schwarz = 7 × 24 = 168."""
    cards = CardSet.from_str("CJ SJ HJ DJ CA CT CK CQ C9 C8 C7 SA").mask
    return score_game(0, Declaration(GameType.GRAND), 18, cards, 120, 10, 0)


def test_a_bock_round_is_counted_on_the_sheet_and_explained():
    series = Series(TABLE_NAMES, rules=BOCK)
    big = a_grand_worth_168()
    series.record(big)
    assert series_lines(series) == ["Bock event (game value 168): a round of 3 Bock games follows."]
    assert bock_game_number(series, 0) == 0 and bock_game_number(series, 1) == 1
    series.record(big)  # a Bock game that brings another Bock round
    lines = series_lines(series)
    plain, sf = series.entries[1].scores()
    declarer = series.entries[1].seats[0]
    assert plain[declarer] == 2 * 168
    assert lines[0].startswith("Bock game 1/3: both lists count it double (the Seeger-Fabian fixed points once): ")
    assert f"{TABLE_NAMES[declarer]} +336 ({sf[declarer]:+d})" in lines[0]
    assert lines[1] == "Bock event (game value 168): a round of 3 Bock games follows the ones already due."
    series.record(None)
    series.record(None)
    series.record(None)  # the fourth Bock game: the first of the second round
    assert [bock_game_number(series, i) for i in range(6)] == [0, 1, 2, 3, 1, 2]
    numbers = [row[0] for row in score_rows(series)[:-1]]
    assert numbers == ["1", "2 B", "3 B", "4 B", "5 B"]
    assert score_legend(series) == "B a Bock game: both lists count it double"
    assert series_lines(series) == [series_lines(series)[0]] and "nothing" in series_lines(series)[0]


async def test_the_header_marks_a_bock_game_and_its_result_explains_the_doubling(fast_settings):
    session = TableSession.new(3, None, BOCK)
    # as if game 1 brought a Bock round (already in the record file)
    session.finished.append(FinishedGame(deal_for(3, 1), [], session.seats))
    session.series.record(a_grand_worth_168())
    session.recorded = 1
    app = SkatApp(session=session, settings=fast_settings, players={1: DeclaringPlayer(), 2: PassivePlayer()})
    async with app.run_test(size=(100, 40)) as pilot:
        screen = app.screen
        await wait_until(pilot, lambda: screen.my_turn)
        assert "Game 2 · seed 3 · Rules: Bock · Bock 1/3 · " in screen.query_one(InfoBar).plain()
        while not isinstance(app.screen, ResultScreen):
            await wait_until(pilot, lambda: screen.my_turn or isinstance(app.screen, ResultScreen))
            if screen.my_turn:
                await pilot.press("p" if screen.state.phase.name == "BIDDING" else "enter")
        text = str(app.screen.query_one("#result-text").render())
        assert "Bock game 1/3: both lists count it double" in text
        assert "Bock 1/3" in screen.query_one(InfoBar).plain()  # the game just played, while its result shows
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Game 3" in screen.query_one(InfoBar).plain())
        assert "Bock 2/3" in screen.query_one(InfoBar).plain()
    # the record marks the Bock game, and the replay shows it
    from engine.record import read_records
    from skat_tui.persistence import ISS_RECORDS
    from skat_tui.screens.replay_screen import ReplayScreen
    from skat_tui.settings import Settings, data_dir

    records, errors = read_records(data_dir() / ISS_RECORDS)
    assert not errors and [r.bock for r in records] == [True]  # game 2 (game 1 was set up, not played)
    replay = SkatApp(records=records, settings=Settings())
    async with replay.run_test(size=(100, 32)) as pilot:
        assert isinstance(replay.screen, ReplayScreen)
        assert replay.screen.query_one(InfoBar).plain().startswith("Replay 1/1 · Bock · ")
