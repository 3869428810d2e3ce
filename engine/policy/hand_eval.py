"""Hand evaluation for the heuristic player: bidding, skat, discard, declaration.

Each game type gets a strength score from the cards (jacks and their rank,
trump length, aces and tens, guarded tens, voids and singletons, the seat).
A logistic curve per game family turns a score into a win chance; the curves
were fitted on heuristic self-play (``python -m engine.tools.selfplay --fit-curves``,
which plays every game type from every seat of random deals with the
heuristic card play and fits the curves), so "expects to win" means what the
heuristic card play actually achieves.  A suit game's discard adds to that
strength the habits of a strong declarer, learned from XSkat's records
(``engine.tools.fit_discard``).  Null hands are scored by their
"danger": how far each suit's cards stand above the cards that cover them.

Decisions then maximise the expected Seeger-Fabian score of the options
(game value + 50 when won, -2 × value - 50 and +40 for each defender when
lost), and bidding goes up to the value of the best game whose win chance
clears a threshold.  Only the own hand, the seat, the bid and, once taken, the
skat are used.  Schwarz is never announced and suit or grand ouvert never
played: the card play cannot promise every trick.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..cards import CARD_POINTS, JACKS, Mask, Rank, Suit, cards_of, points_of
from ..rules import FOREHAND, MIDDLEHAND, NULL_VALUES, GameType
from ..scoring import Declaration, matadors, seeger_fabian_lost, seeger_fabian_won

SUIT_GAMES = (GameType.DIAMONDS, GameType.HEARTS, GameType.SPADES, GameType.CLUBS)

# Rank bits within a suit byte.
_SEVEN, _EIGHT, _NINE, _TEN, _JACK, _QUEEN, _KING, _ACE = (1 << r for r in range(8))

# Jacks from the top (♣ ♠ ♥ ♦) as card bits.
_JACK_CARDS = tuple(1 << (s * 8 + Rank.JACK) for s in (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS))

SUIT_JACK_WEIGHTS = (1.45, 1.3, 1.15, 1.05)
SUIT_TRUMP_WEIGHTS = {_ACE: 1.0, _TEN: 0.9, _KING: 0.75, _QUEEN: 0.7, _NINE: 0.65, _EIGHT: 0.65, _SEVEN: 0.65}
GRAND_JACK_WEIGHTS = (1.6, 1.4, 1.25, 1.15)
SUIT_TRUMP_LENGTH_WEIGHT = 0.15
"""Suit games: strength per trump held above (or below) five. Measured, with
``SIDE_ACE_TEN_LENGTH_WEIGHT``, on play-outs of every suit game from every seat
(``python3 -m engine.tools.selfplay --check-terms 6000 --seed 11``): without
them a hand with few trumps, or with a long side suit under its ace and ten,
won less than its strength said."""
SIDE_ACE_TEN_LENGTH_WEIGHT = 0.4
"""Suit games: strength taken off a side suit's ace and ten per card of the suit
beyond two that the defenders do not hold (ours, or in the skat we put away):
the fewer they hold, the sooner they ruff the ten."""
GRAND_AFTER_JACK_WEIGHT = 1.2
"""Grand after the discard: strength per jack held above (or below) two."""
GRAND_AFTER_ACE_WEIGHT = 0.6
"""Grand after the discard: strength per ace held, beyond its suit's value."""
GRAND_AFTER_CLUB_JACK_WEIGHT = 0.35
"""Grand after the discard: strength for the club jack, beyond its weight.
The three were measured on play-outs of every grand from every seat (``python3 -m
engine.tools.selfplay --check-terms 6000 --seed 11``): without them a kept hand with three
jacks won more grands than its strength said, one with a single jack and aces and tens far
fewer.  They judge the game chosen after the skat only: in the bidding and hand games the
same terms lost in our own tournament (``docs/heuristic.md``)."""
DISCARD_POINT_WEIGHT = 0.04
"""Strength per card point put into the skat: the discard's points are the declarer's."""
FOREHAND_BONUS = {"suit": 0.2, "grand": 0.5}


