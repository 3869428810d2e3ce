"""Strength checks of the search bidder: a short seeded one in the default run,
the paired series under the ``slow`` marker (figures in docs/strength.md)."""

from __future__ import annotations

import pytest

from engine.game import Deal, GameState, Pass, Phase
from engine.policy import hand_eval
from engine.players.bidding import SearchBidder
from engine.players.registry import make_player, parse_spec
from engine.rules import MIDDLEHAND
from engine.series import play_game

HOPELESS_DEALS = ((4329, 61), (4425, 60), (4579, 20))
"""Deals (``Deal.shuffled`` seed, first player seed) where the heuristic bids
middlehand's hand, declares and loses in heuristic self-play, and the solver
valuation refuses it.  Not every such hand is refused: of the eight lost ones
among the deals 4412-4579 (player seed: deal seed mod 97) the solver passed
two (docs/strength.md: the valuation tells lost games from won ones only
weakly).  Deal 4411 left the list when the heuristic's own bidding learned the
skat's risk to a game without top trumps: it no longer bids that hand.  The play-out valuation bids all of them since the discard habits
(its play-outs, and their discards, are the heuristic's, which win these
hands more often than the real game did)."""


@pytest.mark.parametrize(("deal_seed", "player_seed"), HOPELESS_DEALS)
def test_the_search_bidder_passes_a_hand_the_heuristic_bids_and_loses(deal_seed, player_seed):
    deal = Deal.shuffled(deal_seed)
    heuristic_game = play_game(deal, [make_player(parse_spec("heuristic"), player_seed + s) for s in range(3)])
    assert heuristic_game.phase == Phase.FINISHED and heuristic_game.declarer == MIDDLEHAND
    assert not heuristic_game.result().won
    hand = deal.hands[MIDDLEHAND]
    assert hand_eval.bid_limit(hand, MIDDLEHAND) > 0
    view = GameState.new(deal).view(MIDDLEHAND)
    bidder = SearchBidder(40, seed=1, valuation="solver")
    assert bidder.bid_limit(view, 40) == 0
    assert bidder.choose(view) == Pass()


@pytest.mark.slow
def test_search_bidding_is_not_clearly_worse_than_heuristic_bidding_in_a_paired_series():
    """The duel of docs/strength.md (one seat switched to search bidding, MCU at 100
    worlds, 200 deals): measured +1.7 ± 3.4 relative points per game.  Search bidding
    must not fall clearly behind the heuristic's on these deals."""
    from engine.tools.bidding_duel import duel, summary

    out = duel("mcu:simulations=100", "mcu:simulations=100,bidding=search", 200, 1)
    mean, _ = summary(out["relative"])
    assert mean > -5.0


def test_the_duel_sets_the_test_bidders_options_and_refuses_them_without_a_search_bidder(capsys):
    from engine.tools.bidding_duel import _play, main

    with pytest.raises(ValueError, match="no search bidder"):
        _play(Deal.shuffled(1), ["heuristic"] * 3, 1, 0, {"risk": 5.0})
    main(["--base", "heuristic", "--test", "mcu:simulations=4,bidding=search", "--deals", "1", "--risk", "5",
          "--margin", "inf", "--unanchored"])
    first = capsys.readouterr().out.splitlines()[0]
    assert "risk=5.0, margin=inf, anchored=False for one seat against heuristic (1 deals" in first


def test_the_duel_can_lower_the_heuristic_bidding_threshold_of_the_test_seat(capsys):
    from engine.policy import hand_eval
    from engine.players.heuristic import HeuristicPlayer
    from engine.tools.bidding_duel import _play, main

    # a hand the heuristic passes at its threshold and bids at 0.3
    seed, seat = next((n, s) for n in range(200) for s in range(3)
                      if hand_eval.bid_limit(Deal.shuffled(n).hands[s], s) == 0
                      and hand_eval.bid_limit(Deal.shuffled(n).hands[s], s, 0.3) >= 18)
    player = HeuristicPlayer(1)
    hand = Deal.shuffled(seed).hands[seat]
    assert player.bid_limit(hand, seat) == 0
    player.bid_chance = 0.3
    assert player.bid_limit(hand, seat) == hand_eval.bid_limit(hand, seat, 0.3) >= 18
    with pytest.raises(ValueError, match="does not bid like the heuristic"):
        _play(Deal.shuffled(1), ["mcu:simulations=4,bidding=search"] * 3, 1, 0, bid_chance=0.3)
    main(["--base", "heuristic", "--test", "heuristic", "--deals", "1", "--bid-chance", "0.3"])
    assert "heuristic, bid chance 0.3 for one seat against heuristic (1 deals" in capsys.readouterr().out
