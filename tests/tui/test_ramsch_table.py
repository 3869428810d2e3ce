"""Ramsch at the table: the skat round as the engine offers it, no declarer, and a
result screen that explains the card points, Jungfrau, Durchmarsch, pushes and ties."""

from __future__ import annotations

from engine.cards import cards_of
from engine.game import Discard, Phase, Push
from engine.house_rules import HouseRules
from engine.scoring import ramsch_result
from skat_tui.app import SkatApp
from skat_tui.persistence import TableSession, series_save_path
from skat_tui.screens.declaration import DeclarationDialog
from skat_tui.screens.dialogs import result_lines
from skat_tui.widgets.cards import HandRow
from skat_tui.widgets.score_sheet import score_rows
from skat_tui.widgets.table import InfoBar, TrickArea, ramsch_skat_lines
from tui_fakes import PassivePlayer, footer_settled, play_to_the_result, wait_until

RAMSCH = HouseRules(ramsch=True, schieben=True, grand_hand_escape=True)
NAMES = ("You", "West", "East")


def footer_keys(app) -> set[str]:
    return {binding.key for _, binding, enabled, _ in app.screen.active_bindings.values() if enabled and binding.show}


async def into_the_ramsch(pilot, app, rules=RAMSCH):
    """All three pass (the opponents are passive); the table screen at the human's first Ramsch turn."""
    screen = app.screen
    while True:
        await wait_until(pilot, lambda: screen.my_turn)
        if screen.state.phase != Phase.BIDDING:
            return screen
        await pilot.press("p")


def table(rules=RAMSCH, fast_settings=None) -> tuple[TableSession, SkatApp]:
    session = TableSession.new(3, series_save_path(), rules)
    return session, SkatApp(session=session, settings=fast_settings,
                            players={1: PassivePlayer(), 2: PassivePlayer()})


async def test_all_pass_into_a_ramsch_the_human_pushes_and_the_result_explains_it(fast_settings):
    session, app = table(fast_settings=fast_settings)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await into_the_ramsch(pilot, app)
        assert screen.state.phase == Phase.RAMSCH_SKAT and screen.state.declarer is None
        await wait_until(pilot, lambda: footer_settled(app))
        assert {"s", "u", "h"} <= footer_keys(app) and "b" not in footer_keys(app)
        assert "s = take the skat, u = push it on unseen (doubles), h = Grand Hand instead" in screen.message
        assert "Ramsch: all three passed" in screen.query_one(TrickArea).plain()
        await pilot.press("u")
        assert (screen.human_seat, Push()) in screen.state.moves
        await wait_until(pilot, lambda: screen.state.phase == Phase.PLAY)
        info = screen.query_one(InfoBar).plain()
        assert "Ramsch" in info and f"skat pushed {screen.state.pushes}×" in info and "Bid" not in info
        result = await play_to_the_result(pilot, app, screen)
        text = str(result.query_one("#result-text").render())
        game = session.series.entries[0].result
        assert text.startswith("Ramsch: ")
        for seat in range(3):
            assert f"{screen.names[seat]} {game.points[seat]} (" in text
        assert f"the skat was pushed on unseen {game.pushes}×" in text.lower()
        row = score_rows(session.series)[0]
        assert row[1] == "Ramsch" and row[2] == ""


async def test_taking_the_ramsch_skat_offers_only_the_cards_the_engine_lets_go_back(fast_settings):
    session, app = table(fast_settings=fast_settings)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await into_the_ramsch(pilot, app)
        await pilot.press("s")
        assert screen.state.phase == Phase.RAMSCH_DISCARD and screen.my_turn
        hand = screen.query_one(HandRow)
        allowed = 0
        for move in screen.state.legal_moves():
            allowed |= move.cards
        assert hand.legal == allowed and len(hand.cards) == 12
        assert not any(card.is_jack for card in cards_of(hand.legal))
        assert "put back" in screen.message
        first, second = [i for i, card in enumerate(hand.cards) if hand.legal >> card & 1][:2]
        put_back = (1 << hand.cards[first]) | (1 << hand.cards[second])
        await pilot.press(str(first + 1), str(second + 1), "x")
        assert (screen.human_seat, Discard(put_back)) in screen.state.moves
        assert ramsch_skat_lines(screen.state, NAMES)[0] == "You: took the skat, put two cards back"


