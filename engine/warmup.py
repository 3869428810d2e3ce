"""Compile (or load from numba's cache) the whole fast core ahead of use.

The first call of a numba function compiles it: seconds for the solver and
the heuristic card play.  The table calls ``warm_up_in_background()`` at
start-up so that no AI decision and no keypress waits for the compiler; with
a warm cache (``__pycache__`` beside the modules) it takes about a second.
"""

from __future__ import annotations

import threading
import time

_done = threading.Event()
_lock = threading.Lock()


def warm_up() -> float:
    """Compile or load every fast entry point; returns the seconds it took."""
    start = time.perf_counter()
    with _lock:
        if _done.is_set():
            return 0.0
        from .dds.warmup import warm_up as warm_up_solver
        from .game import Deal, GameState, Phase
        from .limits import Limit
        from .players.heuristic import HeuristicPlayer
        from .players.mcu import MCUPlayer

        warm_up_solver()
        # a short game: the heuristic player's card play and an MCU decision's batched playouts
        state = GameState.new(Deal.shuffled(1))
        players = [HeuristicPlayer(i) for i in range(3)]
        mcu = MCUPlayer(Limit(simulations=2), seed=1)
        while not state.is_over:
            view = state.view(state.to_move)
            if state.phase == Phase.PLAY and len(state.tricks) == 1:
                mcu.choose(view)
            state.push(players[state.to_move].choose(view).move)
        _done.set()
    return time.perf_counter() - start


def is_warm() -> bool:
    return _done.is_set()


def warm_up_in_background() -> threading.Thread:
    thread = threading.Thread(target=warm_up, name="warm-up", daemon=True)
    thread.start()
    return thread


if __name__ == "__main__":
    print(f"warm-up took {warm_up():.2f} s")
