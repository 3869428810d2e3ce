"""Positions of play for the searching players' tests: heuristic players bid and play
a seeded deal up to a chosen point."""

from engine.game import Deal, GameState, Pass, Phase
from engine.house_rules import HouseRules
from engine.players.heuristic import HeuristicPlayer


def play_until(seed, tricks_done=0, cards_in_trick=0, game=None, choices=2, rules=None, ramsch=False):
    """The first of the deals ``seed``, ``seed + 1``, … that reaches a point of play after
    ``tricks_done`` tricks and ``cards_in_trick`` cards where the seat to move has at least
    ``choices`` legal cards (``game``: only games of that type; ``ramsch``: every deal played
    as a Ramsch)."""
    for offset in range(300):
        deal = Deal.shuffled(seed + offset)
        players = [HeuristicPlayer(i) for i in range(3)]
        if ramsch:
            state = GameState.new(deal, HouseRules(ramsch=True))
            for _ in range(3):
                state.push(Pass())
        else:
            state = GameState.new(deal, rules or HouseRules())
        while not state.is_over and not (
            state.phase == Phase.PLAY and len(state.tricks) == tricks_done and len(state.trick) == cards_in_trick
        ):
            state.push(players[state.to_move].choose(state.view(state.to_move)).move)
        if state.is_over or (game is not None and (state.declaration is None or state.declaration.game != game)):
            continue
        if ramsch != state.is_ramsch:
            continue
        if state.legal_cards().bit_count() >= choices:
            return state
    raise AssertionError("no fitting deal")

