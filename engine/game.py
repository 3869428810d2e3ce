"""The state machine of one game: deal, bidding, skat, declaration, play, result.

``GameState`` is used both for the full (omniscient) state and for what one seat
may know (``state.view(seat)``): in a view the other hands are unknown and only
their sizes are kept.  Moves are applied with ``push()`` and undone with
``pop()`` on either; ``visible_move(move, seat)`` gives the form of a move that
a seat is allowed to see, so a view kept up to date move by move equals the
view taken afresh from the full state.

Seats are relative to the dealer: 0 forehand, 1 middlehand, 2 rearhand.
"""

from __future__ import annotations

import enum
import operator
import random
from collections.abc import Iterable
from dataclasses import dataclass

from .cards import ALL_CARDS, CARD_POINTS, FULL_DECK, Card, CardSet, Mask, cards_of, mask_of, points_of
from .house_rules import ISKO, HouseRules
from .rules import (
    BID_VALUES,
    FOREHAND,
    MIDDLEHAND,
    REARHAND,
    SEAT_NAMES,
    GameType,
    describe_class,
    follow_mask,
    legal_cards,
    next_bid,
    trick_winner,
)
from .scoring import Declaration, GameEnd, GameResult, RamschResult, score_game, null_value, ramsch_result


class IllegalMoveError(ValueError):
    """A move that the rules do not allow here; the message says why.

    The cards and the game a message names are kept apart from its words
    (``template`` with ``{name}`` fields, ``parts``), so ``describe(german=True)``
    can name them with German ranks and suits; ``str()`` is the English text."""

    def __init__(self, template: str, **parts: Card | CardSet | Declaration | Wording) -> None:
        self.template = template
        self.parts = parts
        super().__init__(self.describe())

    def describe(self, german: bool = False) -> str:
        if not self.parts:
            return self.template
        return self.template.format(**{name: _name_of(part, german) for name, part in self.parts.items()})


@dataclass(frozen=True)
class Wording:
    """A part of a message that names cards or games, in English and with German names."""

    english: str
    german: str

    def describe(self, german: bool = False) -> str:
        return self.german if german else self.english


def _name_of(part: Card | CardSet | Declaration | Wording, german: bool) -> str:
    if isinstance(part, (Declaration, Wording)):
        return part.describe(german)
    return part.unicode(german) or "none"


def _index(value: object) -> int | None:
    """``value`` as a plain int if it is an integer (numpy's too), else None.

    Bools, floats and strings are not integers here: ``Bid(18.0)`` or
    ``Play(True)`` is a caller's mistake, not a move.
    """
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def _shown(move: object) -> str:
    """A move as the messages name it; a malformed one may not print itself."""
    try:
        return str(move)
    except Exception:
        return repr(move)


def _checked_seat(value: object, move: object) -> int:
    seat = _index(value)
    if seat is None or not 0 <= seat <= 2:
        raise IllegalMoveError(f"{type(move).__name__} names seat {value!r}; the seats are 0, 1 and 2")
    return seat


def _checked_card(value: object) -> Card:
    index = _index(value)
    if index is None or not 0 <= index < 32:
        raise IllegalMoveError(f"not a card: {value!r} (a card is a Card or its index 0-31)")
    return ALL_CARDS[index]


def _checked_mask(value: object, what: str) -> Mask:
    mask = _index(value)
    if mask is None or not 0 <= mask <= FULL_DECK:
        raise IllegalMoveError(f"{what} is not a set of cards: {value!r} (a 32-bit card mask)")
    return mask


def _checked_declaration(value: object) -> Declaration:
    if not isinstance(value, Declaration) or not isinstance(value.game, GameType) or not all(
        type(flag) is bool for flag in (value.hand, value.schneider, value.schwarz, value.ouvert)
    ):
        raise IllegalMoveError(f"not a declaration: {value!r} (a Declaration of a GameType with bool flags)")
    return value


class Phase(enum.Enum):
    BIDDING = "bidding"
    SKAT = "skat"  # the declarer decides: take the skat or play hand
    DISCARD = "discard"  # the declarer took the skat and must put two cards away
    DECLARE = "declare"
    PLAY = "play"
    FINISHED = "finished"  # played to the end, resigned, or abandoned
    PASSED = "passed"  # all three passed
    RAMSCH_SKAT = "ramsch_skat"  # all passed into a Ramsch: each seat in turn pushes, picks up or escapes
    RAMSCH_DISCARD = "ramsch_discard"  # a seat that picked the Ramsch skat up puts two cards back


# ---------------------------------------------------------------- moves


@dataclass(frozen=True)
class Bid:
    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Hold:
    """Forehand (or the survivor) accepts the bid: "yes"."""

    def __str__(self) -> str:
        return "y"


@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "p"


@dataclass(frozen=True)
class PickUp:
    """The declarer takes the skat.  ``skat`` is filled in for whoever may see it."""

    skat: Mask | None = None

    def __str__(self) -> str:
        return "s"


@dataclass(frozen=True)
class Discard:
    """The declarer puts two cards away (``None`` where the seat may not see them)."""

    cards: Mask | None

    def __str__(self) -> str:
        return str(CardSet(self.cards)) if self.cards is not None else "??.??"


@dataclass(frozen=True)
class Declare:
    declaration: Declaration
    revealed: Mask | None = None
    """The declarer's hand in an ouvert game, shown to everyone."""

    def __str__(self) -> str:
        return self.declaration.iss()


@dataclass(frozen=True)
class Push:
    """Schieben, in a Ramsch's skat round: pass the skat on unseen, doubling the game."""

    def __str__(self) -> str:
        return "push"


@dataclass(frozen=True)
class Play:
    card: Card

    def __post_init__(self) -> None:
        # players compute cards as plain ints (masks, the numba core); the move holds a Card,
        # and anything that is not a card index is refused like any illegal move
        if type(self.card) is not Card:
            object.__setattr__(self, "card", _checked_card(self.card))

    def __str__(self) -> str:
        return str(self.card)


@dataclass(frozen=True)
class Resign:
    """RE: the declarer gives up, or a defender concedes (both must, to end the game)."""

    seat: int

    def __str__(self) -> str:
        return "RE"


