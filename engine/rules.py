"""Game types and the rules of trick play: trumps, following, trick winner.

Everything here is a pure function of the game type and card masks, and the
per-game-type tables (``CLASS_OF``, ``STRENGTH``, ``CLASS_MASKS``) are what the
fast core copies into arrays; ``tests/engine/test_rules.py`` pins the copies.
"""

from __future__ import annotations

import enum

from .cards import Card, Mask, Rank, Suit

FOREHAND, MIDDLEHAND, REARHAND = 0, 1, 2
SEAT_NAMES = ("forehand", "middlehand", "rearhand")
"""The seats of one game by number, in a sentence; ``SEAT_TITLES`` as a heading or a name."""
SEAT_TITLES = tuple(name.capitalize() for name in SEAT_NAMES)

TRUMP_CLASS = 4
"""Follow class of trumps; classes 0..3 are the plain suits (``Suit`` values)."""


class GameType(enum.IntEnum):
    DIAMONDS = 0
    HEARTS = 1
    SPADES = 2
    CLUBS = 3
    GRAND = 4
    NULL = 5

    @property
    def is_suit(self) -> bool:
        return self <= GameType.CLUBS

    @property
    def trump_suit(self) -> Suit | None:
        return Suit(self) if self.is_suit else None

    @property
    def base_value(self) -> int:
        """Base value of a suit or grand game (null games have fixed values)."""
        return (9, 10, 11, 12, 24, 23)[self]

    @property
    def letter(self) -> str:
        """ISS declaration letter: D H S C G N."""
        return "DHSCGN"[self]

    @property
    def symbol(self) -> str:
        return ("♦", "♥", "♠", "♣", "Grand", "Null")[self]

    @property
    def label(self) -> str:
        return ("Diamonds", "Hearts", "Spades", "Clubs", "Grand", "Null")[self]

    @classmethod
    def from_letter(cls, letter: str) -> GameType:
        index = "DHSCGN".find(letter.upper())
        if index < 0 or len(letter) != 1:
            raise ValueError(f"not a game type: {letter!r} (expected one of D H S C G N)")
        return cls(index)


# Rank order of plain suit cards in suit and grand games, low to high.
_TRUMP_GAME_SUIT_ORDER = (Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.QUEEN, Rank.KING, Rank.TEN, Rank.ACE)
_JACK_ORDER = (Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, Suit.CLUBS)
TRUMP_OFFSET = 16
"""Strength added to trumps so that any trump beats any plain card."""


def _class_of(game: GameType, card: int) -> int:
    suit, rank = card >> 3, card & 7
    if game == GameType.NULL:
        return suit
    if rank == Rank.JACK or (game.is_suit and suit == game):
        return TRUMP_CLASS
    return suit


def _strength(game: GameType, card: int) -> int:
    suit, rank = card >> 3, card & 7
    if game == GameType.NULL:
        return rank
    if rank == Rank.JACK:
        return TRUMP_OFFSET + 7 + _JACK_ORDER.index(Suit(suit))
    order = _TRUMP_GAME_SUIT_ORDER.index(Rank(rank))
    if game.is_suit and suit == game:
        return TRUMP_OFFSET + order
    return order


CLASS_OF: tuple[tuple[int, ...], ...] = tuple(tuple(_class_of(g, c) for c in range(32)) for g in GameType)
"""CLASS_OF[game][card]: the follow class (0..3 plain suit, 4 trump)."""

STRENGTH: tuple[tuple[int, ...], ...] = tuple(tuple(_strength(g, c) for c in range(32)) for g in GameType)
"""STRENGTH[game][card]: higher wins within a class; trumps are >= TRUMP_OFFSET."""

CLASS_MASKS: tuple[tuple[Mask, ...], ...] = tuple(
    tuple(sum(1 << c for c in range(32) if CLASS_OF[g][c] == k) for k in range(5)) for g in GameType
)
"""CLASS_MASKS[game][class]: all cards of that follow class."""


