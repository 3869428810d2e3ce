"""Why MCTS gains less than 2x from a second thread: the share of a search spent drawing worlds.

``python3 -m engine.tools.mcts_threads [--iterations N] [--positions N] [--rounds N]`` times
``mcts`` searches on first-trick positions (the ``skat bench`` rows' positions) with one and two
threads, and measures on one thread the share of the wall time spent in ``sample_batch``: the
worlds are drawn in Python and numpy while holding the GIL, so that part runs one thread at a
time whatever the thread count, and Amdahl's law bounds the speed-up of T threads by
1 / (share + (1 - share) / T).  The kernel (``mcts_core.mcts_batch``) releases the GIL.
"""

from __future__ import annotations

import argparse
import threading
import time

from ..limits import Limit
from ..players import mcts
from ..players.mcts import MCTSPlayer
from .search_bench import _first_trick_positions


class _SamplingClock:
    """Wraps ``mcts.sample_batch`` and adds up the seconds spent in it."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._lock = threading.Lock()
        self._original = mcts.sample_batch

    def __enter__(self) -> "_SamplingClock":
        def timed(*args, **kwargs):
            began = time.perf_counter()
            try:
                return self._original(*args, **kwargs)
            finally:
                with self._lock:
                    self.seconds += time.perf_counter() - began

        mcts.sample_batch = timed
        return self

    def __exit__(self, *exc) -> None:
        mcts.sample_batch = self._original


def measure(iterations: int, positions: int, rounds: int) -> dict:
    states = _first_trick_positions(positions)
    limit = Limit(simulations=iterations)
    result: dict = {"iterations": iterations, "positions": positions}
    for threads in (1, 2):
        player = MCTSPlayer(limit, threads=threads, seed=1)
        player.choose(states[0].view(states[0].to_move), limit)  # loads the compiled core
        best = None
        for _ in range(rounds):
            with _SamplingClock() as clock:
                began = time.perf_counter()
                for state in states:
                    player.choose(state.view(state.to_move), limit)
                wall = time.perf_counter() - began
            if best is None or wall < best[0]:
                best = (wall, clock.seconds)
        wall, sampling = best
        result[f"rate_{threads}"] = iterations * len(states) / wall
        if threads == 1:
            result["sampling_share"] = sampling / wall
    share = result["sampling_share"]
    result["amdahl_bound_2"] = 1.0 / (share + (1.0 - share) / 2)
    result["speed_up_2"] = result["rate_2"] / result["rate_1"]
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m engine.tools.mcts_threads",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20_000, help="iterations a move (default 20,000)")
    parser.add_argument("--positions", type=int, default=6, help="first-trick positions (default 6)")
    parser.add_argument("--rounds", type=int, default=3, help="best of this many rounds (default 3)")
    args = parser.parse_args(argv)
    r = measure(args.iterations, args.positions, args.rounds)
    print(f"MCTS, {r['iterations']:,} iterations a move, {r['positions']} first-trick positions, best of {args.rounds}")
    print(f"  iterations/s, 1 thread     {r['rate_1']:>10,.0f}")
    print(f"  iterations/s, 2 threads    {r['rate_2']:>10,.0f}   x{r['speed_up_2']:.2f}")
    print(f"  drawing worlds (GIL held)  {100 * r['sampling_share']:>9.1f} %  of one thread's time")
    print(f"  Amdahl bound, 2 threads    {'x' + format(r['amdahl_bound_2'], '.2f'):>10}")


if __name__ == "__main__":
    main()