@dataclass(frozen=True)
class Curve:
    """Win chance = 1 / (1 + exp(-(score - centre) / scale))."""

    centre: float
    scale: float

    def chance(self, score: float) -> float:
        z = (score - self.centre) / self.scale
        if z < -30:
            return 0.0
        if z > 30:
            return 1.0
        return 1.0 / (1.0 + math.exp(-z))


# Fitted by ``python -m engine.tools.selfplay --fit-curves 5000 --seed 1`` (see docs/heuristic.md).
# Keys: family (suit, grand, null) and situation: "skat" = judged from the ten
# cards before taking the skat (its expected help included), "after" = the
# ten cards kept after the discard, "hand" = playing without the skat;
# "schneider" = the chance of 90 points in a hand game.
CURVES: dict[tuple[str, str], Curve] = {
    ("grand", "after"): Curve(7.05, 1.41),
    ("grand", "hand"): Curve(5.79, 1.07),
    ("grand", "schneider"): Curve(8.68, 0.82),
    ("grand", "skat"): Curve(4.59, 1.32),
    ("null", "after"): Curve(-4.53, 2.01),
    ("null", "hand"): Curve(-5.19, 2.44),
    ("null", "skat"): Curve(-3.94, 2.96),
    ("suit", "after"): Curve(6.54, 0.75),
    ("suit", "hand"): Curve(6.38, 0.77),
    ("suit", "schneider"): Curve(8.69, 0.62),
    ("suit", "skat"): Curve(5.04, 1.00),
}

BID_CHANCE = 0.45
"""Bid up to the value of a game whose win chance (with the skat) reaches this."""
HAND_CHANCE = 0.8
"""Play hand only when the hand game is at least this likely to be won."""
ANNOUNCE_CHANCE = 0.95
"""Announce schneider only when it is near certain."""
NULL_OUVERT_DANGER = 0
"""Null ouvert only with a hand no lead can catch."""


def _suit_ranks(hand: Mask, suit: int) -> int:
    """The rank bits (bit r = rank r) of ``suit`` in ``hand``, jack excluded."""
    return (hand >> (8 * suit)) & 0xFF & ~_JACK


def _jacks(hand: Mask) -> tuple[int, ...]:
    return tuple(1 if hand & j else 0 for j in _JACK_CARDS)


def _aces(hand: Mask) -> int:
    return sum(hand >> (8 * suit + Rank.ACE) & 1 for suit in range(4))


@lru_cache(maxsize=None)
def _side_value(ranks: int, trump_count: int, grand: bool, put_away: int = 0) -> float:
    """What a plain suit adds to a suit or grand game; ``put_away``: how many cards
    of the suit the declarer discarded."""
    n = ranks.bit_count()
    ace, ten, king = bool(ranks & _ACE), bool(ranks & _TEN), bool(ranks & _KING)
    value = 0.0
    if n == 0:
        if grand:
            return 0.15
        return 0.5 if trump_count >= 5 else (0.3 if trump_count >= 4 else 0.1)
    if ace:
        value += 1.1 if grand else 1.0
    if ten:
        if ace:
            value += 1.0 if grand else 0.9
        elif n >= 2:
            value += 0.4 if n >= 3 or not grand else 0.3  # a guarded ten usually makes a trick
        else:
            value += 0.05
    if king:
        if ace and ten:
            value += 0.5 if grand else 0.35
        elif ace or (ten and n >= 3):
            value += 0.15
    if grand and ace and ten and n >= 4:
        value += 0.45 * (n - 3) * (1.0 if king else 0.6)  # a long running suit
    if not grand and n == 1 and not ace and trump_count >= 5:
        value += 0.2  # a singleton becomes a void after one trick
    if not ace:
        value -= 0.12 * max(0, n - (2 if ten else 1))  # losers the declarer must give away
    elif ten and not grand:
        value -= SIDE_ACE_TEN_LENGTH_WEIGHT * (n + put_away - 2)
    return value


