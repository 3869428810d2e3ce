"""Ramsch and the rules a game is played by (docs/house-rules.md)."""

import pytest

from engine.game import Deal, GameState, Phase
from engine.house_rules import ISKO, PUB


def test_a_game_keeps_its_rules_through_copies_views_and_moves():
    state = GameState.new(Deal.shuffled(3), rules=PUB)
    assert state.rules == PUB
    state.push_many(state.parse_iss(t) for t in ("18", "y"))
    assert state.copy().rules == PUB
    for seat in range(3):
        assert state.view(seat).rules == PUB
    assert state.view(0).copy().rules == PUB
    state.pop()
    assert state.rules == PUB


def test_the_international_skat_order_is_the_default_and_rules_must_be_house_rules():
    assert GameState.new(Deal.shuffled(3)).rules == ISKO
    with pytest.raises(TypeError, match="HouseRules"):
        GameState.new(Deal.shuffled(3), rules="pub")


def test_without_ramsch_all_passing_passes_the_game_in():
    state = GameState.new(Deal.shuffled(3), rules=ISKO)
    state.push_many(state.parse_iss(t) for t in ("p", "p", "p"))
    assert state.phase == Phase.PASSED


# ---------------------------------------------------------------- the Ramsch

from engine.cards import Card, CardSet, cards_of, points_of  # noqa: E402
from engine.game import Declare, Discard, IllegalMoveError, Pass, PickUp, Play, Push, Resign, ShowCards  # noqa: E402
from engine.house_rules import HouseRules  # noqa: E402
from engine.rules import GameType  # noqa: E402
from engine.scoring import Declaration, GameEnd, GameResult, RamschResult, score_game, ramsch_result  # noqa: E402
from engine.series import Series, SeriesEntry  # noqa: E402

RAMSCH = HouseRules(ramsch=True)
SCHIEBEN = HouseRules(ramsch=True, schieben=True)
ESCAPE = HouseRules(ramsch=True, grand_hand_escape=True)


def cards(text: str) -> int:
    return CardSet.from_str(text).mask


# Forehand holds every jack, every ace and two tens: whatever the others play,
# leading jacks, then aces, then tens wins every trick.
TAKES_ALL = Deal(
    (cards("CJ.SJ.HJ.DJ.CA.SA.HA.DA.CT.ST"), cards("CK.CQ.C9.SK.SQ.S9.HK.HQ.H9.DK"),
     cards("C8.C7.S8.S7.HT.H8.H7.DT.DQ.D9")),
    cards("D8.D7"),
)


def passed_in(deal: Deal, rules: HouseRules) -> GameState:
    state = GameState.new(deal, rules=rules)
    state.push_many([Pass(), Pass(), Pass()])
    return state


def play_out(state: GameState, order=lambda legal: legal[0]) -> GameState:
    while not state.is_over:
        state.push(order(state.legal_moves()))
    return state


def test_all_passing_with_ramsch_plays_a_ramsch_without_declarer_and_jacks_as_the_only_trumps():
    state = passed_in(Deal.shuffled(5), RAMSCH)
    assert state.phase == Phase.PLAY and state.to_move == 0  # no skat round: forehand leads
    assert state.is_ramsch and state.declarer is None and state.declaration is None
    assert state.game == GameType.GRAND  # the trick rules in force
    assert state.legal_moves() == [Play(c) for c in cards_of(state.deal.hands[0])]


def test_a_jack_wins_a_ramsch_trick_and_suits_must_be_followed():
    deal = Deal(
        (cards("HA.HK.HQ.H9.H8.H7.C7.C8.C9.CQ"), cards("HT.DJ.S7.S8.S9.SQ.SK.SA.ST.CK"),
         cards("CJ.SJ.HJ.CA.CT.DA.DT.DK.DQ.D9")),
        cards("D8.D7"),
    )
    state = passed_in(deal, RAMSCH)
    state.push(state.parse_iss("HA"))
    assert {m.card for m in state.legal_moves()} == {Card.from_str("HT")}  # must follow hearts
    with pytest.raises(IllegalMoveError, match="does not follow"):
        state.push(state.parse_iss("DJ"))
    state.push(state.parse_iss("HT"))
    state.push(state.parse_iss("HJ"))  # rearhand has no heart: the jack trumps
    assert state.tricks[-1].winner == 2 and state.points == [0, 0, 23]


def test_durchmarsch_wins_120_and_the_skat_goes_to_the_last_trick():
    state = play_out(passed_in(TAKES_ALL, RAMSCH))
    result = state.result()
    assert isinstance(result, RamschResult)
    assert result.durchmarsch == 0 and result.losers == () and result.jungfrau is None
    assert result.points == (120, 0, 0) and result.tricks == (10, 0, 0) and result.skat_to == 0
    assert result.values == (120, 0, 0)
    assert result.scores_by_seat() == ((120, 0, 0), (120, 0, 0))
    assert state.outcome().result == result and state.outcome().end == GameEnd.PLAYED
    assert not state.outcome().passed_in