async def test_the_grand_hand_escape_declares_an_ordinary_grand_hand(fast_settings):
    session, app = table(fast_settings=fast_settings)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await into_the_ramsch(pilot, app)
        await pilot.press("h")
        await wait_until(pilot, lambda: isinstance(app.screen, DeclarationDialog))
        await pilot.press("5", "enter")
        await wait_until(pilot, lambda: screen.state.phase == Phase.PLAY)
        assert screen.state.declarer == screen.human_seat and not screen.state.is_ramsch
        assert "Grand Hand instead of Ramsch" in screen.query_one(InfoBar).plain()


async def test_without_schieben_the_skat_round_offers_play_or_grand_hand(fast_settings):
    session, app = table(HouseRules(ramsch=True, grand_hand_escape=True), fast_settings)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await into_the_ramsch(pilot, app)
        await wait_until(pilot, lambda: footer_settled(app))
        assert {"p", "h"} <= footer_keys(app) and not {"s", "u"} & footer_keys(app)
        await pilot.press("p")
        await wait_until(pilot, lambda: screen.state.phase == Phase.PLAY)
        assert screen.state.is_ramsch


def test_the_ramsch_result_explains_losses_jungfrau_ties_durchmarsch_and_pushes():
    # West has the most card points; East took no trick (Jungfrau); pushed once: 50 × 2 × 2
    lost = ramsch_result((40, 50, 30), (4, 6, 0), skat_to=1, pushes=1)
    text = "\n".join(result_lines(lost, NAMES))
    assert text.startswith("Ramsch: West loses.")
    assert "Card points: You 40 (4 tricks) · West 50 (6 tricks) · East 30 (0 tricks)" in text
    assert "The skat went to West with the last trick" in text
    assert "West has the most card points and loses them: 50." in text
    assert "Jungfrau: East took no trick, which doubles the loss." in text
    assert "pushed on unseen 1×" in text and "Value: 50 × 2 × 2 = 200" in text
    assert f"Score (plain and Seeger-Fabian alike): West {lost.values[1]:+d}" in text
    assert lost.values[1] == -200
    tie = ramsch_result((45, 45, 30), (4, 3, 3), skat_to=0)
    text = "\n".join(result_lines(tie, NAMES))
    assert text.startswith("Ramsch: You and West lose.")
    assert "Tie: You and West share the most card points (45); each loses them." in text
    assert "Value:" not in text
    march = ramsch_result((0, 120, 0), (0, 10, 0), skat_to=1)
    text = "\n".join(result_lines(march, NAMES))
    assert text.startswith("Ramsch: West took every trick (Durchmarsch) and wins.")
    assert "Jungfrau" not in text and "West +120" in text


def a_recorded_ramsch(tmp_path) -> str:
    """A Ramsch of passive players written as a record file and its path."""
    from engine.game import Deal, GameState, Pass
    from engine.record import GameRecord, format_record

    state = GameState.new(Deal.shuffled(7), rules=RAMSCH)
    while not state.is_over:
        moves = state.legal_moves()
        state.push(Pass() if state.phase == Phase.BIDDING else moves[0])
    assert state.is_ramsch
    path = tmp_path / "ramsch.sgf"
    path.write_text(format_record(GameRecord.from_state(state, id="r1", players=NAMES)) + "\n")
    return str(path)


async def test_the_replay_shows_a_recorded_ramsch_as_such(tmp_path):
    from engine.record import read_records
    from skat_tui.screens.replay_screen import ReplayScreen, record_title
    from skat_tui.settings import Settings

    records, errors = read_records(a_recorded_ramsch(tmp_path))
    assert not errors
    result = records[0].replay().result()
    assert record_title(0, records[0]) == "1. r1 · You, West, East · Ramsch: " + ", ".join(
        f"{NAMES[s]} {v:+d}" for s, v in enumerate(result.values) if v)
    app = SkatApp(records=records, settings=Settings())
    async with app.run_test(size=(110, 32)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        for _ in range(4):  # the three passes and the first skat round move
            await pilot.press("right")
        assert "Ramsch" in screen.query_one(InfoBar).plain()
        await pilot.press("end")
        assert "Ramsch: " in screen.status_text()
        assert any(n.title == "Result" and "Card points: You" in n.message for n in app._notifications)