def _trump_part(hand: Mask, game: GameType) -> tuple[float, int]:
    """Suit and grand: the score of the trumps held (jacks, and the trump suit in a
    suit game) and their number; ``_with_side_values`` adds the side suits."""
    jacks = _jacks(hand)
    if game == GameType.GRAND:
        count = sum(jacks)
        score = sum(w for w, held in zip(GRAND_JACK_WEIGHTS, jacks) if held)
        if jacks[0] and jacks[1]:
            score += 0.3
        if count <= 1:
            score -= 1.0
        return score, count
    trump_ranks = _suit_ranks(hand, int(game))
    trump_count = sum(jacks) + trump_ranks.bit_count()
    score = sum(w for w, held in zip(SUIT_JACK_WEIGHTS, jacks) if held)
    for bit, weight in SUIT_TRUMP_WEIGHTS.items():
        if trump_ranks & bit:
            score += weight
    if trump_count >= 6:
        score += 0.3 * (trump_count - 5)
    score += SUIT_TRUMP_LENGTH_WEIGHT * (trump_count - 5)
    return score, trump_count


def _side_suits(game: GameType) -> tuple[int, ...]:
    return tuple(s for s in range(4) if game == GameType.GRAND or s != int(game))


def _with_side_values(score: float, side_values, game: GameType, seat: int) -> float:
    """``score`` plus each side suit's value, in suit order, plus the forehand bonus."""
    for value in side_values:
        score += value
    if seat == FOREHAND:
        score += FOREHAND_BONUS["grand" if game == GameType.GRAND else "suit"]
    return score


def suit_strength(hand: Mask, game: GameType, seat: int, discard: Mask = 0) -> float:
    """Strength of ``hand`` (usually ten cards) for a suit game, ``discard`` put away."""
    score, trump_count = _trump_part(hand, game)
    side = [_side_value(_suit_ranks(hand, suit), trump_count, False, _suit_ranks(discard, suit).bit_count())
            for suit in _side_suits(game)]
    return _with_side_values(score, side, game, seat)


def grand_strength(hand: Mask, seat: int) -> float:
    score, count = _trump_part(hand, GameType.GRAND)
    side = [_side_value(_suit_ranks(hand, suit), count, True) for suit in range(4)]
    return _with_side_values(score, side, GameType.GRAND, seat)


def grand_after_terms(kept: Mask) -> float:
    """What a grand's kept ten cards add to their strength after the discard (the jacks, aces
    and club jack terms)."""
    jacks = _jacks(kept)
    return (GRAND_AFTER_JACK_WEIGHT * (sum(jacks) - 2) + GRAND_AFTER_ACE_WEIGHT * _aces(kept)
            + GRAND_AFTER_CLUB_JACK_WEIGHT * jacks[0])


def after_discard_strength(kept: Mask, game: GameType, seat: int, discard: Mask) -> float:
    """The strength the game chosen after the skat is judged by: ``kept`` with ``discard``
    put away, the discard's card points banked (suit and grand), and a grand's after terms."""
    if game == GameType.NULL:
        return null_score(kept)
    score = strength(kept, game, seat, discard) + DISCARD_POINT_WEIGHT * points_of(discard)
    if game == GameType.GRAND:
        score += grand_after_terms(kept)
    return score


@lru_cache(maxsize=None)
def _null_suit_danger(ranks: int) -> int:
    """How exposed one suit is in null: for the i-th lowest own card (rank
    r_i, 7 = 0, jack counts in its suit), the defenders hold r_i - i cards
    below it and we i; every excess is a way to be forced to win a trick."""
    danger = 0
    i = 0
    for r in range(8):
        if ranks >> r & 1:
            danger += max(0, r - 2 * i)
            i += 1
    return danger


def null_danger(hand: Mask) -> int:
    return sum(_null_suit_danger((hand >> (8 * s)) & 0xFF) for s in range(4))


def null_score(hand: Mask) -> float:
    """Higher is better; 0 means no suit can be caught."""
    return -float(null_danger(hand))


def strength(hand: Mask, game: GameType, seat: int, discard: Mask = 0) -> float:
    """Strength of ``hand`` for ``game``, ``discard`` put away (a suit game counts it)."""
    if game == GameType.NULL:
        return null_score(hand)
    if game == GameType.GRAND:
        return grand_strength(hand, seat)
    return suit_strength(hand, game, seat, discard)


