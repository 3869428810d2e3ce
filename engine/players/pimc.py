"""PIMC: perfect-information Monte Carlo over the double-dummy solver.

Per sampled world every legal card is valued by the solver, all hands open
(the approach of GIB, Kupferschmid's DDSS and Kermit).  Threshold queries
("does the declarer reach T?") are far cheaper than exact points, so each
evaluation asks only what it needs:

- ``wins``: one query per world (61, or 90 / 120 when announced);
- ``step``: the outcome class (schwarz, schneider, lost, won, schneider,
  schwarz) from the queries 61, then 90 and 120 or 31 and 1 as the cards need;
- every other evaluation: the exact card points.

Cards with equal evaluations are common (a won game is won with several
cards; a lost one lost with all), so ties are broken by heuristic playouts
of the same worlds (``tiebreak=playout``, the default): the card after which
heuristic players reach the most points for our side (null: win most often).
A playout costs microseconds against milliseconds for a solve.

A Ramsch is searched paranoid (``core.solve_worlds_ramsch``, ``docs/solver.md``):
each card is valued by the card points the two others end with when both play
against the player to move.
"""

from __future__ import annotations

import threading

import numpy as np

from ..cards import mask_of, points_of
from ..dds import core
from ..dds.solver import SolverContext
from ..evaluation import Evaluation
from ..limits import Limit
from ..rules import GameType
from ..scoring import ALL_POINTS, OUT_OF_SCHNEIDER, SCHNEIDER_POINTS, WIN_POINTS
from .calls import PIMC_KONTRA_WIN_SHARE
from .montecarlo import BatchOutcome, MonteCarloPlayer, number_param, side_won, whole_number_param
from ..policy.playout import PublicPosition, playout_cards
from ..worlds.sampling import World
from .ramsch import ramsch_outcomes

RAMSCH = "ramsch"
"""``prepare``'s marker of a Ramsch decision (searched paranoid, ``_ramsch_values``)."""


PIMC_TT_BITS = 16
"""Table size of PIMC's solver contexts (2**16 entries, 1 MiB): each world is a new deal of
a few thousand (win/loss) to ~140,000 (exact per card) nodes, and a table that stays in the
caches beats a larger one (one run, random deals, win/loss: 2,351 / 4,050 worlds/s on 1 / 2
threads against 2,195 / 3,188 with 2**19; exact per card and bid games within noise)."""


