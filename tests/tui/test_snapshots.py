"""Snapshots of the main screens (pytest-textual-snapshot; update with --snapshot-update)."""

from __future__ import annotations

from pathlib import Path

from engine.record import read_records
from skat_tui.app import SkatApp
from skat_tui.screens.table import TableScreen

from tui_fakes import (
    FixedAnalysisPlayer,
    PassivePlayer,
    declare_grand_and_reach_play,
    footer_settled,
    new_app,
    table,
    wait_until,
    win_the_bidding_to_the_declaration,
)

SIZE = (100, 30)
SAMPLES = Path(__file__).parent.parent / "data" / "iss-samples.sgf"


async def play_the_first_card(pilot, app) -> TableScreen:
    """Win the bidding, declare a grand and play the card at the cursor."""
    screen = table(app)
    await declare_grand_and_reach_play(pilot, screen)
    await pilot.press("1")
    return screen


def test_table_while_bidding(snap_compare, fast_settings):
    app = new_app(fast_settings, {1: PassivePlayer(), 2: PassivePlayer()})

    async def ready(pilot):
        await wait_until(pilot, lambda: table(app).my_turn)

    assert snap_compare(app, terminal_size=SIZE, run_before=ready)


def test_declaration_dialog(snap_compare, fast_settings):
    app = new_app(fast_settings, {1: PassivePlayer(), 2: PassivePlayer()})

    async def declare(pilot):
        await win_the_bidding_to_the_declaration(pilot, table(app))

    assert snap_compare(app, terminal_size=SIZE, run_before=declare)


def test_declaration_dialog_at_80_by_24(snap_compare, fast_settings):
    """The hand, each game's value at the bid and the buttons all in view."""
    app = new_app(fast_settings, {1: PassivePlayer(), 2: PassivePlayer()})

    async def declare(pilot):
        await win_the_bidding_to_the_declaration(pilot, table(app))

    assert snap_compare(app, terminal_size=(80, 24), run_before=declare)


def test_table_in_play_with_the_debug_panel(snap_compare, fast_settings):
    app = new_app(fast_settings, {1: FixedAnalysisPlayer(), 2: FixedAnalysisPlayer()})

    async def play(pilot):
        screen = await play_the_first_card(pilot, app)
        await wait_until(pilot, lambda: screen.my_turn and screen.last_analysis is not None)
        await pilot.press("d")
        await wait_until(pilot, lambda: footer_settled(app))

    assert snap_compare(app, terminal_size=SIZE, run_before=play)


def test_replay(snap_compare, fast_settings):
    records, _ = read_records(SAMPLES)
    app = SkatApp(records=records[1:2], settings=fast_settings)

    async def step(pilot):
        await wait_until(pilot, lambda: footer_settled(app))
        for _ in range(14):
            await pilot.press("right")
        await wait_until(pilot, lambda: footer_settled(app))

    assert snap_compare(app, terminal_size=SIZE, run_before=step)


def test_declaration_values_come_from_the_engines_scoring():
    from engine.cards import Card
    from engine.rules import GameType
    from engine.scoring import Declaration
    from skat_tui.screens.declaration import value_at_bid

    cards = (1 << Card.CJ) | (1 << Card.SJ) | (1 << Card.CA)
    assert value_at_bid(Declaration(GameType.CLUBS), cards, 18) == ("with 2 · 3 × 12 = 36", 36)
    assert value_at_bid(Declaration(GameType.HEARTS, hand=True), cards, 18) == ("with 2 · 4 × 10 = 40", 40)


def test_table_in_play_at_160_by_50(snap_compare, fast_settings):
    """A big terminal: bigger cards, seats as tall as their content, the trick in the middle."""
    app = new_app(fast_settings, {1: FixedAnalysisPlayer(), 2: FixedAnalysisPlayer()})

    async def play(pilot):
        screen = await play_the_first_card(pilot, app)
        await wait_until(pilot, lambda: screen.my_turn and screen.state.tricks and footer_settled(app))

    assert snap_compare(app, terminal_size=(160, 50), run_before=play)


def test_ramsch_skat_round(snap_compare, fast_settings):
    """All three passed with Ramsch on: "Ramsch" instead of a bid and game, the skat round
    in the middle, and only the moves the engine offers on the keys and buttons."""
    from engine.game import Phase
    from engine.house_rules import HouseRules

    app = new_app(fast_settings, rules=HouseRules(ramsch=True, schieben=True, grand_hand_escape=True))

    async def into_the_ramsch(pilot):
        screen = table(app)
        while True:
            await wait_until(pilot, lambda: screen.my_turn)
            if screen.state.phase != Phase.BIDDING:
                break
            await pilot.press("p")
        await wait_until(pilot, lambda: footer_settled(app))

    assert snap_compare(app, terminal_size=SIZE, run_before=into_the_ramsch)
