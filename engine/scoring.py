"""Matadors, game value, overbid, the two score lists (plain, Seeger-Fabian), and Ramsch results."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import lru_cache

from .cards import GERMAN_SUIT_NAMES, Card, Mask, Rank, Suit
from .rules import NULL_VALUES, GameType

# Trump order from the top, for counting matadors.
_JACKS_HIGH_TO_LOW = tuple(Card.make(s, Rank.JACK) for s in (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS))
_SUIT_TRUMPS_HIGH_TO_LOW = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN)

SEEGER_FABIAN_WON_BONUS = 50
SEEGER_FABIAN_LOST_PENALTY = 50
SEEGER_FABIAN_DEFENDER_BONUS = {3: 40, 4: 30}

ALL_POINTS = 120
"""The card points in the pack."""
WIN_POINTS = 61
"""Card points a declarer needs to win a suit or grand game."""
SCHNEIDER_POINTS = 90
"""Card points that make the other side schneider (and win an announced schneider)."""
OUT_OF_SCHNEIDER = 31
"""Card points that keep a side out of schneider (a side with 30 or fewer is schneider)."""


def declarer_wins(decl: Declaration, declarer_points, declarer_tricks, defender_tricks):
    """Whether the declarer wins ``decl`` by the cards (no resignation, no overbid); element-wise
    on numpy arrays too, so the searchers' vector code counts wins by this rule."""
    if decl.game == GameType.NULL:
        return declarer_tricks == 0
    won = declarer_points >= WIN_POINTS
    if decl.schneider_announced:
        won = won & (declarer_points >= SCHNEIDER_POINTS)
    if decl.schwarz_announced:
        won = won & (defender_tricks == 0)
    return won


def seeger_fabian_won(value):
    """The declarer's Seeger-Fabian entry for a won game of ``value`` (element-wise on arrays)."""
    return value + SEEGER_FABIAN_WON_BONUS


def seeger_fabian_lost(value, defenders_counted: int = 0, table_size: int = 3):
    """The declarer's Seeger-Fabian entry for a lost game of ``value``, less the bonus of
    ``defenders_counted`` defenders (1: against a rival or the others' mean, 2: against both)."""
    return -2 * value - SEEGER_FABIAN_LOST_PENALTY - defenders_counted * SEEGER_FABIAN_DEFENDER_BONUS[table_size]


@lru_cache(maxsize=None)
def trump_order_high_to_low(game: GameType) -> tuple[Card, ...]:
    if game == GameType.NULL:
        return ()
    if game == GameType.GRAND:
        return _JACKS_HIGH_TO_LOW
    suit = Suit(game)
    return _JACKS_HIGH_TO_LOW + tuple(Card.make(suit, r) for r in _SUIT_TRUMPS_HIGH_TO_LOW)


def matadors(game: GameType, declarer_cards: Mask) -> int:
    """'With n' (+n) or 'without n' (-n): the run of top trumps the declarer
    held or lacked, counting the skat as the declarer's.  0 for null."""
    order = trump_order_high_to_low(game)
    if not order:
        return 0
    holds_top = bool(declarer_cards >> order[0] & 1)
    run = 0
    for card in order:
        if bool(declarer_cards >> card & 1) != holds_top:
            break
        run += 1
    return run if holds_top else -run