GRAND_CAUTION = 0.3
"""Strength taken off grand hands before reading the curves: a grand is
chosen over the suit games exactly where its estimate is high, so its
errors are biased upwards there (XSkat, the model, plays fewer grands)."""


def family(game: GameType) -> str:
    if game == GameType.NULL:
        return "null"
    return "grand" if game == GameType.GRAND else "suit"


def trump_game_chance(game: GameType, situation: str, score: float) -> float:
    """Win chance of a suit or grand game with strength ``score``."""
    if game == GameType.GRAND:
        score -= GRAND_CAUTION
    return CURVES[(family(game), situation)].chance(score)


# ---------------------------------------------------------------- grand or suit game

GRAND_HABITS_PATH = Path(__file__).resolve().parent.parent / "data" / "grand_habits.json"
GRAND_HABITS = json.loads(GRAND_HABITS_PATH.read_text())
"""Weights of a logit of declaring a grand rather than a suit game with twelve
cards (``grand_habit_features``), fitted to XSkat's choices
(``python3 -m engine.tools.fit_grand_choice``).  The expected scores of the
win-chance curves miss grands that XSkat declares and wins: with the grand
curves' model chance at 0.7-0.9 XSkat won 82-92 % of its grands."""

GRAND_HABIT_FEATURES = ("bias", "one jack", "two jacks", "three jacks", "four jacks", "club jack",
                        "spade jack", "aces", "tens", "suits with ace and ten", "longest suit", "forehand",
                        "middlehand")


def grand_habit_features(cards: Mask, seat: int) -> tuple[float, ...]:
    """The features ``GRAND_HABITS`` weighs, in ``GRAND_HABIT_FEATURES``' order."""
    club_jack, spade_jack, *_ = _jacks(cards)
    jacks = (cards & JACKS).bit_count()
    ranks = [_suit_ranks(cards, suit) for suit in range(4)]
    tens = sum(r >> Rank.TEN & 1 for r in ranks)
    ace_tens = sum(r >> Rank.ACE & r >> Rank.TEN & 1 for r in ranks)
    return (1.0, jacks == 1, jacks == 2, jacks == 3, jacks == 4, club_jack, spade_jack, _aces(cards), tens,
            ace_tens, max(r.bit_count() for r in ranks), seat == FOREHAND, seat == MIDDLEHAND)


def grand_habit(cards: Mask, seat: int) -> float:
    """The log-odds that XSkat declares a grand rather than a suit game with these twelve cards."""
    weights = GRAND_HABITS["weights"]
    return sum(weights[name] * float(x) for name, x in zip(GRAND_HABIT_FEATURES, grand_habit_features(cards, seat)))


def prefers_grand(cards: Mask, seat: int) -> bool:
    return grand_habit(cards, seat) > 0


# ---------------------------------------------------------------- discarding

DISCARD_HABITS_PATH = Path(__file__).resolve().parent.parent / "data" / "discard_habits.json"
DISCARD_HABITS = json.loads(DISCARD_HABITS_PATH.read_text())
"""What the strength misses in choosing a suit game's discard, in strength units:
the value of each shape of a side suit kept (``"1010"``: ace, no ten, king, no
other card), of a card point and of a trump put away.  Fitted to XSkat's
discards (``python3 -m engine.tools.fit_discard``): XSkat puts away a ten with
its guard, or both cards of a short suit, where the strength alone keeps them.
Grands keep the strength's own choice: with habits fitted to XSkat's grands the
grand's strength after the discard no longer weighed its jacks right
(``selfplay --check-terms``)."""


def side_shape(ranks: int) -> tuple[int, int, int, int]:
    """(ace, ten, king, other cards up to 3) of a side suit's rank bits (``_suit_ranks``)."""
    ace, ten, king = ranks >> Rank.ACE & 1, ranks >> Rank.TEN & 1, ranks >> Rank.KING & 1
    return ace, ten, king, min(ranks.bit_count() - ace - ten - king, 3)


