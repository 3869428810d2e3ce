"""The analysis of bidding, skat, discard and declaration decisions: its content,
its determinism under a seed, and its snapshots through the move service."""

from __future__ import annotations

import random

from engine.cards import FULL_DECK, CardSet, cards_of, mask_of
from engine.game import Bid, Deal, Declare, Discard, GameState, Pass, PickUp
from engine.limits import Limit
from engine.players import bidding
from engine.players.contract_analysis import HISTOGRAM_EDGES, ContractAnalysis
from engine.players.heuristic import HeuristicPlayer
from engine.players.registry import make_player, parse_spec
from engine.rules import MIDDLEHAND
from engine.scoring import score_game
from engine.service import analyze

SEARCH = "mcu:simulations=30,bidding=search"
HAND = "SJ.CA.CT.C9.C8.SA.HK.H7.D8.D9"  # one jack: takes the skat
BIDDING_HAND = "CJ.SJ.CA.CT.C9.C8.SA.HK.H7.D8"
"""A hand the heuristic's estimate bids (so the search bidder values it: it only lowers that limit)."""


def deal_with(middlehand: str, seed: int = 0) -> Deal:
    hand = CardSet.from_str(middlehand).mask
    rest = list(cards_of(FULL_DECK & ~hand))
    random.Random(seed).shuffle(rest)
    return Deal((mask_of(rest[0:10]), hand, mask_of(rest[10:20])), mask_of(rest[20:22]))


def won_by_middlehand(seed: int = 0) -> GameState:
    state = GameState.new(deal_with(HAND, seed))
    state.push_many([Bid(18), Pass(), Pass()])
    return state


def decide(spec: str, state: GameState, seed: int = 4):
    """The decision of a fresh player through the move service, with every snapshot it sent."""
    player = make_player(parse_spec(spec), seed)
    with analyze(player, state.view(state.to_move)) as search:
        snapshots = list(search)
    return search.best, snapshots


def test_every_contract_decision_reports_its_candidates_and_marks_the_move_it_makes():
    state = won_by_middlehand()
    # bidding: middlehand's first word, before the bids above
    bidding, _ = decide(SEARCH, GameState.new(deal_with(BIDDING_HAND)))
    analysis = bidding.analysis
    assert isinstance(analysis, ContractAnalysis) and analysis.phase == "bidding" and analysis.final
    assert analysis.bid == 18 and analysis.simulations == 30
    assert (bidding.move == Pass()) == analysis.passes
    for phase, move_type in (("skat", PickUp), ("discard", Discard), ("declare", Declare)):
        decision, _ = decide(SEARCH, state)
        analysis = decision.analysis
        assert analysis.phase == phase and isinstance(decision.move, move_type)
        assert analysis.player == "mcu:simulations=30,bidding=search" and analysis.limit == Limit(simulations=30)
        chosen = [c for c in analysis.candidates if c.chosen]
        assert len(chosen) == 1
        if phase == "skat":
            assert chosen[0].game == "skat"
        elif phase == "discard":
            assert chosen[0].discard == decision.move.cards and chosen[0].declaration == decision.plan
            # every candidate game with its own discard, all of them legal at the bid
            assert {c.game for c in analysis.candidates} >= {"clubs", "spades", "hearts", "diamonds", "grand"}
        else:
            assert chosen[0].declaration == decision.move.declaration
            assert all(c.discard == state.discard for c in analysis.candidates)
        for c in analysis.candidates:
            assert c.simulations == 30 and sum(c.histogram) == 30 and len(c.histogram) == len(HISTOGRAM_EDGES) - 1
            assert 0 <= c.schneider_share <= c.win_share <= 1 or c.game.startswith("null")
        state.push(decision.move)


def test_the_expected_score_is_the_mean_seeger_fabian_difference_of_the_win_share():
    # a candidate that is never overbid: expected = w (v + 50) + (1 - w)(-2v - 130) over its worlds
    state = won_by_middlehand()
    state.push(PickUp())
    decision, _ = decide(SEARCH, state)
    state.push(decision.move)
    decision, _ = decide(SEARCH, state)
    chosen = decision.analysis.chosen
    value = score_game(MIDDLEHAND, decision.move.declaration, 0, state.hands[MIDDLEHAND] | state.discard,
                     61, 5, 5).game_value
    assert value >= 18
    if chosen.declaration.game.name != "NULL":  # a suit game or grand: one value whether won or lost
        w = chosen.win_share
        assert abs(chosen.expected - (w * (value + 50) + (1 - w) * (-2 * value - 130))) < 1e-6


