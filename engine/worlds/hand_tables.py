"""The heuristic's hand evaluation (``engine.policy.hand_eval``) for many hands at once.

Inference judges the bidding and the declaration in thousands of candidate
worlds per decision; one Python call of ``hand_eval`` per hand and world
would take a second.  Every term of ``hand_eval``'s strength is a function of
a few bits of the hand (the jacks, one suit's byte, the trump count), so the
tables here are filled by calling ``hand_eval``'s own functions once for every
value of those bits, and a batch of hands is scored with numpy lookups.  The
rules stay in ``hand_eval``; ``tests/engine/test_hand_tables.py`` checks that
the batch equals ``hand_eval`` hand by hand.

Hands are int64 arrays of card masks.  Options come in a fixed order,
``OPTION_GAMES``: the four suit games, grand, null, null ouvert.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..cards import CARD_POINTS, Rank, Suit
from ..policy import hand_eval
from ..rules import NULL_VALUES, GameType
from ..scoring import trump_order_high_to_low

OPTION_GAMES: tuple[tuple[GameType, bool], ...] = (
    (GameType.DIAMONDS, False), (GameType.HEARTS, False), (GameType.SPADES, False), (GameType.CLUBS, False),
    (GameType.GRAND, False), (GameType.NULL, False), (GameType.NULL, True),
)
"""(game, ouvert) of each option column."""

_JACK_BIT = 1 << Rank.JACK
_JACK_CARDS = tuple(s * 8 + Rank.JACK for s in (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS))


@lru_cache(maxsize=None)
def _tables() -> dict[str, np.ndarray]:
    # by grand or not, trump count, the suit's byte, and how many of its cards were put away
    side = np.zeros((2, 12, 256, 3))
    for grand in (0, 1):
        for count in range(12):
            for byte in range(256):
                for put_away in range(3):
                    side[grand, count, byte, put_away] = hand_eval._side_value(byte & ~_JACK_BIT, count, bool(grand),
                                                                               put_away)
    suit_score = np.zeros((16, 256))
    suit_count = np.zeros((16, 256), np.int64)
    grand_score = np.zeros(16)
    grand_count = np.zeros(16, np.int64)
    for nibble in range(16):
        jacks = sum(1 << _JACK_CARDS[i] for i in range(4) if nibble >> i & 1)
        grand_score[nibble], grand_count[nibble] = hand_eval._trump_part(jacks, GameType.GRAND)
        for byte in range(256):
            # clubs stands for any trump suit: only its ranks and the jacks count
            hand = jacks | ((byte & ~_JACK_BIT) << (8 * Suit.CLUBS))
            suit_score[nibble, byte], suit_count[nibble, byte] = hand_eval._trump_part(hand, GameType.CLUBS)
    danger = np.array([hand_eval._null_suit_danger(b) for b in range(256)], float)
    # the least danger left after putting away one or two cards of a suit (inf: too few cards)
    less_one = np.full(256, np.inf)
    less_two = np.full(256, np.inf)
    for byte in range(256):
        bits = [b for b in range(8) if byte >> b & 1]
        for i, a in enumerate(bits):
            less_one[byte] = min(less_one[byte], danger[byte & ~(1 << a)])
            for b in bits[i + 1:]:
                less_two[byte] = min(less_two[byte], danger[byte & ~(1 << a) & ~(1 << b)])
    byte_points = np.array([sum(CARD_POINTS[b] for b in range(8) if v >> b & 1) for v in range(256)], float)
    byte_cards = np.array([v.bit_count() for v in range(256)], np.int64)
    return {"side": side, "suit_score": suit_score, "suit_count": suit_count, "grand_score": grand_score,
            "grand_count": grand_count, "danger": danger, "less_one": less_one, "less_two": less_two,
            "byte_points": byte_points, "byte_cards": byte_cards}


def _bytes(hands: np.ndarray) -> list[np.ndarray]:
    return [(hands >> (8 * s)) & 0xFF for s in range(4)]


def _jack_nibble(hands: np.ndarray) -> np.ndarray:
    nibble = np.zeros(hands.shape, np.int64)
    for i, card in enumerate(_JACK_CARDS):
        nibble |= ((hands >> card) & 1) << i
    return nibble


def strengths(hands: np.ndarray, seat: int, discards: np.ndarray | None = None) -> np.ndarray:
    """(n, 6): ``hand_eval.strength`` of each hand for D, H, S, C, grand and null (with
    ``discards``, each hand's discard put away)."""
    t = _tables()
    hands = np.asarray(hands, np.int64)
    nibble = _jack_nibble(hands)
    suit_bytes = _bytes(hands)
    put_away = [np.zeros(hands.shape, np.int64)] * 4
    if discards is not None:
        put_away = [t["byte_cards"][b & ~_JACK_BIT] for b in _bytes(np.broadcast_to(np.asarray(discards, np.int64),
                                                                                     hands.shape))]
    out = np.zeros(hands.shape + (6,))
    forehand = seat == 0
    for game in range(4):
        score = t["suit_score"][nibble, suit_bytes[game]].copy()
        count = t["suit_count"][nibble, suit_bytes[game]]
        for suit in range(4):
            if suit != game:
                score += t["side"][0, count, suit_bytes[suit], put_away[suit]]
        if forehand:
            score += hand_eval.FOREHAND_BONUS["suit"]
        out[..., game] = score
    score = t["grand_score"][nibble].copy()
    count = t["grand_count"][nibble]
    for suit in range(4):
        score += t["side"][1, count, suit_bytes[suit], 0]
    if forehand:
        score += hand_eval.FOREHAND_BONUS["grand"]
    out[..., 4] = score
    out[..., 5] = -sum(t["danger"][b] for b in suit_bytes)
    return out


def null_skat_scores(hands: np.ndarray) -> np.ndarray:
    """``hand_eval.null_skat_score`` (the danger left after the best two cards
    are put away), without its tie-break of a thousandth per rank."""
    t = _tables()
    suit_bytes = _bytes(np.asarray(hands, np.int64))
    dangers = [t["danger"][b] for b in suit_bytes]
    total = sum(dangers)
    best = np.full(total.shape, np.inf)
    for s in range(4):
        best = np.minimum(best, total - dangers[s] + t["less_two"][suit_bytes[s]])
        for u in range(s + 1, 4):
            best = np.minimum(best, total - dangers[s] - dangers[u] + t["less_one"][suit_bytes[s]]
                              + t["less_one"][suit_bytes[u]])
    return -best


def points(hands: np.ndarray) -> np.ndarray:
    t = _tables()
    return sum(t["byte_points"][b] for b in _bytes(np.asarray(hands, np.int64)))


def matador_counts(hands: np.ndarray) -> np.ndarray:
    """(n, 5): |matadors| of each hand for D, H, S, C and grand."""
    hands = np.asarray(hands, np.int64)
    out = np.zeros(hands.shape + (5,), np.int64)
    for game in range(5):
        order = trump_order_high_to_low(GameType(game))
        top = (hands >> order[0]) & 1
        alive = np.ones(hands.shape, bool)
        run = np.zeros(hands.shape, np.int64)
        for card in order:
            alive &= ((hands >> card) & 1) == top
            run += alive
        out[..., game] = run
    return out


def _chances(curve: hand_eval.Curve, scores: np.ndarray) -> np.ndarray:
    z = np.clip((scores - curve.centre) / curve.scale, -30, 30)
    chance = 1.0 / (1.0 + np.exp(-z))
    return np.where(z <= -30, 0.0, np.where(z >= 30, 1.0, chance))


def _trump_chances(scores: np.ndarray, situation: str) -> np.ndarray:
    """(n, 5) win chances of the suit games and grand from their strengths."""
    out = np.zeros(scores.shape[:-1] + (5,))
    for game in range(5):
        fam = "grand" if game == 4 else "suit"
        score = scores[..., game] - (hand_eval.GRAND_CAUTION if game == 4 else 0.0)
        out[..., game] = _chances(hand_eval.CURVES[(fam, situation)], score)
    return out


def _null_chances(scores: np.ndarray, situation: str) -> tuple[np.ndarray, np.ndarray]:
    plain = _chances(hand_eval.CURVES[("null", situation)], scores - hand_eval.NULL_CAUTION)
    ouvert = np.where(scores < -hand_eval.NULL_OUVERT_DANGER, plain * 0.3, plain)
    return plain, ouvert


_BASE_VALUES = tuple(GameType(game).base_value for game in range(5))


def _values(matadors: np.ndarray, extra: int, null_values: tuple[int, int]) -> np.ndarray:
    n = matadors.shape[:-1]
    values = np.zeros(n + (7,))
    for game in range(5):
        values[..., game] = _BASE_VALUES[game] * (matadors[..., game] + 1 + extra)
    values[..., 5] = null_values[0]
    values[..., 6] = null_values[1]
    return values


def _looked_up_matadors(hands: np.ndarray) -> np.ndarray:
    """``matador_counts`` from ``matador_tables`` (a lookup per game instead of a loop over the trumps)."""
    suit_table, grand_table = matador_tables()
    nibble = _jack_nibble(hands)
    out = np.empty(hands.shape + (5,), np.int64)
    for game in range(4):
        out[..., game] = suit_table[nibble, (hands >> (8 * game)) & 0xFF]
    out[..., 4] = grand_table[nibble]
    return out


def _skat_options(hands, scores, matadors) -> tuple[np.ndarray, np.ndarray]:
    chances = np.zeros(scores.shape[:-1] + (7,))
    chances[..., :5] = _trump_chances(scores, "skat")
    chances[..., 5], chances[..., 6] = _null_chances(null_skat_scores(hands), "skat")
    values = _values(matadors, 0, (NULL_VALUES[(False, False)], NULL_VALUES[(False, True)]))
    return chances, values


def _hand_options(scores, matadors) -> tuple[np.ndarray, np.ndarray]:
    chances = np.zeros(scores.shape[:-1] + (7,))
    chances[..., :5] = _trump_chances(scores, "hand")
    chances[..., 5], chances[..., 6] = _null_chances(scores[..., 5], "hand")
    values = _values(matadors, 1, (NULL_VALUES[(True, False)], NULL_VALUES[(True, True)]))
    return chances, values


def skat_options(hands: np.ndarray, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """(chances, values), each (n, 7): ``hand_eval.skat_options`` (games with the skat, from ten cards)."""
    hands = np.asarray(hands, np.int64)
    return _skat_options(hands, strengths(hands, seat), _looked_up_matadors(hands))


def hand_options(hands: np.ndarray, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """(chances, values): ``hand_eval.hand_options`` without schneider announcements."""
    hands = np.asarray(hands, np.int64)
    return _hand_options(strengths(hands, seat), _looked_up_matadors(hands))


def bidding_options(hands: np.ndarray, seat: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``skat_options`` and ``hand_options`` of the same hands (their strengths and matadors
    computed once): skat chances, skat values, hand chances, hand values."""
    hands = np.asarray(hands, np.int64)
    scores, matadors = strengths(hands, seat), _looked_up_matadors(hands)
    return _skat_options(hands, scores, matadors) + _hand_options(scores, matadors)


def grand_after_terms(hands: np.ndarray) -> np.ndarray:
    """``hand_eval.grand_after_terms`` of each hand."""
    hands = np.asarray(hands, np.int64)
    jacks = sum((hands >> card) & 1 for card in _JACK_CARDS)
    aces = sum((hands >> (8 * suit + Rank.ACE)) & 1 for suit in range(4))
    return (hand_eval.GRAND_AFTER_JACK_WEIGHT * (jacks - 2) + hand_eval.GRAND_AFTER_ACE_WEIGHT * aces
            + hand_eval.GRAND_AFTER_CLUB_JACK_WEIGHT * ((hands >> _JACK_CARDS[0]) & 1))


def kept_options(kept: np.ndarray, discard: np.ndarray, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """(chances, values): ``hand_eval.kept_options`` (the ten cards kept after a discard)."""
    scores = strengths(kept, seat, discard)
    scores[..., :5] += hand_eval.DISCARD_POINT_WEIGHT * points(discard)[..., None]
    scores[..., 4] += grand_after_terms(kept)
    chances = np.zeros(scores.shape[:-1] + (7,))
    chances[..., :5] = _trump_chances(scores, "after")
    chances[..., 5], chances[..., 6] = _null_chances(scores[..., 5], "after")
    cards = np.asarray(kept, np.int64) | np.asarray(discard, np.int64)
    values = _values(_looked_up_matadors(cards), 0, (NULL_VALUES[(False, False)], NULL_VALUES[(False, True)]))
    return chances, values


def expected_scores(chances: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``hand_eval.expected_score`` of every option (its arithmetic works on arrays)."""
    return hand_eval.expected_score(chances, values)


@lru_cache(maxsize=None)
def matador_tables() -> tuple[np.ndarray, np.ndarray]:
    """``matador_counts`` by lookup: (16, 256) a suit game's matadors by the jack nibble and
    the trump suit's byte (its jack bit ignored), (16,) grand's by the jack nibble."""
    suit = np.zeros((16, 256), np.int64)
    grand = np.zeros(16, np.int64)
    for nibble in range(16):
        jacks = sum(1 << _JACK_CARDS[i] for i in range(4) if nibble >> i & 1)
        # clubs stands for any trump suit, as in ``_tables``
        hands = np.array([jacks | ((byte & ~_JACK_BIT) << (8 * Suit.CLUBS)) for byte in range(256)], np.int64)
        suit[nibble] = matador_counts(hands)[:, GameType.CLUBS]
        grand[nibble] = matador_counts(np.array([jacks], np.int64))[0, GameType.GRAND]
    return suit, grand


def _habit_params() -> list[float]:
    """``hand_eval.DISCARD_HABITS`` as ``inference_core._discard_habit`` reads them from params[21:]:
    32 shape values (index ace·16 + ten·8 + king·4 + other cards up to 3), the value of a
    card point and of a trump put away."""
    habits = hand_eval.DISCARD_HABITS
    return [*hand_eval.HABIT_SHAPE_VALUES, habits["per_point"], habits["per_trump"]]


@lru_cache(maxsize=None)
def core_tables() -> tuple:
    """The tables and constants ``inference_core.declarer_mixture`` takes after its first six
    arguments, from ``hand_eval``'s own: side, suit_score, suit_count, tables, params,
    base_values, null_values, suit_matadors, grand_matadors, jack_cards, card_points."""
    t = _tables()
    rows = np.zeros((5, 256))
    rows[0, :16] = t["grand_score"]
    rows[1, :16] = t["grand_count"]
    rows[2] = t["danger"]
    rows[3] = t["less_one"]
    rows[4] = t["less_two"]
    curves = [hand_eval.CURVES[(family, situation)] for situation in ("skat", "hand")
              for family in ("suit", "grand", "null")]
    params = np.array([x for c in curves for x in (c.centre, c.scale)]
                      + [hand_eval.GRAND_CAUTION, hand_eval.NULL_CAUTION, hand_eval.NULL_OUVERT_DANGER,
                         hand_eval.BID_CHANCE, hand_eval.HAND_CHANCE, hand_eval.DISCARD_POINT_WEIGHT,
                         hand_eval.GRAND_AFTER_JACK_WEIGHT, hand_eval.GRAND_AFTER_ACE_WEIGHT,
                         hand_eval.GRAND_AFTER_CLUB_JACK_WEIGHT] + _habit_params(), float)
    base_values = np.array([GameType(g).base_value for g in range(5)], float)
    null_values = np.array([NULL_VALUES[(False, False)], NULL_VALUES[(False, True)],
                            NULL_VALUES[(True, False)], NULL_VALUES[(True, True)]], float)
    suit_matadors, grand_matadors = matador_tables()
    return (t["side"], t["suit_score"], t["suit_count"], rows, params, base_values, null_values, suit_matadors,
            grand_matadors, np.array(_JACK_CARDS, np.int64), np.array(CARD_POINTS, float))


def forehand_bonus(seat: int) -> np.ndarray:
    """(suit, grand) strength bonus of ``seat`` (only forehand has one)."""
    if seat != 0:
        return np.zeros(2)
    return np.array([hand_eval.FOREHAND_BONUS["suit"], hand_eval.FOREHAND_BONUS["grand"]])
