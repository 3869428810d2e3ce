"""Mean time per card decision of player specs, to compare budgets "at the same time per move".

``python3 -m engine.tools.decision_time SPEC [SPEC ...] [--positions N]`` plays seeded deals
with heuristic players up to the card play (trick 0 to 7, one position per deal, a choice of at
least two cards) and times each spec's decision at every position: wall and CPU milliseconds
per decision (the first decision, which may load the compiled core, is not counted).
"""

from __future__ import annotations

import argparse
import time

from ..game import Deal, GameState, Phase
from ..players.heuristic import HeuristicPlayer
from ..players.registry import make_player


def positions(count: int, seed: int = 1) -> list[GameState]:
    """Card-play positions of seeded heuristic games, at tricks 0 to 7 in turn."""
    found: list[GameState] = []
    deal_seed = seed
    while len(found) < count:
        state = GameState.new(Deal.shuffled(deal_seed))
        players = [HeuristicPlayer(i) for i in range(3)]
        tricks = deal_seed % 8
        deal_seed += 1
        while not state.is_over and not (state.phase == Phase.PLAY and len(state.tricks) == tricks):
            state.push(players[state.to_move].choose(state.view(state.to_move)).move)
        if not state.is_over and state.legal_cards().bit_count() > 1:
            found.append(state)
    return found


def decision_times(spec: str, states: list[GameState]) -> tuple[float, float]:
    """Mean wall and CPU seconds per decision of a ``spec`` player over ``states``."""
    player = make_player(spec, 1)
    player.choose(states[0].view(states[0].to_move))
    wall = cpu = 0.0
    for state in states:
        view = state.view(state.to_move)
        start, start_cpu = time.perf_counter(), time.process_time()
        player.choose(view)
        wall += time.perf_counter() - start
        cpu += time.process_time() - start_cpu
    return wall / len(states), cpu / len(states)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="+")
    parser.add_argument("--positions", type=int, default=40)
    args = parser.parse_args(argv)
    states = positions(args.positions)
    for spec in args.specs:
        wall, cpu = decision_times(spec, states)
        print(f"{spec}: {wall * 1000:.1f} ms wall, {cpu * 1000:.1f} ms CPU per decision ({len(states)} positions)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
