"""Cards and card sets.

A card is an int 0..31: ``suit * 8 + rank``, with suits ordered
diamonds < hearts < spades < clubs (their base values 9, 10, 11, 12) and ranks
in their natural (null) order 7 8 9 10 J Q K A.  A set of cards is a 32-bit
mask with bit ``card`` set; the fast core (solver, playouts) works on the same
masks, so no conversion is needed at that boundary.

Cards print in the notation of the International Skat Server (``CJ``, ``HT``,
``D7``) with ``str()`` and in Unicode (``♣J``, ``♥10``) with ``unicode()``;
``Card.from_str`` reads either.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from typing import TypeAlias

Mask: TypeAlias = int
"""A set of cards as a 32-bit mask (bit n = card n)."""

FULL_DECK: Mask = (1 << 32) - 1


class Suit(enum.IntEnum):
    DIAMONDS = 0
    HEARTS = 1
    SPADES = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "DHSC"[self]

    @property
    def symbol(self) -> str:
        return "♦♥♠♣"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def mask(self) -> Mask:
        """All eight cards printed with this suit (its jack included)."""
        return 0xFF << (8 * self)

    @classmethod
    def from_str(cls, text: str) -> Suit:
        for suit in cls:
            if text in (suit.letter, suit.symbol, suit.name.lower(), suit.letter.lower()):
                return suit
        raise ValueError(f"not a suit: {text!r} (expected one of C S H D or ♣ ♠ ♥ ♦)")


class Rank(enum.IntEnum):
    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7

    @property
    def letter(self) -> str:
        """ISS letter: 7 8 9 T J Q K A."""
        return "789TJQKA"[self]

    @property
    def label(self) -> str:
        """Display label with French/English names: 7 8 9 10 J Q K A."""
        return ("7", "8", "9", "10", "J", "Q", "K", "A")[self]

    @property
    def german_label(self) -> str:
        """Display label with German names: 7 8 9 10 B D K A."""
        return ("7", "8", "9", "10", "B", "D", "K", "A")[self]

    @property
    def points(self) -> int:
        return RANK_POINTS[self]

    @classmethod
    def from_str(cls, text: str) -> Rank:
        aliases = {"10": Rank.TEN, "B": Rank.JACK, "D": Rank.QUEEN}
        if text in aliases:
            return aliases[text]
        for rank in cls:
            if text.upper() == rank.letter:
                return rank
        raise ValueError(f"not a rank: {text!r} (expected one of 7 8 9 T/10 J Q K A)")


RANK_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)

GERMAN_SUIT_NAMES = {Suit.CLUBS: "Kreuz", Suit.SPADES: "Pik", Suit.HEARTS: "Herz", Suit.DIAMONDS: "Karo"}


class Card(enum.IntEnum):
    """One of the 32 cards; its value is its bit index in a card mask."""

    D7 = 0
    D8 = 1
    D9 = 2
    DT = 3
    DJ = 4
    DQ = 5
    DK = 6
    DA = 7
    H7 = 8
    H8 = 9
    H9 = 10
    HT = 11
    HJ = 12
    HQ = 13
    HK = 14
    HA = 15
    S7 = 16
    S8 = 17
    S9 = 18
    ST = 19
    SJ = 20
    SQ = 21
    SK = 22
    SA = 23
    C7 = 24
    C8 = 25
    C9 = 26
    CT = 27
    CJ = 28
    CQ = 29
    CK = 30
    CA = 31

    # tuple lookups: calling an enum class costs about ten times as much
    @classmethod
    def make(cls, suit: Suit, rank: Rank) -> Card:
        return ALL_CARDS[suit * 8 + rank]

    @property
    def suit(self) -> Suit:
        return _SUIT_BY_INDEX[self >> 3]

    @property
    def rank(self) -> Rank:
        return _RANK_BY_INDEX[self & 7]

    @property
    def points(self) -> int:
        return RANK_POINTS[self & 7]

    @property
    def bit(self) -> Mask:
        return 1 << self

    @property
    def is_jack(self) -> bool:
        return (self & 7) == Rank.JACK

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Card.{self.name}"

    def unicode(self, german: bool = False) -> str:
        label = self.rank.german_label if german else self.rank.label
        return self.suit.symbol + label

    @classmethod
    def from_str(cls, text: str) -> Card:
        """Read ``CJ``/``HT``/``D7`` (ISS) or ``♣J``/``♥10``/``H10``."""
        known = _CARD_BY_TEXT.get(text)
        if known is not None:
            return known
        text = text.strip()
        if len(text) < 2:
            raise ValueError(f"not a card: {text!r}")
        try:
            return cls.make(Suit.from_str(text[0]), Rank.from_str(text[1:]))
        except ValueError:
            raise ValueError(f"not a card: {text!r} (expected e.g. CJ, HT, D7 or ♣J, ♥10)") from None


ALL_CARDS: tuple[Card, ...] = tuple(Card)
"""In index order: ALL_CARDS[i] is Card(i), without the enum call (ten times slower)."""
_SUIT_BY_INDEX = tuple(sorted(Suit))
_RANK_BY_INDEX = tuple(sorted(Rank))
_CARD_BY_TEXT: dict[str, Card] = {}
for _card in ALL_CARDS:
    _CARD_BY_TEXT[_card.name] = _card
    _CARD_BY_TEXT[_card.unicode()] = _card
JACKS: Mask = sum(1 << (s * 8 + Rank.JACK) for s in range(4))

CARD_POINTS: tuple[int, ...] = tuple(RANK_POINTS[c & 7] for c in range(32))


def mask_of(cards: Iterable[int]) -> Mask:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


_BYTE_POINTS = tuple(sum(CARD_POINTS[b] for b in range(8) if v >> b & 1) for v in range(256))
"""Points of the cards in each byte of a mask (one suit), which is the same in every suit."""


def cards_of(mask: Mask) -> Iterator[Card]:
    """The cards of a mask in index order."""
    while mask:
        low = mask & -mask
        yield ALL_CARDS[low.bit_length() - 1]
        mask ^= low


def points_of(mask: Mask) -> int:
    return (_BYTE_POINTS[mask & 0xFF] + _BYTE_POINTS[(mask >> 8) & 0xFF] + _BYTE_POINTS[(mask >> 16) & 0xFF]
            + _BYTE_POINTS[(mask >> 24) & 0xFF])


def count(mask: Mask) -> int:
    return mask.bit_count()


class CardSet:
    """An immutable set of cards over a 32-bit mask.

    Iterates in index order; ``str()`` gives ISS notation joined by dots
    (``CJ.SJ.HA``), which ``CardSet.from_str`` reads back.
    """

    __slots__ = ("mask",)

    def __init__(self, cards: Iterable[int] | Mask = 0) -> None:
        if isinstance(cards, int):
            if not 0 <= cards <= FULL_DECK:
                raise ValueError(f"card mask out of range: {cards:#x}")
            self.mask = cards
        else:
            self.mask = mask_of(cards)

    @classmethod
    def from_str(cls, text: str) -> CardSet:
        text = text.strip()
        if not text:
            return cls(0)
        parts = text.replace(",", ".").replace(" ", ".").split(".")
        cards = [Card.from_str(p) for p in parts if p]
        result = cls(cards)
        if len(result) != len(cards):
            raise ValueError(f"card set lists a card twice: {text!r}")
        return result

    def __iter__(self) -> Iterator[Card]:
        return cards_of(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 32 and bool(self.mask >> card & 1)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __bool__(self) -> bool:
        return self.mask != 0

    @property
    def points(self) -> int:
        return points_of(self.mask)

    def __str__(self) -> str:
        return ".".join(c.name for c in self)

    def __repr__(self) -> str:
        return f"CardSet.from_str({str(self)!r})"

    def unicode(self, german: bool = False) -> str:
        return " ".join(c.unicode(german) for c in self)