def test_the_skat_counts_for_the_winner_of_the_last_trick():
    for seed in range(40):
        state = play_out(passed_in(Deal.shuffled(seed), RAMSCH), order=lambda legal: legal[-1])
        result = state.result()
        last = state.tricks[-1].winner
        assert result.skat_to == last
        expected = [sum(t.points for t in state.tricks if t.winner == s) for s in range(3)]
        expected[last] += points_of(state.deal.skat)
        assert list(result.points) == expected and sum(result.points) == 120


@pytest.mark.parametrize("points, tricks, pushes, losers, jungfrau, values", [
    ((30, 50, 40), (3, 4, 3), 0, (1,), None, (0, -50, 0)),  # most points lose them
    ((50, 50, 20), (4, 4, 2), 0, (0, 1), None, (-50, -50, 0)),  # a tie: both lose
    ((40, 40, 40), (3, 4, 3), 0, (0, 1, 2), None, (-40, -40, -40)),  # all three tie
    ((0, 70, 50), (0, 6, 4), 0, (1,), 0, (0, -140, 0)),  # forehand a Jungfrau: doubled
    ((30, 50, 40), (3, 4, 3), 1, (1,), None, (0, -100, 0)),  # one push doubles
    ((30, 50, 40), (3, 4, 3), 3, (1,), None, (0, -400, 0)),  # three pushes: 8 times
    ((61, 0, 59), (6, 0, 4), 2, (0,), 1, (-488, 0, 0)),  # two pushes and a Jungfrau: 8 times
    ((0, 0, 120), (0, 0, 10), 0, (), None, (0, 0, 120)),  # Durchmarsch
    ((0, 0, 120), (0, 0, 10), 2, (), None, (0, 0, 480)),  # Durchmarsch pushed twice
    ((0, 120, 0), (1, 9, 0), 0, (1,), 2, (0, -240, 0)),  # a zero-point trick is a trick: no Durchmarsch
])
def test_ramsch_values(points, tricks, pushes, losers, jungfrau, values):
    result = ramsch_result(points, tricks, skat_to=0, pushes=pushes)
    assert result.losers == losers and result.jungfrau == jungfrau and result.values == values
    assert result.scores_by_seat(3) == (values, values) == result.scores_by_seat(4)
    assert result.durchmarsch == (next(s for s in range(3) if tricks[s] == 10) if 10 in tricks else None)


def test_a_ramsch_result_needs_all_points_and_tricks():
    with pytest.raises(ValueError, match="120 points and 10 tricks"):
        ramsch_result((30, 50, 30), (3, 4, 3), skat_to=0)


def test_the_skat_round_offers_what_the_rules_allow():
    pub = passed_in(Deal.shuffled(5), PUB)
    assert pub.phase == Phase.RAMSCH_SKAT and pub.to_move == 0 and pub.is_ramsch
    moves = pub.legal_moves()
    assert moves[:2] == [PickUp(pub.deal.skat), Push()]
    assert {m.declaration for m in moves[2:]} == {
        Declaration(GameType.GRAND, hand=True), Declaration(GameType.GRAND, hand=True, schneider=True),
        Declaration(GameType.GRAND, hand=True, schwarz=True), Declaration(GameType.GRAND, hand=True, ouvert=True)}
    assert passed_in(Deal.shuffled(5), SCHIEBEN).legal_moves() == [PickUp(pub.deal.skat), Push()]
    escape = passed_in(Deal.shuffled(5), ESCAPE)
    assert escape.legal_moves()[0] == Pass() and all(isinstance(m, Declare) for m in escape.legal_moves()[1:])
    with pytest.raises(IllegalMoveError, match="no Schieben"):
        escape.push(Push())
    with pytest.raises(IllegalMoveError, match="no Grand Hand"):
        passed_in(Deal.shuffled(5), SCHIEBEN).push(Declare(Declaration(GameType.GRAND, hand=True)))
    with pytest.raises(IllegalMoveError, match="only a Grand Hand"):
        pub.push(Declare(Declaration(GameType.CLUBS, hand=True)))
    with pytest.raises(IllegalMoveError, match="push the skat on"):
        pub.push(Pass())


