"""CPU speed calibration: time budgets in reference seconds.

A budget of ``time=2`` means "as much thinking as 2 s on the reference
machine".  The reference is the machine this project's speed goals were set
on (a 2-core x86-64 VM, Python 3.11, numba 0.68); Schäfer (2005) did the same with
a 3 GHz PC of 2005.  ``skat calibrate`` runs a short fixed workload (heuristic
playouts and double-dummy solves on fixed deals), compares its time with the
reference time, and stores ``speed_factor = reference_time / measured_time``
in the user's config (``engine.limits.calibration_file``).  A player then
thinks ``time / speed_factor`` wall seconds (``engine.limits.wall_seconds``):
on a machine twice as fast, 2 reference seconds are 1 s.
"""

from __future__ import annotations

import json
import time

from .limits import calibration_file, remember_speed_factor

REFERENCE_SECONDS = 0.78
"""The workload's time on the reference machine: best of three, measured there
three times on 2026-11-22 (0.76, 0.80, 0.95 s) with
``python -c "from engine.calibration import measure; print(measure())"``."""


def _workload() -> None:
    """A fixed mix of what players spend their time on: playouts and solves."""
    import random

    from .cards import points_of
    from .scoring import WIN_POINTS
    from .dds.solver import Position, SolverContext, solve_threshold
    from .game import Deal
    from .policy import playout_core
    from .policy.playout import BENCH_GAMES
    from .rules import GameType

    playout_core.random_deal_playouts(BENCH_GAMES, 80000, 12345)
    rng = random.Random(777)
    ctx = SolverContext(tt_bits=18)
    for i in range(160):
        deal = Deal.shuffled(rng)
        game = GameType(i % 5)
        pos = Position(game, i % 3, deal.hands, declarer_points=points_of(deal.skat))
        solve_threshold(pos, WIN_POINTS, per_card=False, ctx=ctx)


def measure(repeats: int = 3) -> float:
    """Seconds the workload takes here (best of ``repeats``, after a warm-up run)."""
    _workload()  # compile or load the numba cache first
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        _workload()
        best = min(best, time.perf_counter() - start)
    return best


def calibrate() -> dict:
    """Measure, store and return the speed factor."""
    seconds = measure()
    factor = REFERENCE_SECONDS / seconds
    data = {"speed_factor": factor, "workload_seconds": seconds, "reference_seconds": REFERENCE_SECONDS,
            "measured_at": time.strftime("%Y-%m-%d %H:%M:%S")}
    path = calibration_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2))
    remember_speed_factor(factor)
    return data
