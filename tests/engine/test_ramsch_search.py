"""Ramsch searched paranoid by the numba solver: against a brute-force minimax and engine.rules."""

from __future__ import annotations

import random

import pytest

from engine import card_layout
from engine.cards import CARD_POINTS, Card, mask_of
from engine.dds.reference import deal, ramsch_reference_per_card
from engine.dds.solver import SolverContext, solve_ramsch
from engine.rules import GameType, legal_cards, trick_winner
from engine.tools.warmup import SOLVER, warm_up

RAMSCH_RULES = getattr(GameType, "RAMSCH", GameType.GRAND)
"""The engine's trick rules of Ramsch: grand's (jacks the only trumps)."""


@pytest.fixture(scope="module")
def ctx() -> SolverContext:
    warm_up(SOLVER)
    return SolverContext(tt_bits=16)


def _random_ramsch_position(rng: random.Random, cards_played: int):
    """A dealt Ramsch game played on by random legal cards: (hands, trick, leader, points
    taken by the seat to move, the skat's points)."""
    hands, skat = deal(rng)
    hands = list(hands)
    taken = [0, 0, 0]
    trick: list[int] = []
    leader = 0
    for _ in range(cards_played):
        to_move = (leader + len(trick)) % 3
        legal = [c for c in range(32) if legal_cards(hands[to_move], RAMSCH_RULES, trick[0] if trick else None) >> c & 1]
        card = rng.choice(legal)
        hands[to_move] &= ~(1 << card)
        trick.append(card)
        if len(trick) == 3:
            winner = (leader + trick_winner(RAMSCH_RULES, trick)) % 3
            taken[winner] += sum(CARD_POINTS[c] for c in trick)
            trick, leader = [], winner
    to_move = (leader + len(trick)) % 3
    skat_points = sum(CARD_POINTS[c] for c in range(32) if skat >> c & 1)
    return tuple(hands), tuple(trick), leader, taken[to_move], skat_points


def test_ramsch_layout_is_pinned_to_the_engine_rules():
    """The core's Ramsch rows (legal cards, trick winner, points) are the engine's Ramsch rules."""
    rng = random.Random(22)
    g = card_layout.RAMSCH_GAME
    for _ in range(2000):
        cards = rng.sample(range(32), 13)
        hand = sum(1 << c for c in cards[:10])
        led = rng.choice([None, *cards[10:]])
        expected = legal_cards(hand, RAMSCH_RULES, led)
        assert card_layout.legal_cards_std(hand, g, -1 if led is None else led) == expected
        trick = cards[10:13]
        assert card_layout.trick_winner_std(g, *trick) == trick_winner(RAMSCH_RULES, trick)
        assert card_layout.points_std(g, hand) == sum(CARD_POINTS[c] for c in cards[:10])


def test_paranoid_values_match_brute_force_minimax(ctx):
    """Every legal card's value on random endgames (2 to 4 tricks left, on lead and mid-trick)
    equals a plain minimax over engine.rules in which the player to move minimises his
    card points, the skat's included when he takes the last trick, and both others
    maximise them."""
    rng = random.Random(2022)
    checked = mid_trick = 0
    for _ in range(150):
        hands, trick, leader, own, skat_points = _random_ramsch_position(rng, rng.randrange(18, 28))
        expected = ramsch_reference_per_card(hands, trick, leader, skat_points)
        result = solve_ramsch(hands, trick, leader, own_points=own, skat_points=skat_points, ctx=ctx)
        assert {int(c): v - own for c, v in result.per_card.items()} == expected, (hands, trick, leader)
        assert result.value == own + min(expected.values())
        assert int(result.best_card) in expected and expected[int(result.best_card)] == min(expected.values())
        checked += 1
        mid_trick += bool(trick)
    assert checked == 150 and mid_trick >= 50


def test_paranoid_values_on_five_tricks_left(ctx):
    rng = random.Random(5)
    for _ in range(4):
        hands, trick, leader, own, skat_points = _random_ramsch_position(rng, 15)
        expected = ramsch_reference_per_card(hands, trick, leader, skat_points)
        result = solve_ramsch(hands, trick, leader, own_points=own, skat_points=skat_points, ctx=ctx)
        assert {int(c): v - own for c, v in result.per_card.items()} == expected


def test_worked_example_the_skat_goes_with_the_last_trick(ctx):
    """Forehand holds ♣7 ♥7, middlehand ♣A ♥A, rearhand ♣8 ♦8; the skat holds 21 points.
    Whichever seven forehand leads, middlehand's ace takes it, and his other ace then takes
    the last trick with the skat: forehand keeps the 40 points he has.  Middlehand on lead
    instead cannot get rid of either ace: both tricks and the skat are his."""
    hands = (mask_of(Card.from_str(c) for c in ("C7", "H7")), mask_of(Card.from_str(c) for c in ("CA", "HA")),
             mask_of(Card.from_str(c) for c in ("C8", "D8")))
    result = solve_ramsch(hands, (), 0, own_points=40, skat_points=21, ctx=ctx)
    assert result.per_card == {Card.from_str("C7"): 40, Card.from_str("H7"): 40}
    result = solve_ramsch(hands, (), 1, own_points=0, skat_points=21, ctx=ctx)
    assert result.value == 11 + 11 + 21


def test_worked_example_one_trick_left(ctx):
    """One trick left: forehand's ♣J beats ♥A and ♠7, so forehand on lead takes the trick
    and the skat; middlehand leading his ace sees it trumped and keeps nothing."""
    hands = (mask_of([Card.from_str("CJ")]), mask_of([Card.from_str("HA")]), mask_of([Card.from_str("S7")]))
    result = solve_ramsch(hands, (), 0, own_points=10, skat_points=14, ctx=ctx)
    assert result.value == 10 + 2 + 11 + 14
    result = solve_ramsch(hands, (), 1, own_points=0, skat_points=14, ctx=ctx)
    assert result.value == 0
