"""Inference: worlds weighted by the other seats' bidding and declaration."""

import random

import numpy as np
import pytest

from engine.game import Bid, Deal, GameState, Hold, Pass, Phase
from engine.worlds.inference import (FITTED_MODEL, InferenceSampler, PolicyModel, beliefs, bid_steps,
                              log_likelihoods)
from engine.worlds.inference_core import deal_ranked
from engine.players.heuristic import HeuristicPlayer
from engine.players.registry import make_player
from engine.worlds.sampling import SKAT_PLACE, WorldSampler


def first_card_state(seed):
    """A heuristic game at its first card (None if it was passed in)."""
    state = GameState.new(Deal.shuffled(seed))
    players = [HeuristicPlayer(seed * 3 + i) for i in range(3)]
    while state.phase != Phase.PLAY and not state.is_over:
        state.push(players[state.to_move].choose(state.view(state.to_move)).move)
    return None if state.is_over else state


def true_place(state, card):
    for seat in range(3):
        if state.hands[seat] >> card & 1:
            return seat
    return SKAT_PLACE


def test_bid_steps_read_bids_holds_and_passes():
    state = GameState.new(Deal.shuffled(0))
    state.push_many([Bid(18), Hold(), Bid(20), Pass(), Bid(22), Hold(), Pass()])
    steps = [(s.seat, s.value, s.went_on) for s in bid_steps(state)]
    # middlehand bids 18 and 20 to forehand, forehand holds 18 and passes at 20;
    # rearhand bids 22 to middlehand, who holds it, and rearhand passes at the next value, 23
    assert steps == [(1, 18, True), (0, 18, True), (1, 20, True), (0, 20, False), (2, 22, True),
                     (1, 22, True), (2, 23, False)]


def test_a_grand_declarer_is_believed_to_hold_the_jacks():
    # over many heuristic grands, defenders' inference puts the declarer's jacks
    # in its hand far more often than the uniform informed sampler does
    gains = []
    for seed in range(200):
        state = first_card_state(seed)
        if state is None or state.declaration.game.name != "GRAND" or state.declaration.hand:
            continue
        defender = (state.declarer + 1) % 3
        view = state.view(defender)
        informed = beliefs(view, "informed")
        inferred = beliefs(view, "inference", seed=1)
        for jack in (4, 12, 20, 28):
            if state.hands[state.declarer] >> jack & 1:
                gains.append(inferred.places[jack, state.declarer] - informed.places[jack, state.declarer])
        if len(gains) >= 20:
            break
    assert len(gains) >= 20
    assert np.mean(gains) > 0.15


def test_defenders_beliefs_are_closer_to_the_truth_on_the_declarers_cards():
    informed_loss, inferred_loss = [], []
    for seed in range(40):
        state = first_card_state(seed)
        if state is None:
            continue
        view = state.view((state.declarer + 1) % 3)
        for sampler, losses in (("informed", informed_loss), ("inference", inferred_loss)):
            b = beliefs(view, sampler, seed=seed)
            hidden_declarer = [c for c in range(32) if b.hidden >> c & 1 and state.hands[state.declarer] >> c & 1]
            losses += [-np.log(max(b.places[c, state.declarer], 1e-3)) for c in hidden_declarer]
    assert np.mean(inferred_loss) < 0.95 * np.mean(informed_loss)


def test_every_world_keeps_a_weight_and_beliefs_sum_to_one():
    state = first_card_state(3)
    view = state.view((state.declarer + 2) % 3)
    base = WorldSampler(view)
    rng = random.Random(5)
    worlds = [base.sample(rng) for _ in range(300)]
    log_w = log_likelihoods(view, worlds, PolicyModel(0.01, 1.0, 0.01))
    assert np.all(np.isfinite(log_w))
    b = beliefs(view, "inference", seed=2, pool=300)
    hidden = [c for c in range(32) if b.hidden >> c & 1]
    assert np.allclose(b.places[hidden].sum(axis=1), 1.0)
    assert np.all(b.places[hidden, view.perspective] == 0)
    pool_weights = InferenceSampler(view, 300, 2).weights  # the same pool as beliefs(seed=2, pool=300)
    assert b.effective_sample_size == pytest.approx(1.0 / np.square(pool_weights).sum())
    assert 1.0 <= b.effective_sample_size < 0.9 * 300  # the declarer's bids make the weights uneven


def test_the_sampler_is_deterministic_under_its_seed():
    state = first_card_state(4)
    view = state.view((state.declarer + 1) % 3)
    a, b = InferenceSampler(view, 400, 9), InferenceSampler(view, 400, 9)
    assert a.effective_sample_size == b.effective_sample_size
    ra, rb = random.Random(1), random.Random(1)
    assert [a.sample(ra) for _ in range(50)] == [b.sample(rb) for _ in range(50)]
    assert FITTED_MODEL.uniform_share > 0