HABIT_SHAPE_VALUES = tuple(DISCARD_HABITS["shapes"][f"{ace}{ten}{king}{other}"]
                           for ace in (0, 1) for ten in (0, 1) for king in (0, 1) for other in range(4))
"""``DISCARD_HABITS``' shape values by index ace·16 + ten·8 + king·4 + other (the order the
fit and the inference core use)."""


def _habit_shape_value(ranks: int) -> float:
    """``DISCARD_HABITS``' value of keeping a side suit with these rank bits."""
    ace, ten, king, other = side_shape(ranks)
    return HABIT_SHAPE_VALUES[16 * ace + 8 * ten + 4 * king + other]


def _habit_total(shape_values: list[float], discard: Mask, game: GameType) -> float:
    """The habits' score from the kept side suits' shape values and the pair put away."""
    trumps = JACKS | 0xFF << (8 * int(game))
    return (sum(shape_values) + DISCARD_HABITS["per_point"] * points_of(discard)
            + DISCARD_HABITS["per_trump"] * (discard & trumps).bit_count())


def discard_habit(kept: Mask, discard: Mask, game: GameType) -> float:
    """The habits' part of a suit game's discard score (``DISCARD_HABITS``); 0 for other games."""
    if game not in SUIT_GAMES:
        return 0.0
    return _habit_total([_habit_shape_value(_suit_ranks(kept, suit)) for suit in _side_suits(game)], discard, game)


def best_discard(cards: Mask, game: GameType, seat: int, habits: bool = True) -> tuple[Mask, float]:
    """The two cards to put away from twelve for ``game``, and the strength
    the game is judged by: the best strength of ten cards kept (plus the value
    of the banked points in suit and grand).

    Suit and grand: never jacks or trumps while two other cards exist; the
    pair with the best strength plus ``discard_habit`` (without ``habits``,
    the best strength alone, which ``fit_discard --judge`` compares with).
    The habits do not void a suit by putting its ten away where the best
    strength voids one that never held a ten: that kind of their change lost
    against XSkat's defenders and double dummy alike.  The win chances were
    fitted with the pair of the best strength put away, and the habits choose
    a pair that does at least as well, so the game is judged by that
    strength.  Null: throw the most exposed cards.
    """
    all_cards = list(cards_of(cards))
    if game == GameType.NULL:
        candidates = all_cards
    else:
        trumps = JACKS | (0xFF << (8 * int(game)) if game != GameType.GRAND else 0)
        candidates = [c for c in all_cards if not (1 << c) & trumps]
        if len(candidates) < 2:
            candidates = [c for c in all_cards if not (1 << c) & JACKS]
        if len(candidates) < 2:
            candidates = all_cards
    # Discarding side cards leaves the trump part of the strength as it is, and
    # changes the value of one or two side suits only: the same sums as
    # ``strength(kept, game, seat, discard)``, term by term, without recomputing the rest per pair.
    side_only = game != GameType.NULL and not any((1 << c) & trumps for c in candidates)
    if side_only:
        trump_score, trump_count = _trump_part(cards, game)
        grand = game == GameType.GRAND
        suits = _side_suits(game)
        full = [_side_value(_suit_ranks(cards, suit), trump_count, grand) for suit in suits]
        full_habits = [_habit_shape_value(_suit_ranks(cards, suit)) for suit in suits]
    habits = habits and game in SUIT_GAMES
    if game == GameType.NULL:
        null_dangers = [_null_suit_danger((cards >> (8 * suit)) & 0xFF) for suit in range(4)]
    best_mask, best_score, best_choice, plain_mask = 0, -math.inf, -math.inf, 0
    for i, a in enumerate(candidates):
        for b in candidates[i + 1:]:
            discard = (1 << a) | (1 << b)
            kept = cards & ~discard
            if game == GameType.NULL:
                # equal danger: put away the higher cards (only the suits of a and b change)
                danger = sum(value if suit != a >> 3 and suit != b >> 3
                             else _null_suit_danger((kept >> (8 * suit)) & 0xFF)
                             for suit, value in enumerate(null_dangers))
                score = -float(danger) + ((a & 7) + (b & 7)) * 0.001
            elif side_only:
                side = [value if suit != a >> 3 and suit != b >> 3
                        else _side_value(_suit_ranks(kept, suit), trump_count, grand,
                                         _suit_ranks(discard, suit).bit_count())
                        for suit, value in zip(suits, full)]
                score = (_with_side_values(trump_score, side, game, seat)
                         + DISCARD_POINT_WEIGHT * (CARD_POINTS[a] + CARD_POINTS[b]))
                if grand:
                    score += grand_after_terms(kept)
            else:
                score = after_discard_strength(kept, game, seat, discard)
            choice = score
            if habits and side_only:  # as for the strength, only the suits of a and b change
                choice += _habit_total([value if suit != a >> 3 and suit != b >> 3
                                        else _habit_shape_value(_suit_ranks(kept, suit))
                                        for suit, value in zip(suits, full_habits)], discard, game)
            elif habits:
                choice += discard_habit(kept, discard, game)
            if choice > best_choice:
                best_mask, best_choice = discard, choice
            if score > best_score:
                plain_mask, best_score = discard, score
    if (game in SUIT_GAMES and best_mask != plain_mask and _voids(cards, best_mask, ten=True)
            and _voids(cards, plain_mask, ten=False)):
        return plain_mask, best_score
    return best_mask, best_score


