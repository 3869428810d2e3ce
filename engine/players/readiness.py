"""Which parts of the compiled (numba) core a player may call without waiting.

The first call of a numba function compiles it and holds numba's compiler for
seconds.  While a background warm-up (``engine.tools.warmup``) still compiles
a part, a player that needs it makes a simple move that needs no compiler
(``pending``) instead of queueing behind the warm-up.  Without a background
warm-up nothing is pending: the core compiles on first use.
"""

from __future__ import annotations

import threading

HEURISTIC = "heuristic card play"
PLAYOUTS = "Monte Carlo playouts"
SOLVER = "solver"
PARTS = (HEURISTIC, PLAYOUTS, SOLVER)
"""In the order the warm-up compiles them: the heuristic card play first (the
cheapest, and the one every fallback and playout needs), then the Monte Carlo
playouts, then the solver."""

_ready: set[str] = set()
"""The parts compiled (or loaded from the cache) so far."""
_background = threading.Event()
"""Set while a background warm-up runs."""


def pending(*parts: str) -> bool:
    """True while a background warm-up is still compiling any of ``parts`` (all parts
    when none are named).  After a failed warm-up nothing is pending any more."""
    if not _background.is_set():
        return False
    return any(p not in _ready for p in (parts or PARTS))


def mark_ready(part: str) -> None:
    _ready.add(part)


def is_ready(part: str) -> bool:
    return part in _ready


def background_started() -> None:
    _background.set()


def background_ended() -> None:
    """Finished or failed: nothing is pending any more."""
    _background.clear()


def background_running() -> bool:
    return _background.is_set()
