"""Compile (or load from numba's cache) the fast core ahead of use, part by part.

The first call of a numba function compiles it: on a new machine the whole
core takes about two minutes.  The Monte Carlo part includes the inference
core (``sampler=inference``), which MCU and PIMC may use.  The table calls ``warm_up_in_background()`` at
start-up; until a part is ready, the players that need it make simple moves
that need no compiler (``engine.players.readiness``) instead of waiting, so the
game starts at once.  The parts are compiled in the order of ``PARTS``.  With a warm
cache (``NUMBA_CACHE_DIR`` or ``__pycache__`` beside the modules) all of it
loads in about a second.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from ..players import readiness
from ..players.readiness import HEURISTIC, PARTS, PLAYOUTS, SOLVER
from ..scoring import WIN_POINTS


def _warm_heuristic() -> None:
    from ..game import Deal, GameState, Phase, Play
    from ..players.heuristic import HeuristicPlayer

    # one short game: every branch of the heuristic card play goes through choose_card_std
    state = GameState.new(Deal.shuffled(1))
    players = [HeuristicPlayer(i) for i in range(3)]
    while not state.is_over:
        view = state.view(state.to_move)
        player = players[state.to_move]
        state.push(Play(player.core_card(view)) if state.phase == Phase.PLAY else player.choose(view).move)


def _warm_playouts() -> None:
    from ..game import Deal, GameState, Phase, Play
    from ..limits import Limit
    from ..players.heuristic import HeuristicPlayer
    from ..players.mcts import MCTSPlayer
    from ..players.mcu import MCUPlayer

    # an MCU decision: the batched playouts of the Monte Carlo players
    state = GameState.new(Deal.shuffled(1))
    players = [HeuristicPlayer(i) for i in range(3)]
    while state.phase != Phase.PLAY or len(state.tricks) < 1:
        view = state.view(state.to_move)
        player = players[state.to_move]
        state.push(Play(player.core_card(view)) if state.phase == Phase.PLAY else player.choose(view).move)
    MCUPlayer(Limit(simulations=2), seed=1).choose_card(state.view(state.to_move), Limit(simulations=2), None, None)
    # and the tree search's kernel (engine.policy.mcts_core), which calls the same playouts
    MCTSPlayer(Limit(simulations=2), seed=1).choose_card(state.view(state.to_move), Limit(simulations=2), None, None)
    _warm_inference()


def _warm_inference() -> None:
    import random

    from ..game import Deal, GameState, Phase, Play
    from ..worlds.inference import InferenceSampler, log_likelihoods
    from ..players.heuristic import HeuristicPlayer

    # sampler=inference (MCU and PIMC): a defender's pool after a card of a declarer who took
    # the skat weighs its bids, discard and cards (every function of ``inference_core``)
    for seed in range(1, 100):
        state = GameState.new(Deal.shuffled(seed))
        players = [HeuristicPlayer(i) for i in range(3)]
        while not state.is_over and (state.phase != Phase.PLAY or not state.tricks):
            view = state.view(state.to_move)
            player = players[state.to_move]
            state.push(Play(player.core_card(view)) if state.phase == Phase.PLAY else player.choose(view).move)
        if not state.is_over and state.skat_taken and state.to_move != state.declarer:
            view = state.view(state.to_move)
            sampler = InferenceSampler(view, 20, 1)
            # the mixture's arrays and their likelihood (``log_likelihoods``; a pool draws the discards)
            log_likelihoods(view, [sampler.sample(random.Random(1))])
            return


def _warm_solver() -> None:
    import numpy as np

    from ..dds import core
    from ..dds.solver import Position, SolverContext, solve, solve_threshold
    from ..rules import GameType

    # Only the entry points the players call, with the argument types they use: each entry
    # point links and optimises the whole search again, so every one left out (``solve_value``
    # for benchmarks, the ``*_std`` helpers for tests) saves a large share of a cold start.
    ctx = SolverContext(tt_bits=10)
    for game in GameType:
        # a tiny endgame: one card each (seats 0, 1, 2)
        pos = Position(game=game, declarer=0, hands=(1 << 31, 1 << 30, 1 << 29), leader=0)
        solve(pos, ctx=ctx)
        solve(pos, per_card=False, ctx=ctx)
        solve_threshold(pos, WIN_POINTS, ctx=ctx)
        # PIMC's entry: many worlds of one decision per call
        hands = np.array([pos.hands], np.int64)
        core.solve_worlds(int(game), 0, hands, np.zeros(1, np.int64), ctx.trick, 0, 0, 0, WIN_POINTS,
                          np.zeros((1, 12), np.int64), np.zeros((1, 12), np.int64), np.zeros(1, np.int64),
                          *ctx.arrays)


_WARM_UP = {HEURISTIC: _warm_heuristic, PLAYOUTS: _warm_playouts, SOLVER: _warm_solver}

_done = threading.Event()
_lock = threading.Lock()
_current: str | None = None
_seconds: dict[str, float] = {}


def warm_up(*parts: str) -> float:
    """Compile or load the named parts of the core (every part when none are named);
    returns the seconds it took."""
    global _current
    start = time.perf_counter()
    with _lock:
        if _done.is_set():
            return 0.0
        for part in PARTS:
            if readiness.is_ready(part) or (parts and part not in parts):
                continue
            _current = part
            part_start = time.perf_counter()
            _WARM_UP[part]()
            _seconds[part] = time.perf_counter() - part_start
            readiness.mark_ready(part)
        _current = None
        if all(readiness.is_ready(p) for p in PARTS):
            _done.set()
    return time.perf_counter() - start


def is_warm() -> bool:
    return _done.is_set()


def cache_holds_core() -> bool:
    """Whether numba's cache already holds the core compiled for this source, so that the
    warm-up loads it (seconds) instead of compiling it (minutes): a function of the loaded
    ``engine`` modules has an index entry for its current source (helpers only inlined into
    others never have one, so "every" cannot be asked).  Reads numba's cache index (not a
    public API): when that fails, False, i.e. "compiling"."""
    import sys

    try:
        from numba.core.registry import CPUDispatcher

        dispatchers = [value for name, module in list(sys.modules.items())
                       if name.startswith("engine.") and module is not None
                       for value in list(vars(module).values())
                       if isinstance(value, CPUDispatcher) and value._cache is not None
                       and type(value._cache).__name__ != "NullCache"]
        return any(d._cache._cache_file._load_index() for d in dispatchers)
    except Exception:  # a numba whose cache looks different: say "compiling", the safe word
        return False


@dataclass(frozen=True)
class WarmUpStatus:
    """Where the background warm-up stands, for the UI's note."""

    running: bool
    ready: tuple[str, ...]
    """The parts compiled (or loaded) so far, in ``PARTS`` order."""
    current: str | None
    failure: BaseException | None
    seconds: float
    """Wall seconds since the background warm-up started."""

    @property
    def total(self) -> int:
        return len(PARTS)


def status() -> WarmUpStatus:
    started = _background_started
    running = readiness.background_running()
    return WarmUpStatus(
        running=running,
        ready=tuple(p for p in PARTS if readiness.is_ready(p)),
        current=_current if running else None,
        failure=background_failure,
        seconds=(time.perf_counter() - started) if started is not None else 0.0,
    )


_background_started: float | None = None


def warm_up_in_background() -> threading.Thread:
    global _background_started
    readiness.background_started()
    _background_started = time.perf_counter()
    thread = threading.Thread(target=_background_warm_up, name="warm-up", daemon=True)
    thread.start()
    return thread


background_failure: BaseException | None = None
"""What stopped the background warm-up, if anything (the core then compiles on first use)."""


def _background_warm_up() -> None:
    global background_failure
    try:
        warm_up()
    except Exception as exc:  # kept for the UI, not raised: a failed warm-up must not take the app down
        background_failure = exc
    finally:
        readiness.background_ended()


if __name__ == "__main__":
    print(f"warm-up took {warm_up():.2f} s")
    for name, seconds in _seconds.items():
        print(f"  {name}: {seconds:.2f} s")