@dataclass(frozen=True)
class Declaration:
    """A declared game.  ``schneider``/``schwarz`` are announcements; in a suit
    or grand ouvert they are implied (``effective_*`` apply that)."""

    game: GameType
    hand: bool = False
    schneider: bool = False
    schwarz: bool = False
    ouvert: bool = False

    @property
    def schneider_announced(self) -> bool:
        return self.game != GameType.NULL and (self.schneider or self.schwarz or self.ouvert)

    @property
    def schwarz_announced(self) -> bool:
        return self.game != GameType.NULL and (self.schwarz or self.ouvert)

    @property
    def points_needed(self) -> int:
        """Card points the declarer needs (suit and grand): 61, 90 with schneider announced, all
        120 with schwarz announced (where the rule asks every trick: the solver's threshold)."""
        if self.schwarz_announced:
            return ALL_POINTS
        return SCHNEIDER_POINTS if self.schneider_announced else WIN_POINTS

    def least_win(self) -> tuple[int, int]:
        """The declarer's card points and tricks of this game's narrowest win (for its value)."""
        return (self.points_needed, 10 if self.schwarz_announced else 9)

    def problem(self, german: bool = False) -> str | None:
        """Why this declaration is not allowed, or None (``german``: suits named Kreuz, Pik, …)."""
        if self.game == GameType.NULL:
            if self.schneider or self.schwarz:
                return "schneider and schwarz cannot be announced in a null game"
            return None
        if (self.schneider or self.schwarz) and not self.hand:
            return "schneider or schwarz may only be announced in a hand game"
        if self.ouvert and not self.hand:
            return f"{self.game_name(german)} ouvert must be played hand"
        return None

    def iss(self) -> str:
        """ISS declaration code, e.g. ``C``, ``GH``, ``NO``, ``CHZ``."""
        code = self.game.letter
        if self.hand:
            code += "H"
        if self.game != GameType.NULL and self.schneider and not (self.schwarz or self.ouvert):
            code += "S"
        if self.game != GameType.NULL and self.schwarz and not self.ouvert:
            code += "Z"
        if self.ouvert:
            code += "O"
        return code

    def game_name(self, german: bool = False) -> str:
        """'Clubs', 'Grand'; ``german`` names a suit game Kreuz, Pik, Herz or Karo."""
        return GERMAN_SUIT_NAMES[Suit(self.game)] if german and self.game.is_suit else self.game.label

    def describe(self, german: bool = False) -> str:
        """'Clubs hand', 'Grand ouvert' (``german``: 'Kreuz hand')."""
        words = [self.game_name(german)]
        if self.hand:
            words.append("hand")
        if self.ouvert:
            words.append("ouvert")
        elif self.schwarz:
            words.append("schwarz announced")
        elif self.schneider:
            words.append("schneider announced")
        return " ".join(words)

    @classmethod
    def from_iss(cls, code: str) -> Declaration:
        if not code:
            raise ValueError("empty declaration")
        game = GameType.from_letter(code[0])
        flags = code[1:].upper()
        unknown = set(flags) - set("HSZO")
        if unknown:
            raise ValueError(f"unknown declaration flag(s) {''.join(sorted(unknown))!r} in {code!r}")
        ouvert = "O" in flags
        hand = "H" in flags
        if ouvert and game != GameType.NULL:
            hand = True  # the ISS writes suit/grand ouvert without H: it is always hand
        return cls(game, hand=hand, schneider="S" in flags, schwarz="Z" in flags, ouvert=ouvert)


def null_value(decl: Declaration) -> int:
    return NULL_VALUES[(decl.hand, decl.ouvert)]


def smallest_null_value_reaching(bid: int) -> int | None:
    fitting = [v for v in sorted(NULL_VALUES.values()) if v >= bid]
    return fitting[0] if fitting else None


class GameEnd(enum.StrEnum):
    """How a game ended.  The values are the words records and JSON output use."""

    PLAYED = "played"
    """All ten tricks played."""
    NULL_TRICK = "null_trick"
    """The null declarer took a trick."""
    DECLARER_RESIGNED = "declarer_resigned"
    DEFENDERS_RESIGNED = "defenders_resigned"
    LEFT = "left"
    """A player left the table."""
    TIMEOUT = "timeout"
    """A player ran out of time."""
    PASSED = "passed"
    """All three passed: no game, nothing to score."""

    @property
    def resigned(self) -> bool:
        return self in (GameEnd.DECLARER_RESIGNED, GameEnd.DEFENDERS_RESIGNED)

    @property
    def abandoned(self) -> bool:
        """A player left or ran out of time."""
        return self in (GameEnd.LEFT, GameEnd.TIMEOUT)

    @property
    def early(self) -> bool:
        """Ended before the cards decided it: resigned or abandoned."""
        return self.resigned or self.abandoned


