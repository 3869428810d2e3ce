"""What the table says: hints, prompts, card and suit names, the cursor."""

from __future__ import annotations

from engine.players.heuristic import HeuristicPlayer
from skat_tui.app import SkatApp
from skat_tui.persistence import TableSession, series_save_path
from skat_tui.screens.table import describe_advice
from skat_tui.settings import OpponentSettings
from skat_tui.widgets.cards import HandRow
from skat_tui.widgets.debug_panel import DebugPanel

from tui_fakes import (
    PassivePlayer, ThinkingPlayer, ask_for_the_discard_hint, at_my_turn, declare_grand_and_reach_play, new_app, table,
    wait_until, win_the_bidding_to_the_declaration,
)

SEED = 3  # both opponents pass; the human (forehand) may open the bidding


async def test_the_discard_hint_names_the_cards_and_the_planned_game(fast_settings):
    fast_settings.hint = OpponentSettings(kind="heuristic")
    app = new_app(fast_settings)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = table(app)
        state = await ask_for_the_discard_hint(pilot, screen)
        # The engine's heuristic player is the hint player here: the same discard and plan.
        decision = HeuristicPlayer(seed=app.session.seed).choose(state.view(screen.human_seat))
        expected = f"Hint: {describe_advice(decision.move, decision.plan)}"
        assert decision.plan is not None and " for " in expected
        assert screen.message == expected
        panel = screen.query_one(DebugPanel).plain()
        assert expected in panel and "thinking" not in panel


async def test_the_card_cursor_rests_only_on_legal_cards(fast_settings):
    app = new_app(fast_settings)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = table(app)
        await win_the_bidding_to_the_declaration(pilot, screen)
        await pilot.press("5", "enter")  # Grand
        state = screen.state
        row = screen.query_one(HandRow)
        checked = 0
        while not state.is_over:
            await wait_until(pilot, lambda: screen.my_turn or state.is_over)
            if state.is_over:
                break
            legal = state.legal_cards()
            if any(not legal >> c & 1 for c in row.cards):
                assert legal >> row.card_at_cursor & 1
                for key in ("right", "right", "left", "right", "right", "right"):
                    await pilot.press(key)
                    assert legal >> row.card_at_cursor & 1
                checked += 1
            await pilot.press("enter")  # the card under the cursor is always accepted
            assert "Not allowed" not in screen.message
        assert checked >= 1


def test_the_multiplier_reads_as_a_start_and_steps():
    from engine.cards import CardSet
    from engine.rules import GameType
    from engine.scoring import Declaration, score_game
    from skat_tui.screens.dialogs import result_lines

    # Clubs without ♣J (and ♠J): without 2; schneider won.
    hand = CardSet.from_str("HJ.DJ.CA.CT.CK.CQ.C9.C8.C7.SA.ST.SK").mask
    result = score_game(0, Declaration(GameType.CLUBS), 18, hand, 95, 8, 2)
    line = next(x for x in result_lines(result, ("You", "West", "East")) if x.startswith("Multiplier"))
    assert line == "Multiplier: without 2 → 2, game +1, schneider +1 = 4"


async def test_help_keys_never_run_into_their_description(fast_settings):
    from skat_tui.screens.dialogs import HelpScreen

    app = new_app(fast_settings)
    async with app.run_test(size=(100, 30)) as pilot:
        await at_my_turn(pilot, app)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = str(app.screen.query_one("#help-text").render())
        assert "1–0 " in text and "1–0choose" not in text


async def test_the_prompt_goes_once_the_human_has_moved(fast_settings):
    """'Your card to …' must not stay up while an opponent thinks."""
    west = ThinkingPlayer()
    session = TableSession.new(SEED, series_save_path())
    app = SkatApp(session=session, settings=fast_settings, players={1: west, 2: PassivePlayer()})
    async with app.run_test(size=(100, 30)) as pilot:
        screen = table(app)
        await declare_grand_and_reach_play(pilot, screen)
        assert screen.message.startswith("Your card (you lead)")
        card = screen.query_one(HandRow).card_at_cursor
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.state.to_move == 1 and west.calls > 0)
        status = str(screen.query_one("#status").render())
        assert status == f"You play {card.unicode()}." and "Your card" not in status
        west.release.set()
        await wait_until(pilot, lambda: screen.state.to_move != 1)


async def test_with_german_names_every_card_and_suit_at_the_table_is_german(fast_settings):
    fast_settings.german = True
    app = new_app(fast_settings)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = table(app)
        await win_the_bidding_to_the_declaration(pilot, screen)
        await pilot.press("1")  # clubs
        await pilot.pause()
        reason = str(app.screen.query_one("#declare-reason").render())
        assert reason.startswith("✓ Kreuz") and "Clubs" not in reason
        await pilot.press("enter")
        state = screen.state
        assert state.declaration.game.name == "CLUBS"
        while True:  # the first trick where the human cannot play every card
            await wait_until(pilot, lambda: screen.my_turn or state.is_over)
            assert not state.is_over, "no refused card in this game"
            hand, legal = screen.query_one(HandRow).cards, state.legal_cards()
            illegal = [i for i, c in enumerate(hand) if not legal >> c & 1]
            if illegal:
                break
            await pilot.press("1234567890"[next(i for i, c in enumerate(hand) if legal >> c & 1)])
        await pilot.press("1234567890"[illegal[0]])
        refused = hand[illegal[0]]
        assert screen.message.startswith(f"Not allowed: {refused.unicode(True)} does not follow")
        named = [card for card in hand if card.rank.label != card.rank.german_label]
        assert named and not any(card.unicode() in screen.message for card in named)
