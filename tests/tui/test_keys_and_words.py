"""Keys at the table: Escape closes the debug panel, every card of the discard has a key."""

from __future__ import annotations

from skat_tui.app import SkatApp
from skat_tui.persistence import TableSession, series_save_path
from skat_tui.widgets.cards import HandRow
from skat_tui.widgets.debug_panel import DebugPanel
from tui_fakes import PassivePlayer, wait_until


def table_app(settings) -> SkatApp:
    return SkatApp(session=TableSession.new(3, series_save_path()), settings=settings,
                   players={1: PassivePlayer(), 2: PassivePlayer()})


async def test_escape_closes_the_debug_panel_which_leaves_the_footer_visible(fast_settings):
    app = table_app(fast_settings)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await wait_until(pilot, lambda: screen.my_turn)
        await pilot.press("d")
        await pilot.pause()
        panel = screen.query_one(DebugPanel)
        assert panel.has_class("visible")
        assert not panel.region.overlaps(screen.query_one("Footer").region)
        await pilot.press("escape")
        assert not panel.has_class("visible")


async def test_the_eleventh_and_twelfth_card_of_the_discard_have_keys(fast_settings):
    app = table_app(fast_settings)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await wait_until(pilot, lambda: screen.my_turn)
        await pilot.press("b", "s")
        await wait_until(pilot, lambda: len(screen.query_one(HandRow).cards) == 12)
        cards = screen.query_one(HandRow).cards
        await pilot.press("minus", "equals_sign")
        assert screen.selected == (1 << cards[10]) | (1 << cards[11])
        assert "1–0 - =" in screen.message


def test_a_ramsch_you_lose_is_told_in_the_second_person():
    from engine.scoring import RamschResult
    from skat_tui.screens.dialogs import ramsch_lines

    result = RamschResult(points=(70, 30, 20), tricks=(5, 3, 2), skat_to=0, pushes=0, losers=(0,), jungfrau=None,
                          durchmarsch=None, multiplier=1, values=(-70, 0, 0))
    lines = ramsch_lines(result, ("You", "West", "East"))
    assert lines[0] == "Ramsch: You lose."
    assert "You have the most card points and lose them: 70." in lines
    assert "The skat went to you with the last trick and counts for you." in lines
    assert ramsch_lines(result, ("Ann", "Bob", "Cid"))[0] == "Ramsch: Ann loses."


def test_moves_and_views_speak_to_you():
    from skat_tui.words import possessive, sentence

    assert sentence("You", "plays ♦J") == "You play ♦J" and sentence("West", "plays ♦J") == "West plays ♦J"
    assert sentence("You", "passes") == "You pass" and sentence("You", "has the most") == "You have the most"
    assert possessive("You") == "Your" and possessive("West") == "West's"


async def test_the_header_with_skat_and_discard_fits_one_line_at_80_columns(fast_settings):
    from rich.text import Text

    from skat_tui.widgets.table import InfoBar
    from tui_fakes import declare_grand_and_reach_play

    for size, full in (((80, 24), False), ((160, 50), True)):
        app = table_app(fast_settings)
        async with app.run_test(size=size) as pilot:
            screen = app.screen
            await declare_grand_and_reach_play(pilot, screen)
            await pilot.pause()
            info = screen.query_one(InfoBar)
            line = info.plain()
            assert info.region.height == 1 and Text(line).cell_len <= info.content_size.width, line
            assert ("seed 3" in line and "put away" in line) == full and "You: Grand" in line and "away" in line


async def test_the_settings_list_only_the_parameters_a_player_kind_takes(fast_settings):
    from textual.widgets import Select

    from skat_tui.settings import OpponentSettings
    from tui_fakes import open_settings_at_my_turn

    fast_settings.opponents[0] = OpponentSettings(kind="mcu", evaluation="type2-50")  # East stays pimc
    app = table_app(fast_settings)
    async with app.run_test(size=(100, 40)) as pilot:
        await open_settings_at_my_turn(pilot, app)
        dialog = app.screen
        await pilot.pause()
        assert dialog.query_one("#opp0-repetitions").display and not dialog.query_one("#opp1-repetitions").display
        assert all(not w.display for w in dialog.query(".opp1-repetitions"))  # its label too
        assert dialog.query_one("#opp1-evaluation").display and dialog.query_one("#opp1-budget").display
        dialog.query_one("#opp0-kind", Select).value = "heuristic"
        await pilot.pause()
        assert not dialog.query_one("#opp0-evaluation").display and not dialog.query_one("#opp0-limits").display
        assert not dialog.query_one("#opp0-bidding-row").display


def test_the_bidding_panel_says_what_exp_is():
    from engine.players.contract_analysis import ContractAnalysis, ContractCandidate
    from skat_tui.analysis_table import contract_measure_line

    searched = ContractCandidate("grand", None, 20, 0.6, 0.1, 12.0, (1, 2, 3, 4), True)
    estimated = ContractCandidate("grand", None, 0, 0.6, 0.0, 12.0, (), True)
    for candidate, defenders in ((searched, "the defender's 40"), (estimated, "40 to each defender")):
        line = contract_measure_line(ContractAnalysis("bidding", 1, 18, candidate.simulations, (candidate,), 24))
        assert "exp: expected Seeger-Fabian score" in line and defenders in line


async def test_notes_sit_over_easts_seat_and_an_illegal_card_is_told_in_the_status_line(fast_settings):
    from textual.widgets._toast import Toast

    from tui_fakes import declare_grand_and_reach_play

    app = table_app(fast_settings)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = app.screen
        await declare_grand_and_reach_play(pilot, screen)
        from engine.cards import cards_of
        from engine.game import Play

        screen.human_move(Play(next(cards_of(screen.state.hands[1]))))  # a card of West's: the engine refuses it
        await pilot.pause()
        assert screen.message.startswith("Not allowed") and not list(app._notifications)
        hand = screen.query_one(HandRow)
        app.note("test", "A note of several words, long enough to wrap over a few lines here.", timeout=30)
        app.note("test", "The second note on the subject replaces the first one.", timeout=30)
        await pilot.pause(0.3)
        toasts = list(app.screen.query(Toast))
        assert len(toasts) == 1
        for avoided in (hand, screen.query_one("#status"), screen.query_one("#trick"), screen.query_one("#info")):
            assert not toasts[0].region.overlaps(avoided.region), avoided


async def test_a_note_never_covers_the_declaration_dialog(fast_settings):
    from textual.widgets._toast import Toast

    from tui_fakes import win_the_bidding_to_the_declaration

    app = table_app(fast_settings)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await win_the_bidding_to_the_declaration(pilot, app.screen)
        app.note("test", "A note while you declare.", timeout=30)
        await pilot.pause(0.3)
        dialog = app.screen
        assert not [t for t in dialog.query(Toast) if t.visible]
        await pilot.press("5", "enter")  # declared: back at the table, the note shows
        await pilot.pause(0.3)
        assert [t for t in app.screen.query(Toast) if t.visible and "while you declare" in str(t.render())]
