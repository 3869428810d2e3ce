"""The debug panel fills while an AI thinks; quitting stops the search at once."""

from __future__ import annotations

from skat_tui.app import SkatApp
from skat_tui.persistence import TableSession, series_save_path
from skat_tui.screens.declaration import DeclarationDialog
from skat_tui.screens.table import TableScreen
from skat_tui.widgets.debug_panel import NO_ANALYSIS, DebugPanel, sparkline
from skat_tui.widgets.table import SeatPanel
from tui_fakes import FixedAnalysisPlayer, HoldingPassivePlayer, PassivePlayer, ThinkingPlayer, wait_until


async def start_grand(app: SkatApp, pilot) -> TableScreen:
    """Win the bidding, discard two cards, declare grand; you lead the first trick."""
    screen = app.screen
    assert isinstance(screen, TableScreen)
    await wait_until(pilot, lambda: screen.my_turn)
    await pilot.press("b", "s", "1", "2", "x")
    await wait_until(pilot, lambda: isinstance(app.screen, DeclarationDialog))
    await pilot.press("5", "enter")
    await wait_until(pilot, lambda: screen.my_turn)
    return screen


def west_thinks(west, settings, show_cards: bool = True) -> SkatApp:
    """West is the AI under watch; East holds its card until the app closes, so
    West's final analysis stays on the panel (East's move would add a note above it).
    ``show_cards``: the setting that shows the computers' cards during the game."""
    settings.show_computer_cards = show_cards
    return SkatApp(session=TableSession.new(3, series_save_path()), settings=settings,
                   players={1: west, 2: HoldingPassivePlayer()})


async def grand_with_the_panel_open(app: SkatApp, pilot) -> tuple[TableScreen, DebugPanel]:
    screen = await start_grand(app, pilot)
    await pilot.press("d")
    return screen, screen.query_one(DebugPanel)


def test_sparkline_scales_to_the_tallest_bucket():
    assert sparkline([0, 1, 2, 4]) == " ▂▄█"
    assert sparkline([0, 0]) == "  "


def test_rows_use_german_rank_names_when_asked():
    from engine.analysis import Analysis, CardStats
    from engine.cards import Card
    from skat_tui.analysis_table import analysis_rows

    stats = tuple(CardStats(card, 4, 60.0, 5.0, 60.0 + i, 0.5, (0,) * 13) for i, card in enumerate((Card.CQ, Card.CJ)))
    analysis = Analysis("pimc", 0, (Card.CQ, Card.CJ), stats, Card.CJ, 4, 0.1, None, final=True)
    assert [row[0] for row in analysis_rows(analysis, german=True)] == ["♣B", "♣D"]  # best first, chosen ▶
    assert analysis_rows(analysis, german=True)[0][-1] and not analysis_rows(analysis)[1][-1]
    assert [row[0] for row in analysis_rows(analysis)] == ["♣J", "♣Q"]


async def test_debug_panel_updates_live_while_ai_thinks(fast_settings):
    thinker = ThinkingPlayer(steps=3)
    app = west_thinks(thinker, fast_settings)
    async with app.run_test(size=(120, 32)) as pilot:
        screen, panel = await grand_with_the_panel_open(app, pilot)
        assert panel.has_class("visible")
        await pilot.press("1")  # lead; West (the thinking AI) is next
        await wait_until(pilot, lambda: panel.analysis is not None and panel.analysis.simulations >= 3)
        assert screen.thinking_seat is not None  # still thinking: the rows are live
        first_worlds = panel.analysis.simulations
        rows = panel.plain().splitlines()
        legal = panel.analysis.legal
        assert len(rows) == 2 + len(legal)
        assert "thinking" in rows[0] and "West" in rows[0]
        assert rows[1] == "card points of West's side (defenders)"  # you declared grand
        assert all(any(b in row for b in "▁▂▃▄▅▆▇█") for row in rows[2:])
        await wait_until(pilot, lambda: "thinking" in screen.query_one("#seat-west", SeatPanel).plain())
        await wait_until(pilot, lambda: panel.analysis.simulations > first_worlds)
        # The table stays usable while the AI thinks.
        await pilot.press("t")
        await pilot.press("escape")
        await pilot.press("question_mark")
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)
        thinker.release.set()
        await wait_until(pilot, lambda: panel.analysis.final)
        lines = panel.plain().splitlines()
        assert len([line for line in lines if line.startswith("▶")]) == 1
        assert "chose" in lines[0] and "West" in lines[0]


async def test_quitting_stops_the_search_at_once(fast_settings):
    thinker = ThinkingPlayer(steps=10**9)
    app = SkatApp(session=TableSession.new(3, series_save_path()), settings=fast_settings,
                  players={1: thinker, 2: PassivePlayer()})
    async with app.run_test() as pilot:
        screen = await start_grand(app, pilot)
        await pilot.press("1")
        await wait_until(pilot, lambda: screen.thinking_seat is not None and thinker.calls >= 2)
        await pilot.press("q")
        await pilot.press("y")
        # asked while quitting, not when a worker next runs or the budget ends (none here)
        assert thinker.stop_signal is not None and thinker.stop_signal.is_set()
        await wait_until(pilot, lambda: thinker.stopped.is_set())


