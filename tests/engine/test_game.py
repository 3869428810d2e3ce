import pytest

from engine.cards import Card, CardSet
from engine.game import (
    Bid, Deal, Declare, Discard, GameState, Hold, IllegalMoveError, Leave, Pass, Phase, PickUp, Play, Resign,
    ShowCards,
)
from engine.record import GameRecord, format_record, parse_record
from engine.rules import FOREHAND, MIDDLEHAND, REARHAND, GameType, follow_mask
from engine.scoring import Declaration
from example_deal import DEAL, cs


def state_after(*moves):
    state = GameState.new(DEAL)
    for move in moves:
        state.push(move)
    return state


def test_seeded_deal_is_reproducible_and_dealt_3_2_4_3():
    a, b = Deal.shuffled(42), Deal.shuffled(42)
    assert a == b and a != Deal.shuffled(43)
    assert [h.bit_count() for h in a.hands] == [10, 10, 10] and a.skat.bit_count() == 2


def test_deal_order_round_trips():
    assert Deal.from_order(DEAL.order()) == DEAL


# ---- bidding ---------------------------------------------------------------------------------


def test_middlehand_bids_forehand_holds_then_rearhand_bids_to_the_survivor():
    s = state_after(Bid(18), Hold(), Bid(20), Pass())
    assert s.to_move == REARHAND  # forehand dropped out; rearhand bids to middlehand
    s.push(Bid(22))
    assert s.to_move == MIDDLEHAND
    s.push(Hold())
    s.push(Pass())
    assert s.phase == Phase.SKAT and s.declarer == MIDDLEHAND and s.bid == 22


def test_middlehand_passes_without_bidding_then_rearhand_bids_to_forehand():
    s = state_after(Pass())
    assert s.to_move == REARHAND
    s.push(Bid(18))
    assert s.to_move == FOREHAND
    s.push(Pass())
    assert s.declarer == REARHAND and s.bid == 18


def test_forehand_may_open_when_both_others_pass():
    s = state_after(Pass(), Pass())
    assert s.to_move == FOREHAND and s.phase == Phase.BIDDING
    s.push(Bid(18))
    assert s.declarer == FOREHAND and s.phase == Phase.SKAT


def test_all_three_pass_the_game_is_passed_in():
    s = state_after(Pass(), Pass(), Pass())
    assert s.phase == Phase.PASSED and s.is_over and s.result() is None


def test_bids_must_rise_and_be_real_game_values():
    s = state_after(Bid(20))
    s.push(Hold())
    with pytest.raises(IllegalMoveError, match="not above the bid of 20"):
        s.push(Bid(18))
    with pytest.raises(IllegalMoveError, match="21 is not a bid value"):
        s.push(Bid(21))
    with pytest.raises(IllegalMoveError, match="must hold 20 or pass"):
        state_after(Bid(20)).push(Bid(22))
    assert s.to_move == MIDDLEHAND and s.bid == 20  # refused moves change nothing


# ---- skat and declaration ----------------------------------------------------------------------


def won_by_forehand():
    return state_after(Pass(), Pass(), Bid(18))


def test_pick_up_then_discard_then_declare():
    s = won_by_forehand()
    s.push(PickUp())
    assert s.hands[FOREHAND] & DEAL.skat == DEAL.skat and s.phase == Phase.DISCARD
    with pytest.raises(IllegalMoveError, match="exactly two"):
        s.push(Discard(cs("C7")))
    with pytest.raises(IllegalMoveError, match="do not hold"):
        s.push(Discard(cs("C7.SA")))
    s.push(Discard(cs("C7.D7")))
    with pytest.raises(IllegalMoveError, match="cannot be a hand game"):
        s.push(Declare(Declaration(GameType.GRAND, hand=True)))
    s.push(Declare(Declaration(GameType.GRAND)))
    assert s.phase == Phase.PLAY and s.to_move == FOREHAND


def test_hand_game_needs_no_pick_up_but_a_skat_game_does():
    s = won_by_forehand()
    with pytest.raises(IllegalMoveError, match="take the skat first"):
        s.push(Declare(Declaration(GameType.CLUBS)))
    with pytest.raises(IllegalMoveError, match="only be announced in a hand game"):
        s2 = won_by_forehand()
        s2.push(PickUp())
        s2.push(Discard(cs("C7.D7")))
        s2.push(Declare(Declaration(GameType.CLUBS, schneider=True)))
    s.push(Declare(Declaration(GameType.CLUBS, hand=True, schwarz=True)))
    assert s.declaration.schneider_announced


