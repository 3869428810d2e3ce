"""Inference of a declarer who took the skat: its bids over the 66 hands it may have held,
its discard given its twelve cards (``inference_core.declarer_mixture``)."""

import itertools
import random

import numpy as np
import pytest

from engine.worlds import hand_tables
from engine.game import Deal, GameState, Phase
from engine.worlds.inference import (FITTED_MODEL, PolicyModel, _bid_margins, _choice_log_likelihood, _sigmoid, beliefs,
                              bid_steps, evidence_in)
from engine.worlds.inference_core import TIE_BREAK, declarer_mixture, mixture_log_likelihood, pair_masks
from engine.policy import hand_eval
from engine.players.heuristic import HeuristicPlayer
from engine.rules import GameType
from engine.worlds.sampling import WorldSampler


def _twelve_cards(rng):
    deck = list(range(32))
    rng.shuffle(deck)
    return sorted(deck[:12])


def _pairs(cards):
    """The 66 pairs of ``cards`` (sorted) as masks, in the kernel's order."""
    return [(1 << a) | (1 << b) for a, b in itertools.combinations(cards, 2)]


@pytest.mark.parametrize("seat, game, bid", [(0, GameType.CLUBS, 18), (1, GameType.GRAND, 36),
                                             (2, GameType.HEARTS, 30), (0, GameType.NULL, 23)])
def test_every_ten_of_the_twelve_is_judged_as_hand_eval_judges_it(seat, game, bid):
    rng = random.Random(int(game) * 10 + seat)
    steps = np.array([18, 20, 24, 36, 48], np.int64)
    for _ in range(6):
        cards = _twelve_cards(rng)
        twelve = sum(1 << c for c in cards)
        discard = _pairs(cards)[rng.randrange(66)]
        margins, utilities, allowed, scores, discard_allowed, chosen = declarer_mixture(
            np.array([twelve]), np.array([discard]), hand_tables.forehand_bonus(seat), steps, bid, int(game),
            *hand_tables.core_tables())
        pairs = _pairs(cards)
        assert chosen[0] == pairs.index(discard)
        for p, pair in enumerate(pairs):
            ten = np.array([twelve & ~pair])
            skat_chances, skat_values = hand_tables.skat_options(ten, seat)
            hand_chances, hand_values = hand_tables.hand_options(ten, seat)
            for s, value in enumerate(steps):
                expected = max(_bid_margins(skat_chances, skat_values, hand_eval.BID_CHANCE, value)[0],
                               _bid_margins(hand_chances, hand_values, hand_eval.HAND_CHANCE, value)[0])
                assert margins[0, p, s] == pytest.approx(expected, abs=1e-9)
            assert utilities[0, p, :7] == pytest.approx(hand_tables.expected_scores(hand_chances, hand_values)[0])
            assert list(allowed[0, p, :7]) == list(hand_values[0] >= bid)
            if game != GameType.NULL:  # the discard's score: the strength it leaves and the habits
                assert scores[0, p] + TIE_BREAK * p == pytest.approx(
                    hand_eval.after_discard_strength(twelve & ~pair, game, seat, pair)
                    + hand_eval.discard_habit(twelve & ~pair, pair, game), abs=1e-9)
        # the best allowed pair is the discard the heuristic puts away for this game
        best = pairs[int(np.argmax(np.where(discard_allowed[0], scores[0], -np.inf)))]
        assert best == hand_eval.best_discard(twelve, game, seat)[0]


def test_pair_masks_are_the_pairs_of_the_twelve_in_the_kernels_order():
    rng = random.Random(3)
    twelves = [_twelve_cards(rng) for _ in range(20)]
    masks = pair_masks(np.array([sum(1 << c for c in cards) for cards in twelves], np.int64))
    for cards, row in zip(twelves, masks):
        assert row.tolist() == _pairs(cards)


@pytest.mark.parametrize("bid_temperature, game_temperature", [(0.05, 5.0), (0.002, 0.5)])
def test_the_mixture_is_the_mean_likelihood_over_the_original_skats(bid_temperature, game_temperature):
    rng = np.random.default_rng(4)
    margins = rng.normal(0, 0.2, (3, 66, 4))
    went_on = np.array([[1, 1, 0, -1], [1, 0, -1, -1], [1, 1, 1, 0]], np.int8)
    utilities = rng.normal(0, 30, (3, 66, 8))
    allowed = rng.random((3, 66, 8)) < 0.6
    allowed[..., 7] = rng.random((3, 66)) < 0.9
    model = PolicyModel(bid_temperature, game_temperature, 0.02)
    found = mixture_log_likelihood(margins, went_on, utilities, allowed, bid_temperature, game_temperature, 0.02)
    for w in range(3):
        per_hand = np.zeros(66)
        for s in range(4):
            if went_on[w, s] >= 0:
                go_on = 0.01 + 0.98 * _sigmoid(margins[w, :, s] / bid_temperature)
                per_hand += np.log(go_on if went_on[w, s] else 1 - go_on)
        per_hand += _choice_log_likelihood(utilities[w], allowed[w], np.full(66, 7), model)
        assert found[w] == pytest.approx(np.log(np.mean(np.exp(per_hand))), rel=1e-9, abs=1e-9)


