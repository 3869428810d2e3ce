"""Double-dummy solver for Skat: exact card-play values with all hands known.

``solve`` / ``solve_threshold`` on a ``Position`` for one-off questions;
``engine.dds.core`` entry points with a per-thread ``SolverContext`` for PIMC.
"""

from .solver import Position, SolveResult, SolverContext, solve, solve_threshold, thread_context

__all__ = ["Position", "SolveResult", "SolverContext", "solve", "solve_threshold", "thread_context"]