def test_null_cannot_reach_a_bid_above_59():
    s = state_after(Bid(60), Hold(), Pass(), Pass())
    assert s.declarer == FOREHAND
    assert "below the bid of 60" in s.declaration_problem(Declaration(GameType.NULL, hand=True, ouvert=True))
    assert all(d.declaration.game != GameType.NULL for d in s.legal_moves() if isinstance(d, Declare))


NULL_VARIANTS = {  # (hand, ouvert): value
    (False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59,
}


@pytest.mark.parametrize("bid", [22, 23, 24, 33, 35, 36, 45, 46, 48, 55, 59, 60])
@pytest.mark.parametrize("hand", [False, True])
@pytest.mark.parametrize("ouvert", [False, True])
def test_a_null_game_is_refused_when_its_own_value_is_below_the_bid(bid, hand, ouvert):
    s = state_after(Bid(bid), Hold(), Pass(), Pass())
    assert s.declarer == FOREHAND and s.bid == bid
    if not hand:
        s.push(PickUp())
        s.push(Discard(cs("C7.D7")))
    decl = Declaration(GameType.NULL, hand=hand, ouvert=ouvert)
    value = NULL_VARIANTS[(hand, ouvert)]
    problem = s.declaration_problem(decl)
    legal = [m.declaration for m in s.legal_moves() if isinstance(m, Declare)]
    if value >= bid:
        assert problem is None and decl in legal
    else:
        assert problem == f"{decl.describe()} is worth {value}, below the bid of {bid}"
        assert decl not in legal
        with pytest.raises(IllegalMoveError, match=f"below the bid of {bid}"):
            s.push(Declare(decl))
        assert s.declaration is None


def test_after_taking_the_skat_at_48_no_null_can_be_declared():
    # Null ouvert hand (59) would reach 48, but not once the skat is taken.
    s = state_after(Bid(48), Hold(), Pass(), Pass())
    s.push(PickUp())
    s.push(Discard(cs("C7.D7")))
    assert all(m.declaration.game != GameType.NULL for m in s.legal_moves() if isinstance(m, Declare))


# ---- play ------------------------------------------------------------------------------------


def grand_hand_by_forehand():
    s = won_by_forehand()
    s.push(Declare(Declaration(GameType.GRAND, hand=True)))
    return s


def test_follow_rules_and_message():
    s = state_after(Pass(), Bid(18), Pass())  # rearhand declares
    s.push(Declare(Declaration(GameType.HEARTS, hand=True)))
    s.push(Play(Card.CA))  # forehand leads clubs
    s.push(Play(Card.SA))  # middlehand has no club
    s.pop()
    s.push(Play(Card.S7))
    s.push(Play(Card.DA))
    s2 = state_after(Pass(), Bid(18), Pass())
    s2.push(Declare(Declaration(GameType.DIAMONDS, hand=True)))
    s2.push(Play(Card.CJ))  # a jack leads: trump
    s2.push(Play(Card.HA))  # middlehand has no trump
    with pytest.raises(IllegalMoveError, match=r"♥Q does not follow trump \(you hold .*♦A"):
        s2.push(Play(Card.HQ))
    with pytest.raises(IllegalMoveError, match="does not hold"):
        s2.push(Play(Card.CK))


def test_illegal_move_messages_name_cards_and_games_in_either_language():
    s = state_after(Pass(), Bid(18), Pass())
    s.push(Declare(Declaration(GameType.DIAMONDS, hand=True)))
    s.push(Play(Card.CJ))
    s.push(Play(Card.HA))
    with pytest.raises(IllegalMoveError) as refused:
        s.push(Play(Card.HQ))
    must = CardSet(s.hands[s.to_move] & follow_mask(GameType.DIAMONDS, Card.CJ))
    assert str(refused.value) == f"♥Q does not follow trump (you hold {must.unicode()})"
    assert refused.value.describe(german=True) == f"♥D does not follow trump (you hold {must.unicode(True)})"
    hand = state_after(Pass(), Bid(18), Pass())
    hand.push(PickUp())
    with pytest.raises(IllegalMoveError) as refused:
        hand.push(Discard(1 << Card.CJ))
    assert refused.value.describe(german=True) == "discard exactly two cards, not ♣B"
    took_skat = state_after(Pass(), Bid(18), Pass())
    took_skat.push(PickUp())
    two = list(CardSet(took_skat.hands[took_skat.declarer]))[:2]
    took_skat.push(Discard((1 << two[0]) | (1 << two[1])))
    with pytest.raises(IllegalMoveError) as refused:
        took_skat.push(Declare(Declaration(GameType.CLUBS, hand=True)))
    assert str(refused.value).startswith("cannot declare Clubs hand: ")
    assert refused.value.describe(german=True).startswith("cannot declare Kreuz hand: ")
    ouvert = Declaration(GameType.SPADES, ouvert=True)
    assert took_skat.declaration_problem(ouvert) == "Spades ouvert must be played hand"
    assert took_skat.declaration_problem(ouvert, german=True) == "Pik ouvert must be played hand"
    with pytest.raises(IllegalMoveError) as refused:
        took_skat.push(Declare(ouvert))
    assert refused.value.describe(german=True) == "cannot declare Pik ouvert: Pik ouvert must be played hand"


def test_null_declarer_taking_a_trick_ends_the_game_at_once():
    s = state_after(Bid(18), Pass(), Pass())  # middlehand declares
    s.push(Declare(Declaration(GameType.NULL, hand=True)))
    s.push(Play(Card.C8))
    s.push(Play(Card.SA))  # middlehand cannot follow: discards
    s.push(Play(Card.DA))
    s.push(Play(Card.CA))  # forehand leads again
    s.push(Play(Card.S9))
    s.push(Play(Card.DK))
    assert not s.is_over
    s.push(Play(Card.CT))
    s.push(Play(Card.SK))
    s.push(Play(Card.D9))
    s.push(Play(Card.HJ))  # forehand leads hearts: middlehand must follow
    with pytest.raises(IllegalMoveError, match="does not follow ♥"):
        s.push(Play(Card.SQ))
    s.push(Play(Card.HT))  # the null jack ranks above the ten: no trick yet
    s.push(Play(Card.H7))
    assert not s.is_over
    s.push(Play(Card.SJ))  # null: the jack of spades is a spade below the queen
    s.push(Play(Card.SQ))
    s.push(Play(Card.H8))
    assert s.phase == Phase.FINISHED and s.end == "null_trick"
    r = s.result()
    assert not r.won and r.value == -70


def test_full_game_scores_and_all_points_are_counted():
    s = grand_hand_by_forehand()
    while not s.is_over:
        s.push(s.legal_moves()[0])
    r = s.result()
    assert r.declarer_points + r.defender_points == 120
    assert r.declarer_tricks + r.defender_tricks == 10


def test_push_and_pop_restore_the_state():
    s = grand_hand_by_forehand()
    before = (list(s.hands), s.trick, s.tricks, list(s.points))
    for _ in range(7):
        s.push(s.legal_moves()[-1])
    for _ in range(7):
        s.pop()
    assert (list(s.hands), s.trick, s.tricks, list(s.points)) == before


# ---- resign and claims -----------------------------------------------------------------------


def test_declarer_resigning_gives_the_rest_to_the_defenders():
    s = grand_hand_by_forehand()
    s.push(Play(Card.CA))
    s.push(Resign(FOREHAND))
    r = s.result()
    assert not r.won and r.end == "declarer_resigned" and r.declarer_points == 0


def test_both_defenders_must_resign_to_concede():
    s = grand_hand_by_forehand()
    s.push(ShowCards(FOREHAND))
    s.push(Resign(MIDDLEHAND))
    assert not s.is_over
    s.push(Resign(REARHAND))
    r = s.result()
    assert r.won and r.declarer_points == 120 and r.schwarz and r.declarer_tricks == 10


# ---- malformed moves ------------------------------------------------------------------------


def full_snapshot(state):
    return state._snapshot(), state.result(), len(state._stack)


def assert_refused_and_unchanged(state, move, match=None):
    """Pushing the move raises IllegalMoveError and leaves the state exactly as it was."""
    before = full_snapshot(state)
    with pytest.raises(IllegalMoveError, match=match):
        state.push(move)
    assert full_snapshot(state) == before


@pytest.mark.parametrize("move", [Resign(5), Resign(-1), ShowCards(3), Leave(-1), Leave(7), Resign(True), Leave("0")])
def test_resign_show_and_leave_name_a_real_seat(move):
    s = grand_hand_by_forehand()
    assert_refused_and_unchanged(s, move, match="the seats are 0, 1 and 2")


def test_two_resignations_by_seats_that_do_not_exist_do_not_end_the_game():
    s = grand_hand_by_forehand()
    for move in (Resign(5), Resign(7)):
        with pytest.raises(IllegalMoveError):
            s.push(move)
    assert not s.is_over and s.resigned == frozenset()


def test_a_leave_with_a_real_seat_still_ends_the_game_and_the_record_reads_back():
    s = grand_hand_by_forehand()
    s.push(Leave(MIDDLEHAND))
    again = parse_record(format_record(GameRecord.from_state(s)))
    assert s.end == "left" and again.replay().result() == s.result()


@pytest.mark.parametrize("card", [99, -1, "CJ", 28.0, None, True])
def test_a_card_that_is_not_a_card_is_an_illegal_move(card):
    s = grand_hand_by_forehand()
    before = full_snapshot(s)
    with pytest.raises(IllegalMoveError, match="not a card"):
        s.push(Play(card))  # refused as the move is made, before the state sees it
    assert full_snapshot(s) == before


def test_a_card_index_is_accepted_and_recorded_as_the_card():
    s = grand_hand_by_forehand()
    s.push(Play(int(Card.CA)))
    assert s.moves[-1] == (FOREHAND, Play(Card.CA)) and type(s.moves[-1][1].card) is Card


@pytest.mark.parametrize("cards", [-3, 1 << 32, "C7.D7", 3.0, True])
def test_a_discard_that_is_not_a_card_mask_is_an_illegal_move(cards):
    s = won_by_forehand()
    s.push(PickUp())
    assert_refused_and_unchanged(s, Discard(cards), match="not a set of cards")


@pytest.mark.parametrize("skat", [-1, 1 << 40, "C7.D7", cs("C7.D7.D8"), cs("CJ.SJ")])
def test_a_pick_up_with_an_impossible_skat_is_an_illegal_move(skat):
    s = won_by_forehand()
    assert_refused_and_unchanged(s, PickUp(skat))


@pytest.mark.parametrize("value", [18.0, "18", None, True])
def test_a_bid_is_a_whole_number(value):
    s = GameState.new(DEAL)
    assert_refused_and_unchanged(s, Bid(value))


@pytest.mark.parametrize("move", [
    Declare("G"), Declare(None), Declare(Declaration("G", hand=True)), Declare(Declaration(GameType.GRAND, hand=1)),
    Declare(Declaration(GameType.GRAND, hand=True), revealed=cs("CJ")),
    Declare(Declaration(GameType.GRAND, hand=True, ouvert=True), revealed=-5),
])
def test_a_malformed_declaration_is_an_illegal_move(move):
    s = won_by_forehand()
    assert_refused_and_unchanged(s, move)


@pytest.mark.parametrize("move", [None, "CA", 28, Card.CA, Leave(0, timeout="yes")])
def test_something_that_is_not_a_move_is_an_illegal_move(move):
    s = grand_hand_by_forehand()
    assert_refused_and_unchanged(s, move)


# ---- views -----------------------------------------------------------------------------------


def test_a_view_hides_other_hands_and_the_skat():
    s = won_by_forehand()
    v = s.view(MIDDLEHAND)
    assert v.hands[MIDDLEHAND] == DEAL.hands[MIDDLEHAND]
    assert v.hands[FOREHAND] == 0 and v.hands[REARHAND] == 0 and v.skat == 0
    s.push(PickUp())
    assert s.view(FOREHAND).skat == DEAL.skat and s.view(REARHAND).skat == 0


def test_views_kept_move_by_move_equal_fresh_views():
    s = GameState.new(Deal.shuffled(7))
    views = [s.view(seat) for seat in range(3)]
    while not s.is_over:
        move = s.legal_moves()[len(s.moves) % 2 if s.phase == Phase.BIDDING else 0]
        if s.phase == Phase.BIDDING and isinstance(move, Bid) and s.bid >= 30:
            move = Pass()
        seat = s.to_move
        s.push(move)
        for viewer in range(3):
            views[viewer].push(s.visible_move(s.moves[-1][1], viewer) if viewer != seat else s.moves[-1][1])
    for viewer in range(3):
        fresh = s.view(viewer)
        assert views[viewer].hands == fresh.hands
        assert views[viewer].hand_sizes == fresh.hand_sizes
        assert views[viewer].tricks == fresh.tricks
        assert views[viewer].phase == fresh.phase


def test_a_view_refuses_a_card_known_to_be_elsewhere():
    s = grand_hand_by_forehand()
    v = s.view(MIDDLEHAND)
    with pytest.raises(IllegalMoveError, match="cannot be in"):
        v.push(Play(Card.SA))  # middlehand holds it; forehand cannot play it