def _voids(cards: Mask, discard: Mask, ten: bool) -> bool:
    """Whether putting ``discard`` away from ``cards`` leaves a side suit void whose ten it
    puts away (``ten``) or a void that never held a ten (not ``ten``)."""
    for suit in range(4):
        away = _suit_ranks(discard, suit)
        if away and not _suit_ranks(cards & ~discard, suit) and bool(away & _TEN) == ten:
            return True
    return False


def ranked_discards(cards: Mask, game: GameType, seat: int) -> list[Mask]:
    """All 66 pairs of twelve cards, best first by the score ``best_discard`` maximises
    (the strength of what is kept, plus the banked points in suit and grand and the
    habits in suit games), without its restriction to side cards."""
    all_cards = list(cards_of(cards))
    scored = []
    for i, a in enumerate(all_cards):
        for b in all_cards[i + 1:]:
            discard = (1 << a) | (1 << b)
            kept = cards & ~discard
            score = after_discard_strength(kept, game, seat, discard)
            if game == GameType.NULL:
                score += ((a & 7) + (b & 7)) * 0.001
            score += discard_habit(kept, discard, game)
            scored.append((score, discard))
    scored.sort(key=lambda pair: (-pair[0], pair[1]))
    return [discard for _, discard in scored]


# ---------------------------------------------------------------- values and options


def game_value(decl: Declaration, declarer_cards: Mask) -> int:
    """Value of ``decl`` if won plainly (no schneider beyond what is announced);
    ``declarer_cards`` includes the skat for the matadors."""
    if decl.game == GameType.NULL:
        return NULL_VALUES[(decl.hand, decl.ouvert)]
    multiplier = abs(matadors(decl.game, declarer_cards)) + 1
    if decl.hand:
        multiplier += 1
    if decl.schneider_announced:
        multiplier += 2  # schneider (which must be reached) and its announcement
    if decl.schwarz_announced:
        multiplier += 2
    if decl.ouvert:
        multiplier += 1
    return decl.game.base_value * multiplier


def expected_score(chance: float, value: int) -> float:
    """Expected Seeger-Fabian difference to the two defenders of playing a
    game of ``value`` won with ``chance``: won +value+50; lost -2·value-50 and
    +40 for each defender."""
    return chance * seeger_fabian_won(value) + (1.0 - chance) * seeger_fabian_lost(value, 2)


@dataclass(frozen=True)
class Option:
    declaration: Declaration
    value: int
    chance: float
    discard: Mask = 0

    @property
    def expected(self) -> float:
        return expected_score(self.chance, self.value)


NULL_CAUTION = 2.0
"""Danger points added before reading the null curves: the curves fit all
hands, but nulls are chosen where the other games look weak, and there the
fitted chance proved too high (null games won well below their estimate)."""


