"""The batched hand evaluation equals hand_eval's, hand by hand."""

import random

import numpy as np
import pytest

from engine.worlds import hand_tables
from engine.cards import FULL_DECK, cards_of
from engine.policy import hand_eval
from engine.rules import GameType


def _random_hands(count, size, seed):
    rng = random.Random(seed)
    deck = list(range(32))
    hands = []
    for _ in range(count):
        rng.shuffle(deck)
        hands.append(sum(1 << c for c in deck[:size]))
    return hands


def _options_as_columns(options, hand_game):
    """hand_eval's options keyed by the batch's columns (no schneider announcements)."""
    columns = {}
    for option in options:
        decl = option.declaration
        if decl.schneider:
            continue
        key = hand_tables.OPTION_GAMES.index((decl.game, decl.ouvert))
        assert decl.hand == hand_game
        columns[key] = option
    return columns


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_strengths_equal_hand_eval(seat):
    hands = _random_hands(300, 10, seat)
    batch = hand_tables.strengths(np.array(hands), seat)
    for hand, row in zip(hands, batch):
        for game in GameType:
            assert row[int(game)] == pytest.approx(hand_eval.strength(hand, game, seat), abs=1e-9)


def test_skat_and_hand_options_equal_hand_eval():
    hands = _random_hands(300, 10, 7)
    for seat in (0, 2):
        skat_chances, skat_values = hand_tables.skat_options(np.array(hands), seat)
        hand_chances, hand_values = hand_tables.hand_options(np.array(hands), seat)
        for i, hand in enumerate(hands):
            for column, option in _options_as_columns(hand_eval.skat_options(hand, seat), False).items():
                # null with the skat: hand_eval breaks ties by a thousandth per rank; the batch does not
                assert skat_chances[i, column] == pytest.approx(option.chance, abs=0.02)
                assert skat_values[i, column] == option.value
            for column, option in _options_as_columns(hand_eval.hand_options(hand, seat), True).items():
                assert hand_chances[i, column] == pytest.approx(option.chance, abs=1e-9)
                assert hand_values[i, column] == option.value


def test_bidding_options_are_skat_and_hand_options():
    hands = np.array(_random_hands(500, 10, 8), np.int64)
    for seat in (0, 1):
        both = hand_tables.bidding_options(hands, seat)
        expected = hand_tables.skat_options(hands, seat) + hand_tables.hand_options(hands, seat)
        assert all(np.array_equal(a, b) for a, b in zip(both, expected))


def test_kept_options_equal_hand_eval():
    twelves = _random_hands(300, 12, 3)
    kept, discard = [], []
    for cards in twelves:
        two = list(cards_of(cards))[:2]
        d = (1 << two[0]) | (1 << two[1])
        kept.append(cards & ~d)
        discard.append(d)
    chances, values = hand_tables.kept_options(np.array(kept), np.array(discard), 1)
    for i in range(len(kept)):
        for column, option in _options_as_columns(hand_eval.kept_options(kept[i], discard[i], 1), False).items():
            assert chances[i, column] == pytest.approx(option.chance, abs=1e-9)
            assert values[i, column] == option.value
        assert hand_tables.expected_scores(chances[i], values[i]) == pytest.approx(
            [hand_eval.expected_score(chances[i, c], values[i, c]) for c in range(7)])


def test_full_deck_is_one_hand():
    assert hand_tables.matador_counts(np.array([FULL_DECK]))[0].tolist() == [11, 11, 11, 11, 4]


@pytest.mark.parametrize("size", [10, 12])
def test_matador_tables_give_matador_counts(size):
    suit_table, grand_table = hand_tables.matador_tables()
    hands = np.array(_random_hands(3000, size, 40 + size) + [0, FULL_DECK], np.int64)
    expected = hand_tables.matador_counts(hands)
    nibble = hand_tables._jack_nibble(hands)
    for game in range(4):
        assert (suit_table[nibble, (hands >> (8 * game)) & 0xFF] == expected[:, game]).all()
    assert (grand_table[nibble] == expected[:, 4]).all()
    assert {int(v) for v in expected[:, :4].ravel()} >= {1, 2, 3, 4}  # with and without: both kinds of runs