def void_classes(game: GameType, tricks, trick: tuple[int, ...], trick_leader: int) -> tuple[int, int, int]:
    """Per seat, a bit mask of the follow classes (0..3 plain suits, 4 trump)
    that seat has shown void in: it did not follow a card of that class.

    ``tricks``: completed tricks (objects with ``leader`` and ``cards``);
    ``trick``: cards of the current trick, led by ``trick_leader``.
    """
    voids = [0, 0, 0]
    classes = CLASS_OF[game]
    for leader, cards in [(t.leader, t.cards) for t in tricks] + [(trick_leader, trick)]:
        if not cards:
            continue
        led = classes[cards[0]]
        for i in range(1, len(cards)):
            if classes[cards[i]] != led:
                voids[(leader + i) % 3] |= 1 << led
    return (voids[0], voids[1], voids[2])


def void_cards(game: GameType, classes: int) -> Mask:
    """All cards of the follow classes in the bit mask ``classes`` (as ``void_classes`` gives)."""
    cards = 0
    for k in range(5):
        if classes >> k & 1:
            cards |= CLASS_MASKS[game][k]
    return cards


def trump_mask(game: GameType) -> Mask:
    return CLASS_MASKS[game][TRUMP_CLASS]


def is_trump(game: GameType, card: int) -> bool:
    return CLASS_OF[game][card] == TRUMP_CLASS


def follow_mask(game: GameType, led: int) -> Mask:
    """The cards that follow the led card (its suit, or all trumps)."""
    return CLASS_MASKS[game][CLASS_OF[game][led]]


def legal_cards(hand: Mask, game: GameType, led: int | None) -> Mask:
    """Cards of ``hand`` that may be played to a trick whose first card is ``led``."""
    if led is None:
        return hand
    following = hand & follow_mask(game, led)
    return following if following else hand


def trick_winner(game: GameType, cards: tuple[int, ...] | list[int]) -> int:
    """Index (0 = the lead) of the card that wins the trick."""
    led_class = CLASS_OF[game][cards[0]]
    best, best_key = 0, -1
    for i, card in enumerate(cards):
        cls = CLASS_OF[game][card]
        if cls == TRUMP_CLASS or cls == led_class:
            key = STRENGTH[game][card]
            if key > best_key:
                best, best_key = i, key
    return best


def describe_class(game: GameType, led: int) -> str:
    """Human name of the class a led card asks for: '♠' or 'trump'."""
    cls = CLASS_OF[game][led]
    return "trump" if cls == TRUMP_CLASS else Suit(cls).symbol


# Display order of suits: alternate colours (♣ ♥ ♠ ♦), as players sort a hand.
_DISPLAY_SUIT_ORDER = (Suit.CLUBS, Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS)


def sort_key(game: GameType | None):
    """Key for sorting a hand for display: trumps first, then suits, high to low.

    Before a game is declared, hands sort as in grand (jacks first).
    """
    g = GameType.GRAND if game is None else game

    def key(card: int) -> tuple[int, int]:
        cls = CLASS_OF[g][card]
        group = 0 if cls == TRUMP_CLASS else 1 + _DISPLAY_SUIT_ORDER.index(Suit(cls))
        return (group, -STRENGTH[g][card])

    return key


def sorted_cards(mask: Mask, game: GameType | None) -> list[Card]:
    from .cards import cards_of

    return sorted(cards_of(mask), key=sort_key(game))


# Null game values: plain, hand, ouvert, ouvert hand.
NULL_VALUES = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}

MAX_SUIT_MULTIPLIER = 11 + 7  # 11 matadors + game, hand, schneider, announced, schwarz, announced, ouvert
MAX_GRAND_MULTIPLIER = 4 + 7


def _bid_values() -> tuple[int, ...]:
    values = set(NULL_VALUES.values())
    for suit_game in (GameType.DIAMONDS, GameType.HEARTS, GameType.SPADES, GameType.CLUBS):
        values.update(suit_game.base_value * m for m in range(2, MAX_SUIT_MULTIPLIER + 1))
    values.update(GameType.GRAND.base_value * m for m in range(2, MAX_GRAND_MULTIPLIER + 1))
    return tuple(sorted(v for v in values if v >= 18))


BID_VALUES: tuple[int, ...] = _bid_values()
"""Every legal bid, generated from the values a game can have: 18, 20, ... 264."""


def next_bid(current: int) -> int | None:
    """The smallest legal bid above ``current`` (0 = nothing bid yet)."""
    for value in BID_VALUES:
        if value > current:
            return value
    return None