def _null_chance(score: float, situation: str, ouvert: bool) -> float:
    chance = CURVES[("null", situation)].chance(score - NULL_CAUTION)
    if ouvert and score < -NULL_OUVERT_DANGER:
        chance *= 0.3  # the defenders see the hand and find any weakness
    return chance


@lru_cache(maxsize=4096)
def hand_options(hand: Mask, seat: int) -> tuple[Option, ...]:
    """Games playable without the skat, from ten cards, with their chances."""
    options = []
    for game in (*SUIT_GAMES, GameType.GRAND):
        fam = family(game)
        score = strength(hand, game, seat)
        chance = trump_game_chance(game, "hand", score)
        decl = Declaration(game, hand=True)
        options.append(Option(decl, game_value(decl, hand), chance))
        schneider = CURVES[(fam, "schneider")].chance(score)
        if schneider >= ANNOUNCE_CHANCE and chance >= ANNOUNCE_CHANCE:
            decl = Declaration(game, hand=True, schneider=True)
            options.append(Option(decl, game_value(decl, hand), min(chance, schneider)))
    score = null_score(hand)
    for ouvert in (False, True):
        decl = Declaration(GameType.NULL, hand=True, ouvert=ouvert)
        options.append(Option(decl, game_value(decl, hand), _null_chance(score, "hand", ouvert)))
    return tuple(options)


def null_skat_score(hand: Mask) -> float:
    """A null hand before taking the skat: the danger left once its two most
    exposed cards are put away (the skat's two cards are rarely worse)."""
    return best_discard(hand, GameType.NULL, FOREHAND)[1]


@lru_cache(maxsize=4096)
def skat_options(hand: Mask, seat: int) -> tuple[Option, ...]:
    """Games with the skat taken, judged from ten cards before seeing it."""
    options = []
    for game in (*SUIT_GAMES, GameType.GRAND):
        chance = trump_game_chance(game, "skat", strength(hand, game, seat))
        decl = Declaration(game)
        options.append(Option(decl, game_value(decl, hand), chance))
    score = null_skat_score(hand)
    for ouvert in (False, True):
        decl = Declaration(GameType.NULL, ouvert=ouvert)
        options.append(Option(decl, game_value(decl, hand), _null_chance(score, "skat", ouvert)))
    return tuple(options)


@lru_cache(maxsize=4096)
def declaration_options(cards: Mask, seat: int) -> tuple[Option, ...]:
    """Games after taking the skat: twelve cards, each with its best discard."""
    options = []
    for game in (*SUIT_GAMES, GameType.GRAND, GameType.NULL):
        discard, score = best_discard(cards, game, seat)
        if game == GameType.NULL:
            for ouvert in (False, True):
                decl = Declaration(game, ouvert=ouvert)
                options.append(Option(decl, game_value(decl, cards), _null_chance(score, "after", ouvert), discard))
        else:
            decl = Declaration(game)
            chance = trump_game_chance(game, "after", score)
            options.append(Option(decl, game_value(decl, cards), chance, discard))
    return tuple(options)


def kept_options(kept: Mask, discard: Mask, seat: int) -> list[Option]:
    """Games for the ten cards kept after ``discard`` was put away."""
    options = []
    cards = kept | discard
    for game in GameType:
        if game == GameType.NULL:
            score = null_score(kept)
            for ouvert in (False, True):
                decl = Declaration(game, ouvert=ouvert)
                options.append(Option(decl, game_value(decl, cards), _null_chance(score, "after", ouvert), discard))
        else:
            score = after_discard_strength(kept, game, seat, discard)
            decl = Declaration(game)
            chance = trump_game_chance(game, "after", score)
            options.append(Option(decl, game_value(decl, cards), chance, discard))
    return options


NEAR_BEST_SCORE = 40
"""``bid_limit`` bids up to the highest value among the games expected to score within this
many Seeger-Fabian points of the best one."""


