"""Bock rounds (house rule): which games are Bock games, how rounds stack, how both lists count them."""

import random

import pytest

from engine.cards import CardSet
from engine.game import Deal
from engine.house_rules import ISKO, PUB
from engine.players import RandomPlayer
from engine.rules import FOREHAND, MIDDLEHAND, GameType
from engine.scoring import Declaration, score_game
from engine.series import RoundGame, Series, bock_events, play_game

BOCK = ISKO.with_switches(kontra=True, bock=True)
BOCK_AND_RAMSCH_ROUNDS = ISKO.with_switches(ramsch=True, kontra=True, bock=True, ramsch_round_after_bock=True)
NAMES = ("ann", "bob", "cid")


def clubs(points, declarer=FOREHAND, kontra=None):
    """Clubs "with 1": worth 24 (lost: -48); 60 card points lose it 60:60."""
    tricks = (6, 4) if points > 60 else (4, 6)
    return score_game(declarer, Declaration(GameType.CLUBS), 18, 1 << 28, points, *tricks, kontra=kontra)


def grand_with_four():
    """Grand with 4, won: (4 + 1) x 24 = 120."""
    return score_game(FOREHAND, Declaration(GameType.GRAND), 18, CardSet.from_str("CJ.SJ.HJ.DJ").mask, 70, 7, 3)


def test_the_bock_events():
    assert bock_events(clubs(70)) == ()
    assert bock_events(None) == ()
    assert bock_events(clubs(70, kontra=MIDDLEHAND)) == ()  # won with Kontra: 48, no event
    assert bock_events(clubs(40, kontra=MIDDLEHAND)) == ("lost with Kontra",)
    assert bock_events(clubs(60)) == ("60:60",)
    assert bock_events(grand_with_four()) == ("game value 120",)
    # clubs with 1 lost after Kontra and Re: 96 is below 100, but the Kontra was lost
    assert clubs(40, kontra=MIDDLEHAND).game_value == 48


def test_a_worked_series_with_stacked_bock_rounds():
    series = Series(NAMES, rules=BOCK)
    assert series.next_game is None
    first = series.record(clubs(70))  # ann in forehand wins 24: no event
    assert not first.bock and series.coming_games == ()
    series.record(grand_with_four())  # bob wins 120: a Bock round follows
    assert series.coming_games == (RoundGame.BOCK,) * 3
    third = series.record(clubs(70))  # cid wins 24 in a Bock game: 48
    assert third.bock and third.scores() == ((0, 0, 48), (0, 0, 48 + 50))
    fourth = series.record(clubs(60))  # ann loses 60:60 in a Bock game: -96, and another round after the pending one
    assert fourth.bock and fourth.scores() == ((-96, 0, 0), (-96 - 50, 40, 40))
    assert series.coming_games == (RoundGame.BOCK,) * 4
    for _ in range(4):
        assert series.record(None).bock  # passed in: a game of the round all the same
    assert series.next_game is None and not series.record(clubs(70)).bock
    totals = series.totals()
    # the last game: cid in forehand wins 24
    assert [t.score for t in totals] == [24 - 96, 120, 48 + 24]
    assert [t.seeger_fabian for t in totals] == [74 - 146, 170 + 40, 98 + 40 + 74]


def test_a_game_meeting_two_events_brings_one_round():
    series = Series(NAMES, rules=BOCK)
    lost = score_game(FOREHAND, Declaration(GameType.GRAND), 18, CardSet.from_str("CJ.SJ.HJ.DJ").mask, 40, 3, 7,
                    kontra=MIDDLEHAND)
    assert bock_events(lost) == ("lost with Kontra", "game value 240")
    series.record(lost)
    assert series.coming_games == (RoundGame.BOCK,) * 3


def test_ramsch_rounds_follow_each_bock_round():
    series = Series(NAMES, rules=BOCK_AND_RAMSCH_ROUNDS)
    series.record(grand_with_four())
    assert series.coming_games == (RoundGame.BOCK,) * 3 + (RoundGame.RAMSCH,) * 3
    entries = [series.record(clubs(70)) for _ in range(6)]
    assert [(e.bock, e.ramsch_round) for e in entries] == [(True, False)] * 3 + [(False, True)] * 3
    assert series.next_game is None


def test_without_the_bock_rule_nothing_counts_double():
    for rules in (ISKO, ISKO.with_switches(kontra=True)):
        series = Series(NAMES, rules=rules)
        series.record(grand_with_four())
        assert series.coming_games == () and not series.record(clubs(60)).bock


def test_the_seeger_fabian_list_of_a_bock_game_at_a_table_of_four():
    series = Series(NAMES, table_size=4, rules=BOCK)
    series.record(grand_with_four())
    lost = series.record(clubs(40))  # bob in forehand loses 48, doubled
    assert lost.scores(4) == ((0, -96, 0), (30, -96 - 50, 30))


def test_a_series_rebuilt_from_its_results_knows_the_same_coming_games():
    # the table's save keeps the games and records their results again on loading
    rng = random.Random(3)
    series = Series(NAMES, rules=PUB)
    players = [RandomPlayer(i) for i in range(3)]
    results = []
    for _ in range(30):
        seats = series.seats_for(series.next_dealer)
        result = play_game(Deal.shuffled(rng), [players[p] for p in seats], rules=PUB).result()
        results.append(result)
        series.record(result)
    assert any(e.bock for e in series.entries)
    again = Series(NAMES, rules=PUB)
    for result in results:
        again.record(result)
    assert again.entries == series.entries and again.coming_games == series.coming_games
    assert again.totals() == series.totals()


def test_rules_must_be_house_rules():
    with pytest.raises(TypeError, match="HouseRules"):
        Series(NAMES, rules="pub")


# ---- the Bock marker in records and replay --json ---------------------------------------------------


def bock_game_record(bock):
    from engine.record import GameRecord

    state = play_game(Deal.shuffled(8), [RandomPlayer(i) for i in range(3)], rules=BOCK)
    return GameRecord.from_state(state, id="8", bock=bock)


def test_a_bock_game_is_marked_in_its_record_and_in_replay_json():
    from engine.record import format_record, parse_record, summary

    text = format_record(bock_game_record(True))
    assert "HR[kontra,bock]BK[1]" in text
    again = parse_record(text)
    assert again.bock and format_record(again) == text
    assert summary(again)["bock"] is True
    plain = parse_record(format_record(bock_game_record(False)))
    assert "BK[" not in format_record(plain) and summary(plain)["bock"] is False


def test_a_bad_bock_marker_is_refused_naming_the_field():
    from engine.record import RecordError, format_record, parse_record

    text = format_record(bock_game_record(True)).replace("BK[1]", "BK[yes]")
    with pytest.raises(RecordError, match="Bock marker") as info:
        parse_record(text, 2)
    assert info.value.field == "BK"
