"""The heuristic's last tricks by search (engine.players.endgame)."""

from __future__ import annotations

import pytest

from engine.cards import Card, mask_of
from engine.dds.solver import solve
from engine.house_rules import HouseRules
from engine.game import Bid, Deal, Declare, Discard, GameState, Pass, Phase, PickUp, Play
from engine.players.endgame import ENDGAME_TRICKS, EndgameSearch
from engine.players.heuristic import HeuristicPlayer
from engine.players.registry import make_player
from engine.positions import solver_position
from engine.rules import GameType
from engine.scoring import Declaration
from engine.series import play_game

# Middlehand plays clubs; after eight tricks it has 45 points with the skat and holds SK and CQ.
CARDS = ("S7 SA S8  CJ CK C7  SJ S9 DJ  C8 H8 CA  ST SQ HA  HT H7 DA  DT CT D7  C9 D9 HJ  H9").split()


def two_tricks_left() -> GameState:
    """Forehand has led H9 to the ninth trick; the declarer (middlehand, void in hearts) is to play."""
    state = GameState.new(Deal.shuffled(178))
    state.push_many([Bid(18), Pass(), Pass(), PickUp(state.skat), Discard(mask_of([Card.D8, Card.HK])),
                     Declare(Declaration(GameType.CLUBS))])
    state.push_many(Play(Card.from_str(c)) for c in CARDS)
    return state


def test_the_searched_endgame_ruffs_for_the_61st_point_where_the_rules_throw_a_king():
    state = two_tricks_left()
    assert (state.to_move, state.declarer, state.declarer_points) == (1, 1, 45)
    view = state.view(1)
    # the rules keep the last trump for the last trick and lose; the solver's values say why
    assert HeuristicPlayer(1).choose(view).move == Play(Card.SK)
    values = solve(solver_position(state)).per_card
    assert values[Card.SK] < 61 <= values[Card.CQ]
    decision = make_player("heuristic", 1).choose(view)
    assert decision.move == Play(Card.CQ)
    assert decision.analysis.player == "heuristic"
    assert "endgame search" in decision.analysis.note


def test_the_endgame_starts_at_its_trick_and_never_in_a_ramsch():
    state = two_tricks_left()
    view = state.view(1)
    assert EndgameSearch(2).due(view) and not EndgameSearch(1).due(view) and not EndgameSearch(0).due(view)
    ramsch = GameState.new(Deal.shuffled(3), HouseRules(ramsch=True))
    ramsch.push_many([Pass(), Pass(), Pass()])
    while ramsch.phase != Phase.PLAY:
        ramsch.push(HeuristicPlayer(0).choose(ramsch.view(ramsch.to_move)).move)
    assert ramsch.is_ramsch and not EndgameSearch(9).due(ramsch.view(ramsch.to_move))


def test_seeded_heuristic_games_repeat_with_the_endgame_search():
    deal = Deal.shuffled(11)
    first = play_game(deal, [make_player("heuristic", i) for i in range(3)])
    again = play_game(deal, [make_player("heuristic", i) for i in range(3)])
    rules = play_game(deal, [make_player("heuristic:endgame=0", i) for i in range(3)])
    assert first.moves == again.moves
    assert first.moves != rules.moves  # the search played some card of the last tricks


def test_the_spec_sets_the_endgame_and_refuses_a_bad_one():
    assert make_player("heuristic", 1).endgame.tricks == ENDGAME_TRICKS
    assert make_player("heuristic:endgame=0", 1).endgame is None
    assert make_player("heuristic:endgame=3", 1).endgame.tricks == 3
    assert HeuristicPlayer(1).endgame is None  # the player alone plays its rules
    with pytest.raises(ValueError, match="endgame must be a whole number from 0 to 9"):
        make_player("heuristic:endgame=10", 1)
