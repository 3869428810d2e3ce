"""The table at 80 and 100 columns: footer, score sheet and palette stay readable."""

from __future__ import annotations

import pytest

from skat_tui.app import SkatApp
from skat_tui.screens.declaration import DeclarationDialog
from skat_tui.screens.dialogs import ResultScreen, ScoreSheetScreen
from skat_tui.widgets.cards import HandRow
from skat_tui.widgets.score_sheet import ScoreSheet
from textual.widgets import Footer

from tui_fakes import at_my_turn, declare_grand_and_reach_play, footer_settled, new_app, table, wait_until

SEED = 3  # both opponents pass; the human (forehand) opens, plays Grand and loses it schneider


def fits(widget) -> bool:
    """Nothing of the widget's content is scrolled out of view sideways."""
    return widget.virtual_size.width <= widget.scrollable_content_region.width


def footer_keys(app) -> str:
    return " ".join(str(key.description) for key in app.screen.query("FooterKey"))


async def play_one_game(pilot, screen, check) -> None:
    """Bid, take the skat, discard, declare Grand, play the first legal card each trick;
    ``check()`` runs at each of the human's turns, once the footer has followed."""

    async def checked():
        await wait_until(pilot, lambda: footer_settled(pilot.app))
        check()

    await wait_until(pilot, lambda: screen.my_turn)
    await checked()
    await pilot.press("b")
    await checked()
    await pilot.press("s", "1", "2")
    await checked()
    await pilot.press("x")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, DeclarationDialog))
    await pilot.press("5", "enter")
    state = screen.state
    while not state.is_over:
        await wait_until(pilot, lambda: screen.my_turn or state.is_over)
        if state.is_over:
            break
        await checked()
        hand, legal = screen.query_one(HandRow).cards, state.legal_cards()
        await pilot.press("1234567890"[next(i for i, c in enumerate(hand) if legal >> c & 1)])


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_the_footer_shows_every_key_it_lists_in_full(fast_settings, size):
    app = new_app(fast_settings)
    async with app.run_test(size=size) as pilot:
        screen = table(app)
        seen = []

        def check():
            footer = app.screen.query_one(Footer)
            assert fits(footer), footer_keys(app)
            seen.append(footer_keys(app))

        await play_one_game(pilot, screen, check)
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.my_turn and footer_settled(app))
        check()
        assert all("Quit" in keys and "Keys" in keys for keys in seen), seen


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_the_score_sheet_shows_every_column_in_full(fast_settings, size):
    app = new_app(fast_settings)
    async with app.run_test(size=size) as pilot:
        screen = table(app)
        await play_one_game(pilot, screen, lambda: None)
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        await pilot.pause(0.1)
        sheet = app.screen.query_one(ScoreSheet)
        assert fits(sheet)
        # the human lost Grand schneider at 72: each defender gets +40 in Seeger-Fabian
        row = [str(cell) for cell in sheet.get_row_at(0)]
        assert row[1:5] == ["You G", "18", "26", "lost 72"]
        assert row[5:] == ["-144 (-194)", "· (+40)", "· (+40)"]
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.my_turn)
        await pilot.press("t")
        assert isinstance(app.screen, ScoreSheetScreen)
        await pilot.pause(0.1)
        assert fits(app.screen.query_one(ScoreSheet))
        label = app.screen.query_one("Label")
        assert label.size.width >= len(str(label.render()))


async def test_the_command_palette_lists_keys_once(fast_settings):
    app = new_app(fast_settings)
    async with app.run_test() as pilot:
        screen = await at_my_turn(pilot, app)
        titles = [command.title for command in app.get_system_commands(screen)]
        assert titles.count("Keys") == 1 and "Score sheet" in titles
        keys = next(c for c in app.get_system_commands(screen) if c.title == "Keys")
        keys.callback()
        await pilot.pause()
        assert "bid the next value" in str(app.screen.query_one("#help-text").render())


async def test_the_replay_footer_fits_80_columns():
    from pathlib import Path

    from engine.record import read_records
    from skat_tui.settings import Settings

    records, _ = read_records(Path(__file__).parent.parent / "data" / "iss-samples.sgf")
    app = SkatApp(records=records[1:2], settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: footer_settled(app))
        await pilot.press("right", "right")
        await wait_until(pilot, lambda: footer_settled(app))
        assert fits(app.screen.query_one(Footer))
        assert "Quit" in footer_keys(app)


async def play_first_trick(pilot, screen) -> None:
    await declare_grand_and_reach_play(pilot, screen)
    await pilot.press("1")
    await wait_until(pilot, lambda: screen.my_turn and screen.state.tricks)
    await pilot.pause(0.1)


@pytest.mark.parametrize("size, big", [((160, 50), True), ((120, 32), False), ((100, 30), False)])
async def test_trick_and_hand_cards_share_one_size_rule_and_big_terminals_use_the_side(fast_settings, size, big):
    from skat_tui.widgets.cards import CardWidget
    from skat_tui.widgets.table import SidePanel, TrickArea

    app = new_app(fast_settings)
    async with app.run_test(size=size) as pilot:
        screen = table(app)
        await play_first_trick(pilot, screen)
        trick = screen.query_one(TrickArea).plain()
        hand_width = screen.query_one(CardWidget).outer_size.width
        assert ("╭─────╮" in trick) == big and (hand_width == 7) == big, (trick, hand_width)
        last, score = screen.query_one("#side-last-trick", SidePanel), screen.query_one("#side-score", SidePanel)
        assert last.display == big and score.display == big
        if big:
            first = screen.state.tricks[0]
            shown = str(last.render())
            assert f"{screen.names[first.winner]} took {first.points}" in shown
            assert all(card.unicode() in shown for card in first.cards)
            assert "Score · 0 games" in str(score.render())