class PIMCPlayer(MonteCarloPlayer):
    name = "pimc"
    kind_label = "PIMC"
    kontra_win_share = PIMC_KONTRA_WIN_SHARE
    own_params = {"tiebreak": str, "margin": lambda text: number_param("margin", text, 0, 1000),
                  "ramsch_solve": lambda text: whole_number_param("ramsch_solve", text, 0, 10)}

    TIE_BREAKS = ("playout", "random")
    bid_valuation = "solver"

    def __init__(self, limit: Limit | None = None, evaluation: Evaluation | None = None, informed: bool = True,
                 threads: int = 1, seed: int | None = None, batch_worlds: int = 8,
                 tiebreak: str = "playout", margin: float = 0.0, bidding: str = "heuristic",
                 inference: bool = False, near: float = MonteCarloPlayer.DEFAULT_NEAR,
                 ramsch_solve: int = 10, declarer_near: str | None = None) -> None:
        # 8 worlds a core call: the Python around each call (sampling, arrays, playouts) holds
        # the GIL, and a second thread waits for it less with fewer, larger calls (random deals,
        # 2 threads, in one run: 3,119 worlds/s at 2, 3,601 at 6, 3,808 at 10).  A stop aborts
        # the running solve, so the batch size does not delay it.
        super().__init__(limit, evaluation, informed, threads, seed, batch_worlds, bidding, inference, near,
                         declarer_near)
        if tiebreak not in self.TIE_BREAKS:
            raise ValueError(f"tiebreak must be one of {', '.join(self.TIE_BREAKS)}, not {tiebreak!r}")
        if margin < 0:
            raise ValueError("margin must not be negative")
        self.tiebreak = tiebreak
        self.tie_margin = margin
        self.ramsch_solve = ramsch_solve
        """Ramsch: the solver values the cards once at most this many tricks are left (the
        first trick's solves cost most: ~10x the second's); before, Ramsch playouts of the
        same worlds do (as MCU's).  10: always the solver."""
        # Solver contexts (1 MiB tables) are pooled and kept across decisions: the
        # worker threads are new for every decision, the tables need not be.
        self._contexts: list[SolverContext] = []
        self._free_contexts: list[SolverContext] = []
        self._contexts_lock = threading.Lock()
        self._stopping = False  # set by on_stop_requested until the next decision
        # Root values of the worlds solved in this decision: a sampler that draws by weight
        # (sampler=inference) hands out the likeliest worlds more than once, and the solver's
        # answer for a world is always the same, so a repeat is not solved again.
        self._solved: dict[tuple, np.ndarray] = {}
        self._solved_lock = threading.Lock()

    def _acquire_context(self) -> SolverContext:
        with self._contexts_lock:
            if self._free_contexts:
                return self._free_contexts.pop()
            ctx = SolverContext(tt_bits=PIMC_TT_BITS)
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

    _classes_only = False

    def prepare(self, view, legal):
        with self._solved_lock:
            self._solved = {}
        with self._contexts_lock:  # the previous decision's stop must not abort this one
            self._stopping = False
            for ctx in self._contexts:
                ctx.clear_abort()
        if view.is_ramsch:
            return view, legal, False, None, RAMSCH
        evaluation = self.evaluation_for(view)
        decl = view.declaration
        self._threshold_only = evaluation.kind == "wins" and decl.game != GameType.NULL
        threshold = decl.points_needed
        position = PublicPosition.from_view(view) if self.tiebreak == "playout" else None
        return view, legal, view.to_move == view.declarer, threshold, position

    def choose_card(self, view, limit, stop, report, value_single_card=False, read_bidding=False):
        kind = self.evaluation_for(view).kind
        suit_or_grand = view.game != GameType.NULL and not view.is_ramsch
        self._threshold_only = kind == "wins" and suit_or_grand
        self._classes_only = kind == "step" and suit_or_grand
        return super().choose_card(view, limit, stop, report, value_single_card, read_bidding)

    def value_worlds(self, context, worlds: list[World], seed: int) -> BatchOutcome:
        view, legal, declarer_side, threshold, position = context
        if position is RAMSCH:
            return self._ramsch_values(view, legal, worlds, seed)
        game = view.declaration.game
        d = view.declarer
        trick = np.zeros(3, np.int64)
        for i, card in enumerate(view.trick):
            trick[i] = int(card)
        n_trick = len(view.trick)
        hands = np.array([w.hands for w in worlds], np.int64).reshape(len(worlds), 3)
        decl_points = np.full(len(worlds), view.points[d], np.int64)
        if game != GameType.NULL:
            decl_points += [points_of(w.skat) for w in worlds]
        # Null ignores the threshold; suit/grand ask "declarer >= threshold?" or the exact points.
        query = threshold if self._threshold_only else WIN_POINTS if self._classes_only else core.EXACT
        binary = game == GameType.NULL or self._threshold_only  # else values are (representative) points
        ctx = self._acquire_context()
        try:
            if self._classes_only:
                values = self._class_values(ctx, game, d, hands, decl_points, trick, n_trick, view, legal)
            else:
                values = self._root_values_once(ctx, game, d, hands, decl_points, trick, n_trick, view, legal,
                                                query, worlds)
        finally:
            self._release_context(ctx)
        valued = values.shape[1]
        if binary:
            won = (values == 1) == declarer_side
            points = np.zeros(values.shape, np.int64)
        else:
            points = values if declarer_side else 120 - values
            declarer_won = values >= threshold
            won = declarer_won == declarer_side
        tie_break = None
        if position is not None and valued:
            tie_break = self._playout_values(view, position, legal, worlds[:valued], declarer_side, seed)
        return BatchOutcome(points, won, worlds=valued if valued < len(worlds) else None, tie_break=tie_break)

    def _ramsch_values(self, view, legal, worlds: list[World], seed: int) -> BatchOutcome:
        """Ramsch, searched paranoid: per card and world the card points the two others end
        with when they play to give the player to move as many as they can (so 120 minus
        the least he can be held to); won: that proves him no loser (he ends below 40, so
        one of them has more).  Ties are broken by Ramsch playouts of the same worlds."""
        seat = view.to_move
        if 10 - len(view.tricks) > self.ramsch_solve:
            points, won = ramsch_outcomes(view, worlds, mask_of(legal), 1, seed)
            return BatchOutcome(points, won)
        trick = np.zeros(3, np.int64)
        for i, card in enumerate(view.trick):
            trick[i] = int(card)
        hands = np.array([w.hands for w in worlds], np.int64).reshape(len(worlds), 3)
        others = np.full(len(worlds), sum(view.points) - view.points[seat], np.int64)
        skat_points = np.array([points_of(w.skat) for w in worlds], np.int64)
        k = len(worlds)
        out_cards = np.zeros((k, 12), np.int64)
        out_values = np.zeros((k, 12), np.int64)
        out_counts = np.zeros(k, np.int64)
        ctx = self._acquire_context()
        try:
            solved = core.solve_worlds_ramsch(seat, hands, others, skat_points, trick, len(view.trick), view.leader,
                                              core.EXACT, out_cards, out_values, out_counts, *ctx.arrays)
        finally:
            self._release_context(ctx)
        if solved == 0:
            values = np.zeros((len(legal), 0), np.int64)
        else:
            order = out_cards[0, :out_counts[0]].tolist()
            values = out_values[:solved, [order.index(int(card)) for card in legal]].T.copy()
        tie_break = None
        if self.tiebreak == "playout" and solved:
            tie_break = ramsch_outcomes(view, worlds[:solved], mask_of(legal), 1, seed)[0].astype(np.float64)
        return BatchOutcome(values, values > 80, worlds=solved if solved < len(worlds) else None,
                            tie_break=tie_break)

    def _root_values_once(self, ctx, game, d, hands, decl_points, trick, n_trick, view, legal, query,
                          worlds: list[World]) -> np.ndarray:
        """``_root_values``, solving each world not solved before in this decision once;
        columns for the worlds in order, up to the first one a stop left unsolved."""
        keys = [(w.hands, w.skat) for w in worlds]
        with self._solved_lock:
            known = {k: self._solved[k] for k in keys if k in self._solved}
        rows = list({k: i for i, k in reversed(list(enumerate(keys))) if k not in known}.values())
        rows.sort()
        if rows:
            values = self._root_values(ctx, game, d, hands[rows], decl_points[rows], trick, n_trick, view, legal,
                                       query)
            fresh = {keys[rows[j]]: values[:, j] for j in range(values.shape[1])}
            known.update(fresh)
            with self._solved_lock:
                self._solved.update(fresh)
        columns = []
        for k in keys:
            if k not in known:
                break
            columns.append(known[k])
        if not columns:
            return np.zeros((len(legal), 0), np.int64)
        return np.stack(columns, axis=1)

    @staticmethod
    def _root_values(ctx, game, d, hands, decl_points, trick, n_trick, view, legal, query) -> np.ndarray:
        """Per legal card (rows, in ``legal`` order) and world solved (columns): the
        root value after that card; one core call for all worlds of the batch."""
        k = hands.shape[0]
        out_cards = np.zeros((k, 12), np.int64)
        out_values = np.zeros((k, 12), np.int64)
        out_counts = np.zeros(k, np.int64)
        solved = core.solve_worlds(int(game), d, hands, decl_points, trick, n_trick, view.leader,
                                   view.trick_counts[d], query, out_cards, out_values, out_counts, *ctx.arrays)
        if solved == 0:
            return np.zeros((len(legal), 0), np.int64)
        # The legal cards come out in the same order in every world (the player's own hand).
        order = out_cards[0, :out_counts[0]].tolist()
        columns = [order.index(int(card)) for card in legal]
        return out_values[:solved, columns].T.copy()

    def _class_values(self, ctx, game, d, hands, decl_points, trick, n_trick, view, legal) -> np.ndarray:
        """Like ``_root_values`` for the step evaluation: each card's outcome class as
        representative declarer points (see ``_outcome_classes``)."""
        columns = []
        for j in range(hands.shape[0]):
            world_hands = tuple(int(h) for h in hands[j])
            value, _, count = core.solve_root(
                int(game), d, *world_hands, trick, n_trick, view.leader, int(decl_points[j]),
                view.trick_counts[d], WIN_POINTS, True, ctx.out_cards, ctx.out_values, *ctx.arrays)
            if value == core.ABORTED:
                break  # stopped: this world is dropped, later ones are not started
            reaches_61 = dict(zip(ctx.out_cards[:count].tolist(), ctx.out_values[:count].tolist()))
            classes = self._outcome_classes(ctx, reaches_61, game, d, world_hands, trick, n_trick, view,
                                            int(decl_points[j]))
            if classes is None:
                break
            columns.append([classes[int(card)] for card in legal])
        return np.array(columns, np.int64).reshape(len(columns), len(legal)).T.copy()

    @staticmethod
    def _playout_values(view, position, legal, worlds: list[World], declarer_side: bool, seed: int) -> np.ndarray:
        """Per card and world: our side's points after one heuristic playout (null: 1 if our side won)."""
        out = playout_cards(position, [w.hands for w in worlds], [w.skat for w in worlds], view.skat_taken,
                            mask_of(legal), 1, seed)
        out = out.reshape(out.shape[0], -1, 4)  # (cards in index order = legal order, worlds, 4)
        decl_points, def_points, decl_tricks, def_tricks = (out[..., i] for i in range(4))
        if view.declaration.game == GameType.NULL:
            return side_won(decl_points, def_tricks, decl_tricks, view, declarer_side).astype(np.float64)
        return (decl_points if declarer_side else def_points).astype(np.float64)

    # Each outcome class counts as representative declarer points, for the step
    # evaluation and the histogram: 0 (no point), 15 (schneider), 45 (lost),
    # 75 (won), 100 (schneider), 120 (all).

    def _outcome_classes(self, ctx, reaches_61, game, d, hands, trick, n_trick, view, declarer_points):
        """Per card, the declarer's points of its outcome class, from threshold queries
        (None if a query was aborted).  ``reaches_61`` holds the answers to 61."""
        answers: dict[int, dict[int, int] | None] = {WIN_POINTS: reaches_61}
        cards = list(reaches_61)

        def ask(threshold: int) -> dict[int, int] | None:
            value, _, count = core.solve_root(
                int(game), d, hands[0], hands[1], hands[2], trick, n_trick, view.leader, declarer_points,
                view.trick_counts[d], threshold, True, ctx.out_cards, ctx.out_values, *ctx.arrays)
            if value == core.ABORTED:
                return None
            return dict(zip(ctx.out_cards[:count].tolist(), ctx.out_values[:count].tolist()))

        # only the thresholds some card's class depends on
        for threshold, needed in ((SCHNEIDER_POINTS, any(reaches_61.values())),
                                  (OUT_OF_SCHNEIDER, not all(reaches_61.values()))):
            if needed:
                answers[threshold] = ask(threshold)
                if answers[threshold] is None:
                    return None
        if SCHNEIDER_POINTS in answers and any(answers[SCHNEIDER_POINTS].values()):
            answers[ALL_POINTS] = ask(ALL_POINTS)
        if OUT_OF_SCHNEIDER in answers and not all(answers[OUT_OF_SCHNEIDER].values()):
            answers[1] = ask(1)
        if any(a is None for a in answers.values()):
            return None
        out = {}
        for card in cards:
            if reaches_61[card]:
                if not answers[SCHNEIDER_POINTS][card]:
                    out[card] = 75
                else:
                    out[card] = 120 if answers[ALL_POINTS][card] else 100
            elif answers[OUT_OF_SCHNEIDER][card]:
                out[card] = 45
            else:
                out[card] = 15 if answers[1][card] else 0
        return out
