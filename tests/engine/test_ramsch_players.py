"""Ramsch card play: the heuristic policy and the Ramsch playouts of the numba core."""

from __future__ import annotations

import random

import numpy as np

from engine.card_layout import RAMSCH_GAME
from engine.cards import CARD_POINTS, Card, mask_of
from engine.dds.reference import deal
from engine.policy import heuristic_core as core, playout_core


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
    out = playout_core.ramsch_playout_cards_batch(worlds_arr, skats_arr, zeros, zeros, 0, 0, zeros, zeros, 0, zeros, cards,
                                          2, 99)
    assert out.shape == (10, 20, 2, 6)
    played_in_first = out[:, 0]
    assert (played_in_first[..., :3].sum(axis=-1) == 120).all()
    assert (played_in_first[..., 3:].sum(axis=-1) == 10).all()
    valid = out[out[..., 0] >= 0]
    assert (valid[:, :3].sum(axis=1) == 120).all() and (valid[:, 3:].sum(axis=1) == 10).all()
    again = playout_core.ramsch_playout_cards_batch(worlds_arr, skats_arr, zeros, zeros, 0, 0, zeros, zeros, 0, zeros, cards,
                                            2, 99)
    assert (again == out).all()
    # the skat's points are in the last trick's winner's total
    assert sum(CARD_POINTS[c] for c in range(32) if skats[0] >> c & 1) <= played_in_first[..., :3].max()


# ---------------------------------------------------------------- players in whole Ramsch games

import pytest

from engine.game import Deal, Declare, Discard, GameState, Pass, Phase, PickUp, Push
from engine.house_rules import HouseRules
from engine.players import ramsch
from engine.players.registry import make_player
from engine.worlds.sampling import WorldSampler

RAMSCH_ONLY = HouseRules(ramsch=True)
SKAT_ROUND = HouseRules(ramsch=True, schieben=True, grand_hand_escape=True)


def play_ramsch(deal: Deal, players, rules: HouseRules) -> GameState:
    """A game whose bidding is three passes, played to its end by ``players``."""
    state = GameState.new(deal, rules=rules)
    while state.phase == Phase.BIDDING:
        state.push(Pass())
    while not state.is_over:
        state.push(players[state.to_move].choose(state.view(state.to_move)).move)
    return state


def _ramsch_state(seed: int, rules: HouseRules = RAMSCH_ONLY) -> GameState:
    state = GameState.new(Deal.shuffled(seed), rules=rules)
    while state.phase == Phase.BIDDING:
        state.push(Pass())
    return state


@pytest.mark.parametrize("spec", ["random", "heuristic", "mcu:simulations=8", "pimc:simulations=4"])
def test_every_player_kind_finishes_a_ramsch_with_the_skat_round(spec):
    """Each kind plays whole Ramsch games with Schieben and the Grand Hand escape to a scored end."""
    for seed in (1, 2):
        players = [make_player(spec, seed * 10 + seat) for seat in range(3)]
        state = play_ramsch(Deal.shuffled(seed), players, SKAT_ROUND)
        assert state.is_over and state.result() is not None


def test_a_seeded_ramsch_game_repeats():
    def play():
        players = [make_player("mcu:simulations=6", seat) for seat in range(3)]
        return play_ramsch(Deal.shuffled(5), players, RAMSCH_ONLY).moves

    assert play() == play()


def test_skat_round_rule_pushes_a_good_hand_and_picks_up_a_bad_one():
    good = _cards("D7", "D8", "D9", "H7", "H8", "S7", "S8", "C7", "C8", "HA")
    bad = _cards("DA", "DT", "HA", "S7", "S8", "C7", "C8", "C9", "H7", "H8")
    assert ramsch.liabilities(good) == 1 and ramsch.liabilities(bad) == 3
    assert ramsch.put_back(bad) == _cards("DA", "HA")  # the aces; ♥A from the shorter suit... both aces
    state = _ramsch_state(3, HouseRules(ramsch=True, schieben=True))
    move = ramsch.skat_round_move(state.view(state.to_move))
    hand = state.hands[state.to_move]
    assert isinstance(move, Push if ramsch.liabilities(hand) <= ramsch.PUSH_AT_MOST else PickUp)


