"""Random legal games through every phase (hypothesis drives the choices)."""

import functools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import ALL_CARDS, CARD_POINTS, FULL_DECK
from engine.game import (
    Bid, Deal, Declare, Discard, GameState, Hold, IllegalMoveError, Leave, Pass, Phase, PickUp, Play, Resign,
    ShowCards,
)
from engine.rules import BID_VALUES, GameType
from engine.scoring import Declaration
from engine.record import GameRecord, format_record, parse_record, summary

import pytest


def play_random_game(data, seed):
    state = GameState.new(Deal.shuffled(seed))
    while not state.is_over:
        moves = state.legal_moves()
        if state.phase == Phase.BIDDING and isinstance(moves[0], Bid):
            # keep bidding realistic: mostly the next bid or pass
            moves = [moves[0], moves[-1]] + moves[1:4]
        move = data.draw(st.sampled_from(moves))
        state.push(move)
    return state


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_games_split_120_points_and_round_trip(data, seed):
    state = play_random_game(data, seed)
    result = state.result()
    if state.phase == Phase.PASSED:
        assert result is None
    else:
        assert result.declarer_points + result.defender_points == 120
        assert result.declarer_tricks + result.defender_tricks == len(state.tricks)
        taken = sum(t.points for t in state.tricks)
        skat = state.discard if state.skat_taken else state.deal.skat
        assert taken + sum(CARD_POINTS[c] for c in ALL_CARDS if skat >> c & 1) == 120 or (
            result.end == "null_trick"
        )
    record = GameRecord.from_state(state, id=str(seed))
    again = parse_record(format_record(record))
    assert again.moves == record.moves and summary(again) == summary(record)


