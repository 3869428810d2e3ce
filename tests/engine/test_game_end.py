"""How a game ends: ``GameEnd`` and ``GameState.outcome()``."""

import json

from engine.game import Leave, Outcome, Resign
from engine.record import GameRecord, summary
from engine.rules import FOREHAND, MIDDLEHAND
from engine.scoring import GameEnd
from example_deal import after_iss as after


def test_a_game_in_progress_has_no_outcome():
    assert after("18", "y").outcome() is None


def test_passed_in_is_an_outcome_without_a_result():
    outcome = after("p", "p", "p").outcome()
    assert outcome == Outcome(GameEnd.PASSED, None, None) and outcome.passed_in


def test_leaving_before_a_declaration_names_the_seat_and_scores_nothing():
    state = after("18", "y")
    state.push(Leave(MIDDLEHAND))
    assert state.outcome() == Outcome(GameEnd.LEFT, None, MIDDLEHAND)
    assert not state.outcome().passed_in and state.outcome().end.abandoned


def test_a_resigned_game_is_scored_and_ended_early():
    state = after("p", "p", "18", "GH", "CA")  # forehand plays grand hand and leads
    state.push(Resign(FOREHAND))
    outcome = state.outcome()
    assert outcome.end == GameEnd.DECLARER_RESIGNED and outcome.end.resigned and outcome.end.early
    assert outcome.result is not None and outcome.result.end == GameEnd.DECLARER_RESIGNED
    assert outcome.left_seat is None and not outcome.result.won


def test_a_game_played_out_ends_played_and_not_early():
    state = after("p", "p", "18", "GH")
    while not state.is_over:
        state.push(state.legal_moves()[0])
    assert state.outcome().end == GameEnd.PLAYED and not state.outcome().end.early


def test_the_end_is_written_as_its_word_in_json_and_records():
    state = after("p", "p", "18", "GH", "CA")
    state.push(Resign(FOREHAND))
    record = GameRecord.from_state(state)
    assert json.loads(json.dumps(summary(record)))["end"] == "declarer_resigned"
    assert "r:1" in record.result_field