def test_skat_round_rule_puts_back_two_non_jacks_and_escapes_with_a_grand_hand():
    strong = _cards("CJ", "SJ", "HJ", "DJ", "CA", "CT", "CK", "SA", "ST", "HA")
    assert ramsch.grand_hand_escape(strong, 0)
    assert not ramsch.grand_hand_escape(_cards("D7", "D8", "D9", "H7", "H8", "S7", "S8", "C7", "C8", "HA"), 0)
    assert ramsch.put_back(strong) & _cards("CJ", "SJ", "HJ", "DJ") == 0
    for seed in range(40):
        state = _ramsch_state(seed, SKAT_ROUND)
        while state.phase in (Phase.RAMSCH_SKAT, Phase.RAMSCH_DISCARD):
            move = ramsch.skat_round_move(state.view(state.to_move))
            if isinstance(move, PickUp):
                move = PickUp(state.skat)
            assert isinstance(move, (Push, PickUp, Discard, Declare))
            state.push(move)  # the engine accepts every move of the rule


def test_ramsch_worlds_keep_what_the_viewer_knows():
    """Worlds of a Ramsch view: the viewer's hand and the skat it put back are fixed, the others'
    hands and (for the others) the skat are drawn, and no world breaks a shown void."""
    state = _ramsch_state(7, HouseRules(ramsch=True, schieben=True))
    state.push(PickUp(state.skat))
    hand = state.hands[0]
    state.push(Discard(ramsch.put_back(hand)))
    put_back = state.skat
    state.push(Push())
    state.push(Push())
    rng = random.Random(1)
    for viewer in range(3):
        view = state.view(viewer)
        sampler = WorldSampler(view)
        for _ in range(20):
            world = sampler.sample(rng)
            assert world.hands[viewer] == state.hands[viewer]
            if viewer == 0:
                assert world.skat == put_back
            assert sum(h.bit_count() for h in world.hands) == 30 and world.skat.bit_count() == 2
    # play a few cards and check the shown voids hold in the worlds
    players = [make_player("heuristic", seat) for seat in range(3)]
    while len(state.tricks) < 4:
        state.push(players[state.to_move].choose(state.view(state.to_move)).move)
    view = state.view(state.to_move)
    from engine.worlds.sampling import shown_voids

    voids = shown_voids(view)
    sampler = WorldSampler(view)
    for _ in range(20):
        world = sampler.sample(rng)
        assert all(world.hands[s] & voids[s] == 0 for s in range(3))


def test_pimc_values_a_ramsch_card_by_the_paranoid_solver():
    """PIMC's per-card values in one world are the paranoid solver's (others' points = 120 - own)."""
    from engine.dds.solver import solve_ramsch
    from engine.players.pimc import PIMCPlayer
    from engine.worlds.sampling import World
    from engine.cards import cards_of, points_of

    state = _ramsch_state(11)
    players = [make_player("heuristic", seat) for seat in range(3)]
    while len(state.tricks) < 6:
        state.push(players[state.to_move].choose(state.view(state.to_move)).move)
    seat = state.to_move
    view = state.view(seat)
    legal = tuple(cards_of(view.legal_cards()))
    player = PIMCPlayer(seed=1, tiebreak="random")
    context = player.prepare(view, legal)
    world = World(tuple(state.hands), state.skat)
    outcome = player.value_worlds(context, [world], 1)
    expected = solve_ramsch(tuple(state.hands), tuple(int(c) for c in state.trick), state.leader,
                            own_points=state.points[seat], skat_points=points_of(state.skat))
    assert [int(v) for v in outcome.points[:, 0]] == [120 - expected.per_card[c] for c in legal]


def test_pimc_values_the_first_tricks_by_playouts_when_asked():
    """ramsch_solve=N: with more than N tricks left PIMC values the cards by Ramsch playouts of the
    same worlds (as MCU does); a budget knob, refused outside 0..10."""
    from engine.cards import cards_of, mask_of as mask
    from engine.players.pimc import PIMCPlayer
    from engine.players.registry import validate_spec

    state = _ramsch_state(12)
    view = state.view(0)
    legal = tuple(cards_of(view.legal_cards()))
    player = make_player("pimc:ramsch_solve=9", 1)
    assert isinstance(player, PIMCPlayer) and player.ramsch_solve == 9
    from engine.worlds.sampling import World

    worlds = [World(tuple(state.hands), state.skat)]
    outcome = player.value_worlds(player.prepare(view, legal), worlds, 5)
    points, _ = ramsch.ramsch_outcomes(view, worlds, mask(legal), 1, 5)
    assert (outcome.points == points).all()
    with pytest.raises(ValueError, match="ramsch_solve"):
        validate_spec("pimc:ramsch_solve=11")
