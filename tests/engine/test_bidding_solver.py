"""The search bidder's double-dummy valuation (``valuation=solver``, PIMC):
threshold solves agree with the solver's exact values, sure games are valued
as sure, and each player kind values the card play its own way."""

from __future__ import annotations

import random

import pytest

from engine.cards import FULL_DECK, CardSet, cards_of, mask_of, points_of
from engine.dds.solver import Position, solve
from engine.game import Deal, GameState
from engine.players.bidding import SearchBidder, _solve
from engine.players.registry import make_player, parse_spec
from engine.rules import FOREHAND, MIDDLEHAND, GameType
from engine.scoring import Declaration


def cards(text: str) -> int:
    return CardSet.from_str(text).mask


def random_world(seed: int) -> tuple[tuple[int, int, int], int]:
    deck = list(cards_of(FULL_DECK))
    random.Random(seed).shuffle(deck)
    return (mask_of(deck[0:10]), mask_of(deck[10:20]), mask_of(deck[20:30])), mask_of(deck[30:32])


@pytest.mark.parametrize("game", [GameType.CLUBS, GameType.HEARTS, GameType.GRAND, GameType.NULL])
def test_threshold_brackets_agree_with_the_exact_double_dummy_value(game):
    worlds = [random_world(seed) for seed in range(12)]
    hands = [w[0] for w in worlds]
    skats = [w[1] for w in worlds]
    rows = _solve(Declaration(game), MIDDLEHAND, hands, skats)
    for (h, skat), row in zip(worlds, rows):
        exact = solve(Position(game, MIDDLEHAND, h, leader=FOREHAND,
                               declarer_points=0 if game == GameType.NULL else points_of(skat)),
                      per_card=False).value
        if game == GameType.NULL:
            assert (row[2] == 0) == (exact == 1)
            continue
        points = int(row[0])
        bracket = {45: (0, 60), 75: (61, 89), 100: (90, 119), 120: (120, 120)}[points]
        assert bracket[0] <= exact <= bracket[1]
        assert row[0] + row[1] == 120 and row[2] + row[3] == 10


def _view(hand: str, seed: int = 0) -> GameState:
    rest = list(cards_of(FULL_DECK & ~cards(hand)))
    random.Random(seed).shuffle(rest)
    deal = Deal((mask_of(rest[0:10]), cards(hand), mask_of(rest[10:20])), mask_of(rest[20:22]))
    return GameState.new(deal).view(MIDDLEHAND)


def _candidate(bidder: SearchBidder, view: GameState, game: str):
    bidder.choose(view)
    return next(c for c in bidder.last_analysis.candidates if c.game == game)


def test_the_solver_values_a_sure_null_hand_and_a_sure_grand_hand_as_sure():
    # holding the 7, 8 and 9 of three suits the declarer can always stay under: null cannot be lost
    null = _candidate(SearchBidder(20, seed=1, valuation="solver"), _view("C7.C8.C9.S7.S8.S9.H7.H8.H9.D7"),
                      "null hand")
    assert null.win_share == 1.0
    # four jacks and every ace and ten but one: every trick, whatever the defenders hold
    grand = _candidate(SearchBidder(20, seed=1, valuation="solver"), _view("CJ.SJ.HJ.DJ.CA.CT.SA.ST.HA.HT"),
                       "grand hand")
    assert grand.win_share == 1.0 and grand.schneider_share == 1.0


def test_pimc_values_bids_by_solves_and_mcu_by_playouts():
    assert make_player(parse_spec("pimc:simulations=10,bidding=search"), 1).bidder.valuation == "solver"
    assert make_player(parse_spec("mcu:simulations=10,bidding=search"), 1).bidder.valuation == "playout"
    with pytest.raises(ValueError, match="valuation must be"):
        SearchBidder(10, valuation="oracle")


def test_the_solver_valuation_is_seeded_and_reads_only_the_own_cards():
    hand = "CJ.HJ.CA.CT.C9.C8.SA.HA.H7.D8"
    analyses = [None, None]
    for i, deal_seed in enumerate((1, 2)):
        bidder = SearchBidder(20, seed=5, valuation="solver")
        bidder.choose(_view(hand, deal_seed))
        analyses[i] = bidder.last_analysis.to_json()
    assert analyses[0] == analyses[1]
