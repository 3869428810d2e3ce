"""Kontra and Re (house rule): when they may be said, and what they do to the game value."""

import pytest

from engine.cards import Card
from engine.game import GameState, IllegalMoveError, Kontra, Pass, Phase, Play, Re
from engine.house_rules import ISKO, PUB
from engine.rules import FOREHAND, MIDDLEHAND, REARHAND, GameType
from engine.scoring import Declaration, score_game

from example_deal import DEAL, after_iss, cs

KONTRA_RULES = ISKO.with_switches(kontra=True)


def clubs_hand(rules=KONTRA_RULES):
    """Forehand declares clubs hand on ``DEAL`` (he holds every trump) and is to lead."""
    return after_iss("p", "p", "18", "CH", state=GameState.new(DEAL, rules))


# ---- worked examples of the value ------------------------------------------------------------------


def grand(points, bid=18, kontra=None, re=False, tricks=(7, 3)):
    # grand "with 2" (clubs and spades jack): (2 + 1) x 24 = 72
    cards = cs("CJ.SJ.CA.CT.SA.ST.HA.HT.DA.DT.C7.C8")
    return score_game(FOREHAND, Declaration(GameType.GRAND), bid, cards, points, *tricks, kontra=kontra, re=re)


def test_kontra_doubles_a_won_game_and_re_doubles_again():
    assert grand(70).value == 72
    with_kontra = grand(70, kontra=MIDDLEHAND)
    assert (with_kontra.game_value, with_kontra.value) == (144, 144)
    with_re = grand(70, kontra=MIDDLEHAND, re=True)
    assert (with_re.game_value, with_re.value) == (288, 288)
    assert with_re.doublings == ("Kontra", "Re") and with_re.undoubled_value == 72
    assert with_re.multiplier == 3 and with_kontra.multipliers == grand(70).multipliers


def test_a_lost_game_with_kontra_counts_double_and_then_the_loss_doubles():
    lost = grand(50, kontra=REARHAND)
    assert lost.won is False
    assert (lost.game_value, lost.value) == (144, -288)
    assert grand(50, kontra=REARHAND, re=True).value == -576


def test_overbid_is_judged_without_kontra_and_re():
    # grand with 2 is worth 72: a bid of 72 is met even though Kontra doubles the value
    met = grand(70, bid=72, kontra=MIDDLEHAND)
    assert not met.overbid and met.won and met.value == 144
    # bid 80: overbid; the value reaching the bid is 4 x 24 = 96, then doubled by Kontra
    over = grand(70, bid=80, kontra=MIDDLEHAND)
    assert over.overbid and not over.won
    assert (over.undoubled_value, over.game_value, over.value) == (96, 192, -384)


def test_kontra_on_a_null_game():
    cards = cs("C7.S7.H7.D7.C8.S8.H8.D8.C9.S9")
    null = score_game(MIDDLEHAND, Declaration(GameType.NULL, hand=True, ouvert=True), 18, cards, 0, 0, 10,
                    kontra=FOREHAND, re=True)
    assert (null.game_value, null.value) == (4 * 59, 4 * 59)


def test_seeger_fabian_counts_the_doubled_value_and_the_usual_bonus():
    assert grand(70, kontra=MIDDLEHAND).seeger_fabian() == (144 + 50, 0, 0)
    assert grand(50, kontra=MIDDLEHAND).seeger_fabian() == (-288 - 50, 40, 40)


def test_a_result_refuses_re_without_kontra_and_kontra_by_the_declarer():
    with pytest.raises(ValueError, match="no Re without a Kontra"):
        grand(70, re=True)
    with pytest.raises(ValueError, match="by a defender"):
        grand(70, kontra=FOREHAND)


# ---- when they may be said ---------------------------------------------------------------------


def test_with_the_rule_off_there_is_no_kontra():
    state = clubs_hand(ISKO)
    state.push(Play(Card.CJ))
    assert Kontra() not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="only possible with the house rule"):
        state.push(Kontra())
    with pytest.raises(IllegalMoveError, match="only possible with the house rule"):
        state.push(Re())


def test_a_defender_says_kontra_at_his_turn_in_the_first_trick_and_keeps_his_turn():
    state = clubs_hand()
    assert Kontra() not in state.legal_moves()  # forehand is the declarer
    with pytest.raises(IllegalMoveError, match="only a defender may say Kontra"):
        state.push(Kontra())
    state.push(Play(Card.CJ))
    assert state.to_move == MIDDLEHAND and Kontra() in state.legal_moves()
    before = len(state.moves)
    state.push(Kontra())
    assert state.kontra == MIDDLEHAND and state.to_move == MIDDLEHAND
    assert state.moves[before] == (MIDDLEHAND, Kontra())
    assert Kontra() not in state.legal_moves()
    state.push(Play(Card.S7))
    with pytest.raises(IllegalMoveError, match="middlehand already said Kontra"):
        state.push(Kontra())


