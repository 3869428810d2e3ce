"""Ramsch rounds after a Bock round (``ramsch_round_after_bock``): the table deals those
games as Ramsch without bidding, and a save taken in one resumes there."""

from __future__ import annotations

import pytest

from engine.cards import CardSet
from engine.game import Deal, GameState, Pass, Phase
from engine.house_rules import PUB, HouseRules
from engine.rules import GameType
from engine.scoring import Declaration, score_game
from engine.series import RoundGame, deal_game
from skat_tui.persistence import TableSession, load_session

RAMSCH_ROUNDS = PUB.with_switches(ramsch_round_after_bock=True)


def a_grand_worth_168():
    cards = CardSet.from_str("CJ SJ HJ DJ CA CT CK CQ C9 C8 C7 SA").mask
    return score_game(0, Declaration(GameType.GRAND), 18, cards, 120, 10, 0)


def test_a_ramsch_round_game_is_dealt_as_a_ramsch_and_an_ordinary_one_is_bid():
    deal = Deal.shuffled(5)
    state = deal_game(deal, RAMSCH_ROUNDS, RoundGame.RAMSCH)
    assert state.is_ramsch and state.phase == Phase.RAMSCH_SKAT
    assert [move for _, move in state.moves] == [Pass(), Pass(), Pass()]
    assert deal_game(deal, RAMSCH_ROUNDS, RoundGame.BOCK).phase == Phase.BIDDING
    assert deal_game(deal, RAMSCH_ROUNDS).phase == Phase.BIDDING


def test_a_deal_is_played_as_ramsch_only_with_the_rule_and_before_a_bid():
    with pytest.raises(ValueError, match="only with the Ramsch rule on"):
        GameState.new(Deal.shuffled(5), HouseRules(bock=True)).start_ramsch()
    state = GameState.new(Deal.shuffled(5), PUB)
    state.push(state.legal_moves()[0])  # middlehand bids 18
    with pytest.raises(ValueError, match="before anyone bids"):
        state.start_ramsch()


def test_the_table_deals_the_ramsch_round_after_the_bock_round_and_resumes_it(tmp_path):
    session = TableSession.new(3, tmp_path / "save.json", RAMSCH_ROUNDS)
    session.series.record(a_grand_worth_168())  # a Bock event: 3 Bock games, then 3 Ramsch games
    for _ in range(3):
        assert session.series.next_game == RoundGame.BOCK
        session.series.record(None)
    assert session.series.next_game == RoundGame.RAMSCH
    state = session.start_game()
    assert state.is_ramsch and state.phase == Phase.RAMSCH_SKAT
    resumed = load_session(tmp_path / "save.json")
    assert resumed is not None and resumed.state is not None
    assert resumed.state.is_ramsch and resumed.state.moves == state.moves