@dataclass(frozen=True)
class GameResult:
    """The outcome of a played game, from the declarer's point of view."""

    declarer: int
    declaration: Declaration
    bid: int
    matadors: int
    declarer_points: int
    defender_points: int
    declarer_tricks: int
    defender_tricks: int
    won: bool
    overbid: bool
    schneider: bool
    schwarz: bool
    multiplier: int
    game_value: int
    """The (positive) value the game is scored with, Kontra and Re included: doubled below when lost."""
    value: int
    """Signed, as the plain list counts it: +game_value won, -2*game_value lost."""
    end: GameEnd = GameEnd.PLAYED
    """How the game ended."""
    multipliers: tuple[tuple[str, int], ...] = field(default=())
    """The named steps that make up the multiplier, for display."""
    kontra: int | None = None
    """The defender who said Kontra (house rule), or None."""
    re: bool = False
    """Whether the declarer answered the Kontra with Re."""

    @property
    def doublings(self) -> tuple[str, ...]:
        """The calls that doubled the game value, in order: ``("Kontra", "Re")``, or fewer."""
        return ("Kontra",) * (self.kontra is not None) + ("Re",) * self.re

    @property
    def undoubled_value(self) -> int:
        """The game value before Kontra and Re: what the overbid check compares with the bid."""
        return self.game_value >> len(self.doublings)

    def scores_by_seat(self, table_size: int = 3) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        """(plain, Seeger-Fabian) list entries by seat: the plain list counts the declarer only."""
        plain = [0, 0, 0]
        plain[self.declarer] = self.value
        return (plain[0], plain[1], plain[2]), self.seeger_fabian(table_size)

    def seeger_fabian(self, table_size: int = 3) -> tuple[int, int, int]:
        """Seeger-Fabian points by seat (0 forehand, 1 middlehand, 2 rearhand)."""
        scores = [0, 0, 0]
        if self.won:
            scores[self.declarer] = self.value + SEEGER_FABIAN_WON_BONUS
        else:
            scores[self.declarer] = self.value - SEEGER_FABIAN_LOST_PENALTY
            for seat in range(3):
                if seat != self.declarer:
                    scores[seat] = SEEGER_FABIAN_DEFENDER_BONUS[table_size]
        return (scores[0], scores[1], scores[2])


