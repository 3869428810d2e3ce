"""Ramsch card play: the heuristic policy and the Ramsch playouts of the numba core."""

from __future__ import annotations

import random

import numpy as np

from engine.card_layout import RAMSCH_GAME
from engine.cards import CARD_POINTS, Card, mask_of
from engine.dds.reference import deal
from engine.players import heuristic_core as core


def _cards(*names: str) -> int:
    return mask_of(Card.from_str(name) for name in names)


def _choose(hand: int, trick: tuple[str, ...] = (), leader: int = 0, played: int = 0, sweeper: int = core.NO_TRICK_YET,
            seat: int | None = None, seed: int = 1) -> Card:
    cards = [int(Card.from_str(c)) for c in trick]
    trick_arr = np.zeros(3, np.int64)
    trick_arr[:len(cards)] = cards
    seat = (leader + len(cards)) % 3 if seat is None else seat
    played |= mask_of(cards)
    return Card(int(core.choose_card_std(RAMSCH_GAME, sweeper, seat, hand, trick_arr, len(cards), leader, played,
                                         np.zeros(3, np.int64), 0, 0, core.seed_state(seed))))


def test_heuristic_stays_under_with_its_highest_card():
    """Following ♥K, with ♥A ♥Q ♥9 ♥7: the queen is the richest card that stays under."""
    assert _choose(_cards("HA", "HQ", "H9", "H7", "C7"), ("HK",)) == Card.from_str("HQ")


def test_heuristic_sheds_points_when_void():
    """Void in clubs with ♠A ♠7 ♥10 ♦8: the ace goes on another's trick."""
    assert _choose(_cards("SA", "S7", "HT", "D8"), ("C7",)) == Card.from_str("SA")


def test_heuristic_leads_a_low_card_someone_can_beat():
    """On lead with ♣A ♥7 ♦K ♠10: the seven (many unknown hearts above it)."""
    assert _choose(_cards("CA", "H7", "DK", "ST")) == Card.from_str("H7")


def test_heuristic_takes_a_trick_it_must_take_with_its_highest_card_when_last():
    """Last to play on ♦7 ♦8 holding only ♦A ♦10 (both win), tricks split already: the ace goes,
    a future winner less."""
    assert _choose(_cards("DA", "DT"), ("D7", "D8"), sweeper=core.SPLIT) == Card.from_str("DA")


def test_heuristic_goes_for_durchmarsch_with_a_hand_of_masters():
    """All four jacks and the top clubs and spades: on lead it plays the ♣J (not the cheap ♦J), and
    last to play on ♣7 ♣8 it wins with the ♣K; once another seat has a trick it sheds the ♣A there."""
    hand = _cards("CJ", "SJ", "HJ", "DJ", "CA", "CT", "CK", "SA", "ST", "SK")
    assert _choose(hand) == Card.from_str("CJ")
    assert _choose(hand, sweeper=core.SPLIT) == Card.from_str("DJ")
    assert _choose(hand, ("C7", "C8"), leader=1, seat=0) == Card.from_str("CK")
    assert _choose(hand, ("C7", "C8"), leader=1, seat=0, sweeper=core.SPLIT) == Card.from_str("CA")


def test_heuristic_stops_a_durchmarsch():
    """Another seat took the first four tricks: last to play, it takes the trick with its lowest winner
    instead of staying under."""
    played = _cards("C7", "C8", "C9", "S7", "S8", "S9", "H7", "H8", "H9", "D7", "D8", "D9")
    hand = _cards("CA", "CQ", "HQ", "DQ")
    chosen = _choose(hand, ("CK", "SQ"), leader=1, seat=0, played=played, sweeper=1)
    assert chosen == Card.from_str("CA")
    assert _choose(hand, ("CK", "SQ"), leader=1, seat=0, played=played, sweeper=core.SPLIT) == Card.from_str("CQ")


def test_ramsch_playouts_split_every_point_and_trick():
    """Whole Ramsch playouts from random deals: the 120 card points (skat included, with the last
    trick) and the ten tricks are all accounted for, each legal first card is played, and a seed
    repeats the same games."""
    rng = random.Random(3)
    worlds = []
    skats = []
    for _ in range(20):
        hands, skat = deal(rng)
        worlds.append(hands)
        skats.append(skat)
    worlds_arr = np.array(worlds, np.int64)
    skats_arr = np.array(skats, np.int64)
    zeros = np.zeros(3, np.int64)
    cards = worlds[0][0]
    out = core.ramsch_playout_cards_batch(worlds_arr, skats_arr, zeros, zeros, 0, 0, zeros, zeros, 0, zeros, cards,
                                          2, 99)
    assert out.shape == (10, 20, 2, 6)
    played_in_first = out[:, 0]
    assert (played_in_first[..., :3].sum(axis=-1) == 120).all()
    assert (played_in_first[..., 3:].sum(axis=-1) == 10).all()
    valid = out[out[..., 0] >= 0]
    assert (valid[:, :3].sum(axis=1) == 120).all() and (valid[:, 3:].sum(axis=1) == 10).all()
    again = core.ramsch_playout_cards_batch(worlds_arr, skats_arr, zeros, zeros, 0, 0, zeros, zeros, 0, zeros, cards,
                                            2, 99)
    assert (again == out).all()
    # the skat's points are in the last trick's winner's total
    assert sum(CARD_POINTS[c] for c in range(32) if skats[0] >> c & 1) <= played_in_first[..., :3].max()
