"""Worked examples for every scoring rule of skat-rules.md."""

import pytest

from engine.cards import CardSet
from engine.rules import GameType
from engine.scoring import Declaration, score_game, matadors

G = GameType


def cs(text):
    return CardSet.from_str(text).mask


def score(game, cards="CJ", points=70, tricks=5, defender_tricks=None, bid=18, **flags):
    decl = Declaration(game, **flags)
    if defender_tricks is None:
        defender_tricks = 10 - tricks
    return score_game(0, decl, bid, cs(cards), points, tricks, defender_tricks)


# ---- the rulebook's worked example --------------------------------------------------------


def test_rulebook_example_hearts_without_one():
    cards = "SJ.HJ.HA.HT.H9.SA.ST.CA.CT.D7.S7.C7"
    assert matadors(G.HEARTS, cs(cards)) == -1
    r = score(G.HEARTS, cards, points=70)
    assert (r.won, r.multiplier, r.value) == (True, 2, 20)
    r = score(G.HEARTS, cards, points=95, tricks=8)
    assert (r.won, r.schneider, r.value) == (True, True, 30)
    r = score(G.HEARTS, cards, points=52)
    assert (r.won, r.value) == (False, -40)
    assert r.seeger_fabian() == (-90, 40, 40)


# ---- matadors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, cards, expected",
    [
        (G.CLUBS, "CJ.SJ.HJ.DJ.CA.CT.CK.CQ.C9.C8.C7.HA", 11),  # every trump: with 11
        (G.CLUBS, "HA.HT.HK.HQ.H9.H8.H7.SA.ST.SK.SQ.S9", -11),  # no trump at all: without 11
        (G.GRAND, "CJ.SJ.HJ.DJ.CA.CT.CK.CQ.C9.C8.C7.HA", 4),  # grand counts jacks only
        (G.GRAND, "DJ.CA.CT.CK.CQ.C9.C8.C7.HA.HT.HK.HQ", -3),
        (G.SPADES, "CJ.SJ.DJ.SA", 2),  # the run stops at the missing HJ
        (G.DIAMONDS, "HJ.DJ.DA", -2),
        (G.NULL, "CJ.SJ", 0),
    ],
)
def test_matadors_with_and_without(game, cards, expected):
    assert matadors(game, cs(cards)) == expected


# ---- each multiplier -----------------------------------------------------------------------


def test_each_multiplier_adds_one_step():
    base = score(G.CLUBS, "CJ", points=70)  # with 1, game
    assert base.value == 2 * 12
    assert score(G.CLUBS, "CJ.SJ", points=70).value == 3 * 12  # with 2
    assert score(G.CLUBS, "CJ", points=70, hand=True).value == 3 * 12  # hand
    assert score(G.CLUBS, "CJ", points=90, tricks=7).value == 3 * 12  # schneider
    assert score(G.CLUBS, "CJ", points=95, tricks=7, hand=True, schneider=True).value == 5 * 12  # hand, schneider, announced
    assert score(G.CLUBS, "CJ", points=120, tricks=10).value == 4 * 12  # schneider, schwarz
    r = score(G.CLUBS, "CJ", points=120, tricks=10, hand=True, schwarz=True)
    assert r.won and r.value == 7 * 12  # hand, schneider, announced, schwarz, announced
    r = score(G.CLUBS, "CJ", points=120, tricks=10, hand=True, ouvert=True)
    assert r.won and r.value == 8 * 12  # ... and ouvert
    assert [name for name, _ in r.multipliers] == [
        "with 1", "game", "hand", "schneider", "schneider announced", "schwarz", "schwarz announced", "ouvert",
    ]


def test_grand_base_value_is_24():
    assert score(G.GRAND, "CJ.SJ", points=70).value == 72


def test_lost_hand_game_counts_double_negative():
    r = score(G.SPADES, "CJ", points=50, hand=True)
    assert not r.won and r.game_value == 3 * 11 and r.value == -66


# ---- schneider and schwarz by either side ---------------------------------------------------


def test_defenders_schneider_counts_against_the_declarer():
    r = score(G.HEARTS, "CJ", points=30, tricks=2)
    assert not r.won and r.schneider and r.value == -2 * 3 * 10


def test_declarer_at_31_points_is_not_schneider():
    r = score(G.HEARTS, "CJ", points=31, tricks=2)
    assert not r.schneider and r.value == -2 * 2 * 10


def test_defenders_schwarz_counts_against_the_declarer():
    r = score(G.GRAND, "CJ", points=0, tricks=0)
    assert not r.won and r.schneider and r.schwarz and r.value == -2 * 4 * 24


def test_declarer_with_60_points_loses():
    assert not score(G.DIAMONDS, "CJ", points=60).won
    assert score(G.DIAMONDS, "CJ", points=61).won