def score_game(
    declarer: int,
    decl: Declaration,
    bid: int,
    declarer_cards: Mask,
    declarer_points: int,
    declarer_tricks: int,
    defender_tricks: int,
    end: GameEnd = GameEnd.PLAYED,
    kontra: int | None = None,
    re: bool = False,
) -> GameResult:
    """Score a finished game.

    ``declarer_cards`` are the declarer's ten cards plus the skat (for matadors);
    ``declarer_points`` include the skat in suit and grand games.  ``kontra`` is
    the defender who said Kontra and ``re`` the declarer's answer (house rule):
    each doubles the game value once it is settled, the overbid check included
    (a game is overbid when its value without them is below the bid).
    """
    if re and kontra is None:
        raise ValueError("Re answers a Kontra: there is no Re without a Kontra")
    if kontra is not None and kontra == declarer:
        raise ValueError("Kontra is said by a defender, not by the declarer")
    doubling = 2 ** ((kontra is not None) + re)
    defender_points = ALL_POINTS - declarer_points
    if decl.game == GameType.NULL:
        value = null_value(decl)
        won = declarer_wins(decl, declarer_points, declarer_tricks, defender_tricks) and end not in (GameEnd.DECLARER_RESIGNED, GameEnd.LEFT, GameEnd.TIMEOUT)
        if end == GameEnd.DEFENDERS_RESIGNED:
            won = True
        overbid = value < bid
        if overbid:
            reaching = smallest_null_value_reaching(bid)
            value = reaching if reaching is not None else value
            won = False
        steps = (("null", value),)
        value *= doubling
        return GameResult(
            declarer, decl, bid, 0, declarer_points, defender_points, declarer_tricks, defender_tricks,
            won, overbid, False, False, 1, value, value if won else -2 * value, end, steps, kontra, re,
        )

    mats = matadors(decl.game, declarer_cards)
    schneider = declarer_points >= SCHNEIDER_POINTS or declarer_points < OUT_OF_SCHNEIDER
    schwarz = defender_tricks == 0 or declarer_tricks == 0
    steps: list[tuple[str, int]] = [(f"{'with' if mats > 0 else 'without'} {abs(mats)}", abs(mats)), ("game", 1)]
    if decl.hand:
        steps.append(("hand", 1))
    if schneider or decl.schneider_announced:
        steps.append(("schneider", 1))
    if decl.schneider_announced:
        steps.append(("schneider announced", 1))
    if schwarz or decl.schwarz_announced:
        steps.append(("schwarz", 1))
    if decl.schwarz_announced:
        steps.append(("schwarz announced", 1))
    if decl.ouvert:
        steps.append(("ouvert", 1))
    multiplier = sum(n for _, n in steps)
    base = decl.game.base_value
    value = multiplier * base

    won = bool(declarer_wins(decl, declarer_points, declarer_tricks, defender_tricks))
    overbid = value < bid
    if overbid:
        value = -(-bid // base) * base  # smallest multiple of the base value reaching the bid
        won = False
    value *= doubling
    return GameResult(
        declarer, decl, bid, mats, declarer_points, defender_points, declarer_tricks, defender_tricks,
        won, overbid, schneider, schwarz, multiplier, value, value if won else -2 * value, end, tuple(steps),
        kontra, re,
    )


@dataclass(frozen=True)
class RamschResult:
    """The outcome of a Ramsch (all three passed; docs/house-rules.md): no declarer,
    the most card points lose them."""

    points: tuple[int, int, int]
    """Card points by seat, the skat counted for the winner of the last trick."""
    tricks: tuple[int, int, int]
    skat_to: int
    """The seat that won the last trick and with it the skat."""
    pushes: int
    """How often the skat was pushed on unseen (each doubles)."""
    losers: tuple[int, ...]
    """The seats with the most card points (more than one on a tie); none after a Durchmarsch."""
    jungfrau: int | None
    """The seat that took no trick (doubling the loss), if one did."""
    durchmarsch: int | None
    """The seat that took every trick, if one did: it wins instead."""
    multiplier: int
    values: tuple[int, int, int]
    """Signed list entries by seat: minus points × multiplier for each loser, or +120 × pushes' doubling."""
    end: GameEnd = GameEnd.PLAYED
    multipliers: tuple[tuple[str, int], ...] = field(default=())
    """The named doublings (pushes, Jungfrau), each a factor, for display."""

    def scores_by_seat(self, table_size: int = 3) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        """(plain, Seeger-Fabian) by seat: the same numbers, as Ramsch has no declarer to
        give the Seeger-Fabian bonuses to (docs/house-rules.md)."""
        return self.values, self.values


RAMSCH_DURCHMARSCH_VALUE = 120


def ramsch_result(
    points: tuple[int, int, int] | list[int],
    tricks: tuple[int, int, int] | list[int],
    skat_to: int,
    pushes: int = 0,
    end: GameEnd = GameEnd.PLAYED,
) -> RamschResult:
    """Score a Ramsch from the card points (skat included) and tricks by seat."""
    points = (points[0], points[1], points[2])
    tricks = (tricks[0], tricks[1], tricks[2])
    if sum(points) != ALL_POINTS or sum(tricks) != 10:
        raise ValueError(f"a played Ramsch shares 120 points and 10 tricks, not {points} and {tricks}")
    steps: list[tuple[str, int]] = [("pushed", 2)] * pushes
    durchmarsch = next((seat for seat in range(3) if tricks[seat] == 10), None)
    values = [0, 0, 0]
    losers: tuple[int, ...] = ()
    jungfrau = None
    if durchmarsch is not None:
        multiplier = 2 ** pushes
        values[durchmarsch] = RAMSCH_DURCHMARSCH_VALUE * multiplier
    else:
        jungfrau = next((seat for seat in range(3) if tricks[seat] == 0), None)
        if jungfrau is not None:
            steps.append(("Jungfrau", 2))
        multiplier = 2 ** len(steps)
        most = max(points)
        losers = tuple(seat for seat in range(3) if points[seat] == most)
        for seat in losers:
            values[seat] = -points[seat] * multiplier
    return RamschResult(points, tricks, skat_to, pushes, losers, jungfrau, durchmarsch, multiplier,
                        (values[0], values[1], values[2]), end, tuple(steps))
