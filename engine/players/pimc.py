"""PIMC: perfect-information Monte Carlo over the double-dummy solver.

Per sampled world every legal card is valued exactly by the solver, all hands
open (the approach of GIB, Kupferschmid's DDSS and Kermit).  With the ``wins``
evaluation one threshold query per world ("does the declarer reach 61?", or
90 / schwarz when announced) is enough and much cheaper than exact points;
every other evaluation takes the exact card points.
"""

from __future__ import annotations

import threading

import numpy as np

from ..cards import CARD_POINTS, cards_of
from ..dds import core
from ..dds.solver import SolverContext
from ..evaluation import Evaluation
from ..limits import Limit
from ..rules import GameType
from ..sampling import World
from .montecarlo import BatchOutcome, MonteCarloPlayer


class PIMCPlayer(MonteCarloPlayer):
    name = "pimc"

    def __init__(self, limit: Limit | None = None, evaluation: Evaluation | None = None, informed: bool = True,
                 threads: int = 1, seed: int | None = None, batch_worlds: int = 2) -> None:
        super().__init__(limit, evaluation, informed, threads, seed, batch_worlds)
        # Solver contexts (16 MiB tables) are pooled and kept across decisions: the
        # worker threads are new for every decision, the tables need not be.
        self._contexts: list[SolverContext] = []
        self._free_contexts: list[SolverContext] = []
        self._contexts_lock = threading.Lock()
        self._stopping = False  # set by on_stop_requested until the next decision

    @classmethod
    def from_params(cls, params: dict[str, str], seed: int | None = None) -> PIMCPlayer:
        kwargs, rest = cls.common_params(params)
        if rest:
            raise ValueError(f"unknown PIMC parameter(s): {', '.join(rest)} "
                             "(expected time, simulations, eval, sampler, threads)")
        return cls(seed=seed, **kwargs)

    def _acquire_context(self) -> SolverContext:
        with self._contexts_lock:
            if self._free_contexts:
                return self._free_contexts.pop()
            ctx = SolverContext()
            if self._stopping:  # a worker that starts after the stop must not solve
                ctx.request_abort()
            self._contexts.append(ctx)
            return ctx

    def _release_context(self, ctx: SolverContext) -> None:
        with self._contexts_lock:
            self._free_contexts.append(ctx)

    def on_stop_requested(self) -> None:
        """Abort the running solves: their worlds are dropped, later solves of this decision abort at once."""
        with self._contexts_lock:
            self._stopping = True
            for ctx in self._contexts:
                ctx.request_abort()

    def binary_outcomes(self, null_game: bool) -> bool:
        return null_game or self._threshold_only

    def prepare(self, view, legal):
        evaluation = self.evaluation_for(view)
        decl = view.declaration
        self._threshold_only = evaluation.kind == "wins" and decl.game != GameType.NULL
        threshold = 61
        if decl.schneider_announced:
            threshold = 90
        if decl.schwarz_announced:
            threshold = 120  # a schwarz game is won only with every trick: close enough with all points
        with self._contexts_lock:  # the previous decision's stop must not abort this one
            self._stopping = False
            for ctx in self._contexts:
                ctx.clear_abort()
        return view, legal, view.to_move == view.declarer, threshold

    def choose_card(self, view, limit, stop, report):
        self._threshold_only = (self.evaluation_for(view).kind == "wins"
                                and view.declaration.game != GameType.NULL)
        return super().choose_card(view, limit, stop, report)

    def value_worlds(self, context, worlds: list[World], seed: int) -> BatchOutcome:
        view, legal, declarer_side, threshold = context
        game = view.declaration.game
        d = view.declarer
        points = np.zeros((len(legal), len(worlds)), np.int64)
        won = np.zeros((len(legal), len(worlds)), bool)
        taken_by_declarer = view.points[d]
        trick = np.zeros(3, np.int64)
        for i, card in enumerate(view.trick):
            trick[i] = int(card)
        n_trick = len(view.trick)
        # Null ignores the threshold; suit/grand ask "declarer >= threshold?" or the exact points.
        query = threshold if self._threshold_only else core.EXACT
        binary = game == GameType.NULL or self._threshold_only
        ctx = self._acquire_context()
        valued = 0
        try:
            for j, world in enumerate(worlds):
                skat_points = 0 if game == GameType.NULL else sum(CARD_POINTS[c] for c in cards_of(world.skat))
                h0, h1, h2 = world.hands
                # One solve per world values every legal card, sharing one TT generation.
                value, _, count = core.solve_root(
                    int(game), d, h0, h1, h2, trick, n_trick, view.leader, taken_by_declarer + skat_points,
                    view.trick_counts[d], query, True, ctx.out_cards, ctx.out_values, *ctx.arrays)
                if value == core.ABORTED:
                    break  # stopped: this world is dropped, later ones are not started
                per_card = dict(zip(ctx.out_cards[:count].tolist(), ctx.out_values[:count].tolist()))
                for i, card in enumerate(legal):
                    v = per_card[int(card)]
                    if binary:
                        declarer_won = v == 1
                    else:
                        points[i, j] = v if declarer_side else 120 - v
                        declarer_won = v >= threshold if threshold != 120 else v == 120
                    won[i, j] = declarer_won == declarer_side
                valued = j + 1
        finally:
            self._release_context(ctx)
        if valued < len(worlds):
            return BatchOutcome(points[:, :valued], won[:, :valued], worlds=valued)
        return BatchOutcome(points, won)