@dataclass(frozen=True)
class Kontra:
    """House rule: a defender doubles the game value, at his turn before his first card.

    Said by the seat to move; it stays that seat's turn to play a card."""

    def __str__(self) -> str:
        return KONTRA_TOKEN


@dataclass(frozen=True)
class Re:
    """House rule: the declarer answers a Kontra, doubling again, at his first turn after it.

    Said by the seat to move; it stays that seat's turn to play a card."""

    def __str__(self) -> str:
        return RE_TOKEN


KONTRA_TOKEN = "KO"
"""Kontra in records and ``parse_iss`` (an extension of the ISS format, see ``docs/house-rules.md``)."""
RE_TOKEN = "RK"
"""Re in records: not ``RE``, which is the ISS's resignation."""


@dataclass(frozen=True)
class ShowCards:
    """SC: a player lays their cards open, claiming the rest; the game goes on
    until the other side resigns."""

    seat: int

    def __str__(self) -> str:
        return "SC"


@dataclass(frozen=True)
class Leave:
    """A player left the table (LE) or ran out of time (TI)."""

    seat: int
    timeout: bool = False

    def __str__(self) -> str:
        return f"{'TI' if self.timeout else 'LE'}.{self.seat}"


Move = Bid | Hold | Pass | PickUp | Discard | Declare | Push | Play | Kontra | Re | Resign | ShowCards | Leave


MOODS = ("present", "imperative", "past")
"""How ``describe`` words a move: what a seat does ('takes the skat'), a hint ('take the
skat'), what a seat did ('took the skat')."""

_WORDS: dict[type, tuple[str, str, str]] = {
    Bid: ("bids {value}", "bid {value}", "bid {value}"),
    Hold: ("holds", "hold", "held"),
    Pass: ("passes", "pass", "passed"),
    PickUp: ("takes the skat", "take the skat", "took the skat"),
    Discard: ("puts away {cards}", "put away {cards}", "put away {cards}"),
    Declare: ("declares {game}", "declare {game}", "declared {game}"),
    Push: ("pushes the skat on unseen", "push the skat on unseen", "pushed the skat on unseen"),
    Play: ("plays {card}", "play {card}", "played {card}"),
    Kontra: ("says Kontra", "say Kontra", "said Kontra"),
    Re: ("says Re", "say Re", "said Re"),
    Resign: ("resigns", "resign", "resigned"),
    ShowCards: ("shows their cards", "show your cards", "showed their cards"),
}
_SKAT_ROUND_WORDS: dict[type, tuple[str, str, str]] = {
    Pass: ("plays the Ramsch", "play the Ramsch", "played the Ramsch"),
    Discard: ("puts {cards} back", "put {cards} back", "put {cards} back"),
    Declare: ("declares {game} instead", "declare {game} instead", "declared {game} instead"),
}
"""The words that differ in a Ramsch's skat round: passing plays the Ramsch, the two cards
go back into the skat, a Grand Hand is declared instead of the Ramsch."""
_HIDDEN_DISCARD = ("discards two cards", "discard two cards", "discarded two cards")
"""A discard whose cards the seat may not see."""


def describe(move: Move, german: bool = False, mood: str = "present", skat_round: bool = False) -> str:
    """The one wording of a move, for the table, its hints, its replay and the review:
    'takes the skat', 'puts away ♠10 ♥8', 'declares Clubs hand', 'plays ♥J' (``mood``,
    one of ``MOODS``: 'take the skat', 'took the skat'); ``german`` names cards and games
    in German, ``skat_round``: the move is made in a Ramsch's skat round (Schieben)."""
    which = MOODS.index(mood)
    if isinstance(move, Leave):
        return ("ran out of time" if move.timeout else "left the table") if which != 1 else "leave the table"
    words = (_SKAT_ROUND_WORDS.get(type(move)) if skat_round else None) or _WORDS.get(type(move))
    if words is None:
        return str(move)
    text = words[which]
    if isinstance(move, Discard):
        if move.cards is None:  # as another seat sees it
            return text.format(cards="two cards") if skat_round else _HIDDEN_DISCARD[which]
        return text.format(cards=CardSet(move.cards).unicode(german))
    if isinstance(move, Declare):
        return text.format(game=move.declaration.describe(german))
    if isinstance(move, Play):
        return text.format(card=Card(move.card).unicode(german))  # players may hand back a plain int
    if isinstance(move, Bid):
        return text.format(value=move.value)
    return text


@dataclass(frozen=True)
class Outcome:
    """How a finished game came out."""

    end: GameEnd
    result: GameResult | RamschResult | None
    """The scored game (a RamschResult for a Ramsch); None when it was passed in,
    or abandoned before a declaration or during a Ramsch."""
    left_seat: int | None = None
    """The seat that left or ran out of time, when that ended the game."""

    @property
    def passed_in(self) -> bool:
        return self.end == GameEnd.PASSED


# ---------------------------------------------------------------- dealing


@dataclass(frozen=True)
class Deal:
    """Ten cards for each seat and the two-card skat."""

    hands: tuple[Mask, Mask, Mask]
    skat: Mask

    def __post_init__(self) -> None:
        sizes = [h.bit_count() for h in self.hands] + [self.skat.bit_count()]
        union = self.hands[0] | self.hands[1] | self.hands[2] | self.skat
        if sizes != [10, 10, 10, 2] or union != FULL_DECK:
            raise ValueError("a deal needs 10 cards per seat and 2 in the skat, 32 different cards")

    @classmethod
    def from_order(cls, order: list[int] | tuple[int, ...]) -> Deal:
        """From 32 cards in ISS order: forehand's 10, middlehand's 10, rearhand's 10, skat."""
        if len(order) != 32 or len(set(order)) != 32:
            raise ValueError("a deal lists 32 different cards")
        return cls((mask_of(order[0:10]), mask_of(order[10:20]), mask_of(order[20:30])), mask_of(order[30:32]))

    @classmethod
    def shuffled(cls, seed: int | random.Random) -> Deal:
        """A reproducible deal: shuffle, then give 3 each, 2 to the skat, 4 each, 3 each."""
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        deck = list(range(32))
        rng.shuffle(deck)
        hands: list[list[int]] = [[], [], []]
        skat: list[int] = []
        pos = 0
        for packet in (3, "skat", 4, 3):
            if packet == "skat":
                skat = deck[pos:pos + 2]
                pos += 2
                continue
            for seat in range(3):
                hands[seat].extend(deck[pos:pos + packet])
                pos += packet
        return cls((mask_of(hands[0]), mask_of(hands[1]), mask_of(hands[2])), mask_of(skat))

    def order(self) -> list[Card]:
        """32 cards in ISS order (each hand in index order)."""
        return [c for h in (*self.hands, self.skat) for c in cards_of(h)]

    def __str__(self) -> str:
        return " | ".join(str(CardSet(h)) for h in (*self.hands, self.skat))


