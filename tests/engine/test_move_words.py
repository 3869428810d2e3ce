"""One wording of moves (``engine.game.describe``) for the table, its hints, the replay and the review."""

from engine.cards import Card, CardSet
from engine.game import MOODS, Bid, Declare, Discard, Leave, Pass, PickUp, Play, Push, describe
from engine.rules import GameType
from engine.scoring import Declaration


def test_each_mood_words_taking_the_skat_one_way():
    assert [describe(PickUp(), mood=mood) for mood in MOODS] == ["takes the skat", "take the skat", "took the skat"]


def test_cards_and_games_are_named_as_the_table_names_them():
    two = CardSet.from_str("ST.H8")
    assert describe(Discard(two.mask)) == f"puts away {two.unicode()}"
    assert describe(Discard(None)) == "discards two cards"
    assert describe(Declare(Declaration(GameType.CLUBS, hand=True)), german=True, mood="imperative") == \
        "declare Kreuz hand"
    assert describe(Play(int(Card.from_str("HJ")))) == f"plays {Card.from_str('HJ').unicode()}"
    assert describe(Bid(20), mood="imperative") == "bid 20"
    assert describe(Leave(1, timeout=True)) == "ran out of time"


def test_a_ramsch_skat_round_has_its_own_words():
    assert describe(Pass(), skat_round=True) == "plays the Ramsch"
    assert describe(Discard(None), mood="past", skat_round=True) == "put two cards back"
    assert describe(Push(), mood="past", skat_round=True) == "pushed the skat on unseen"
    assert describe(Declare(Declaration(GameType.GRAND, hand=True)), skat_round=True) == "declares Grand hand instead"