def test_schieben_doubles_and_jacks_may_not_be_pushed_on():
    state = passed_in(TAKES_ALL, PUB)
    state.push(Push())  # forehand pushes unseen
    assert state.to_move == 1 and state.pushes == 1
    state.push(PickUp())  # middlehand takes D8 D7
    assert state.phase == Phase.RAMSCH_DISCARD and state.to_move == 1 and state.hand_sizes[1] == 12
    assert all(not c.is_jack for m in state.legal_moves() for c in cards_of(m.cards))
    with pytest.raises(IllegalMoveError, match="you do not hold"):
        state.push(Discard(cards("CJ.D8")))
    state.push(Discard(cards("CK.SK")))
    assert state.skat == cards("CK.SK") and state.skat_holder == 1 and state.to_move == 2
    state.push(Push())
    assert state.phase == Phase.PLAY and state.to_move == 0 and state.pushes == 2
    result = play_out(state).result()
    assert result.durchmarsch == 0 and result.values == (480, 0, 0)
    assert result.multipliers == (("pushed", 2), ("pushed", 2))


def test_a_jack_cannot_be_put_back_into_the_ramsch_skat():
    deal = Deal((TAKES_ALL.hands[1], TAKES_ALL.hands[0], TAKES_ALL.hands[2]), TAKES_ALL.skat)  # middlehand holds the jacks
    state = passed_in(deal, SCHIEBEN)
    state.push(Push())
    state.push(PickUp())
    with pytest.raises(IllegalMoveError, match="jacks may not be pushed on"):
        state.push(Discard(cards("CJ.CA")))
    assert state.phase == Phase.RAMSCH_DISCARD and state.hand_sizes[1] == 12  # nothing changed


def test_who_sees_the_pushed_skat():
    state = passed_in(TAKES_ALL, PUB)
    state.push(PickUp())
    state.push(Discard(cards("CT.ST")))  # forehand puts back two tens
    state.push(PickUp())  # middlehand takes them
    mover = 1
    assert state.visible_move(PickUp(cards("CT.ST")), 0, by=mover) == PickUp(None)
    state.push(Discard(cards("CK.CQ")))
    forehand, middlehand, rearhand = (state.view(s) for s in range(3))
    assert middlehand.skat == cards("CK.CQ") and middlehand.skat_known
    assert forehand.skat == 0 and not forehand.skat_known
    assert [m for _, m in forehand.moves[3:]] == [PickUp(cards("D8.D7")), Discard(cards("CT.ST")),
                                                   PickUp(None), Discard(None)]
    assert [m for _, m in middlehand.moves[3:]] == [PickUp(None), Discard(None),
                                                     PickUp(cards("CT.ST")), Discard(cards("CK.CQ"))]
    assert [m for _, m in rearhand.moves[3:]] == [PickUp(None), Discard(None), PickUp(None), Discard(None)]
    assert middlehand.hands[1] & cards("CT.ST") == cards("CT.ST")
    # a view follows the moves as it sees them and stays equal to a fresh view
    view = passed_in(TAKES_ALL, PUB).view(2)
    replay = passed_in(TAKES_ALL, PUB)
    for seat, move in state.moves[3:]:
        view.push(replay.visible_move(move, 2, by=seat))
        replay.push(move)
    assert view.__dict__.keys() == replay.view(2).__dict__.keys()
    assert {k: v for k, v in view.__dict__.items() if k != "_stack"} == \
        {k: v for k, v in replay.view(2).__dict__.items() if k != "_stack"}


def test_the_grand_hand_escape_is_scored_as_a_normal_grand_hand():
    state = passed_in(TAKES_ALL, PUB)
    state.push(Declare(Declaration(GameType.GRAND, hand=True)))
    assert state.declarer == 0 and not state.is_ramsch and state.phase == Phase.PLAY and state.to_move == 0
    result = play_out(state).result()
    assert isinstance(result, GameResult)
    # with 4, game 1, hand 1, schneider 1, schwarz 1: 8 x 24
    assert (result.won, result.matadors, result.multiplier, result.game_value, result.value) == (True, 4, 8, 192, 192)
    assert result == score_game(0, Declaration(GameType.GRAND, hand=True), 0, TAKES_ALL.hands[0] | TAKES_ALL.skat,
                              120, 10, 0)
    assert result.scores_by_seat() == ((192, 0, 0), (242, 0, 0))


def test_a_later_seat_escapes_after_a_push_and_the_pushes_do_not_count():
    state = passed_in(TAKES_ALL, PUB)
    state.push(Push())
    state.push(state.parse_iss("GH"))
    assert state.declarer == 1 and state.pushes == 1
    result = play_out(state).result()
    assert isinstance(result, GameResult) and not result.won and result.bid == 0
    assert result.multipliers[0] == ("without 4", 4)


def test_a_ramsch_cannot_be_resigned_or_shown_and_leaving_scores_nothing():
    state = passed_in(Deal.shuffled(5), RAMSCH)
    with pytest.raises(IllegalMoveError, match="nothing to resign"):
        state.push(Resign(0))
    with pytest.raises(IllegalMoveError, match="cannot be shown"):
        state.push(ShowCards(1))
    state.push(state.legal_moves()[0])
    state.push(state.parse_iss("LE.2"))
    assert state.is_over and state.result() is None and state.outcome().left_seat == 2