@lru_cache(maxsize=4096)
def values_after_skat(hand: Mask, game: GameType) -> tuple[tuple[int, float], ...]:
    """A suit game's or grand's plain value once the skat counts for the matadors, with the
    share of the skats (two of the 22 cards not in ``hand``, all alike) that give at least
    that value, highest value first.  "With" a run of top trumps keeps its value (a skat
    can only lengthen it); "without" loses value when the skat holds a missing top trump."""
    decl = Declaration(game)
    if matadors(game, hand) > 0:
        return ((game_value(decl, hand), 1.0),)
    unseen = [1 << c for c in range(32) if not hand >> c & 1]
    counts: dict[int, int] = {}
    for i, first in enumerate(unseen):
        for second in unseen[i + 1:]:
            value = game_value(decl, hand | first | second)
            counts[value] = counts.get(value, 0) + 1
    total = len(unseen) * (len(unseen) - 1) // 2
    out, at_least = [], 0
    for value in sorted(counts, reverse=True):
        at_least += counts[value]
        out.append((value, at_least / total))
    return tuple(out)


def skat_bid_value(hand: Mask, option: Option, bid_chance: float) -> int:
    """How far to bid on a game with the skat: the highest value it keeps after the skat
    in enough skats that its win chance times their share still reaches ``bid_chance``.
    A game "without" top trumps bid to its full value loses it whenever the skat holds one
    of them, and then only a grand reaches the bid: against XSkat those forced grands lost
    about half the time (docs/heuristic.md)."""
    if option.declaration.game == GameType.NULL:
        return option.value
    values = values_after_skat(hand, option.declaration.game)
    # the lowest value is kept by every skat (share 1), the floor when even it falls short
    return next((value for value, share in values if option.chance * share >= bid_chance), values[-1][0])


def bid_limit(hand: Mask, seat: int, bid_chance: float = BID_CHANCE) -> int:
    """The highest bid this hand goes to (0: pass at once).

    The value of the best game (by expected score) among those expected to
    be won (with the skat: a win chance of at least ``bid_chance``), with the
    skat or hand; matadors from the own ten cards, and with the skat only as
    far as the skat is unlikely to spoil them (``skat_bid_value``).
    """
    with_skat = [o for o in skat_options(hand, seat) if o.chance >= bid_chance]
    hand_games = [o for o in hand_options(hand, seat) if o.chance >= HAND_CHANCE]
    candidates = with_skat + hand_games
    if not candidates:
        return 0
    best = max(c.expected for c in candidates)
    limits = [skat_bid_value(hand, o, bid_chance) for o in with_skat if o.expected >= best - NEAR_BEST_SCORE]
    limits += [o.value for o in hand_games if o.expected >= best - NEAR_BEST_SCORE]
    return max(limits)


def reaches(option: Option, bid: int) -> bool:
    return option.value >= bid


def choose_best(options: list[Option], bid: int, cards: Mask | None = None, seat: int = FOREHAND) -> Option:
    """The option with the best expected score among those worth the bid;
    if none is (an overbid), the one that loses least.

    Given the declarer's twelve ``cards`` (hand and skat) and ``seat``, a
    grand worth the bid beats the suit games where the grand habit prefers it
    (``prefers_grand``), and meets only the nulls by expected score."""
    fitting = [o for o in options if reaches(o, bid)]
    if fitting:
        if (cards is not None and any(o.declaration.game == GameType.GRAND for o in fitting)
                and prefers_grand(cards, seat)):
            fitting = [o for o in fitting if o.declaration.game not in SUIT_GAMES]
        return max(fitting, key=lambda o: (o.expected, o.value))

    def overbid_loss(o: Option) -> float:
        if o.declaration.game == GameType.NULL:
            return -bid * 2.0
        base = o.declaration.game.base_value
        return -2.0 * (-(-bid // base) * base)

    return max(options, key=overbid_loss)


def hand_decision(hand: Mask, seat: int, bid: int) -> Option | None:
    """A hand game to declare instead of taking the skat, or None."""
    hand_games = [o for o in hand_options(hand, seat) if o.chance >= HAND_CHANCE and reaches(o, bid)]
    if not hand_games:
        return None
    best_hand = max(hand_games, key=lambda o: (o.expected, o.value))
    with_skat = [o for o in skat_options(hand, seat) if reaches(o, bid)]
    if with_skat and max(o.expected for o in with_skat) > best_hand.expected:
        return None
    return best_hand
