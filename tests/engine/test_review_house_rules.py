"""The review of house-rule records (tests/data/house-rules.sgf): a Ramsch's cards valued by the
paranoid search, its skat round listed as not reviewed; a Grand Hand escape reviewed as a Grand."""

from pathlib import Path

import pytest

from engine.cards import Card, points_of
from engine.dds.reference import ramsch_reference_per_card
from engine.game import Phase, Play
from engine.limits import Limit
from engine.positions import ramsch_solve, solver_position
from engine.record import read_records
from engine.review import (
    BLUNDER,
    MISTAKE,
    RAMSCH_BLUNDER_POINTS,
    RAMSCH_MISTAKE_POINTS,
    GameReview,
    call_mark,
    describe_game,
    ramsch_mark,
    review_ramsch_decision,
    review_record,
)

HOUSE_RULES = Path(__file__).parents[1] / "data" / "house-rules.sgf"


@pytest.fixture(scope="module")
def records():
    found, errors = read_records(HOUSE_RULES)
    assert not errors
    return {r.id: r for r in found}


def _card_positions(record, from_trick: int):
    positions = record.positions()
    return [(i, positions[i], move.card) for i, (_, move) in enumerate(record.moves)
            if isinstance(move, Play) and len(positions[i].tricks) >= from_trick - 1]


def test_a_ramsch_card_is_valued_as_the_brute_force_paranoid_minimax_says(records):
    """From trick 7 on every card's value is the mover's taken points plus what the reference
    minimax says he still takes, the skat counted with the last trick."""
    record = records["hr-jungfrau"]
    skat_points = None
    for index, state, card in _card_positions(record, 7):
        seat = state.to_move
        skat_points = points_of(state.skat)
        reference = ramsch_reference_per_card(tuple(state.hands), tuple(int(c) for c in state.trick), state.leader,
                                              skat_points)
        decision = review_ramsch_decision(state, index, card)
        assert {c.card: c.dd_points for c in decision.cards} == \
            {str(Card(c)): state.points[seat] + v for c, v in reference.items()}
        best = min(c.dd_points for c in decision.cards)
        assert decision.dd_loss_points == decision.chosen_value.dd_points - best
        assert decision.mark == ramsch_mark(decision.dd_loss_points, decision.forced)
    assert skat_points is not None


def test_ramsch_marks_count_card_points_given_away():
    assert ramsch_mark(RAMSCH_BLUNDER_POINTS, False) == BLUNDER
    assert ramsch_mark(RAMSCH_BLUNDER_POINTS - 1, False) == MISTAKE
    assert ramsch_mark(RAMSCH_MISTAKE_POINTS, False) == MISTAKE
    assert ramsch_mark(RAMSCH_MISTAKE_POINTS - 1, False) == ""
    assert ramsch_mark(100, True) == ""  # a forced card is never marked


def test_the_solver_position_of_a_ramsch_is_refused_with_a_reason(records):
    state = next(s for s in records["hr-pushes"].positions() if s.phase == Phase.PLAY)
    with pytest.raises(ValueError, match="Ramsch has no declarer"):
        solver_position(state)
    assert ramsch_solve(state).per_card


def test_a_ramsch_review_values_every_card_and_lists_the_skat_round(records):
    record = records["hr-jungfrau"]
    assert describe_game(record) == ("Ramsch", None)
    review = review_record(record, "pimc", Limit(simulations=2))
    assert review.ramsch and review.declarer is None and review.declarer_dd_start is None
    assert len(review.decisions) == 30 and review.contracts == []
    assert all(d.cards[0].view_win is None and d.view_loss_win is None for d in review.decisions)
    assert review.not_reviewed[1:] == ["Ann: pushes the skat on unseen", "Bob: takes the skat",
                                       "Bob: puts ♦8 ♥Q back", "Cid: pushes the skat on unseen"]
    # Ann's ♣8 leading trick 3: ♥8 holds her to 27 card points, ♣8 lets the others give her 82
    marked = review.decision_at(next(d.move for d in review.decisions if (d.trick, d.position) == (3, 1)))
    assert (marked.chosen, marked.dd_loss_points, marked.mark) == ("C8", 55, BLUNDER)
    assert GameReview.from_json_lines(review.json_lines()) == review


def test_a_grand_hand_escape_is_reviewed_as_a_declared_grand(records):
    record = records["hr-grand-hand"]
    game, declarer = describe_game(record)
    assert game.startswith("Grand") and declarer == 1
    review = review_record(record, "mcu", Limit(simulations=2))
    assert not review.ramsch and review.declarer_dd_start is not None
    assert [d.declarer_side for d in review.decisions if d.seat == 1] == [True] * 10
    assert review.not_reviewed == ["the bidding (with Ramsch on, passing is not a game thrown in)",
                                   "Ann: pushes the skat on unseen", "Bob: declares Grand hand instead"]


def test_kontra_and_re_are_judged_against_the_double_dummy_outcome_and_the_cards_reviewed_as_declared(records):
    record = records["hr-kontra-re"]
    review = review_record(record, "mcu", Limit(simulations=8))
    assert review.game == "Clubs hand" and review.declarer == 1 and not review.ramsch
    assert review.not_reviewed == ["the bidding (with Ramsch on, passing is not a game thrown in)"]
    assert len(review.decisions) == 30 and review.declarer_dd_start is not None
    assert [(c.seat, c.call) for c in review.calls] == [(2, "Kontra"), (1, "Re")]
    declarer_wins_dd = bool(review.declarer_dd_start)
    kontra, re_call = review.calls
    # the same cards from the opening lead to the calls: the double-dummy outcome is the game's
    assert kontra.side_wins_dd == (not declarer_wins_dd) and re_call.side_wins_dd == declarer_wins_dd
    for call in review.calls:
        assert call.worlds == 8 and 0 <= call.view_win <= 1
        assert call.mark == call_mark(call.side_wins_dd, call.view_win, call.threshold)
    again = GameReview.from_json_lines(review.json_lines())
    assert again.calls == review.calls


def test_a_call_is_marked_when_the_cards_and_its_own_view_go_against_it():
    assert call_mark(True, 0.1, 0.5) == ""  # it paid: no mark whatever the view said
    assert call_mark(False, 0.6, 0.5) == ""  # sound from its view, lost to the lie of the cards
    assert call_mark(False, 0.4, 0.5) == MISTAKE
    assert call_mark(False, 0.2, 0.5) == BLUNDER