def test_ramsch_moves_in_notation_and_their_undo():
    state = passed_in(TAKES_ALL, PUB)
    before = state.copy().__dict__
    for text, move in (("push", Push()), ("s", PickUp()), ("CK.SK", Discard(cards("CK.SK"))), ("p", Pass())):
        if text == "p":
            assert passed_in(TAKES_ALL, ESCAPE).parse_iss(text) == move
            continue
        assert state.parse_iss(text) == move
        state.push(move)
    assert state.moves[-3:] == ((0, Push()), (1, PickUp(cards("D8.D7"))), (1, Discard(cards("CK.SK"))))
    for _ in range(3):
        state.pop()
    assert {k: v for k, v in state.__dict__.items() if k != "_stack"} == \
        {k: v for k, v in before.items() if k != "_stack"}


def test_a_series_counts_a_ramsch_on_both_lists_and_not_in_the_declarer_statistics():
    series = Series(("Ann", "Ben", "Cat"))
    ramsch = ramsch_result((30, 50, 40), (3, 4, 3), skat_to=1)
    entry = series.record(ramsch)  # dealer Cat: Ann forehand, Ben middlehand
    assert entry.seats == (0, 1, 2)
    assert entry.scores() == ((0, -50, 0), (0, -50, 0))
    totals = series.totals()
    assert [t.score for t in totals] == [0, -50, 0] and [t.seeger_fabian for t in totals] == [0, -50, 0]
    assert [t.games for t in totals] == [0, 0, 0]


def test_a_declared_game_gives_its_scores_by_seat_as_the_series_counted_them():
    lost = score_game(2, Declaration(GameType.CLUBS), 18, cards("CJ.SJ"), 50, 4, 6)
    assert lost.scores_by_seat(3) == ((0, 0, lost.value), (40, 40, lost.value - 50))
    assert lost.scores_by_seat(4) == ((0, 0, lost.value), (30, 30, lost.value - 50))
    entry = SeriesEntry(1, 0, (1, 2, 0), lost)
    assert entry.scores() == ((lost.value, 0, 0), (lost.value - 50, 40, 40))


@pytest.mark.parametrize("rules", [RAMSCH, SCHIEBEN, ESCAPE, PUB], ids=lambda r: r.describe())
def test_random_ramsch_games_keep_views_equal_to_fresh_views_and_undo_every_move(rules):
    import random

    for seed in range(25):
        rng = random.Random(seed)
        state = passed_in(Deal.shuffled(seed), rules)
        views = [state.view(seat) for seat in range(3)]
        while not state.is_over:
            seat, move = state.to_move, rng.choice(state.legal_moves())
            before = state.copy()
            state.push(move)
            recorded = state.moves[-1][1]
            for s in range(3):
                views[s].push(state.visible_move(recorded, s, by=seat))
                fresh = state.view(s)
                assert {k: v for k, v in views[s].__dict__.items() if k != "_stack"} == \
                    {k: v for k, v in fresh.__dict__.items() if k != "_stack"}, (seed, s)
            state.pop()
            assert {k: v for k, v in state.__dict__.items() if k != "_stack"} == \
                {k: v for k, v in before.__dict__.items() if k != "_stack"}
            state.push(move)
        result = state.result()
        assert result is not None
        if isinstance(result, RamschResult):
            assert sum(result.points) == 120 and sum(result.tricks) == 10


def test_a_played_ramsch_with_a_jungfrau_doubles_the_losers_points():
    deal = Deal(
        (cards("CJ.SJ.HJ.DJ.CA.SA.HA.CT.ST.D7"), cards("CK.CQ.C9.SK.SQ.S9.HK.HQ.H9.DA"),
         cards("C8.C7.S8.S7.HT.H8.H7.DT.DQ.D9")),
        cards("D8.DK"),
    )
    state = passed_in(deal, RAMSCH)
    tricks = ("CJ C9 H7", "SJ S9 H8", "HJ H9 D9", "DJ HQ DQ", "CA CQ C7", "SA SQ S7", "HA HK HT",
              "CT CK C8", "ST SK S8", "D7 DA DT")
    for trick in tricks:
        for text in trick.split():
            state.push(state.parse_iss(text))
    result = state.result()
    # forehand takes nine tricks worth 95; middlehand the last (21) and the skat (4); rearhand none
    assert result.points == (95, 25, 0) and result.tricks == (9, 1, 0) and result.skat_to == 1
    assert result.jungfrau == 2 and result.losers == (0,) and result.durchmarsch is None
    assert result.multiplier == 2 and result.values == (-190, 0, 0)
    assert result.multipliers == (("Jungfrau", 2),)