# ---- announcements missed --------------------------------------------------------------------


def test_announced_schneider_missed_loses_with_the_announcement_counted():
    r = score(G.HEARTS, "CJ", points=85, tricks=7, hand=True, schneider=True)
    assert not r.won
    assert r.multiplier == 1 + 1 + 1 + 1 + 1  # with 1, game, hand, schneider, announced
    assert r.value == -2 * 5 * 10


def test_announced_schwarz_missed_loses():
    r = score(G.CLUBS, "CJ", points=110, tricks=9, hand=True, schwarz=True)
    assert not r.won and r.value == -2 * 7 * 12


# ---- overbid ---------------------------------------------------------------------------------


def test_overbid_suit_game_is_lost_at_the_smallest_multiple_reaching_the_bid():
    r = score(G.DIAMONDS, "CJ", points=75, bid=36)  # worth 18, bid 36
    assert r.overbid and not r.won and r.game_value == 36 and r.value == -72


def test_overbid_grand():
    r = score(G.GRAND, "CJ", points=80, bid=50)  # worth 48
    assert r.overbid and r.game_value == 72 and r.value == -144


def test_schneider_can_save_a_bid():
    r = score(G.DIAMONDS, "CJ", points=95, tricks=8, bid=27)  # with 1, game, schneider = 27
    assert r.won and not r.overbid and r.value == 27


def test_without_matadors_can_make_the_game_worth_less_than_the_bid():
    r = score(G.SPADES, "SJ.HJ", points=80, bid=40)  # without 1 = 22 < 40
    assert r.overbid and r.value == -2 * 44


@pytest.mark.parametrize(
    "flags, bid, expected",
    [({}, 24, -70), ({"hand": True}, 36, -92), ({"ouvert": True}, 48, -118)],
)
def test_overbid_null_takes_the_smallest_null_value_reaching_the_bid(flags, bid, expected):
    r = score(G.NULL, "", points=0, tricks=0, bid=bid, **flags)
    assert r.overbid and not r.won and r.value == expected


# ---- null values ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "flags, value",
    [({}, 23), ({"hand": True}, 35), ({"ouvert": True}, 46), ({"hand": True, "ouvert": True}, 59)],
)
def test_every_null_value_won_and_lost(flags, value):
    won = score(G.NULL, "", points=20, tricks=0, defender_tricks=10, **flags)
    assert won.won and won.value == value and won.matadors == 0
    lost = score(G.NULL, "", points=20, tricks=1, defender_tricks=2, **flags)
    assert not lost.won and lost.value == -2 * value


# ---- declarations ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "decl, reason",
    [
        (Declaration(G.CLUBS, schneider=True), "hand game"),
        (Declaration(G.GRAND, ouvert=True), "must be played hand"),
        (Declaration(G.NULL, hand=True, schneider=True), "null"),
    ],
)
def test_declarations_that_the_rules_forbid_say_why(decl, reason):
    assert reason in decl.problem()


def test_iss_declaration_codes_round_trip():
    for code in ["C", "D", "G", "N", "GH", "CHS", "SHZ", "NO", "NHO", "GO", "HHO"]:
        decl = Declaration.from_iss(code)
        assert Declaration.from_iss(decl.iss()) == decl
    assert Declaration.from_iss("GO").hand  # the server writes grand ouvert without H
    assert Declaration.from_iss("GO").schwarz_announced


def test_the_owner_s_win_rule_agrees_with_evaluate_on_scalars_and_arrays():
    import itertools

    import numpy as np

    from engine.scoring import Declaration, declarer_wins, score_game
    from engine.rules import GameType

    declarations = [Declaration(GameType.CLUBS), Declaration(GameType.GRAND, hand=True, schneider=True),
                    Declaration(GameType.SPADES, hand=True, schneider=True, schwarz=True),
                    Declaration(GameType.NULL), Declaration(GameType.HEARTS, hand=True, ouvert=True)]
    outcomes = [(points, tricks) for points, tricks in itertools.product(range(0, 121, 7), range(11))
                if (points == 0) <= (tricks == 0) and (points == 120) <= (tricks == 10)]
    for decl in declarations:
        points = np.array([p for p, _ in outcomes])
        tricks = np.array([t for _, t in outcomes])
        vector = declarer_wins(decl, points, tricks, 10 - tricks)
        for i, (p, t) in enumerate(outcomes):
            expected = score_game(0, decl, 18, 0, p, t, 10 - t).won
            assert bool(declarer_wins(decl, p, t, 10 - t)) == expected == bool(vector[i]), (decl, p, t)
        if decl.game != GameType.NULL:
            least_points, least_tricks = decl.least_win()
            assert least_points == decl.points_needed
            assert score_game(0, decl, 18, 0, least_points, least_tricks, 10 - least_tricks).won