def test_kontra_comes_before_the_defenders_first_card_only():
    state = clubs_hand()
    state.push_many([Play(Card.CJ), Play(Card.S7), Play(Card.H7)])
    assert state.to_move == FOREHAND and len(state.tricks) == 1
    state.push(Play(Card.SJ))
    assert state.to_move == MIDDLEHAND and Kontra() not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="before middlehand's first card"):
        state.push(Kontra())


def test_kontra_is_said_during_play_only():
    state = after_iss("p", "p", "18", state=GameState.new(DEAL, PUB))
    assert state.phase == Phase.SKAT
    with pytest.raises(IllegalMoveError, match="during play"):
        state.push(Kontra())


def test_the_declarer_answers_re_at_his_first_turn_after_the_kontra():
    state = clubs_hand()
    state.push_many([Play(Card.CJ), Kontra()])
    with pytest.raises(IllegalMoveError, match="only the declarer may say Re"):
        state.push(Re())
    state.push_many([Play(Card.S7), Play(Card.H7)])
    assert state.to_move == FOREHAND and Re() in state.legal_moves()
    state.push(Re())
    assert state.re and state.to_move == FOREHAND and Re() not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="Re was already said"):
        state.push(Re())


def test_re_is_too_late_once_the_declarer_has_played_after_the_kontra():
    state = clubs_hand()
    state.push_many([Play(Card.CJ), Kontra(), Play(Card.S7), Play(Card.H7), Play(Card.SJ)])
    state.push_many([Play(Card.S8), Play(Card.H8)])
    assert state.to_move == FOREHAND and Re() not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="first turn after the Kontra"):
        state.push(Re())


def test_re_needs_a_kontra():
    state = clubs_hand()
    with pytest.raises(IllegalMoveError, match="no one said Kontra"):
        state.push(Re())


def test_rearhand_may_say_kontra_when_middlehand_did_not():
    state = clubs_hand()
    state.push_many([Play(Card.CJ), Play(Card.S7)])
    assert state.to_move == REARHAND and Kontra() in state.legal_moves()
    state.push(Kontra())
    assert state.kontra == REARHAND
    # forehand's next turn is his first after the Kontra
    state.push(Play(Card.H7))
    assert Re() in state.legal_moves()


def test_push_and_pop_and_views_keep_kontra_and_re():
    state = clubs_hand()
    state.push_many([Play(Card.CJ), Kontra(), Play(Card.S7), Play(Card.H7), Re()])
    view = state.view(REARHAND)
    assert (view.kontra, view.re) == (MIDDLEHAND, True)
    assert view.moves == state.moves
    assert state.pop() == Re() and not state.re and state.kontra == MIDDLEHAND
    state.pop(), state.pop()
    assert state.pop() == Kontra() and state.kontra is None
    assert Kontra() in state.legal_moves()


def test_a_view_kept_up_to_date_sees_the_calls_like_a_fresh_view():
    state = clubs_hand()
    view = state.view(MIDDLEHAND)
    for move in (Play(Card.CJ), Kontra(), Play(Card.S7), Play(Card.H7), Re()):
        state.push(move)
        view.push(state.visible_move(move, MIDDLEHAND))
    fresh = state.view(MIDDLEHAND)
    assert (view.kontra, view.re, view.moves) == (fresh.kontra, fresh.re, fresh.moves)


def test_the_result_of_a_played_game_shows_kontra_and_re():
    state = clubs_hand()
    state.push_many([Play(Card.CJ), Kontra(), Play(Card.S7), Play(Card.H7), Re()])
    while not state.is_over:
        state.push(state.legal_moves()[0])
    result = state.result()
    # clubs hand with 11 (the C7 in the skat), game, hand, schneider, schwarz: 15 x 12 = 180
    assert result.won and result.multiplier == 15
    assert (result.kontra, result.re, result.undoubled_value, result.value) == (MIDDLEHAND, True, 180, 720)


def test_notation_of_kontra_and_re():
    state = clubs_hand()
    state.push(Play(Card.CJ))
    assert state.parse_iss("KO") == Kontra() and state.iss(Kontra()) == "KO"
    assert state.parse_iss("RK") == Re() and state.iss(Re()) == "RK"
    assert state.parse_iss("RE").__class__.__name__ == "Resign"


def test_a_ramsch_has_no_kontra_and_no_re():
    state = GameState.new(DEAL, ISKO.with_switches(ramsch=True, kontra=True))
    state.push_many([Pass(), Pass(), Pass()])
    assert state.is_ramsch and state.phase == Phase.PLAY
    state.push(Play(Card.CJ))
    assert Kontra() not in state.legal_moves() and Re() not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="a Ramsch has no declarer"):
        state.push(Kontra())
    with pytest.raises(IllegalMoveError, match="a Ramsch has no declarer"):
        state.push(Re())


def test_kontra_against_a_grand_hand_escape_from_a_ramsch():
    state = GameState.new(DEAL, ISKO.with_switches(ramsch=True, grand_hand_escape=True, kontra=True))
    state.push_many([Pass(), Pass(), Pass()])
    state.push(state.parse_iss("GH"))  # forehand escapes with a grand hand
    assert state.declarer == FOREHAND
    state.push(Play(Card.CJ))
    assert Kontra() in state.legal_moves()