def _declarer_took_the_skat(seed):
    state = GameState.new(Deal.shuffled(seed))
    players = [HeuristicPlayer(seed * 3 + i) for i in range(3)]
    while state.phase != Phase.PLAY and not state.is_over:
        state.push(players[state.to_move].choose(state.view(state.to_move)).move)
    return state if state.phase == Phase.PLAY and state.skat_taken else None


def _skat_games(seeds: int):
    """(seed, game at the opening lead) for the deals among the first ``seeds`` where the
    heuristic's declarer took the skat."""
    for seed in range(seeds):
        state = _declarer_took_the_skat(seed)
        if state is not None:
            yield seed, state


def test_the_hand_the_declarer_bid_with_explains_its_bids_best():
    # in the true world one of the 66 tens is the hand the declarer bid with: the heuristic's
    # bids and its taking the skat are likely there, and likelier than over the 66 on average
    judged, likely, above_mean = 0, 0, 0
    for seed, state in _skat_games(60):
        view = state.view((state.declarer + 1) % 3)
        found = evidence_in(view, np.array([state.hands], np.int64), np.array([state.discard]), cards=False)
        assert len(found.mixtures) == 1 and found.discard is not None
        mixture = found.mixtures[0]
        assert len(mixture.went_on) == sum(s.seat == state.declarer for s in bid_steps(state))
        twelve = state.hands[state.declarer] | state.discard
        pair = _pairs(sorted(c for c in range(32) if twelve >> c & 1)).index(twelve & ~state.deal.hands[state.declarer])
        went_on = mixture.went_on[None, :].copy()
        true_hand = mixture_log_likelihood(mixture.margins[:, pair:pair + 1].copy(), went_on,
                                           mixture.utilities[:, pair:pair + 1].copy(),
                                           mixture.allowed[:, pair:pair + 1].copy(), FITTED_MODEL.bid_temperature,
                                           FITTED_MODEL.game_temperature, FITTED_MODEL.uniform_share)[0]
        judged += 1
        likely += true_hand > np.log(0.5)
        above_mean += true_hand > mixture.log_likelihood(FITTED_MODEL)[0]
    assert judged >= 20
    assert likely >= 0.8 * judged and above_mean >= 0.8 * judged


def test_defenders_know_the_discard_better_than_the_uniform_sampler():
    # the cards the declarer put away: the inference beliefs give them the skat more often
    inferred, informed = [], []
    for seed, state in _skat_games(40):
        if state.declaration.game == GameType.NULL:
            continue
        view = state.view((state.declarer + 1) % 3)
        a, b = beliefs(view, "inference", seed=seed, pool=2000), beliefs(view, "informed")
        for card in range(32):
            if state.discard >> card & 1:
                inferred.append(a.places[card, 3])
                informed.append(b.places[card, 3])
    assert len(inferred) >= 30
    assert np.mean(inferred) > 2 * np.mean(informed)  # 2/22 a card for the uniform sampler


