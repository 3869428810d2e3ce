"""The replay screen opens a Ramsch record and steps through it without crashing
(how a Ramsch looks on the table is the table's own work)."""

from __future__ import annotations

import random

from engine.game import Deal, GameState, Pass
from engine.house_rules import PUB
from engine.record import GameRecord
from skat_tui.app import SkatApp
from skat_tui.screens.replay_screen import ReplayScreen, record_title
from skat_tui.settings import Settings


def ramsch_record(seed: int) -> GameRecord:
    rng = random.Random(seed)
    state = GameState.new(Deal.shuffled(seed), rules=PUB)
    state.push_many([Pass(), Pass(), Pass()])
    state.push(state.parse_iss("push"))
    state.push(state.parse_iss("s"))
    while not state.is_over:
        moves = state.legal_moves()
        state.push(rng.choice([m for m in moves if type(m).__name__ != "Declare"] or moves))
    return GameRecord.from_state(state, id=f"r{seed}", players=("Ann", "Bob", "Cid"))


def test_a_ramsch_record_has_a_title():
    record = ramsch_record(2)
    assert "Ramsch" in record_title(0, record)


async def test_the_replay_screen_steps_through_a_ramsch_open_and_in_the_pickers_view():
    app = SkatApp(records=[ramsch_record(1)], settings=Settings())
    async with app.run_test(size=(110, 32)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        nav = screen.navigator
        await pilot.press(*["right"] * nav.length)  # all hands open
        assert nav.state.is_over and "Ramsch" in screen.status_text()
        await pilot.press("home", "v", "v")  # middlehand's view: it picked the skat up
        assert "Bob's view" in screen.status_text()
        await pilot.press(*["right"] * 8)
        assert nav.state.phase.value == "play"
        await pilot.press("end")
        assert nav.state.is_over and "Ramsch" in screen.status_text()
