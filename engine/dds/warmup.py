"""Compile (or load from numba's on-disk cache) the solver entry points the players call.

The first call of a numba function compiles it, which takes seconds; an app
should call ``warm_up_in_background()`` at start-up so the UI never waits on
it.  With a warm cache (``__pycache__`` next to ``core.py``) loading takes a
fraction of a second.
"""

from __future__ import annotations

import threading
import time

import numpy as np

from engine.rules import GameType

from . import core
from .solver import Position, SolverContext, solve, solve_threshold

_lock = threading.Lock()
_done = threading.Event()


def warm_up() -> float:
    """Compile or load the entry points the players call, with the argument types they use;
    returns seconds.  ``solve_value`` (benchmarks) and the ``*_std`` helpers (tests) are left
    to compile on first use: each entry point links and optimises the whole search again,
    so every one left out saves a large share of a cold start."""
    start = time.perf_counter()
    with _lock:
        if _done.is_set():
            return 0.0
        ctx = SolverContext(tt_bits=10)
        # A tiny endgame: one card each (seats 0, 1, 2), one per game type.
        for game in GameType:
            pos = Position(game=game, declarer=0, hands=(1 << 31, 1 << 30, 1 << 29), leader=0)
            solve(pos, ctx=ctx)
            solve(pos, per_card=False, ctx=ctx)
            solve_threshold(pos, 61, ctx=ctx)
            # PIMC's entry: many worlds of one decision per call (same argument types as there)
            hands = np.array([pos.hands], np.int64)
            core.solve_worlds(int(game), 0, hands, np.zeros(1, np.int64), ctx.trick, 0, 0, 0, 61,
                              np.zeros((1, 12), np.int64), np.zeros((1, 12), np.int64), np.zeros(1, np.int64),
                              *ctx.arrays)
        _done.set()
    return time.perf_counter() - start


def warm_up_in_background() -> threading.Thread:
    """Start ``warm_up`` on a daemon thread and return it (join it to wait)."""
    thread = threading.Thread(target=warm_up, name="dds-warm-up", daemon=True)
    thread.start()
    return thread


if __name__ == "__main__":
    print(f"{warm_up():.3f}")
