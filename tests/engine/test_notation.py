"""Moves in ISS notation at the state: ``GameState.parse_iss`` and ``GameState.iss``."""

import pytest

from engine.cards import Card
from engine.game import (
    Bid, Deal, Declare, Discard, GameState, Hold, Leave, Pass, PickUp, Play, Resign, ShowCards,
)
from engine.players.heuristic import HeuristicPlayer
from engine.scoring import Declaration
from example_deal import DEAL, after_iss, cs


def test_each_phase_reads_its_own_notation():
    state = after_iss()
    assert state.parse_iss("18") == Bid(18)
    assert state.parse_iss("p") == Pass()
    after_iss("18", state=state)
    assert state.parse_iss("y") == Hold()
    after_iss("p", "p", state=state)
    assert state.parse_iss("s") == PickUp()
    assert state.parse_iss("GH") == Declare(Declaration.from_iss("GH"))
    after_iss("s", state=state)
    assert state.parse_iss("C7.D7") == Discard(cs("C7.D7"))
    after_iss("C7.D7", state=state)
    assert state.parse_iss("G") == Declare(Declaration.from_iss("G"))
    after_iss("G", state=state)
    assert state.parse_iss("CJ") == Play(Card.from_str("CJ"))
    assert state.parse_iss("RE") == Resign(state.to_move)
    assert state.parse_iss("SC", 2) == ShowCards(2)
    assert state.parse_iss("TI.1") == Leave(1, timeout=True)


@pytest.mark.parametrize("text, problem", [("x", "expected a bid value, y or p"), ("LE.7", "expected a seat"),
                                           ("CJ", "expected a bid value")])
def test_bad_notation_is_refused_with_what_was_expected(text, problem):
    state = GameState.new(DEAL)
    with pytest.raises(ValueError, match=problem):
        state.parse_iss(text)
    assert state.moves == ()


def test_a_card_in_the_bidding_and_a_bid_in_play_are_not_moves_there():
    state = after_iss("18", "p", "p", "s", "C7.D7", "G")
    with pytest.raises(ValueError, match="not a card"):
        state.parse_iss("18")


@pytest.mark.parametrize("seed", range(12))
def test_a_game_replayed_from_its_notation_is_the_same_game(seed):
    state = GameState.new(Deal.shuffled(seed))
    players = [HeuristicPlayer(seat) for seat in range(3)]
    tokens = []
    while not state.is_over:
        move = players[state.to_move].choose(state.view(state.to_move)).move
        tokens.append((state.to_move, state.iss(move)))
        state.push(move)
    again = GameState.new(Deal.shuffled(seed))
    for seat, text in tokens:
        again.push(again.parse_iss(text, seat))
    assert again.moves == state.moves


def test_an_ouvert_declaration_reads_back_with_the_shown_hand_filled_in():
    state = after_iss("18", "p", "p")
    state.push(state.parse_iss("GO"))
    declared = state.moves[-1][1]
    assert declared.revealed == DEAL.hands[1] and declared.declaration.ouvert
    state.pop()
    state.push(state.parse_iss(state.iss(declared)))
    assert state.moves[-1][1] == declared


def test_a_card_played_as_a_plain_number_is_held_and_printed_as_a_card():
    move = Play(31)
    assert type(move.card) is Card and str(move) == "CA" and move == Play(Card.from_str("CA"))