# ---------------------------------------------------------------- the state


@dataclass(frozen=True)
class Trick:
    leader: int
    cards: tuple[Card, ...]
    winner: int

    @property
    def points(self) -> int:
        return sum(CARD_POINTS[c] for c in self.cards)

    def seat_of(self, index: int) -> int:
        return (self.leader + index) % 3


_LIST_FIELDS = ("hands", "hand_sizes", "points", "trick_counts")
_SNAPSHOT_FIELDS = (
    "phase", "hands", "hand_sizes", "skat", "skat_known", "discard", "skat_taken",
    "bid", "bid_stage", "bidder", "listener", "awaiting_listener", "out", "bid_history", "declarer",
    "declaration", "leader", "trick", "tricks", "points", "trick_counts", "resigned", "shown", "end",
    "left_seat", "revealed", "moves", "ramsch", "ramsch_turn", "pushes", "skat_holder", "kontra", "kontra_at", "re",
)


class GameState:
    """One game of Skat.  Create with ``GameState.new(deal)``; see the module doc."""

    def __init__(self) -> None:
        self.rules: HouseRules = ISKO
        """The rules this game is played by; fixed for the game, carried by copies and views."""
        self.perspective: int | None = None
        """None for the full state; a seat for that seat's view."""
        self.deal: Deal | None = None
        """The deal; None in a view."""
        self.phase = Phase.BIDDING
        self.hands: list[Mask] = [0, 0, 0]
        """Known cards of each hand (in a view: own hand, and the declarer's in ouvert)."""
        self.hand_sizes = [10, 10, 10]
        self.skat: Mask = 0
        self.skat_known = False
        self.discard: Mask = 0
        self.skat_taken = False
        # bidding
        self.bid = 0
        self.bid_stage = 0  # 0: middlehand bids to forehand; 1: rearhand to the survivor; 2: forehand alone
        self.bidder = MIDDLEHAND
        self.listener = FOREHAND
        self.awaiting_listener = False
        self.out: frozenset[int] = frozenset()
        self.bid_history: tuple[tuple[int, Move], ...] = ()
        self.declarer: int | None = None
        self.declaration: Declaration | None = None
        # play
        self.leader = FOREHAND
        self.trick: tuple[Card, ...] = ()
        self.tricks: tuple[Trick, ...] = ()
        self.points = [0, 0, 0]
        self.trick_counts = [0, 0, 0]
        self.resigned: frozenset[int] = frozenset()
        self.shown: frozenset[int] = frozenset()
        self.end: GameEnd | None = None
        self.left_seat: int | None = None
        self.revealed = False
        # Kontra and Re (house rule)
        self.kontra: int | None = None
        """The defender who said Kontra, or None."""
        self.kontra_at = 0
        """How many cards had been played when Kontra was said."""
        self.re = False
        self.moves: tuple[tuple[int, Move], ...] = ()
        """Every move with the seat that made it, in order."""
        # Ramsch (docs/house-rules.md)
        self.ramsch = False
        """All three passed with Ramsch on (stays true if a Grand Hand escape follows)."""
        self.ramsch_turn: int | None = None
        """The seat deciding in the Ramsch skat round."""
        self.pushes = 0
        """How often the Ramsch skat was pushed on unseen."""
        self.skat_holder: int | None = None
        """The seat that put the Ramsch skat back and so knows it, until the next pick-up."""
        self._stack: list[tuple] = []
        self._result: GameResult | None = None

    # ------------------------------------------------------------ creation

    @classmethod
    def new(cls, deal: Deal, rules: HouseRules = ISKO) -> GameState:
        """The state right after ``deal``, played by ``rules`` (the International Skat Order unless given)."""
        if not isinstance(rules, HouseRules):
            raise TypeError(f"rules are a HouseRules, not {type(rules).__name__}")
        state = cls()
        state.rules = rules
        state.deal = deal
        state.hands = list(deal.hands)
        state.skat = deal.skat
        state.skat_known = True
        return state

    def copy(self) -> GameState:
        other = GameState.__new__(GameState)
        other.__dict__.update(self.__dict__)
        other.hands = list(self.hands)
        other.hand_sizes = list(self.hand_sizes)
        other.points = list(self.points)
        other.trick_counts = list(self.trick_counts)
        other._stack = list(self._stack)
        return other

    def view(self, seat: int) -> GameState:
        """What ``seat`` may know, as a state that moves can be applied to."""
        if self.perspective is not None and self.perspective != seat:
            raise ValueError("a view can only be narrowed to its own seat")
        # built field by field as in copy(): views are taken before every decision
        v = GameState.__new__(GameState)
        fields = self.__dict__
        own = v.__dict__
        for name in _SNAPSHOT_FIELDS:
            own[name] = fields[name]
        for name in _LIST_FIELDS:
            own[name] = list(fields[name])
        v.rules = self.rules
        v.perspective = seat
        v.deal = None
        v._result = None
        v.hands = [self.hands[s] if s == seat or (self.revealed and s == self.declarer) else 0 for s in range(3)]
        sees_skat = (self.skat_taken and self.declarer == seat) or self.skat_holder == seat
        v.skat = self.skat if sees_skat else 0
        v.skat_known = sees_skat
        v.discard = self.discard if sees_skat else 0
        v.moves = self._moves_seen_by(seat)
        v._stack = []
        return v

    def _moves_seen_by(self, seat: int) -> tuple[tuple[int, Move], ...]:
        # Only the skat moves look different to a defender, and they come before the
        # declaration: scan up to it instead of re-mapping every move of the game
        # (views are taken before every decision: a quarter of a heuristic game's profile).
        moves = self.moves
        if seat == self.declarer and not self.ramsch:
            return moves
        seen = None
        for i, (s, m) in enumerate(moves):
            if isinstance(m, (Declare, Play)):
                break
            shown = self.visible_move(m, seat, by=s)
            if shown is not m:
                if seen is None:
                    seen = list(moves)
                seen[i] = (s, shown)
        return moves if seen is None else tuple(seen)

    # ------------------------------------------------------------ queries

    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is, or None when the game is over."""
        if self.phase == Phase.BIDDING:
            return self.listener if self.awaiting_listener else self.bidder
        if self.phase in (Phase.SKAT, Phase.DISCARD, Phase.DECLARE):
            return self.declarer
        if self.phase in (Phase.RAMSCH_SKAT, Phase.RAMSCH_DISCARD):
            return self.ramsch_turn
        if self.phase == Phase.PLAY:
            return (self.leader + len(self.trick)) % 3
        return None

    @property
    def is_over(self) -> bool:
        return self.phase in (Phase.FINISHED, Phase.PASSED)

    @property
    def game(self) -> GameType | None:
        """The declared game; in a Ramsch GameType.GRAND, whose trick rules it plays by."""
        if self.declaration:
            return self.declaration.game
        return GameType.GRAND if self.ramsch else None

    @property
    def is_ramsch(self) -> bool:
        """All three passed and a Ramsch is played (no Grand Hand escaped it)."""
        return self.ramsch and self.declaration is None

    @property
    def played(self) -> Mask:
        """All cards played so far, the current trick included."""
        mask = mask_of(self.trick)
        for t in self.tricks:
            mask |= mask_of(t.cards)
        return mask

    def knows_hand(self, seat: int) -> bool:
        return self.hands[seat].bit_count() == self.hand_sizes[seat]

    def next_bid(self) -> int | None:
        """The smallest bid above the current one (None above the top of the ladder)."""
        return next_bid(self.bid)

    def legal_cards(self) -> Mask:
        """Cards the player to move may play (needs that hand known)."""
        if self.phase != Phase.PLAY:
            return 0
        seat = self.to_move
        assert seat is not None
        return legal_cards(self.hands[seat], self.game, self.trick[0] if self.trick else None)

    def legal_moves(self) -> list[Move]:
        """The moves of the player to move (their hand must be known)."""
        if self.phase == Phase.BIDDING:
            if self.awaiting_listener:
                return [Hold(), Pass()]
            return [Bid(v) for v in BID_VALUES if v > self.bid] + [Pass()]
        if self.phase == Phase.SKAT:
            return [PickUp(self.skat if self.skat_known else None)] + [Declare(d) for d in self._declarations(hand=True)]
        if self.phase == Phase.DISCARD:
            hand = list(cards_of(self.hands[self.declarer]))
            return [Discard((1 << a) | (1 << b)) for i, a in enumerate(hand) for b in hand[i + 1:]]
        if self.phase == Phase.DECLARE:
            return [Declare(d) for d in self._declarations(hand=False)]
        if self.phase == Phase.PLAY:
            plays: list[Move] = [Play(c) for c in cards_of(self.legal_cards())]
            seat = self.to_move
            if self.kontra_problem(seat) is None:
                plays.append(Kontra())
            if self.re_problem(seat) is None:
                plays.append(Re())
            return plays
        if self.phase == Phase.RAMSCH_SKAT:
            return self._ramsch_skat_moves()
        if self.phase == Phase.RAMSCH_DISCARD:
            hand = [c for c in cards_of(self.hands[self.ramsch_turn]) if not c.is_jack]
            return [Discard((1 << a) | (1 << b)) for i, a in enumerate(hand) for b in hand[i + 1:]]
        return []

    def _ramsch_skat_moves(self) -> list[Move]:
        moves: list[Move] = []
        if self.rules.schieben:
            moves += [PickUp(self.skat if self.skat_known else None), Push()]
        else:
            moves.append(Pass())
        if self.rules.grand_hand_escape:
            moves += [Declare(d) for d in self._declarations(hand=True) if d.game == GameType.GRAND]
        return moves

    # Kontra and Re ------------------------------------------------------

    @property
    def cards_played(self) -> int:
        return 3 * len(self.tricks) + len(self.trick)

    def kontra_problem(self, seat: int | None = None) -> str | None:
        """Why ``seat`` (the seat to move unless given) cannot say Kontra now, or None if it can.

        The variant (``docs/house-rules.md``): either defender, once per game, at his
        turn in the first trick before he plays his card."""
        seat = self.to_move if seat is None else seat
        if not self.rules.kontra:
            return "Kontra is only possible with the house rule Kontra and Re on"
        if self.phase != Phase.PLAY:
            return "Kontra is said during play, before the defender's first card"
        if self.declaration is None:
            return "Kontra is said against a declared game, and a Ramsch has no declarer"
        if seat == self.declarer:
            return "only a defender may say Kontra"
        if self.kontra is not None:
            return f"{SEAT_NAMES[self.kontra]} already said Kontra"
        if seat != self.to_move:
            return f"Kontra is said at one's turn, and it is {SEAT_NAMES[self.to_move]}'s turn"
        if self.tricks:
            return f"Kontra must be said before {SEAT_NAMES[seat]}'s first card"
        return None

    def re_problem(self, seat: int | None = None) -> str | None:
        """Why ``seat`` (the seat to move unless given) cannot say Re now, or None if it can.

        The variant: the declarer, at his first turn after the Kontra, before his card."""
        seat = self.to_move if seat is None else seat
        if not self.rules.kontra:
            return "Re is only possible with the house rule Kontra and Re on"
        if self.phase != Phase.PLAY:
            return "Re is said during play, in answer to a Kontra"
        if self.declaration is None:
            return "Re is said by a declarer, and a Ramsch has no declarer"
        if seat != self.declarer:
            return "only the declarer may say Re"
        if self.kontra is None:
            return "Re answers a Kontra, and no one said Kontra"
        if self.re:
            return "Re was already said"
        if seat != self.to_move:
            return f"Re is said at one's turn, and it is {SEAT_NAMES[self.to_move]}'s turn"
        if self.cards_played - self.kontra_at >= 3:
            # the declarer moves once in any three cards: he has played since the Kontra
            return "Re must be said at the declarer's first turn after the Kontra"
        return None

    def _call(self, move: Kontra | Re, seat: int) -> Move:
        if isinstance(move, Kontra):
            problem = self.kontra_problem(seat)
            if problem:
                raise IllegalMoveError(problem)
            self.kontra, self.kontra_at = seat, self.cards_played
        else:
            problem = self.re_problem(seat)
            if problem:
                raise IllegalMoveError(problem)
            self.re = True
        return move

    def _declarations(self, hand: bool) -> list[Declaration]:
        result = []
        for game in GameType:
            if game == GameType.NULL:
                for ouvert in (False, True):
                    result.append(Declaration(game, hand=hand, ouvert=ouvert))
                continue
            result.append(Declaration(game, hand=hand))
            if hand:
                result += [
                    Declaration(game, hand=True, schneider=True),
                    Declaration(game, hand=True, schwarz=True),
                    Declaration(game, hand=True, ouvert=True),
                ]
        return [d for d in result if self.declaration_problem(d) is None]

    def declaration_problem(self, decl: Declaration, german: bool = False) -> str | None:
        """Why ``decl`` cannot be declared now, or None if it can (``german``: suits named Kreuz, Pik, …)."""
        problem = decl.problem(german)
        if problem:
            return problem
        if self.phase == Phase.RAMSCH_SKAT and decl.game != GameType.GRAND:
            return "instead of the Ramsch only a Grand Hand may be declared"
        if decl.hand and self.skat_taken:
            return "the skat was taken: this cannot be a hand game"
        if not decl.hand and not self.skat_taken:
            return "take the skat first, or declare a hand game"
        if decl.game == GameType.NULL and null_value(decl) < self.bid:
            # A null game is worth exactly its own value: declared below the
            # bid it could only be lost as overbid, so (as in XSkat) it is refused.
            return f"{decl.describe(german)} is worth {null_value(decl)}, below the bid of {self.bid}"
        return None

    # ------------------------------------------------------------ notation

    def parse_iss(self, text: str, seat: int | None = None) -> Move:
        """The move that ISS notation ``text`` stands for here, made by ``seat`` (the seat
        to move unless given): ``18``, ``y``, ``p``, ``s``, ``ST.H8`` (a discard),
        ``GO`` (a declaration), ``CJ`` (a card), ``RE``, ``SC``, ``KO``, ``RK`` (Kontra, Re), ``LE.1``, ``TI.1``; in a
        Ramsch's skat round also ``push`` and ``p`` (docs/house-rules.md).
        Raises ValueError naming what was expected; legality is ``push``'s to check."""
        seat = self.to_move if seat is None else seat
        if text == "RE":
            return Resign(seat)
        if text == "SC":
            return ShowCards(seat)
        if text == KONTRA_TOKEN:
            return Kontra()
        if text == RE_TOKEN:
            return Re()
        if text.startswith(("LE.", "TI.")):
            if text[3:] not in ("0", "1", "2"):
                raise ValueError(f"expected a seat 0, 1 or 2 after {text[:3]}, not {text[3:]!r}")
            return Leave(int(text[3:]), timeout=text.startswith("TI."))
        if self.phase == Phase.BIDDING:
            if text == "p":
                return Pass()
            if text == "y":
                return Hold()
            if text.isdigit():
                return Bid(int(text))
            raise ValueError("expected a bid value, y or p")
        if self.phase == Phase.RAMSCH_SKAT and text in ("s", "push", "p"):
            return {"s": PickUp(), "push": Push(), "p": Pass()}[text]
        if self.phase == Phase.RAMSCH_SKAT:
            code, _, shown = text.partition(".")
            return Declare(Declaration.from_iss(code), CardSet.from_str(shown).mask if shown else None)
        if self.phase == Phase.RAMSCH_DISCARD:
            return Discard(CardSet.from_str(text).mask)
        if self.phase == Phase.SKAT and text == "s":
            return PickUp()
        if self.phase in (Phase.SKAT, Phase.DECLARE):
            code, _, shown = text.partition(".")
            return Declare(Declaration.from_iss(code), CardSet.from_str(shown).mask if shown else None)
        if self.phase == Phase.DISCARD:
            return Discard(CardSet.from_str(text).mask)
        if self.phase == Phase.PLAY:
            return Play(Card.from_str(text))
        raise ValueError(f"no move expected in phase {self.phase.value}")

    def iss(self, move: Move) -> str:
        """``move`` in ISS notation; ``parse_iss`` reads it back in this state."""
        return str(move)

    # ------------------------------------------------------------ moves

    def visible_move(self, move: Move, seat: int, by: int | None = None) -> Move:
        """The form of ``move`` that ``seat`` may see.  ``by`` is the seat that makes it
        (the seat to move unless given); in a Ramsch the skat moves are seen only by their maker."""
        if self.ramsch and isinstance(move, (PickUp, Discard)):
            if seat == (self.to_move if by is None else by):
                return move
            return PickUp(None) if isinstance(move, PickUp) else Discard(None)
        if isinstance(move, PickUp) and seat != self.declarer:
            return PickUp(None)
        if isinstance(move, Discard) and seat != self.declarer:
            return Discard(None)
        return move

    def push(self, move: Move) -> None:
        """Apply a move by the player to move (Resign/ShowCards/Leave name their seat).

        Raises IllegalMoveError with the reason if the rules forbid it; the
        state is unchanged then.
        """
        seat = self.to_move
        if isinstance(move, (Resign, ShowCards, Leave)):
            seat = _checked_seat(move.seat, move)
        if self.is_over:
            raise IllegalMoveError(f"the game is over; {_shown(move)} is not possible")
        snapshot = self._snapshot()
        try:
            recorded = self._apply(move, seat)
        except BaseException:
            # whatever went wrong (a refused move, a bug, Ctrl+C), the state stays as it was
            self._restore(snapshot)
            raise
        self._stack.append(snapshot)
        self.moves = self.moves + ((seat, recorded),)
        self._result = None

    def pop(self) -> Move:
        """Undo the last move and return it."""
        if not self._stack:
            raise IndexError("no move to take back")
        last = self.moves[-1][1]
        self._restore(self._stack.pop())
        self._result = None
        return last

    def _snapshot(self) -> tuple:
        # only the four lists are mutated in place; every other field is replaced, never changed
        d = self.__dict__
        return tuple(d[n] for n in _SNAPSHOT_FIELDS), tuple(list(d[n]) for n in _LIST_FIELDS)

    def _restore(self, snapshot: tuple) -> None:
        fields, lists = snapshot
        d = self.__dict__
        for name, value in zip(_SNAPSHOT_FIELDS, fields):
            d[name] = value
        for name, value in zip(_LIST_FIELDS, lists):
            d[name] = list(value)

    def _apply(self, move: Move, seat: int | None) -> Move:
        if isinstance(move, Leave):
            if type(move.timeout) is not bool:
                raise IllegalMoveError(f"Leave.timeout is True or False, not {move.timeout!r}")
            return self._leave(move, seat)
        if isinstance(move, Resign):
            return self._resign(move, seat)
        if isinstance(move, (Kontra, Re)):
            return self._call(move, seat)
        if isinstance(move, ShowCards):
            if self.phase != Phase.PLAY:
                raise IllegalMoveError("cards can only be shown during play")
            if self.is_ramsch:
                raise IllegalMoveError("cards cannot be shown in a Ramsch: there is no declarer to concede to")
            self.shown = self.shown | {seat}
            return move if move.seat is seat else ShowCards(seat)
        if self.phase == Phase.BIDDING:
            return self._bidding_move(move, seat)
        if self.phase == Phase.SKAT:
            if isinstance(move, PickUp):
                return self._pick_up(move)
            if isinstance(move, Declare):
                return self._declare(move)
            raise IllegalMoveError(f"{SEAT_NAMES[seat]} must take the skat or declare a hand game, not {_shown(move)}")
        if self.phase == Phase.DISCARD:
            if not isinstance(move, Discard):
                raise IllegalMoveError(f"discard two cards first, not {_shown(move)}")
            return self._discard(move)
        if self.phase == Phase.DECLARE:
            if not isinstance(move, Declare):
                raise IllegalMoveError(f"declare a game now, not {_shown(move)}")
            return self._declare(move)
        if self.phase == Phase.PLAY:
            if not isinstance(move, Play):
                raise IllegalMoveError(f"play a card now, not {_shown(move)}")
            return self._play(move.card, seat)
        if self.phase == Phase.RAMSCH_SKAT:
            return self._ramsch_skat_move(move, seat)
        if self.phase == Phase.RAMSCH_DISCARD:
            if not isinstance(move, Discard):
                raise IllegalMoveError(f"put two cards back into the skat first, not {_shown(move)}")
            return self._ramsch_discard(move, seat)
        raise IllegalMoveError(f"{_shown(move)} is not possible in phase {self.phase.value}")

    # bidding --------------------------------------------------------

    def _bidding_move(self, move: Move, seat: int) -> Move:
        name = SEAT_NAMES[seat]
        if self.awaiting_listener:
            if isinstance(move, Hold):
                self.awaiting_listener = False
            elif isinstance(move, Pass):
                self._drop_out(seat)
            else:
                raise IllegalMoveError(f"{name} must hold {self.bid} or pass, not {_shown(move)}")
        else:
            if isinstance(move, Bid):
                if type(move.value) is not int:
                    value = _index(move.value)
                    if value is None:
                        raise IllegalMoveError(f"a bid is a number, not {move.value!r}")
                    move = Bid(value)
                if move.value not in BID_VALUES:
                    raise IllegalMoveError(f"{move.value} is not a bid value (the next is {self.next_bid()})")
                if move.value <= self.bid:
                    raise IllegalMoveError(f"{move.value} is not above the bid of {self.bid} (next: {self.next_bid()})")
                self.bid = move.value
                if self.bid_stage == 2:
                    self._bidding_won(seat)
                else:
                    self.awaiting_listener = True
            elif isinstance(move, Pass):
                self._drop_out(seat)
            elif isinstance(move, Hold):
                raise IllegalMoveError(f"{name} is to bid, not to hold: bid {self.next_bid()} or pass")
            else:
                raise IllegalMoveError(f"bidding is not over: {name} must bid or pass, not {_shown(move)}")
        self.bid_history = self.bid_history + ((seat, move),)
        return move

    def _drop_out(self, seat: int) -> None:
        self.out = self.out | {seat}
        self.awaiting_listener = False
        if self.bid_stage == 0:
            survivor = self.listener if seat == self.bidder else self.bidder
            self.bid_stage, self.bidder, self.listener = 1, REARHAND, survivor
        elif self.bid_stage == 1:
            survivor = self.listener if seat == self.bidder else self.bidder
            if self.bid == 0:
                # nobody bid: forehand may open or pass the game in
                self.bid_stage, self.bidder, self.listener = 2, FOREHAND, FOREHAND
            else:
                self._bidding_won(survivor)
        elif self.rules.ramsch:
            self._start_ramsch()
        else:
            self.phase = Phase.PASSED
            self.end = GameEnd.PASSED

    def _bidding_won(self, seat: int) -> None:
        self.declarer = seat
        self.phase = Phase.SKAT

    # skat and declaration ---------------------------------------------

    def _picked_skat(self, move: PickUp, seat: int, unseen: str) -> Mask | None:
        """The skat cards ``seat`` picks up (None where this view cannot know them), checked
        against the cards known elsewhere; ``unseen`` is the refusal when the picking seat's
        own view lacks them.  Shared by the declarer's pick-up and the Ramsch skat round."""
        skat = move.skat
        if skat is not None:
            skat = _checked_mask(skat, "the skat")
            if skat.bit_count() != 2:
                raise IllegalMoveError(f"the skat has two cards, not {CardSet(skat).unicode() or 'none'}")
            elsewhere = self.hands[0] | self.hands[1] | self.hands[2]
            if skat & elsewhere:
                raise IllegalMoveError(f"{CardSet(skat & elsewhere).unicode()} cannot be in the skat: a hand has it")
        if self.skat_known:
            if skat is not None and skat != self.skat:
                raise IllegalMoveError(f"the skat is {CardSet(self.skat)}, not {CardSet(skat)}")
            skat = self.skat
        elif self.perspective == seat and skat is None:
            raise IllegalMoveError(unseen)
        return skat

    def _pick_up(self, move: PickUp) -> Move:
        seat = self.declarer
        skat = self._picked_skat(move, seat, "the declarer's view needs the skat cards to pick them up")
        if skat is not None:
            self.skat, self.skat_known = skat, True
            if self.knows_hand(seat) or self.perspective is None:
                self.hands[seat] |= skat
        self.hand_sizes[seat] += 2
        self.skat_taken = True
        self.phase = Phase.DISCARD
        return PickUp(skat)

    def _discard(self, move: Discard) -> Move:
        seat = self.declarer
        cards = move.cards
        if cards is None:
            if self.knows_hand(seat):
                raise IllegalMoveError("name the two cards to discard")
        else:
            cards = _checked_mask(cards, "the discard")
            if cards.bit_count() != 2:
                raise IllegalMoveError("discard exactly two cards, not {cards}", cards=CardSet(cards))
            known = self.hands[seat]
            if self.knows_hand(seat) and cards & ~known:
                raise IllegalMoveError("you do not hold {missing}", missing=CardSet(cards & ~known))
            self.hands[seat] &= ~cards
            self.discard = cards
            if cards is not move.cards:
                move = Discard(cards)
        self.hand_sizes[seat] -= 2
        self.phase = Phase.DECLARE
        return move

    def _declare(self, move: Declare) -> Move:
        decl = _checked_declaration(move.declaration)
        problem = self.declaration_problem(decl)
        if problem:
            raise IllegalMoveError("cannot declare {game}: {problem}", game=decl,
                                   problem=Wording(problem, self.declaration_problem(decl, german=True)))
        revealed = move.revealed
        if revealed is not None:
            if not decl.ouvert:
                raise IllegalMoveError("only an ouvert game shows the declarer's hand, not {game}", game=decl)
            revealed = _checked_mask(revealed, "the ouvert hand")
        self.declaration = decl
        if decl.ouvert:
            seat = self.declarer
            if revealed is not None:
                if self.knows_hand(seat) and revealed != self.hands[seat]:
                    raise IllegalMoveError("the shown ouvert hand differs from the declarer's hand")
                if revealed.bit_count() != self.hand_sizes[seat]:
                    raise IllegalMoveError(f"the ouvert hand has {self.hand_sizes[seat]} cards, "
                                           f"not {revealed.bit_count()}")
                self.hands[seat] = revealed
            self.revealed = True
            move = Declare(decl, self.hands[seat] if self.knows_hand(seat) else None)
        self.phase = Phase.PLAY
        self.leader = FOREHAND
        return move

    # Ramsch: the skat round (docs/house-rules.md) ---------------------

    def _start_ramsch(self) -> None:
        self.ramsch = True
        if self.rules.schieben or self.rules.grand_hand_escape:
            self.phase = Phase.RAMSCH_SKAT
            self.ramsch_turn = FOREHAND
        else:
            self._start_ramsch_play()

    def _start_ramsch_play(self) -> None:
        self.phase = Phase.PLAY
        self.ramsch_turn = None
        self.leader = FOREHAND

    def _next_in_ramsch_skat_round(self, seat: int) -> None:
        if seat == REARHAND:
            self._start_ramsch_play()
        else:
            self.phase = Phase.RAMSCH_SKAT
            self.ramsch_turn = seat + 1

    def _ramsch_skat_move(self, move: Move, seat: int) -> Move:
        name = SEAT_NAMES[seat]
        if isinstance(move, Declare):
            if not self.rules.grand_hand_escape:
                raise IllegalMoveError("these rules have no Grand Hand instead of the Ramsch")
            self.declarer = seat
            self.ramsch_turn = None
            return self._declare(move)
        if isinstance(move, (Push, PickUp)) and not self.rules.schieben:
            raise IllegalMoveError("these rules have no Schieben: the skat stays where it is")
        if isinstance(move, Push):
            self.pushes += 1
            self._next_in_ramsch_skat_round(seat)
            return move
        if isinstance(move, PickUp):
            return self._ramsch_pick_up(move, seat)
        if isinstance(move, Pass) and not self.rules.schieben:
            self._next_in_ramsch_skat_round(seat)
            return move
        choices = ["push the skat on (push)", "pick it up (s)"] if self.rules.schieben else ["play the Ramsch (p)"]
        if self.rules.grand_hand_escape:
            choices.append("declare a Grand Hand (GH)")
        raise IllegalMoveError(f"{name} must {' or '.join(choices)}, not {_shown(move)}")

    def _ramsch_pick_up(self, move: PickUp, seat: int) -> Move:
        skat = self._picked_skat(move, seat, "the view of the seat picking up needs the skat cards")
        if skat is not None and (self.perspective is None or self.perspective == seat):
            self.hands[seat] |= skat
        else:
            skat = None
        self.hand_sizes[seat] += 2
        # the skat is in a hand now: nobody but the full state knows where its cards are
        self.skat, self.skat_known, self.skat_holder = 0, self.perspective is None, None
        self.phase = Phase.RAMSCH_DISCARD
        return PickUp(skat)

    def _ramsch_discard(self, move: Discard, seat: int) -> Move:
        cards = move.cards
        if cards is None:
            if self.knows_hand(seat):
                raise IllegalMoveError("name the two cards to put back into the skat")
        else:
            cards = _checked_mask(cards, "the cards put back")
            if cards.bit_count() != 2:
                raise IllegalMoveError("put exactly two cards back, not {cards}", cards=CardSet(cards))
            known = self.hands[seat]
            if self.knows_hand(seat) and cards & ~known:
                raise IllegalMoveError("you do not hold {missing}", missing=CardSet(cards & ~known))
            jacks = [c for c in cards_of(cards) if c.is_jack]
            if jacks:
                raise IllegalMoveError("jacks may not be pushed on in a Ramsch: {jacks}", jacks=CardSet(mask_of(jacks)))
            self.hands[seat] &= ~cards
            self.skat, self.skat_known = cards, True
            if cards is not move.cards:
                move = Discard(cards)
        self.hand_sizes[seat] -= 2
        self.skat_holder = seat
        self._next_in_ramsch_skat_round(seat)
        return move

    # play -------------------------------------------------------------

    def _play(self, card: Card, seat: int) -> Move:
        if type(card) is not Card:
            card = _checked_card(card)
        game = self.game
        hand = self.hands[seat]
        bit = 1 << card
        if self.knows_hand(seat):
            if not hand & bit:
                raise IllegalMoveError(f"{SEAT_NAMES[seat]} does not hold {{card}}", card=card)
            if self.trick:
                led = self.trick[0]
                allowed = legal_cards(hand, game, led)
                if not allowed & bit:
                    raise IllegalMoveError(f"{{card}} does not follow {describe_class(game, led)} (you hold {{must}})",
                                           card=card, must=CardSet(hand & follow_mask(game, led)))
        else:
            if self.played & bit or any(self.hands[s] & bit for s in range(3) if s != seat) or (
                self.skat_known and (self.skat & bit) and not (self.skat_taken and self.declarer == seat)
            ) or self.discard & bit:
                raise IllegalMoveError(f"{{card}} cannot be in {SEAT_NAMES[seat]}'s hand", card=card)
        self.hands[seat] &= ~bit
        self.hand_sizes[seat] -= 1
        self.trick = self.trick + (card,)
        if len(self.trick) == 3:
            self._close_trick()
        return Play(card)

    def _close_trick(self) -> None:
        game = self.game
        winner = (self.leader + trick_winner(game, self.trick)) % 3
        done = Trick(self.leader, self.trick, winner)
        self.tricks = self.tricks + (done,)
        self.points[winner] += done.points
        self.trick_counts[winner] += 1
        self.trick = ()
        self.leader = winner
        if game == GameType.NULL and winner == self.declarer:
            self._finish(GameEnd.NULL_TRICK)
        elif len(self.tricks) == 10:
            self._finish(GameEnd.PLAYED)

    def _finish(self, end: GameEnd) -> None:
        self.phase = Phase.FINISHED
        self.end = end

    # resignation, leaving -------------------------------------------------

    def _resign(self, move: Resign, seat: int) -> Move:
        if self.phase != Phase.PLAY:
            raise IllegalMoveError("resigning is only possible during play")
        if self.is_ramsch:
            raise IllegalMoveError("there is nothing to resign in a Ramsch: it has no declarer")
        self.resigned = self.resigned | {seat}
        if seat == self.declarer:
            self._concede(to_declarer=False, end=GameEnd.DECLARER_RESIGNED)
        elif len(self.resigned - {self.declarer}) == 2:
            self._concede(to_declarer=True, end=GameEnd.DEFENDERS_RESIGNED)
        return move if move.seat is seat else Resign(seat)

    def _leave(self, move: Leave, seat: int) -> Move:
        self.left_seat = seat
        end = GameEnd.TIMEOUT if move.timeout else GameEnd.LEFT
        if self.phase in (Phase.BIDDING, Phase.SKAT, Phase.DISCARD, Phase.DECLARE) or self.declarer is None:
            self._finish(end)  # no game was declared: nothing to score
        elif seat == self.declarer:
            self._concede(to_declarer=False, end=end)
        else:
            self._concede(to_declarer=True, end=end)
        return move if move.seat is seat else Leave(seat, move.timeout)

    def _concede(self, to_declarer: bool, end: GameEnd) -> None:
        """The rest of the cards and tricks go to one side (not in null games,
        where only the win counts)."""
        if self.declaration.game != GameType.NULL:
            remaining_tricks = 10 - len(self.tricks)
            remaining_points = 120 - sum(self.points) - points_of(self._skat_for_points())
            if to_declarer:
                target = self.declarer
            else:
                target = next(s for s in range(3) if s != self.declarer)
            self.points[target] += remaining_points
            self.trick_counts[target] += remaining_tricks
        self._finish(end)

    def _skat_for_points(self) -> Mask:
        return self.discard if self.skat_taken else self.skat

    # ------------------------------------------------------------ result

    @property
    def declarer_points(self) -> int:
        """Card points of the declarer so far, the skat included in suit and grand."""
        if self.declarer is None:
            return 0
        skat_points = points_of(self._skat_for_points())
        return self.points[self.declarer] + skat_points

    def result(self) -> GameResult | RamschResult | None:
        """The scored result once the game is over and was declared, or a Ramsch was played
        to its end (None otherwise)."""
        if self.phase != Phase.FINISHED or (self.declaration is None and not self.is_ramsch):
            return None
        if self._result is None and self.is_ramsch:
            if self.end != GameEnd.PLAYED:
                return None  # abandoned: a Ramsch is only scored when played out
            if self.deal is None:
                raise ValueError("a view cannot score the Ramsch: the skat is unknown")
            last = self.tricks[-1].winner
            points = list(self.points)
            points[last] += points_of(self.skat)
            self._result = ramsch_result(points, self.trick_counts, last, self.pushes, self.end)
        if self._result is None:
            if self.deal is None:
                raise ValueError("a view cannot score the game: the declarer's cards are unknown")
            d = self.declarer
            declarer_tricks = self.trick_counts[d]
            defender_tricks = sum(self.trick_counts) - declarer_tricks
            self._result = score_game(
                d, self.declaration, self.bid, self.deal.hands[d] | self._declarer_skat(),
                self.declarer_points, declarer_tricks, defender_tricks, self.end or GameEnd.PLAYED,
                self.kontra, self.re,
            )
        return self._result

    def _declarer_skat(self) -> Mask:
        # the dealt skat; after a Ramsch skat round, the skat as the escaping Grand Hand found it
        return self.skat if self.ramsch else self.deal.skat

    def outcome(self) -> Outcome | None:
        """How the game came out, once it is over (None while it goes on)."""
        if not self.is_over:
            return None
        return Outcome(self.end, self.result(), self.left_seat if self.end.abandoned else None)

    def start_ramsch(self) -> None:
        """Pass for every seat still in the bidding, so the deal is played as a Ramsch: the
        games of a Ramsch round (and the tournament's every-deal-a-Ramsch) are not bid.
        Needs the Ramsch rule; the passes are ordinary moves, so records and saves keep them."""
        if not self.rules.ramsch:
            raise ValueError("a deal can be played as Ramsch only with the Ramsch rule on")
        if self.phase != Phase.BIDDING or self.bid:
            raise ValueError("a Ramsch round game starts before anyone bids")
        while self.phase == Phase.BIDDING:
            self.push(Pass())

    def push_many(self, moves: Iterable[Move]) -> None:
        for move in moves:
            self.push(move)

    def __repr__(self) -> str:
        who = "full" if self.perspective is None else f"view of {SEAT_NAMES[self.perspective]}"
        return f"<GameState {who} phase={self.phase.value} moves={len(self.moves)}>"

