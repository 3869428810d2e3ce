"""MCU: the Monte Carlo player of Schäfer (2005) with imperfect information.

Per sampled world and legal card: play the card, then heuristic players
finish the game (each deciding from its own hand and public information
only), ``reps`` times per card and world; the card with the best mean
evaluation is played.  The playouts run in the numba core, one batch of
worlds per call, with the GIL released.  A Ramsch is finished by the core's
Ramsch policy (``engine.players.ramsch``).
"""

from __future__ import annotations

import numpy as np

from . import readiness
from ..cards import mask_of
from ..evaluation import Evaluation
from ..limits import Limit
from .montecarlo import BatchOutcome, MonteCarloPlayer, side_won, whole_number_param
from ..policy import playout
from ..worlds.sampling import World
from .ramsch import ramsch_outcomes


class MCUPlayer(MonteCarloPlayer):
    name = "mcu"
    core_parts = (readiness.HEURISTIC, readiness.PLAYOUTS)  # no solver
    kind_label = "MCU"
    # Sloped steps (Schäfer's type II, 50 %) rather than mean card points: against XSkat
    # +2.1 ± 1.8 a deal over 3,000 deals, the declarer winning more of its games (docs/strength.md)
    default_evaluation = Evaluation("type2", 50)
    # Its play-outs leave many cards within the noise; the lowest of them lost declarer's
    # games (a low trump led where the heuristic leads a jack): the heuristic's card
    # instead, +2.6 ± 1.7 a deal against XSkat over 3,000 deals (docs/strength.md)
    default_declarer_near = "heuristic"
    own_params = {"reps": lambda text: whole_number_param("reps", text, 1, 10_000)}
    # the rollouts' module: policy_ab gives an old player an earlier revision's
    playout = playout

    def __init__(self, limit: Limit | None = None, evaluation: Evaluation | None = None, informed: bool = True,
                 threads: int = 1, seed: int | None = None, reps: int = 1, batch_worlds: int = 16,
                 bidding: str = "heuristic", inference: bool = False,
                 near: float = MonteCarloPlayer.DEFAULT_NEAR, declarer_near: str | None = None) -> None:
        super().__init__(limit, evaluation, informed, threads, seed, batch_worlds, bidding, inference, near,
                         declarer_near)
        if reps < 1:
            raise ValueError("reps must be at least 1")
        self.reps = reps

    def prepare(self, view, legal):
        if view.is_ramsch:
            return (view, None, mask_of(legal), False)
        return (view, self.playout.PublicPosition.from_view(view), mask_of(legal), view.to_move == view.declarer)

    def value_worlds(self, context, worlds: list[World], seed: int) -> BatchOutcome:
        view, position, cards, declarer_side = context
        if position is None:  # Ramsch: the others' points and "not a loser"
            points, won = ramsch_outcomes(view, worlds, cards, self.reps, seed)
            return BatchOutcome(points, won)
        hands = [w.hands for w in worlds]
        skats = [w.skat for w in worlds]
        # the simulated declarer knows the skat only if it took it up
        out = self.playout.playout_cards(position, hands, skats, view.skat_taken, cards, self.reps, seed)
        out = out.reshape(out.shape[0], -1, 4)  # (cards, worlds * reps, 4)
        decl_points, def_points, decl_tricks, def_tricks = (out[..., i] for i in range(4))
        points = decl_points if declarer_side else def_points
        won = side_won(decl_points, def_tricks, decl_tricks, view, declarer_side)
        return BatchOutcome(np.ascontiguousarray(points), np.ascontiguousarray(won))
