import math
import random
from collections import Counter

import pytest

from engine.cards import FULL_DECK
from engine.game import Deal, GameState, Phase
from engine.players import RandomPlayer
from engine.worlds.sampling import WorldSampler, enumerate_worlds, shown_voids


def position(seed, tricks_done, cards_in_trick):
    """A seeded random game stopped at a given point of play (None if it ended before)."""
    state = GameState.new(Deal.shuffled(seed))
    players = [RandomPlayer(seed * 3 + i) for i in range(3)]
    while not state.is_over:
        if state.phase == Phase.PLAY and len(state.tricks) == tricks_done and len(state.trick) == cards_in_trick:
            return state
        state.push(players[state.to_move].choose(state.view(state.to_move)).move)
    return None


def chi_square_critical(df, z=3.09):
    """Upper 0.1 % point of chi-square (Wilson-Hilferty approximation)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def constrained_defender_position():
    # seed 0: middlehand defends with 2 tricks left; shown voids cut 30 worlds to 18
    state = position(0, 8, 1)
    view = state.view(state.to_move)
    assert state.to_move != state.declarer and any(shown_voids(view))
    return state, view


@pytest.mark.parametrize("informed", [True, False])
def test_sampler_draws_every_consistent_world_uniformly(informed):
    state, view = constrained_defender_position()
    worlds = enumerate_worlds(view, informed)
    sampler = WorldSampler(view, informed)
    assert sampler.world_count == len(worlds)
    rng = random.Random(1)
    draws = 200 * len(worlds)
    counts = Counter(sampler.sample(rng) for _ in range(draws))
    assert set(counts) == set(worlds)  # nothing outside, nothing missing
    expected = draws / len(worlds)
    chi2 = sum((counts[w] - expected) ** 2 / expected for w in worlds)
    assert chi2 < chi_square_critical(len(worlds) - 1)
    real = (tuple(state.hands), state.discard if state.skat_taken else state.skat)
    assert real in {(w.hands, w.skat) for w in worlds}


def test_informed_sampler_respects_voids_and_simple_does_not():
    _, view = constrained_defender_position()
    informed = WorldSampler(view, True)
    simple = WorldSampler(view, False)
    assert informed.world_count == 18 and simple.world_count == 30


def test_world_count_before_play_is_the_binomial_product():
    state = GameState.new(Deal.shuffled(3))
    sampler = WorldSampler(state.view(0))
    assert sampler.world_count == math.comb(22, 10) * math.comb(12, 10)


@pytest.mark.parametrize("seed", range(30))
def test_sampled_worlds_keep_what_the_viewer_knows(seed):
    rng = random.Random(seed)
    state = position(seed, rng.randrange(0, 9), rng.randrange(0, 3))
    if state is None:
        return
    for viewer in range(3):
        view = state.view(viewer)
        sampler = WorldSampler(view)
        voids = shown_voids(view)
        for _ in range(20):
            w = sampler.sample(rng)
            assert w.hands[viewer] == state.hands[viewer]
            assert [h.bit_count() for h in w.hands] == state.hand_sizes
            assert w.skat.bit_count() == 2
            assert w.hands[0] | w.hands[1] | w.hands[2] | w.skat | state.played == FULL_DECK
            assert all(not (w.hands[s] & voids[s]) for s in range(3))
            if viewer == state.declarer and state.skat_taken:
                assert w.skat == state.discard


@pytest.mark.parametrize("informed", [True, False])
def test_marginals_are_the_share_of_worlds_holding_each_card(informed):
    _, view = constrained_defender_position()
    worlds = enumerate_worlds(view, informed)
    sampler = WorldSampler(view, informed)
    marginals = sampler.marginals()
    for card in range(32):
        if not sampler.unknown >> card & 1:
            assert marginals[card].sum() == 0
            continue
        for place in range(4):
            holding = sum(1 for w in worlds if ((w.skat if place == 3 else w.hands[place]) >> card) & 1)
            assert marginals[card, place] == pytest.approx(holding / len(worlds))


def test_sampling_many_at_once_draws_every_consistent_world_uniformly():
    import numpy as np

    state, view = constrained_defender_position()
    worlds = enumerate_worlds(view, True)
    sampler = WorldSampler(view, True)
    draws = 200 * len(worlds)
    hands, skats = sampler.sample_arrays(draws, np.random.default_rng(1))
    counts = Counter((tuple(int(h) for h in row), int(skat)) for row, skat in zip(hands, skats))
    assert set(counts) == {(w.hands, w.skat) for w in worlds}
    expected = draws / len(worlds)
    chi2 = sum((counts[(w.hands, w.skat)] - expected) ** 2 / expected for w in worlds)
    assert chi2 < chi_square_critical(len(worlds) - 1)
