import pytest

from engine.cards import FULL_DECK, Card, CardSet, Rank, Suit, cards_of, points_of


def test_every_card_round_trips_in_iss_and_unicode():
    for card in Card:
        assert Card.from_str(str(card)) is card
        assert Card.from_str(card.unicode()) is card
        assert eval(repr(card)) is card


def test_card_layout_is_suit_times_eight_plus_rank():
    assert Card.make(Suit.CLUBS, Rank.JACK) is Card.CJ
    assert Card.CJ == 3 * 8 + 4
    assert Card.HT.suit is Suit.HEARTS and Card.HT.rank is Rank.TEN
    assert Card.from_str("♥10") is Card.HT
    assert Card.from_str("H10") is Card.HT
    assert Card.SA.unicode() == "♠A"
    assert Card.CJ.unicode(german=True) == "♣B"


def test_the_deck_holds_120_points():
    assert points_of(FULL_DECK) == 120
    assert [c.points for c in (Card.DA, Card.DT, Card.DK, Card.DQ, Card.DJ, Card.D9)] == [11, 10, 4, 3, 2, 0]


def test_card_set_round_trips_and_rejects_duplicates():
    cards = CardSet.from_str("CJ.SJ.HA.D7")
    assert len(cards) == 4 and Card.HA in cards and Card.HK not in cards
    assert CardSet.from_str(str(cards)) == cards
    assert eval(repr(cards)) == cards
    assert list(cards_of(cards.mask)) == sorted(cards)
    with pytest.raises(ValueError, match="twice"):
        CardSet.from_str("CJ.CJ")


@pytest.mark.parametrize("bad", ["", "X7", "C1", "CJJ", "♣11"])
def test_bad_card_text_is_refused_with_the_expected_form(bad):
    with pytest.raises(ValueError, match="not a card"):
        Card.from_str(bad)
