"""Ramsch and the rules a game is played by (docs/house-rules.md)."""

import pytest

from engine.game import Deal, GameState, Phase
from engine.house_rules import ISKO, PUB


def test_a_game_keeps_its_rules_through_copies_views_and_moves():
    state = GameState.new(Deal.shuffled(3), rules=PUB)
    assert state.rules == PUB
    state.push_many(state.parse_iss(t) for t in ("18", "y"))
    assert state.copy().rules == PUB
    for seat in range(3):
        assert state.view(seat).rules == PUB
    assert state.view(0).copy().rules == PUB
    state.pop()
    assert state.rules == PUB


def test_the_international_skat_order_is_the_default_and_rules_must_be_house_rules():
    assert GameState.new(Deal.shuffled(3)).rules == ISKO
    with pytest.raises(TypeError, match="HouseRules"):
        GameState.new(Deal.shuffled(3), rules="pub")


def test_without_ramsch_all_passing_passes_the_game_in():
    state = GameState.new(Deal.shuffled(3), rules=ISKO)
    state.push_many(state.parse_iss(t) for t in ("p", "p", "p"))
    assert state.phase == Phase.PASSED
