"""A series with Bock rounds keeps its coming Bock games across a save (the engine side of the table's save)."""

from __future__ import annotations

from engine.house_rules import ISKO
from engine.players.base import RandomPlayer
from skat_tui.persistence import TableSession

BOCK_RULES = ISKO.with_switches(kontra=True, bock=True)


def test_a_saved_series_knows_its_bock_games_after_loading():
    session = TableSession.new(5, None, rules=BOCK_RULES)
    assert session.series.rules == BOCK_RULES
    player = RandomPlayer(7)
    while not session.series.coming_games:
        state = session.start_game()
        while not state.is_over:
            session.push(player.choose(state.view(state.to_move)).move)
        session.finish_game()
        assert len(session.series.entries) < 60, "no Bock event in 60 random games"
    loaded = TableSession.from_json(session.to_json())
    assert loaded.series.coming_games == session.series.coming_games
    assert loaded.series.entries == session.series.entries
    assert loaded.series.totals() == session.series.totals()