@settings(max_examples=80, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_only_legal_moves_are_accepted(data, seed):
    state = GameState.new(Deal.shuffled(seed))
    while not state.is_over:
        legal = state.legal_moves()
        if state.phase == Phase.PLAY:
            seat = state.to_move
            for card in ALL_CARDS:
                move = Play(card)
                if move in legal:
                    continue
                before = (list(state.hands), state.trick, len(state.moves))
                with pytest.raises(IllegalMoveError):
                    state.push(move)
                assert (list(state.hands), state.trick, len(state.moves)) == before
                assert seat == state.to_move
        elif state.phase == Phase.BIDDING and isinstance(legal[0], Bid):
            with pytest.raises(IllegalMoveError):
                state.push(Bid(state.bid))  # never the same value again
            legal = [legal[0], Pass()]
        elif state.phase == Phase.DISCARD:
            with pytest.raises(IllegalMoveError):
                state.push(Discard(state.hands[state.declarer] & -state.hands[state.declarer]))  # one card
        elif state.phase == Phase.DECLARE:
            assert all(isinstance(m, Declare) for m in legal)
        elif state.phase == Phase.SKAT:
            assert isinstance(legal[0], PickUp)
        state.push(data.draw(st.sampled_from(legal)))
    assert state.to_move is None


# ---- malformed moves: refused with IllegalMoveError, the state unchanged ----------------------

NOT_AN_INT = st.one_of(st.none(), st.booleans(), st.floats(allow_nan=True), st.text(max_size=4), st.just([1, 2]))
BAD_SEAT = st.one_of(st.integers(max_value=-1), st.integers(min_value=3), NOT_AN_INT)
BAD_CARD = st.one_of(st.integers(max_value=-1), st.integers(min_value=32), NOT_AN_INT)
BAD_MASK = st.one_of(st.integers(max_value=-1), st.integers(min_value=FULL_DECK + 1),
                     NOT_AN_INT.filter(lambda value: value is not None))  # None: a card nobody may see
DECLARATIONS = st.builds(Declaration, st.sampled_from(list(GameType)), st.booleans(), st.booleans(), st.booleans(),
                         st.booleans())
ANNOUNCED = st.builds(  # one announcement at most, as legal_moves() names them
    lambda game, hand, extra: Declaration(game, hand, **({extra: True} if extra else {})),
    st.sampled_from(list(GameType)), st.booleans(), st.sampled_from([None, "schneider", "schwarz", "ouvert"]))
BAD_DECLARATION = st.one_of(
    NOT_AN_INT, st.sampled_from(list("DHSCGN")),
    st.builds(Declaration, st.one_of(NOT_AN_INT, st.integers()), st.booleans()),
    st.builds(Declaration, st.sampled_from(list(GameType)), st.one_of(st.none(), st.integers(), st.text(max_size=2))),
)
TWO_CARDS = st.lists(st.sampled_from(ALL_CARDS), min_size=2, max_size=2, unique=True).map(
    lambda cards: (1 << cards[0]) | (1 << cards[1]))

MALFORMED = st.one_of(
    # no move at all
    NOT_AN_INT, st.integers(), st.sampled_from(ALL_CARDS), st.just(Declaration(GameType.GRAND, hand=True)),
    # seats that do not exist
    st.builds(Resign, BAD_SEAT), st.builds(ShowCards, BAD_SEAT), st.builds(Leave, BAD_SEAT),
    st.builds(Leave, st.integers(0, 2), st.one_of(st.none(), st.integers(), st.text(max_size=2))),
    # cards, masks and numbers of the wrong kind
    st.builds(functools.partial, st.just(Play), BAD_CARD),  # Play refuses a bad card when it is made
    st.builds(Discard, BAD_MASK), st.builds(PickUp, BAD_MASK),
    st.builds(Bid, st.one_of(NOT_AN_INT, st.floats(), st.sampled_from([float(v) for v in BID_VALUES]))),
    st.builds(Declare, BAD_DECLARATION),
    st.builds(Declare, DECLARATIONS, BAD_MASK),
)

WELL_FORMED = st.one_of(
    st.just(Hold()), st.just(Pass()), st.builds(Bid, st.integers(-5, 300)), st.just(PickUp()),
    st.builds(PickUp, TWO_CARDS), st.builds(Discard, TWO_CARDS), st.builds(Play, st.sampled_from(ALL_CARDS)),
    st.builds(Declare, ANNOUNCED), st.builds(Resign, st.integers(0, 2)), st.builds(ShowCards, st.integers(0, 2)),
)


def is_legal(state, move):
    """An oracle from legal_moves(), independent of push()'s checks."""
    if state.is_over:
        return False
    if isinstance(move, Leave):
        return True
    if isinstance(move, (Resign, ShowCards)):
        return state.phase == Phase.PLAY
    if isinstance(move, PickUp) and move.skat is None:
        move = PickUp(state.skat)
    return move in state.legal_moves()


def full_snapshot(state):
    return state._snapshot(), state.result(), len(state._stack), state.perspective, state.deal


def refuse_without_change(state, move):
    before = full_snapshot(state)
    with pytest.raises(IllegalMoveError):
        if isinstance(move, functools.partial):
            move = move()
        state.push(move)
    assert full_snapshot(state) == before, move


# A whole game of draws per example: large and slow by Hypothesis's measure, on purpose.
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_malformed_and_illegal_moves_are_refused_and_change_nothing(data, seed):
    state = GameState.new(Deal.shuffled(seed))
    while True:
        for _ in range(3):
            refuse_without_change(state, data.draw(MALFORMED, label="malformed"))
        if state.to_move is not None:  # a player's view refuses them just as well
            refuse_without_change(state.view(state.to_move), data.draw(MALFORMED, label="malformed in a view"))
        well_formed = data.draw(WELL_FORMED, label="well-formed")
        if not is_legal(state, well_formed):
            refuse_without_change(state, well_formed)
        if state.is_over:
            break
        moves = state.legal_moves()
        if state.phase == Phase.BIDDING and isinstance(moves[0], Bid):
            moves = [moves[0], moves[-1]]
        state.push(data.draw(st.sampled_from(moves), label="legal"))
    record = GameRecord.from_state(state, id=str(seed))
    assert parse_record(format_record(record)).moves == record.moves
