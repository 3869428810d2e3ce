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


_background = threading.Event()  # a background warm-up was started


def warm_up_in_background() -> threading.Thread:
    _background.set()
    thread = threading.Thread(target=_background_warm_up, name="warm-up", daemon=True)
    thread.start()
    return thread


background_failure: BaseException | None = None
"""What stopped the background warm-up, if anything (moves then compile on first use)."""


def _background_warm_up() -> None:
    global background_failure
    try:
        warm_up()
    except Exception as exc:  # kept, not raised: a failed warm-up must not take the app down
        background_failure = exc
    finally:
        _background.clear()  # finished or failed: no search waits for it any more


def wait_for_background_warm_up(stop: threading.Event | None = None, poll: float = 0.05) -> None:
    """Return once a started background warm-up has finished (at once if none was
    started), or when ``stop`` is set.  A move searched meanwhile would wait for
    numba's compiler inside its budget; waiting first keeps the budget honest."""
    while _background.is_set() and not _done.is_set():
        if stop is not None and stop.wait(poll):
            return
        if stop is None:
            _done.wait(poll)


if __name__ == "__main__":
    print(f"warm-up took {warm_up():.2f} s")