def test_the_analysis_repeats_under_a_seed_and_the_service_hands_it_over():
    state = won_by_middlehand()
    state.push(PickUp())
    first, snapshots = decide(SEARCH, state, seed=9)
    again, _ = decide(SEARCH, state, seed=9)
    assert first.move == again.move and first.plan == again.plan
    assert first.analysis.to_json() == again.analysis.to_json()
    assert snapshots[-1] == first.analysis and snapshots[-1].final


def snapshots_of(spec: str, state: GameState) -> list[ContractAnalysis]:
    """The snapshots while thinking, then the decision's analysis (the service reports it last)."""
    sent = []
    decision = make_player(parse_spec(spec), 4).choose(state.view(state.to_move), report=sent.append)
    return [*sent, decision.analysis]


def test_the_discard_snapshots_grow_batch_by_batch(monkeypatch):
    monkeypatch.setattr(bidding, "REPORT_INTERVAL", 0.0)  # one after each batch, however fast
    state = won_by_middlehand()
    state.push(PickUp())
    sent = snapshots_of("mcu:simulations=30,bidding=search", state)
    # 30 worlds in batches of 25: one snapshot while thinking, then the final analysis
    assert [(s.simulations, s.final) for s in sent] == [(25, False), (30, True)]
    assert all(c.simulations == 25 for c in sent[0].candidates)


def test_the_bidding_snapshots_grow_batch_by_batch(monkeypatch):
    monkeypatch.setattr(bidding, "REPORT_INTERVAL", 0.0)
    sent = snapshots_of("pimc:simulations=60,bidding=search", GameState.new(deal_with(BIDDING_HAND)))
    assert [(s.simulations, s.final) for s in sent] == [(25, False), (50, False), (60, True)]


def test_the_heuristic_reports_its_estimates_and_reason():
    state = GameState.new(deal_with(HAND))
    decision = HeuristicPlayer(1).choose(state.view(state.to_move))
    analysis = decision.analysis
    assert analysis.phase == "bidding" and analysis.simulations == 0 and "45%" in analysis.note
    assert (decision.move == Pass()) == analysis.passes
    assert all(c.simulations == 0 and c.histogram == () for c in analysis.candidates)
    state = won_by_middlehand()
    state.push(PickUp())
    decision = HeuristicPlayer(1).choose(state.view(MIDDLEHAND))
    assert decision.analysis.chosen.discard == decision.move.cards
    assert decision.analysis.chosen.declaration == decision.plan


def test_a_contract_decision_keeps_its_budget_in_worlds_or_seconds():
    state = won_by_middlehand()
    state.push(PickUp())
    view = state.view(MIDDLEHAND)
    for limit, worlds in ((Limit(simulations=30), 30), (Limit(simulations=10, time=60), 10),
                          # a spent time budget: one batch of worlds, never none
                          (Limit(time=0), bidding.BATCH_WORLDS), (Limit(time=0, simulations=500), bidding.BATCH_WORLDS)):
        decision = make_player(parse_spec("pimc:bidding=search"), 3).choose(view, limit)
        assert decision.analysis.simulations == worlds and decision.analysis.limit == limit
        assert all(c.simulations == worlds for c in decision.analysis.candidates)
    bid = make_player(parse_spec("mcu:bidding=search"), 3).choose(
        GameState.new(deal_with(BIDDING_HAND)).view(1), Limit(time=0))
    assert bid.analysis.simulations == bidding.BATCH_WORLDS and bid.analysis.limit == Limit(time=0)


def test_the_bench_has_rows_for_bidding_and_discard_decisions_on_one_and_two_threads(monkeypatch):
    from engine.tools import bench

    # importing search_bench registers its rows: into a copy, so no other bench run sees them
    monkeypatch.setattr(bench, "EXTRA_ROWS", list(bench.EXTRA_ROWS))
    from engine.tools.search_bench import contract_rows

    rows = contract_rows(quick=True)
    assert [r.name for r in rows] == [f"PIMC bidding=search {what} decisions/s, 100 worlds, {threads}"
                                      for what in ("bidding", "discard") for threads in ("1 thread", "2 threads")]
    assert all(r.unit == "/s" and r.value > 0 for r in rows)
