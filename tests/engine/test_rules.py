from engine.cards import Card, CardSet, mask_of
from engine.rules import BID_VALUES, CLASS_MASKS, GameType, legal_cards, next_bid, sorted_cards, trick_winner

LISTED_BIDS = (
    "18 20 22 23 24 27 30 33 35 36 40 44 45 46 48 50 54 55 59 60 63 66 70 72 77 80 81 84 88 90 96 99 100 "
    "108 110 117 120 121 126 130 132 135 140 143 144 150 153 154 156 160 162 165 168 170 176 180 187 192 "
    "198 204 216 240 264"
)


def test_generated_bid_ladder_matches_the_rulebook_list():
    assert BID_VALUES == tuple(int(v) for v in LISTED_BIDS.split())
    assert next_bid(0) == 18 and next_bid(18) == 20 and next_bid(264) is None


def cs(text):
    return CardSet.from_str(text).mask


def test_jacks_are_trump_in_suit_and_grand_but_belong_to_their_suit_in_null():
    hand = cs("HJ.H7.S8")
    # spades led in a hearts game: the jack of hearts is trump, only S8 follows
    assert legal_cards(hand, GameType.HEARTS, Card.SA) == cs("S8")
    # a heart led in hearts: trump led, the jack and H7 follow
    assert legal_cards(hand, GameType.HEARTS, Card.HA) == cs("HJ.H7")
    # grand: a jack led asks for jacks only
    assert legal_cards(hand, GameType.GRAND, Card.CJ) == cs("HJ")
    # null: hearts led, the jack of hearts is a heart
    assert legal_cards(hand, GameType.NULL, Card.HA) == cs("HJ.H7")
    # no card of the led suit: anything
    assert legal_cards(cs("S8.D7"), GameType.NULL, Card.HA) == cs("S8.D7")


def test_trick_winner_highest_trump_else_highest_of_the_led_suit():
    assert trick_winner(GameType.HEARTS, [Card.SA, Card.H7, Card.ST]) == 1  # trumped
    assert trick_winner(GameType.HEARTS, [Card.S7, Card.ST, Card.SA]) == 2
    assert trick_winner(GameType.GRAND, [Card.SA, Card.DJ, Card.CJ]) == 2  # jacks rank C S H D
    assert trick_winner(GameType.GRAND, [Card.ST, Card.SK, Card.HA]) == 0  # ten beats king; no trump
    assert trick_winner(GameType.NULL, [Card.ST, Card.SJ, Card.HA]) == 1  # null: J above 10
    assert trick_winner(GameType.CLUBS, [Card.CA, Card.DJ, Card.CT]) == 1  # any jack beats the trump ace


def test_every_card_belongs_to_exactly_one_follow_class():
    for game in GameType:
        masks = CLASS_MASKS[game]
        assert sum(m.bit_count() for m in masks) == 32
        assert mask_of(range(32)) == masks[0] | masks[1] | masks[2] | masks[3] | masks[4]
    assert CLASS_MASKS[GameType.GRAND][4] == cs("CJ.SJ.HJ.DJ")
    assert CLASS_MASKS[GameType.NULL][4] == 0
    assert CLASS_MASKS[GameType.SPADES][4].bit_count() == 11


def test_display_sort_puts_trumps_first_high_to_low():
    hand = cs("D7.HA.CJ.H7.DJ.SA")
    assert [str(c) for c in sorted_cards(hand, GameType.HEARTS)] == ["CJ", "DJ", "HA", "H7", "SA", "D7"]
    assert [str(c) for c in sorted_cards(hand, GameType.NULL)] == ["CJ", "HA", "H7", "SA", "DJ", "D7"]
