"""The search bidder's decisions: calibrated chances, announcements, the discard search."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from engine.cards import FULL_DECK, CardSet, cards_of, mask_of
from engine.game import Bid, Deal, Declare, GameState, Pass, Phase, PickUp
from engine.players import bid_calibration
from engine.policy import hand_eval
from engine.players.bidding import SearchBidder, calibrated_mean
from engine.rules import MIDDLEHAND, GameType


def cards(text: str) -> int:
    return CardSet.from_str(text).mask


def won_bidding(hand: str, seed: int = 0) -> GameState:
    """Middlehand holds ``hand`` and wins the bidding at 18."""
    rest = list(cards_of(FULL_DECK & ~cards(hand)))
    random.Random(seed).shuffle(rest)
    state = GameState.new(Deal((mask_of(rest[0:10]), cards(hand), mask_of(rest[10:20])), mask_of(rest[20:22])))
    state.push_many([Bid(18), Pass(), Pass()])
    assert state.phase == Phase.SKAT and state.declarer == MIDDLEHAND
    return state


def test_without_a_correction_the_calibrated_mean_is_the_plain_mean():
    rng = np.random.default_rng(1)
    games = rng.choice([int(GameType.CLUBS), int(GameType.GRAND), int(GameType.NULL)], 50)
    value = rng.integers(18, 100, 50)
    won = rng.random(50) < 0.6
    playable = rng.random(50) < 0.9
    scores = np.where(won & playable, value + 50, -2 * value - 130).astype(float)
    identity = {f: (0.0, 1.0) for f in bid_calibration.FAMILIES}
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(bid_calibration.CALIBRATION, "playout", identity)
        mean = calibrated_mean("playout", games, value, won & playable, scores, playable)
    assert mean == pytest.approx(scores.mean())


def test_the_calibration_replaces_the_win_share_and_keeps_won_and_lost_scores():
    # two worlds won (+98), two lost (-226): a win share of 1/2 read as 1/4
    games = np.full(4, int(GameType.CLUBS))
    value = np.array([48, 48, 48, 48])
    won = np.array([True, True, False, False])
    scores = np.array([98.0, 98.0, -226.0, -226.0])
    quarter = {"suit": (math.log(1 / 3), 1.0), "grand": (0.0, 1.0), "null": (0.0, 1.0)}
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(bid_calibration.CALIBRATION, "solver", quarter)
        assert bid_calibration.calibrated("solver", GameType.HEARTS, 0.5) == pytest.approx(0.25)
        assert bid_calibration.calibrated("solver", GameType.GRAND, 0.5) == 0.5
        expected = calibrated_mean("solver", games, value, won, scores, np.ones(4, bool))
    assert expected == pytest.approx(0.25 * 98 - 0.75 * 226)


def test_the_fit_recovers_a_known_correction():
    rng = np.random.default_rng(7)
    predicted = rng.random(20000)
    x = np.log(np.clip(predicted, 0.02, 0.98) / (1 - np.clip(predicted, 0.02, 0.98)))
    won = rng.random(20000) < 1 / (1 + np.exp(-(0.6 + 0.4 * x)))
    a, b = bid_calibration.fit_logistic(predicted, won)
    assert a == pytest.approx(0.6, abs=0.1) and b == pytest.approx(0.4, abs=0.1)


@pytest.mark.parametrize("valuation", ["playout", "solver"])
def test_a_sure_schwarz_is_declared_grand_ouvert(valuation):
    # four jacks, the top clubs and the two other aces: every trick whatever the defenders hold
    state = won_bidding("CJ.SJ.HJ.DJ.CA.CT.CK.CQ.SA.HA")
    move = SearchBidder(20, seed=1, valuation=valuation).choose(state.view(MIDDLEHAND))
    assert isinstance(move, Declare)
    assert move.declaration.game == GameType.GRAND and move.declaration.hand and move.declaration.ouvert
    assert state.declaration_problem(move.declaration) is None


def test_an_announcement_no_world_makes_is_no_candidate():
    state = won_bidding("SJ.CA.CT.C9.C8.SA.HK.H7.D8.D9")
    bidder = SearchBidder(20, seed=2)
    assert isinstance(bidder.choose(state.view(MIDDLEHAND)), PickUp)
    games = [c.game for c in bidder.last_analysis.candidates]
    assert "grand hand ouvert" not in games and "grand hand" in games


def test_the_discard_search_adds_discards_to_the_heuristics_and_chooses_among_them():
    state = won_bidding("CJ.HJ.CA.CT.C9.C8.SA.ST.H7.D8", seed=3)
    state.push(PickUp(state.skat))
    view = state.view(MIDDLEHAND)
    own = hand_eval.declaration_options(view.hands[MIDDLEHAND], MIDDLEHAND)  # a discard per game (null also ouvert)

    narrow = SearchBidder(20, seed=4, discard_pairs=1)
    narrow.choose(view)
    assert len(narrow.last_analysis.candidates) == len(own)

    # unanchored, the best expected score is chosen (anchored, the heuristic's discard stands
    # unless another is clearly better)
    wide = SearchBidder(20, seed=4, discard_pairs=6, anchored=False)
    move = wide.choose(view)
    candidates = wide.last_analysis.candidates
    assert len(candidates) == len(own) + 2 * 5
    assert len({(c.game, c.discard) for c in candidates}) == len(candidates)
    chosen = [c for c in candidates if c.chosen]
    assert len(chosen) == 1 and chosen[0].discard == move.cards
    assert chosen[0].expected == max(c.expected for c in candidates)


def test_ranked_discards_lists_all_66_pairs_with_the_heuristics_choice_first():
    twelve = cards("CJ.HJ.CA.CT.C9.C8.SA.ST.H7.D8.DK.HQ")
    for game in (GameType.CLUBS, GameType.GRAND, GameType.NULL):
        ranked = hand_eval.ranked_discards(twelve, game, MIDDLEHAND)
        assert len(set(ranked)) == 66 and all(d.bit_count() == 2 and d & ~twelve == 0 for d in ranked)
    # for clubs the heuristic's own discard (side cards only) is the best of all pairs
    assert ranked_first(twelve, GameType.CLUBS) == hand_eval.best_discard(twelve, GameType.CLUBS, MIDDLEHAND)[0]


def ranked_first(twelve: int, game: GameType) -> int:
    return hand_eval.ranked_discards(twelve, game, MIDDLEHAND)[0]
