"""The numba core of the heuristic player: playouts that keep every rule, and the
batched entry points (its rules are ``engine.card_layout``'s, pinned in test_card_layout)."""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest

from engine.cards import FULL_DECK, cards_of
from engine import card_layout
from engine.game import Bid, Deal, Declare, GameState, Pass, Play
from engine.policy import heuristic_core as core, playout_core
from engine.players.heuristic import HeuristicPlayer
from engine.policy.playout import (
    PublicPosition,
    playout,
    playout_cards,
    playout_worlds,
)
from engine.rules import GameType, void_classes
from engine.scoring import Declaration


def declared_hand_game(deal: Deal, game: GameType, declarer: int = 1) -> GameState:
    """A state in the play phase: ``declarer`` won the bid at 18 and plays ``game`` hand."""
    state = GameState.new(deal)
    if declarer == 1:
        state.push_many([Bid(18), Pass(), Pass()])
    elif declarer == 0:
        state.push_many([Pass(), Pass(), Bid(18)])
    else:
        state.push_many([Pass(), Bid(18), Pass()])
    assert state.declarer == declarer
    state.push(Declare(Declaration(game, hand=True)))
    return state


def random_play_position(rng: random.Random) -> GameState:
    """A hand game of a random type, played at random up to a random card."""
    game = GameType(rng.randrange(6))
    state = declared_hand_game(Deal.shuffled(rng), game, rng.randrange(3))
    for _ in range(rng.randrange(29)):
        if state.is_over:
            break
        state.push(Play(rng.choice(list(cards_of(state.legal_cards())))))
    return state


def test_playouts_from_random_positions_split_120_points_and_ten_tricks():
    rng = random.Random(4)
    checked = 0
    while checked < 400:
        state = random_play_position(rng)
        if state.is_over:
            continue
        pos = PublicPosition.from_view(state)
        result = playout(
            pos.game, pos.declarer, tuple(state.hands), pos.trick, pos.leader, pos.declarer_points,
            pos.defender_points, pos.declarer_tricks, pos.defender_tricks, pos.played, pos.voids,
            skat=state.skat, skat_known=False, seed=rng.getrandbits(30),
        )
        tricks = result.declarer_tricks + result.defender_tricks
        if pos.game == GameType.NULL:
            # a null game ends at the declarer's first trick
            assert result.declarer_tricks <= 1
            assert result.declarer_tricks == 1 or tricks == 10
        else:
            assert result.declarer_points + result.defender_points == 120
            assert tricks == 10
        checked += 1


def play_out_with_engine(state: GameState, player: HeuristicPlayer) -> GameState:
    """Finish the game through GameState.push (which refuses illegal cards)."""
    while not state.is_over:
        seat = state.to_move
        state.push(player.choose(state.view(seat)).move)
    return state


@pytest.mark.parametrize("game", list(GameType))
def test_engine_accepts_every_policy_card_and_the_kernel_playout_agrees(game):
    """The policy only plays legal cards (GameState.push checks each), and the
    numba playout from the same position with the same seed plays the very
    same game: the view conversion and the kernel agree."""
    rng = random.Random(10 + game)
    for _ in range(40):
        state = declared_hand_game(Deal.shuffled(rng), game, rng.randrange(3))
        for _ in range(rng.randrange(12)):
            if not state.is_over:
                state.push(Play(rng.choice(list(cards_of(state.legal_cards())))))
        if state.is_over:
            continue
        pos = PublicPosition.from_view(state)
        seed = rng.getrandbits(30)
        expected = playout(
            game, pos.declarer, tuple(state.hands), pos.trick, pos.leader, pos.declarer_points,
            pos.defender_points, pos.declarer_tricks, pos.defender_tricks, pos.played, pos.voids,
            skat=state.skat, skat_known=False, seed=seed,
        )
        finished = play_out_with_engine(state, HeuristicPlayer(seed=seed))
        declarer = finished.declarer
        assert expected.declarer_tricks == finished.trick_counts[declarer]
        assert expected.declarer_points == finished.declarer_points


def test_void_classes_come_from_cards_that_did_not_follow():
    deal = Deal.shuffled(5)
    state = declared_hand_game(deal, GameType.GRAND)
    rng = random.Random(5)
    while not state.is_over:
        state.push(Play(rng.choice(list(cards_of(state.legal_cards())))))
    voids = void_classes(GameType.GRAND, state.tricks, (), 0)
    for trick in state.tricks:
        led = card_layout.CARD_CLASS[4, card_layout.TO_INTERNAL[4, trick.cards[0]]]
        for i, card in enumerate(trick.cards[1:], 1):
            if card_layout.CARD_CLASS[4, card_layout.TO_INTERNAL[4, card]] != led:
                assert voids[trick.seat_of(i)] >> led & 1


