"""PIMC: perfect-information Monte Carlo over the double-dummy solver.

Per sampled world every legal card is valued exactly by the solver, all hands
open (the approach of GIB, Kupferschmid's DDSS and Kermit).  With the ``wins``
evaluation one threshold query per world ("does the declarer reach 61?", or
90 / schwarz when announced) is enough and much cheaper than exact points;
every other evaluation takes the exact card points.
"""

from __future__ import annotations

import numpy as np

from ..cards import CARD_POINTS, cards_of
from ..dds.solver import Position, SolverContext, solve, solve_threshold
from ..evaluation import Evaluation
from ..limits import Limit
from ..rules import GameType
from ..sampling import World
from .montecarlo import BatchOutcome, MonteCarloPlayer

import threading


class PIMCPlayer(MonteCarloPlayer):
    name = "pimc"

    def __init__(self, limit: Limit | None = None, evaluation: Evaluation | None = None, informed: bool = True,
                 threads: int = 1, seed: int | None = None, batch_worlds: int = 2) -> None:
        super().__init__(limit, evaluation, informed, threads, seed, batch_worlds)
        self._contexts = threading.local()

    @classmethod
    def from_params(cls, params: dict[str, str], seed: int | None = None) -> PIMCPlayer:
        kwargs, rest = cls.common_params(params)
        if rest:
            raise ValueError(f"unknown PIMC parameter(s): {', '.join(rest)} "
                             "(expected time, simulations, eval, sampler, threads)")
        return cls(seed=seed, **kwargs)

    def _context(self) -> SolverContext:
        ctx = getattr(self._contexts, "ctx", None)
        if ctx is None:
            ctx = self._contexts.ctx = SolverContext()
        return ctx

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
        return view, legal, view.to_move == view.declarer, threshold

    def choose_card(self, view, limit, stop, report):
        self._threshold_only = (self.evaluation_for(view).kind == "wins"
                                and view.declaration.game != GameType.NULL)
        return super().choose_card(view, limit, stop, report)

    def value_worlds(self, context, worlds: list[World], seed: int) -> BatchOutcome:
        view, legal, declarer_side, threshold = context
        game = view.declaration.game
        d = view.declarer
        ctx = self._context()
        points = np.zeros((len(legal), len(worlds)), np.int64)
        won = np.zeros((len(legal), len(worlds)), bool)
        taken_by_declarer = view.points[d]
        taken_by_defenders = sum(view.points) - taken_by_declarer
        for j, world in enumerate(worlds):
            skat_points = 0 if game == GameType.NULL else sum(CARD_POINTS[c] for c in cards_of(world.skat))
            pos = Position(game, d, world.hands, tuple(int(c) for c in view.trick), view.leader,
                           taken_by_declarer + skat_points, view.trick_counts[d], taken_by_defenders)
            if game == GameType.NULL:
                per_card = solve(pos, True, ctx).per_card
                for i, card in enumerate(legal):
                    declarer_won = per_card[int(card)] == 1
                    won[i, j] = declarer_won == declarer_side
            elif self._threshold_only:
                per_card = solve_threshold(pos, threshold, True, ctx).per_card
                for i, card in enumerate(legal):
                    declarer_won = per_card[int(card)] == 1
                    won[i, j] = declarer_won == declarer_side
                    points[i, j] = 0
            else:
                per_card = solve(pos, True, ctx).per_card
                for i, card in enumerate(legal):
                    value = per_card[int(card)]
                    side_points = value if declarer_side else 120 - value
                    points[i, j] = side_points
                    declarer_won = value >= threshold if threshold != 120 else value == 120
                    won[i, j] = declarer_won == declarer_side
        return BatchOutcome(points, won)
