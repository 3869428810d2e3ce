"""The warm-up compiles the inference core (``engine.tools.warmup``)."""

import subprocess
import sys
from pathlib import Path


WARM_THEN_DECIDE = """
from engine.worlds import inference_core
from engine.tools import warmup
warmup.warm_up(warmup.HEURISTIC, warmup.PLAYOUTS)
kernels = (inference_core.declarer_mixture, inference_core.mixture_log_likelihood, inference_core.heuristic_matches)
warmed = [len(k.signatures) for k in kernels]
from engine.game import Deal, GameState, Phase
from engine.players.heuristic import HeuristicPlayer
from engine.players.registry import make_player
for seed in range(100):
    state = GameState.new(Deal.shuffled(seed))
    players = [HeuristicPlayer(i) for i in range(3)]
    while not state.is_over and (state.phase != Phase.PLAY or len(state.tricks) < 2):
        state.push(players[state.to_move].choose(state.view(state.to_move)).move)
    if not state.is_over and state.skat_taken and state.to_move != state.declarer:
        make_player("mcu:simulations=5,sampler=inference", seed=1).choose(state.view(state.to_move))
        break
print(warmed, [len(k.signatures) for k in kernels])
"""


def test_the_warm_up_compiles_the_inference_core_the_table_uses():
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", WARM_THEN_DECIDE], cwd=root, capture_output=True, text=True,
                         check=True).stdout.strip()
    warmed, after_a_decision = out.rsplit("\n", 1)[-1].split("] [")
    assert warmed == "[1, 1, 1"  # every kernel is ready after the Monte Carlo part...
    assert after_a_decision == "1, 1, 1]"  # ...with the argument types a decision uses (nothing compiles again)