def sample_worlds(state: GameState, rng: random.Random, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Worlds for the seat to move: its own hand fixed, the other cards shuffled."""
    seat = state.to_move
    own = state.hands[seat]
    unknown = [c for c in range(32) if not (own | state.played) >> c & 1]
    worlds, skats = [], []
    for _ in range(count):
        rng.shuffle(unknown)
        hands, pos = [0, 0, 0], 0
        for s in range(3):
            if s == seat:
                hands[s] = own
                continue
            size = state.hands[s].bit_count()
            hands[s] = sum(1 << c for c in unknown[pos:pos + size])
            pos += size
        worlds.append(hands)
        skats.append(sum(1 << c for c in unknown[pos:pos + 2]))
    return np.array(worlds, np.int64), np.array(skats, np.int64)


def sampled_position(seed: int, game: GameType, count: int, lead: bool = False):
    """(state, public position, worlds, skats): a seeded hand game of ``game`` (after
    forehand's first legal lead with ``lead``) and ``count`` worlds sampled from it."""
    rng = random.Random(seed)
    state = declared_hand_game(Deal.shuffled(rng), game)
    if lead:
        state.push(Play(next(iter(cards_of(state.legal_cards())))))
    worlds, skats = sample_worlds(state, rng, count)
    return state, PublicPosition.from_view(state), worlds, skats


def test_batched_playouts_of_worlds_split_points_and_are_seeded():
    state, pos, worlds, skats = sampled_position(6, GameType.CLUBS, 30)
    first = playout_worlds(pos, worlds, skats, skat_known=False, repeats=4, seed=9)
    assert first.shape == (30, 4, 4)
    assert np.all(first[:, :, 0] + first[:, :, 1] == 120)
    assert np.all(first[:, :, 2] + first[:, :, 3] == 10)
    assert np.array_equal(first, playout_worlds(pos, worlds, skats, skat_known=False, repeats=4, seed=9))


def test_card_batches_cover_each_legal_card_and_mark_illegal_ones():
    state, pos, worlds, skats = sampled_position(7, GameType.GRAND, 20, lead=True)  # middlehand must follow
    own = state.hands[state.to_move]
    results = playout_cards(pos, worlds, skats, skat_known=False, cards=own, repeats=2, seed=3)
    legal = state.legal_cards()
    assert results.shape == (own.bit_count(), 20, 2, 4)
    for k, card in enumerate(cards_of(own)):
        if legal >> card & 1:
            assert np.all(results[k, :, :, 0] + results[k, :, :, 1] == 120)
        else:
            assert np.all(results[k] == -1)


def test_batched_playouts_run_in_parallel_threads_with_the_same_results():
    state, pos, worlds, skats = sampled_position(8, GameType.HEARTS, 200)
    expected = playout_worlds(pos, worlds, skats, skat_known=False, repeats=2, seed=5)
    outputs: list[np.ndarray | None] = [None, None]

    def work(slot: int) -> None:
        outputs[slot] = playout_worlds(pos, worlds, skats, skat_known=False, repeats=2, seed=5)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(np.array_equal(expected, out) for out in outputs)


def test_null_playout_stops_at_the_declarers_first_trick():
    # the declarer holds all the aces and kings: it must take a trick
    hands = (
        sum(1 << (s * 8 + r) for s in range(4) for r in (6, 7)) | (1 << 0) | (1 << 8),
        sum(1 << (s * 8 + r) for s in range(4) for r in (1, 2)) | (1 << 16) | (1 << 24),
        sum(1 << (s * 8 + r) for s in range(4) for r in (3, 4)) | (1 << 5) | (1 << 13),
    )
    skat = FULL_DECK & ~(hands[0] | hands[1] | hands[2])
    assert skat.bit_count() == 2
    result = playout(GameType.NULL, 0, hands, skat=skat, seed=1)
    assert result.declarer_tricks == 1


def test_random_deal_kernel_is_deterministic():
    games = np.array([0, 4, 5], np.int64)
    assert playout_core.random_deal_playouts(games, 300, 11) == playout_core.random_deal_playouts(games, 300, 11)




@pytest.mark.slow
def test_playout_speed_reaches_50000_per_second_per_thread():
    from engine.tools.search_bench import bench_playouts

    result = bench_playouts(2.0)
    assert result["playouts_per_second_1_thread"] >= 50_000