@pytest.mark.parametrize("kind", ["mcu", "pimc"])
def test_monte_carlo_players_with_inference_report_the_effective_sample_size(kind):
    state = first_card_state(4)
    view = state.view(state.to_move)
    decisions = []
    for _ in range(2):
        player = make_player(f"{kind}:simulations=20,sampler=inference", seed=7)
        decisions.append(player.choose(view))
    assert decisions[0].move == decisions[1].move
    analysis = decisions[0].analysis
    assert analysis.simulations == 20
    assert analysis.effective_worlds is not None and 1.0 <= analysis.effective_worlds <= 1000
    plain = make_player(f"{kind}:simulations=20", seed=7).choose(view).analysis
    assert plain.effective_worlds is None
    for found in (analysis, plain):  # both carry the beliefs their worlds come from
        assert len(found.beliefs) == 22  # the two other hands and the skat (or the unknown discard)
        assert all(abs(sum(row[1:]) - 1) < 1e-3 and row[1 + view.to_move] == 0 for row in found.beliefs)


def test_unknown_sampler_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="informed, simple or inference"):
        make_player("pimc:sampler=psychic")


def test_the_heuristics_cards_are_likely_in_the_true_world_and_less_in_others():
    from engine.worlds.inference import card_play_matches

    true_rate, other_rate = [], []
    for seed in range(12):
        state = GameState.new(Deal.shuffled(seed))
        players = [HeuristicPlayer(seed * 3 + i) for i in range(3)]
        while not state.is_over and not (state.phase == Phase.PLAY and len(state.tricks) == 6 and not state.trick):
            state.push(players[state.to_move].choose(state.view(state.to_move)).move)
        if state.is_over:
            continue
        viewer = state.to_move
        view = state.view(viewer)
        skat = state.discard if state.skat_taken else state.skat
        matches, sizes, _ = card_play_matches(view, viewer, np.array([state.hands], np.int64), np.array([skat]))
        assert matches.shape[1] == 12 and np.all(sizes >= 4)  # the other seats' 12 cards, from hands of 4-10
        true_rate.append(matches.mean())
        hands, skats = WorldSampler(view).sample_arrays(50, np.random.default_rng(seed))
        other_rate.append(card_play_matches(view, viewer, hands, skats)[0].mean())
    assert np.mean(true_rate) > 0.9 and np.mean(other_rate) < np.mean(true_rate) - 0.1


def test_the_fit_prefers_a_sharp_model_on_heuristic_self_play():
    from engine.tools.fit_inference import fit_bidding, fit_cards, self_play

    bidding, cards = self_play(30, 1)
    model, log_likelihood = fit_bidding(bidding)
    assert log_likelihood > bidding.bidding_log_likelihood(PolicyModel(0.3, 80.0, 0.2))
    card_share, _ = fit_cards(cards)
    assert card_share <= 0.1  # the heuristic's own card is the card played nearly always


def test_pimc_solves_a_repeated_world_once_with_the_same_result(monkeypatch):
    from engine.players.pimc import PIMCPlayer

    state = first_card_state(4)
    view = state.view(state.to_move)
    original = PIMCPlayer._root_values
    solved = []

    def counting(ctx, game, d, hands, *rest):
        solved.append(len(hands))
        return original(ctx, game, d, hands, *rest)

    monkeypatch.setattr(PIMCPlayer, "_root_values", staticmethod(counting))
    reusing = make_player("pimc:simulations=60,sampler=inference,threads=2", seed=3).choose(view).analysis
    assert sum(solved) < 60  # the likeliest worlds come more than once, and are solved once
    solved.clear()

    def solving_every_world(self, ctx, game, d, hands, decl_points, trick, n_trick, view, legal, query, worlds):
        return counting(ctx, game, d, hands, decl_points, trick, n_trick, view, legal, query)

    monkeypatch.setattr(PIMCPlayer, "_root_values_once", solving_every_world)
    plain = make_player("pimc:simulations=60,sampler=inference,threads=2", seed=3).choose(view).analysis
    assert sum(solved) == 60
    assert reusing.cards == plain.cards and reusing.chosen == plain.chosen


def test_a_batch_deals_each_class_by_the_rank_of_its_random_keys():
    # sample_arrays: the cards in the order of their keys, the first ``bounds[0]`` to the first place ...
    rng = np.random.default_rng(4)
    cards = np.array([0, 5, 9, 13, 20, 31], np.int64)
    counts = rng.multinomial(len(cards), [0.2, 0.5, 0.3], size=300)
    bounds = np.cumsum(counts, axis=1)
    order = rng.random((300, len(cards))).argsort(axis=1)
    masks = deal_ranked(order, bounds, cards)
    for w in range(300):
        start = 0
        for place, end in enumerate(bounds[w]):
            assert masks[w, place] == sum(1 << int(c) for c in cards[order[w, start:end]])
            start = end
