"""Stepping through recorded games by move, by trick, and to either end."""

from pathlib import Path

import pytest

from engine.game import Deal, Phase
from engine.players import RandomPlayer
from engine.record import GameRecord, read_records
from engine.replay import ReplayNavigator
from engine.series import play_game


def played_records(count):
    records, seed = [], 0
    while len(records) < count:
        seed += 1
        state = play_game(Deal.shuffled(seed), [RandomPlayer(seed * 3 + i) for i in range(3)])
        if state.result() is not None and len(state.tricks) == 10:
            records.append(GameRecord.from_state(state, id=f"g{seed}"))
    return records


def test_navigator_steps_by_move_and_trick():
    record = played_records(1)[0]
    nav = ReplayNavigator([record])
    assert nav.position == 0 and nav.state.phase == Phase.BIDDING
    nav.forward()
    assert nav.position == 1 and nav.state.moves[-1] == record.moves[0]
    nav.back()
    assert nav.position == 0 and not nav.state.moves
    nav.next_trick()  # from the deal to the opening lead
    assert nav.state.phase == Phase.PLAY and not nav.state.trick and not nav.state.tricks
    nav.next_trick()
    assert len(nav.state.tricks) == 1 and not nav.state.trick
    nav.forward()
    assert len(nav.state.trick) == 1
    nav.previous_trick()
    assert len(nav.state.tricks) == 1 and not nav.state.trick
    nav.previous_trick()
    assert not nav.state.tricks and nav.state.phase == Phase.PLAY
    nav.end()
    assert nav.state.is_over and nav.state.result() is not None
    nav.home()
    assert nav.position == 0
    # stepping back and forth gives the same state as replaying from the start
    nav.go_to(17)
    nav.go_to(5)
    nav.go_to(17)
    fresh = ReplayNavigator([record])
    fresh.go_to(17)
    assert nav.state.moves == fresh.state.moves and nav.state.hands == fresh.state.hands


def test_server_records_step_to_the_end_and_back():
    records, errors = read_records(Path(__file__).parent.parent / "data" / "iss-samples.sgf")
    nav = ReplayNavigator(records)
    for index, record in enumerate(records):
        nav.select(index)
        nav.end()
        assert nav.state.moves == record.replay().moves
        nav.home()
        assert nav.state.phase == Phase.BIDDING and not nav.state.moves


def test_navigator_selects_games_and_refuses_empty():
    records = played_records(2)
    nav = ReplayNavigator(records)
    nav.end()
    nav.select(1)
    assert nav.position == 0 and nav.record is records[1]
    with pytest.raises(IndexError):
        nav.select(2)
    with pytest.raises(ValueError):
        ReplayNavigator([])