async def test_debug_panel_fills_while_a_real_mcu_thinks(fast_settings):
    from engine.limits import Limit
    from engine.players.mcu import MCUPlayer

    # A budget it never reaches here: the test ends the search once it has seen it stream,
    # so a slow machine cannot finish it before a live snapshot is shown.
    app = west_thinks(MCUPlayer(Limit(time=3600), seed=2), fast_settings)
    async with app.run_test(size=(120, 32)) as pilot:
        screen, panel = await grand_with_the_panel_open(app, pilot)
        # lead a card that leaves West (MCU, next to play) a real choice
        from engine.rules import legal_cards

        from skat_tui.widgets.cards import HandRow

        state = screen.state
        hand = screen.query_one(HandRow).cards
        lead = next(i for i, c in enumerate(hand) if legal_cards(state.hands[1], state.game, c).bit_count() > 1)
        # Played directly, not by a key: Pilot.press waits for an idle app, and a
        # streaming search keeps the app busy until it ends.
        screen.choose_card(hand[lead])
        await wait_until(pilot, lambda: panel.analysis is not None and not panel.analysis.final)
        live_worlds = panel.analysis.simulations
        assert live_worlds > 0 and "thinking" in panel.plain().splitlines()[0]
        await wait_until(pilot, lambda: panel.analysis.simulations > live_worlds)  # the snapshots follow the search
        job = screen.runner.job
        assert job is not None and job.seat == 1 and job.search is not None
        job.search.stop()  # finish now with the simulations so far, as at the end of its time
        await wait_until(pilot, lambda: panel.analysis.final)
        assert panel.analysis.simulations > live_worlds
        lines = panel.plain().splitlines()
        assert "West" in lines[0] and "chose" in lines[0]
        assert len(lines) == 2 + len(panel.analysis.legal)


def test_won_lost_outcomes_are_counted_not_drawn_under_a_points_header():
    """PIMC with eval=wins (and any null game) reports two buckets, lost and won."""
    from engine.analysis import Analysis, CardStats
    from engine.cards import Card
    from rich.console import Console

    from skat_tui.analysis_table import analysis_rows, analysis_table

    stats = (CardStats(Card.CQ, 40, 0.7, 0.46, 0.7, 0.7, (12, 28)),)
    analysis = Analysis("pimc:eval=wins", 1, (Card.CQ,), stats, Card.CQ, 40, 0.1, None, final=True)
    assert analysis_rows(analysis)[0][1] == "28/12"
    console = Console(width=100, record=True)
    console.print(analysis_table(analysis))
    text = console.export_text()
    assert "won/lost" in text and "0‥120" not in text
    panel = DebugPanel()
    panel.show_analysis(analysis, "West", mover="West", side="declarer")
    assert "games won/lost by West's side (declarer)" in panel.plain()


async def test_debug_panel_is_a_side_column_on_a_wide_screen_and_an_overlay_on_a_narrow_one(fast_settings):
    for size, beside in (((160, 50), True), ((100, 30), False)):
        app = SkatApp(session=TableSession.new(3, series_save_path()), settings=fast_settings,
                      players={1: PassivePlayer(), 2: PassivePlayer()})
        async with app.run_test(size=size) as pilot:
            screen = app.screen
            await wait_until(pilot, lambda: screen.my_turn)
            await pilot.press("d")
            await pilot.pause()
            panel = screen.query_one(DebugPanel).region
            east = screen.query_one("#seat-east").region
            trick = screen.query_one("#trick").region
            assert panel.width > 0
            assert (not panel.overlaps(east) and not panel.overlaps(trick)) == beside, size


async def test_a_new_game_clears_the_debug_panel(fast_settings):
    app = SkatApp(session=TableSession.new(3, series_save_path()), settings=fast_settings,
                  players={1: FixedAnalysisPlayer(), 2: FixedAnalysisPlayer()})
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_grand(app, pilot)
        panel = screen.query_one(DebugPanel)
        assert NO_ANALYSIS in panel.plain()  # the placeholder before any decision
        state = screen.state
        while not state.is_over:
            await wait_until(pilot, lambda: screen.my_turn or state.is_over)
            if screen.my_turn:
                screen.choose_card(next(c for c in screen.query_one("#hand").cards if state.legal_cards() >> c & 1))
        assert panel.analysis is not None
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.state is not state)
        assert panel.analysis is None and screen.last_analysis is None and NO_ANALYSIS in panel.plain()


async def test_the_panel_shows_where_the_thinking_player_believes_the_cards_are(fast_settings):
    from engine.limits import Limit
    from engine.players.registry import make_player
    from skat_tui.widgets.belief_grid import BeliefGrid
    from skat_tui.widgets.cards import HandRow

    west = make_player("mcu:simulations=30,sampler=inference", seed=2)
    west.limit = Limit(simulations=30)
    app = west_thinks(west, fast_settings)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, panel = await grand_with_the_panel_open(app, pilot)
        grid = screen.query_one(BeliefGrid)
        assert not grid.display  # no analysis yet, no grid
        state = screen.state
        from engine.rules import legal_cards

        hand = screen.query_one(HandRow).cards
        lead = next(i for i, c in enumerate(hand) if legal_cards(state.hands[1], state.game, c).bit_count() > 1)
        screen.choose_card(hand[lead])
        await wait_until(pilot, lambda: panel.analysis is not None and panel.analysis.final, timeout=30)
        await pilot.pause()
        assert grid.display
        hidden = {card for card, *_ in panel.analysis.beliefs}
        # West cannot see your nine cards left, East's ten and your discard
        assert len(hidden) == 21
        letters = grid.plain().replace("\n", " ")
        assert set(letters.split()) <= {"♣", "♠", "♥", "♦", "Y", "E", "S", "·", "|"}
        assert "W" not in letters  # West's own cards are seen, never believed elsewhere
        await pilot.click("#debug-beliefs")
        assert grid.numbers and "%" not in grid.plain() and any(ch.isdigit() for ch in grid.plain())
        # you have played a card: West reads how you play (like the heuristic or a program)
        (seat, chance), = panel.analysis.readings
        assert grid.place_names[seat] == "You" and 0 <= chance <= 1
        assert grid.reading_line().plain == f"Cards read as a program's (not the heuristic's): You {round(100 * chance)} %"