def test_drawn_discards_keep_the_hard_facts_and_follow_the_model():
    from engine.worlds.inference import draw_discards, draws_discards, played_by
    from engine.worlds.sampling import WorldSampler, shown_voids

    sharp = PolicyModel(0.01, 0.5, 0.02, discard_temperature=1e-9)
    checked = heuristic = 0
    for seed, state in _skat_games(40):
        # a few tricks in, so that the declarer has played cards and may have shown voids
        players = [HeuristicPlayer(seed * 3 + i) for i in range(3)]
        while not state.is_over and len(state.tricks) < 4:
            state.push(players[state.to_move].choose(state.view(state.to_move)).move)
        if state.is_over or state.to_move == state.declarer:
            continue
        view = state.view(state.to_move)
        base = WorldSampler(view)
        assert draws_discards(view, base) and not draws_discards(state.view(state.declarer), WorldSampler(
            state.view(state.declarer)))
        hands, skats = base.sample_arrays(200, np.random.default_rng(seed))
        new_hands, new_skats, log_weights, _ = draw_discards(view, base, hands, skats, sharp,
                                                             np.random.default_rng(seed))
        decl = state.declarer
        void = shown_voids(view)[decl]
        assert np.all(log_weights <= 0)  # Z / m: the allowed pairs' probability over their number
        assert np.all(new_hands[:, [s for s in range(3) if s != decl]] == hands[:, [s for s in range(3) if s != decl]])
        assert np.all((new_hands[:, decl] | new_skats) == (hands[:, decl] | skats))  # the same twelve, split anew
        for hand, skat in zip(new_hands[:, decl], new_skats):
            assert int(skat).bit_count() == 2 and int(hand).bit_count() == view.hand_sizes[decl]
            assert hand & void == 0  # no card of a class it showed void in
            played = sum(1 << c for t in state.tricks for c in t.cards)
            assert skat & played == 0
        # with a near-certain model the drawn pair is the heuristic's discard whenever the facts allow it
        for hand, skat in zip(new_hands[:, decl], new_skats):
            twelve = int(hand) | int(skat) | played_by(view)[decl]
            best = hand_eval.best_discard(twelve, state.declaration.game, decl)[0]
            if best & ~(int(hand) | int(skat)) == 0 and (int(hand) | int(skat)) & ~best & void == 0:
                heuristic += skat == best
                checked += 1
    assert checked >= 100 and heuristic >= 0.95 * checked



def test_worlds_with_the_same_twelve_are_judged_once_and_as_if_alone():
    # a pool late in a game holds the same twelve cards of the declarer many times: they share
    # one row of the mixture, and each world keeps its own discard
    models = [FITTED_MODEL, PolicyModel(0.05, 5.0, 0.02, discard_temperature=0.5)]
    checked = 0
    for seed, state in _skat_games(40):
        view = state.view((state.declarer + 1) % 3)
        hands, skats = WorldSampler(view).sample_arrays(30, np.random.default_rng(seed))
        # every world again with the same twelve split otherwise: a kept card and a skat card swapped
        decl = state.declarer
        swapped_hands, swapped_skats = hands.copy(), skats.copy()
        for w in range(len(hands)):
            kept, skat = int(hands[w, decl]), int(skats[w])
            out, into = kept & -kept, skat & -skat
            swapped_hands[w, decl] = kept & ~out | into
            swapped_skats[w] = skat & ~into | out
        twelves = {int(hands[w, decl]) | int(skats[w]) for w in range(len(hands))}  # a pool may repeat one
        hands = np.concatenate([hands, swapped_hands, hands[:5]])
        skats = np.concatenate([skats, swapped_skats, skats[:5]])
        found = evidence_in(view, hands, skats, cards=False)
        assert found.mixtures[0].rows is not None and len(found.mixtures[0].margins) == len(twelves)
        alone = [evidence_in(view, hands[w:w + 1], skats[w:w + 1], cards=False) for w in range(len(hands))]
        assert found.discard.chosen.tolist() == [int(a.discard.chosen[0]) for a in alone]
        assert np.array_equal(found.discard.scores, np.concatenate([a.discard.scores for a in alone]))
        for model in models:
            assert np.array_equal(found.log_likelihood(model), np.concatenate([a.log_likelihood(model) for a in alone]))
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_a_drawn_pool_weighs_the_mixture_as_its_arrays_do():
    # draw_discards judges the declarer's 66 hands world by world without keeping the arrays
    # (inference_core.drawn_declarer): the same likelihood as the mixture's arrays give, to the bit
    from engine.worlds.inference import _declarer_twelve, draw_discards, played_by

    other = PolicyModel(0.05, 5.0, 0.1)
    checked = 0
    for seed, state in _skat_games(40):
        view = state.view((state.declarer + 1) % 3)
        base = WorldSampler(view)
        hands, skats = base.sample_arrays(40, np.random.default_rng(seed))
        hands, skats = np.concatenate([hands, hands[:10]]), np.concatenate([skats, skats[:10]])  # shared twelves
        _, _, _, drawn = draw_discards(view, base, hands, skats, FITTED_MODEL, np.random.default_rng(seed))
        decl = state.declarer
        twelve = hands[:, decl] | skats | played_by(view)[decl]
        own = [s for s in bid_steps(view) if s.seat == decl]
        arrays, _ = _declarer_twelve(view, own, twelve & ~skats, skats)
        for model in (FITTED_MODEL, other):
            assert np.array_equal(drawn.log_likelihood(model), arrays.log_likelihood(model))
        checked += 1
        if checked == 4:
            break
    assert checked == 4
